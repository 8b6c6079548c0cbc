/**
 * Formatting shared by the benchmark report's modules (scripts/bench-report.ts
 * and scripts/bench-report-size.ts): byte and time figures, Markdown tables,
 * the machine line.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- the JSON is ours; shapes are the suites' */
/** A suite's parsed JSON: the suites define its shape. */
export type Json = any

/** Bytes as kB or MB (10^3, 10^6), or – when missing (older JSON). */
export function kb(bytes: number | undefined): string {
  if (bytes === undefined) return '–'
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(1)} kB`
}

/** Milliseconds with about three significant digits, or – when missing. */
export function ms(value: number | undefined): string {
  return value === undefined ? '–' : value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value >= 1 ? value.toFixed(2) : value.toFixed(3)
}

/** A ratio as "1.23×" (two decimals below 10). */
export function times(value: number): string {
  return `${value >= 10 ? value.toFixed(0) : value.toFixed(2)}×`
}

/** numerator ÷ denominator as a ratio, or – when either is missing or the denominator is 0. */
export function ratio(numerator: number | undefined, denominator: number | undefined): string {
  return numerator === undefined || denominator === undefined || denominator === 0 ? '–' : times(numerator / denominator)
}

// Cells may hold answers like "count|min|max|sum": a bare | would split the cell.
const escapeCell = (text: string): string => text.replaceAll('|', '\\|')

/** A Markdown table. */
export function table(header: string[], rows: string[][]): string {
  return `| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|\n${rows.map((row) => `| ${row.map(escapeCell).join(' | ')} |`).join('\n')}\n`
}

/** The machine and date a suite ran on, in one line. */
export function machineLine(result: Json): string {
  const { machine } = result
  return `${machine.cores} × ${machine.cpuModel}, Node ${machine.node}, ${machine.platform}, ${machine.date.slice(0, 16).replace('T', ' ')} UTC${machine.quick ? ' (quick run)' : ''}`
}

/** "met" / "MISSED" for a target's verdict. */
export function verdict(met: boolean): string {
  return met ? 'met' : 'MISSED'
}
