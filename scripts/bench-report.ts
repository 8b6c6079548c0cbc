/**
 * Turns the real-data suites' JSON (bench/results/*.json; `--quick`: the quick
 * run's folder) into bench/results/results.md (tables) and SVG charts. Every
 * number printed comes from the JSON; nothing is typed in by hand.
 * `node --import tsx scripts/bench-report.ts [--quick]`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { QUICK_RESULTS_DIR, RESULTS_DIR } from '../bench/suites/paths.js'
import { type Bar, renderBarChart } from '../bench/suites/svg-chart.js'
import { type Json, kb, machineLine, ms, table, times, verdict } from './bench-report-common.js'
import { sizeChart, sizeSection, sizeTargetRows } from './bench-report-size.js'

const directory = process.argv.includes('--quick') ? QUICK_RESULTS_DIR : RESULTS_DIR

function load(suite: string): Json | null {
  const path = join(directory, `${suite}.json`)
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null
}

function decodeSection(decode: Json): string {
  let text = `## Decode every column\n\n${decode.description}\n\nMachine: ${machineLine(decode)}. Chart: [decode.svg](decode.svg).\n\n`
  text += `Dataset ${decode.dataset}: ${decode.rows.toLocaleString('en-US')} rows, ${decode.values.toLocaleString('en-US')} values, OIXK output ${kb(decode.outputBytes)} (${decode.oixkOutputs.join(', ')}); Parquet file ${kb(decode.parquetBytes)}, OIXK file ${kb(decode.oixkBytes)}.\n\n`
  text += table(['decoder', 'ms (median)', 'M values/s', '× OIXK WASM time', 'memcpy of the output ÷ this'],
    decode.results.map((r: Json) => [r.name, ms(r.medianMs), (r.valuesPerSecond / 1e6).toFixed(0), times(r.timesOixkWasm), `${(100 * r.memcpyFraction).toFixed(1)}%`]))
  text += `\nmemcpy (TypedArray.set) of ${kb(decode.memcpy.bytes)}: ${ms(decode.memcpy.medianMs)} ms (${decode.memcpy.gigabytesPerSecond.toFixed(1)} GB/s).\n`
  text += `Targets: OIXK WebAssembly ≤ ${decode.targets.oixkWasmMs} ms — ${decode.met.oixkWasmMs ? 'met' : 'MISSED'}; pure TypeScript faster than parquet-wasm — ${decode.met.oixkTsFasterThanParquetWasm ? 'met' : 'MISSED'}.\n`
  return text
}

function decodeChart(decode: Json): string {
  return renderBarChart({
    title: `Decode every column of ${decode.dataset} (${decode.values.toLocaleString('en-US')} values)`,
    subtitle: `Median ms, lower is better; memcpy of the same output bytes for scale. ${machineLine(decode)}`,
    unit: 'ms', log: true, series: ['time'],
    groups: [...decode.results.map((r: Json) => ({ label: r.name, bars: [{ series: 'time', value: r.medianMs }] })),
      { label: 'memcpy baseline', bars: [{ series: 'time', value: decode.memcpy.medianMs }] }],
  })
}

function openSection(open: Json): string {
  let text = `## Open + checksum, random access\n\n${open.description}\n\nMachine: ${machineLine(open)}.\n\n`
  text += table(['dataset', 'file', 'WASM open (copy in + check)', 'WASM open in place (FileBuffer)', 'TS open', 'memcpy of the file'], open.files.map((f: Json) => {
    const cell = (backend: string) => {
      const r = f.results.find((x: Json) => x.backend === backend)
      return r === undefined ? '–' : `${ms(r.medianMs)} ms (${r.gigabytesPerSecond.toFixed(2)} GB/s)`
    }
    return [f.dataset, kb(f.bytes), cell('wasm'), cell('wasm, in place (FileBuffer)'), cell('ts'), `${ms(f.memcpy.medianMs)} ms (${f.memcpy.gigabytesPerSecond.toFixed(1)} GB/s)`]
  }))
  text += '\n' + table(['column', 'accessor', 'calls', 'WASM ns/call', 'TS ns/call'], open.latency.map((l: Json) => {
    const ns = (backend: string) => l.results.find((x: Json) => x.backend === backend).nanosecondsPerCall.toFixed(1)
    return [`${l.dataset}.${l.column}`, l.accessor, l.results[0].calls.toLocaleString('en-US'), ns('wasm'), ns('ts')]
  }))
  return text
}

const ENGINE_ORDER = ['DuckDB table, 1 thread', 'DuckDB table, default threads', 'DuckDB on Parquet, 1 thread', 'DuckDB on Parquet, default threads', 'plain JS loop', 'OIXK WebAssembly', 'OIXK pure TypeScript', 'OIXK v2 WebAssembly', 'OIXK v2 pure TypeScript', 'OIXK pool, 2 workers, WebAssembly', 'OIXK pool, 2 workers, pure TypeScript']

/** Issue 26 on flights-3m: how many times faster than DuckDB's faster 1-thread way format 2 with WebAssembly must be. */
const V2_TIMES_DUCKDB: Record<string, number> = { 'facet origin': 4, 'range delay': 3, 'aggregate distance': 3 }

/** Target rows for format 2's answers (issue 26): each flights-3m question at most as slow as on v1, both backends; the DuckDB factors. */
function formatTwoQueryRows(queries: Json): string[][] {
  const flights = queries.datasets.find((d: Json) => d.name === 'flights-3m')
  if (flights === undefined || !flights.queries.some((q: Json) => q.results.some((r: Json) => r.engine === 'OIXK v2 WebAssembly'))) return []
  const rows: string[][] = []
  const figure = (q: Json, engine: string): number | undefined => q.results.find((r: Json) => r.engine === engine)?.medianMs
  for (const q of flights.queries) {
    const pairs = [['WebAssembly', 'OIXK WebAssembly', 'OIXK v2 WebAssembly'], ['TypeScript', 'OIXK pure TypeScript', 'OIXK v2 pure TypeScript']]
      .map(([label, v1, v2]) => ({ label, v1: figure(q, v1), v2: figure(q, v2) }))
    const measured = pairs.map(({ label, v1, v2 }) => `${label} ${ms(v2)} against ${ms(v1)} ms (${v1 === undefined || v2 === undefined ? '–' : times(v2 / v1)})`).join('; ')
    const figures = pairs.every(({ v1, v2 }) => v1 !== undefined && v2 !== undefined)
    const slower = pairs.filter(({ v1, v2 }) => v1 !== undefined && v2 !== undefined && v2 > v1).map(({ label }) => label)
    rows.push([`flights-3m: ${q.description}, OIXK v2 at most as slow as v1`, '≤ v1', measured, '',
      !figures ? 'no figure' : slower.length === 0 ? 'met' : `MISSED (${slower.join(', ')})`])
    const factor = V2_TIMES_DUCKDB[q.id]
    const wasm = q.results.find((r: Json) => r.engine === 'OIXK v2 WebAssembly')
    if (factor !== undefined && wasm?.medianMs !== undefined) {
      const duck = Math.min(...q.results.filter((r: Json) => r.engine.startsWith('DuckDB') && r.engine.endsWith('1 thread') && r.medianMs !== undefined).map((r: Json) => r.medianMs))
      rows.push([`flights-3m: ${q.description}, OIXK v2 WebAssembly against DuckDB 1 thread`, `≥ ${factor}× faster`, `${times(wasm.timesFasterThanDuckDB1)} (${ms(wasm.medianMs)} ms)`,
        `DuckDB (faster way) 1 thread: ${ms(duck)} ms; v1 ${times(q.results.find((r: Json) => r.engine === 'OIXK WebAssembly')?.timesFasterThanDuckDB1 ?? NaN)}`, verdict(wasm.timesFasterThanDuckDB1 >= factor)])
    }
  }
  return rows
}

function cell(row: Json | undefined, best: boolean): string {
  if (row === undefined) return '–'
  if (row.medianMs === undefined) return row.status.startsWith('not available') ? 'not available yet' : row.status
  const figure = best ? `${ms(row.medianMs)} (${times(row.timesFasterThanDuckDB1)})` : ms(row.medianMs)
  return row.agrees === false ? `${figure} WRONG ANSWER` : figure
}

function queriesSection(queries: Json): string {
  let text = `## Queries vs DuckDB\n\n${queries.description}\n\nMachine: ${machineLine(queries)}. Chart: [queries.svg](queries.svg).\n\n`
  text += 'Figures are ms (median); in brackets for plain JS and OIXK: how many times faster than DuckDB\'s faster 1-thread way (above 1 = faster than DuckDB).\n'
  const missing = queries.datasets.flatMap((d: Json) => d.queries.flatMap((q: Json) => q.results)).find((r: Json) => r.engine.startsWith('OIXK') && r.medianMs === undefined)
  if (missing !== undefined) text += `\nOIXK rows without a figure: ${missing.status}\n`
  for (const d of queries.datasets) {
    text += `\n### ${d.name} (${d.rows.toLocaleString('en-US')} rows${d.sampleDocuments === null ? '' : `, 10% DocSet = ${d.sampleDocuments.toLocaleString('en-US')} documents`})\n\n`
    text += table(['question', 'answer', ...ENGINE_ORDER, 'target (OIXK WASM)'], d.queries.map((q: Json) => [
      q.description, q.answer.length > 40 ? `${q.answer.slice(0, 40)}…` : q.answer,
      ...ENGINE_ORDER.map((engine) => cell(q.results.find((r: Json) => r.engine === engine), !engine.startsWith('DuckDB'))),
      q.targetMs === null ? '' : `≤ ${q.targetMs} ms: ${q.met === null ? 'no figure' : q.met ? 'met' : 'MISSED'}`,
    ]))
  }
  return text
}

function queriesChart(queries: Json): string {
  const flights = queries.datasets.find((d: Json) => d.name === 'flights-3m') ?? queries.datasets[0]
  return renderBarChart({
    title: `Queries on ${flights.name}: OIXK, plain JS and DuckDB (ms, lower is better)`,
    subtitle: `Median ms per question. ${machineLine(queries)}`,
    unit: 'ms', log: true, series: ENGINE_ORDER,
    groups: flights.queries.map((q: Json) => ({
      label: q.id.length > 30 ? `${q.id.slice(0, 29)}…` : q.id,
      bars: ENGINE_ORDER.map((engine): Bar => {
        const row = q.results.find((r: Json) => r.engine === engine)
        return { series: engine, value: row?.medianMs ?? null, note: row?.medianMs === undefined ? (row?.status.startsWith('not available') ? 'not available yet' : row?.status ?? 'n/a') : undefined }
      }),
    })),
  })
}

/** Every target the issues set, its figure and whether it was met, in one table. */
function targetsSection(size: Json | null, decode: Json | null, queries: Json | null): string {
  const rows: string[][] = []
  if (decode !== null) {
    const figure = (name: string) => decode.results.find((r: Json) => r.name === name)?.medianMs
    rows.push([`decode every column of ${decode.dataset}, OIXK WebAssembly`, `≤ ${decode.targets.oixkWasmMs} ms`, `${ms(figure('OIXK WebAssembly'))} ms (memcpy of the output alone: ${ms(decode.memcpy.medianMs)} ms)`, `DuckDB 1 thread / default threads, no copy to JS: ${ms(figure('DuckDB 1 thread, no copy to JS'))} / ${ms(figure('DuckDB default threads, no copy to JS'))} ms`, verdict(decode.met.oixkWasmMs)])
    rows.push(['OIXK pure TypeScript decode faster than parquet-wasm', '<', `${ms(figure('OIXK pure TypeScript'))} vs ${ms(figure('parquet-wasm (to Arrow)'))} ms`, '', verdict(decode.met.oixkTsFasterThanParquetWasm)])
  }
  for (const d of queries?.datasets ?? []) {
    for (const q of d.queries.filter((query: Json) => query.targetMs !== null)) {
      const wasm = q.results.find((r: Json) => r.engine === 'OIXK WebAssembly')
      const duck = (threads: string) => ms(Math.min(...q.results.filter((r: Json) => r.engine.startsWith('DuckDB') && r.engine.endsWith(threads) && r.medianMs !== undefined).map((r: Json) => r.medianMs)))
      rows.push([`${d.name}: ${q.description}, OIXK WebAssembly`, `≤ ${q.targetMs} ms`, wasm?.medianMs === undefined ? wasm?.status ?? 'no figure' : `${ms(wasm.medianMs)} ms`, `DuckDB (faster way) 1 thread / default threads: ${duck('1 thread')} / ${duck('default threads')} ms`, q.met === null ? 'no figure' : verdict(q.met)])
    }
  }
  if (queries !== null) rows.push(...formatTwoQueryRows(queries))
  if (size !== null) rows.push(...sizeTargetRows(size))
  return rows.length === 0 ? '' : `## Targets\n\n${table(['what', 'target', 'OIXK measured', 'for comparison', ''], rows)}\n`
}

const size = load('size'), decode = load('decode'), open = load('open'), queries = load('queries')
let markdown = '# Real-data benchmark results\n\nGenerated by `scripts/bench-report.ts` from the JSON files next to this one (`npm run bench`); do not edit by hand.\n\n'
markdown += targetsSection(size, decode, queries)
if (size !== null) { markdown += sizeSection(size) + '\n'; writeFileSync(join(directory, 'size.svg'), sizeChart(size)) }
if (decode !== null) { markdown += decodeSection(decode) + '\n'; writeFileSync(join(directory, 'decode.svg'), decodeChart(decode)) }
if (open !== null) markdown += openSection(open) + '\n'
if (queries !== null) { markdown += queriesSection(queries); writeFileSync(join(directory, 'queries.svg'), queriesChart(queries)) }
writeFileSync(join(directory, 'results.md'), markdown)
console.log(`wrote ${join(directory, 'results.md')} and the SVG charts`)
