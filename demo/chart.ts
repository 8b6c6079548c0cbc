/**
 * The demo's SVG histograms: one bar per bucket, built once per opened file and
 * then updated in place (a redraw sets only what changed: the demo must draw
 * within a frame), and a drag-to-select brush.
 */

const SVG = 'http://www.w3.org/2000/svg'
const CHART_WIDTH = 600, CHART_HEIGHT = 170, CHART_BOTTOM = 18

// Number.prototype.toLocaleString builds a formatter per call: a few hundred of them took milliseconds per redraw.
/** A count with thousands separators (en-US). */
export const formatCount = new Intl.NumberFormat('en-US').format

/** A chart's bars and what each shows now, so a redraw touches only the bars whose count, scale or range state changed. */
export interface Chart {
  readonly svg: SVGSVGElement
  readonly name: string
  readonly edges: readonly number[]
  readonly bars: SVGRectElement[]
  readonly titles: Text[]
  /** Each bar's title up to its count ("from to to: "). */
  readonly labels: string[]
  readonly counts: Int32Array
  readonly heights: Float64Array
  readonly inside: Uint8Array
}

/**
 * An empty chart for `edges` in `container`: bars, axis labels and a brush; a drag
 * calls onSelect with the inclusive range of the buckets it covered.
 */
export function buildChart(
  container: HTMLElement, name: string, edges: readonly number[], label: (edge: number) => string,
  onSelect: (range: [number, number]) => void,
): Chart {
  const svg = document.createElementNS(SVG, 'svg')
  svg.setAttribute('viewBox', `0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`)
  svg.setAttribute('preserveAspectRatio', 'none')
  svg.setAttribute('role', 'img')
  const buckets = edges.length - 1
  const step = CHART_WIDTH / buckets
  const chart: Chart = {
    svg, name, edges, bars: [], titles: [], labels: [],
    counts: new Int32Array(buckets).fill(-1), heights: new Float64Array(buckets).fill(-1), inside: new Uint8Array(buckets).fill(2),
  }
  for (let bucket = 0; bucket < buckets; bucket++) {
    const bar = document.createElementNS(SVG, 'rect')
    bar.setAttribute('x', String(bucket * step + 0.5))
    bar.setAttribute('width', String(Math.max(0.5, step - 1)))
    const title = document.createElementNS(SVG, 'title'), text = document.createTextNode('')
    title.append(text)
    bar.append(title)
    svg.append(bar)
    chart.bars.push(bar)
    chart.titles.push(text)
    chart.labels.push(`${label(edges[bucket])} to ${label(edges[bucket + 1])}: `)
  }
  for (const bucket of [0, Math.floor(buckets / 2), buckets]) {
    const text = document.createElementNS(SVG, 'text')
    text.setAttribute('x', String(Math.min(CHART_WIDTH - 40, bucket * step)))
    text.setAttribute('y', String(CHART_HEIGHT - 4))
    text.textContent = label(edges[bucket])
    svg.append(text)
  }
  attachBrush(svg, edges, step, onSelect)
  container.replaceChildren(svg)
  return chart
}

/** Bar heights and titles from the counts; buckets outside `range` (when there is one) are pale. */
export function renderChart(chart: Chart, counts: Uint32Array, range: readonly [number, number] | null): void {
  let total = 0, maximum = 1
  for (const count of counts) {
    total += count
    maximum = Math.max(maximum, count)
  }
  chart.svg.setAttribute('aria-label', `${chart.name} histogram: ${formatCount(total)} flights in ${counts.length} buckets; drag to select a range`)
  const edges = chart.edges
  for (let bucket = 0; bucket < counts.length; bucket++) {
    const bar = chart.bars[bucket], count = counts[bucket]
    const barHeight = ((CHART_HEIGHT - CHART_BOTTOM) * count) / maximum
    if (barHeight !== chart.heights[bucket]) {
      chart.heights[bucket] = barHeight
      bar.setAttribute('y', String(CHART_HEIGHT - CHART_BOTTOM - barHeight))
      bar.setAttribute('height', String(barHeight))
    }
    const inside = range === null || (edges[bucket] <= range[1] && edges[bucket + 1] - 1 >= range[0]) ? 1 : 0
    if (inside !== chart.inside[bucket]) {
      chart.inside[bucket] = inside
      bar.setAttribute('class', inside === 1 ? 'bar' : 'bar out')
    }
    if (count !== chart.counts[bucket]) {
      chart.counts[bucket] = count
      bar.dataset.count = String(count)
      chart.titles[bucket].data = chart.labels[bucket] + formatCount(count)
    }
  }
}

function attachBrush(svg: SVGSVGElement, edges: readonly number[], step: number, onSelect: (range: [number, number]) => void): void {
  const bucketAt = (event: PointerEvent) => {
    const box = svg.getBoundingClientRect()
    const x = ((event.clientX - box.left) / box.width) * CHART_WIDTH
    return Math.max(0, Math.min(edges.length - 2, Math.floor(x / step)))
  }
  let start = -1
  let brush: SVGRectElement | null = null
  svg.addEventListener('pointerdown', (event) => {
    start = bucketAt(event)
    svg.setPointerCapture(event.pointerId)
    brush = document.createElementNS(SVG, 'rect')
    brush.setAttribute('class', 'brush')
    brush.setAttribute('y', '0')
    brush.setAttribute('height', String(CHART_HEIGHT - CHART_BOTTOM))
    svg.append(brush)
  })
  svg.addEventListener('pointermove', (event) => {
    if (start < 0 || brush === null) return
    const end = bucketAt(event)
    brush.setAttribute('x', String(Math.min(start, end) * step))
    brush.setAttribute('width', String((Math.abs(end - start) + 1) * step))
  })
  svg.addEventListener('pointerup', (event) => {
    if (start < 0) return
    const end = bucketAt(event)
    brush?.remove()
    brush = null
    const [first, last] = [Math.min(start, end), Math.max(start, end)]
    start = -1
    // Buckets are [edge, next edge): the inclusive range ends one unit before the next edge.
    onSelect([edges[first], edges[last + 1] - 1])
  })
}
