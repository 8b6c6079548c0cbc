/**
 * A small horizontal grouped bar chart as standalone SVG, for the benchmark
 * report: one group per row label, one bar per series, linear or log scale,
 * the value printed at the end of each bar (or a note where there is none).
 */

/** One bar: its value, or null with a note ("not available yet"). */
export interface Bar {
  series: string
  value: number | null
  note?: string
}

/** A chart: groups of bars, the series' order and colour, the axis. */
export interface BarChart {
  title: string
  subtitle?: string
  unit: string
  series: string[]
  groups: { label: string; bars: Bar[] }[]
  log?: boolean
  /** A value to mark with a dark line (e.g. 1 on a ratio axis). */
  reference?: number
  /** Formats a value for its label. */
  format?: (value: number) => string
}

const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf']
const BAR = 12, GAP = 2, GROUP_GAP = 10, LABEL = 260, PLOT = 520, RIGHT = 190, TOP = 56, LEGEND_COLUMNS = 3

function escape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')
}

/** Renders the chart; scale from the largest value (log: from the smallest positive one). */
export function renderBarChart(chart: BarChart): string {
  const format = chart.format ?? ((value: number) => value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toPrecision(2))
  const values = chart.groups.flatMap((group) => group.bars.map((bar) => bar.value)).filter((value): value is number => value !== null && value > 0)
  const max = Math.max(...values, 1e-9)
  const min = Math.min(...values, max)
  const logLow = Math.floor(Math.log10(min)), logHigh = Math.max(logLow + 1, Math.ceil(Math.log10(max)))
  const scale = (value: number): number => chart.log
    ? Math.max(1, ((Math.log10(value) - logLow) / Math.max(1, logHigh - logLow)) * PLOT)
    : (value / max) * PLOT
  // One series needs no legend.
  const legend = chart.series.length > 1 ? chart.series : []
  const legendRows = Math.ceil(legend.length / LEGEND_COLUMNS)
  let y = TOP + legendRows * 16
  const parts: string[] = []
  legend.forEach((series, index) => {
    const x = 10 + (index % LEGEND_COLUMNS) * 250, rowY = TOP - 8 + Math.floor(index / LEGEND_COLUMNS) * 16
    parts.push(`<rect x="${x}" y="${rowY - 9}" width="10" height="10" fill="${COLORS[index % COLORS.length]}"/><text x="${x + 14}" y="${rowY}" class="small">${escape(series)}</text>`)
  })
  const plotTop = y
  for (const group of chart.groups) {
    const height = group.bars.length * (BAR + GAP)
    parts.push(`<text x="${LABEL - 8}" y="${y + height / 2 + 4}" text-anchor="end">${escape(group.label)}</text>`)
    for (const bar of group.bars) {
      const color = COLORS[Math.max(0, chart.series.indexOf(bar.series)) % COLORS.length]
      if (bar.value === null) {
        parts.push(`<text x="${LABEL + 4}" y="${y + BAR - 2}" class="small" fill="${color}">${escape(`${bar.series}: ${bar.note ?? 'no figure'}`)}</text>`)
      } else {
        const width = scale(bar.value)
        parts.push(`<rect x="${LABEL}" y="${y}" width="${width.toFixed(1)}" height="${BAR}" fill="${color}"><title>${escape(`${bar.series}: ${format(bar.value)} ${chart.unit}`)}</title></rect>`)
        parts.push(`<text x="${(LABEL + width + 4).toFixed(1)}" y="${y + BAR - 2}" class="small">${escape(format(bar.value))}${bar.note ? ` ${escape(bar.note)}` : ''}</text>`)
      }
      y += BAR + GAP
    }
    y += GROUP_GAP
  }
  // Axis ticks: decades on a log scale, fifths on a linear one.
  const ticks = chart.log
    ? Array.from({ length: logHigh - logLow + 1 }, (_, index) => 10 ** (logLow + index))
    : Array.from({ length: 6 }, (_, index) => (max * index) / 5)
  const axis = ticks.map((tick) => {
    const x = LABEL + (chart.log ? scale(tick) : (tick / max) * PLOT)
    return `<line x1="${x.toFixed(1)}" y1="${plotTop - 4}" x2="${x.toFixed(1)}" y2="${y}" stroke="#ddd"/><text x="${x.toFixed(1)}" y="${y + 14}" text-anchor="middle" class="small">${escape(format(tick))}</text>`
  })
  if (chart.reference !== undefined) {
    const x = LABEL + scale(chart.reference)
    axis.push(`<line x1="${x.toFixed(1)}" y1="${plotTop - 4}" x2="${x.toFixed(1)}" y2="${y}" stroke="#333" stroke-dasharray="4 2"/>`)
  }
  const height = y + 40
  const width = LABEL + PLOT + RIGHT
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">
<style>.small{font-size:10px}</style>
<rect width="100%" height="100%" fill="white"/>
<text x="10" y="20" font-size="15" font-weight="bold">${escape(chart.title)}</text>
${chart.subtitle ? `<text x="10" y="36" class="small">${escape(chart.subtitle)}</text>` : ''}
${axis.join('\n')}
${parts.join('\n')}
<text x="${LABEL + PLOT / 2}" y="${y + 30}" text-anchor="middle" class="small">${escape(`${chart.unit}${chart.log ? ' (log scale)' : ''}`)}</text>
</svg>
`
}
