/**
 * Query kernels on whole columns of build/flights-3m.oixk (3,000,000 dense
 * documents), WebAssembly against TypeScript: facet counts of origin, the
 * delay ∈ [10, 60] range filter into a 3M-bit bitset, the aggregate of
 * distance and a per-day histogram of date. Kernel-level calls (no DocSet or
 * Column layer). Run: node --expose-gc --import tsx bench/query-kernels.bench.ts
 */
import { existsSync, readFileSync } from 'node:fs'
import type { ColumnsBackend, SequenceView } from '../src/backend/backend.js'
import { createAggregateState } from '../src/backend/query-kernels.js'
import { typeScriptBackend } from '../src/backend/ts/index.js'
import { createWasmBackend } from '../src/backend/wasm/index.js'
import { openColumns } from '../src/read/open.js'
import { measure, printTable } from './common.js'

const PATH = 'build/flights-3m.oixk'
const DAY_MS = 86_400_000
const EXPECTED_DELAY_MATCHES = 657_373

if (!existsSync(PATH)) throw new Error(`${PATH} is missing: run npm start first`)
const bytes = readFileSync(PATH)

/** Whether the TS kernels exist yet (the seam's placeholder throws). */
function tsKernelsReady(): boolean {
  try {
    typeScriptBackend.query.allocateBitset(1).release()
    return true
  } catch {
    return false
  }
}

const pair = (value: number) => [value | 0, Math.floor(value / 2 ** 32)]

/** The four kernel calls over one backend's reader, as benchmark tasks. */
function tasksFor(label: string, backend: ColumnsBackend) {
  const reader = openColumns(bytes, { fileName: PATH, backend })
  const sequence = (name: string): SequenceView => {
    const column = reader.getColumn(name)
    if (column === null) throw new Error(`${PATH} has no column ${name}`)
    return column.values
  }
  const origin = sequence('origin'), delay = sequence('delay'), distance = sequence('distance'), date = sequence('date')
  const kernels = backend.query
  const counts = new Uint32Array(reader.getColumn('origin')!.dictionary!.termCount)
  const out = kernels.allocateBitset((delay.count + 31) >>> 5)
  const bounds = Int32Array.from([...pair(10), ...pair(60)])
  // Per-day edges over the date column's span (from an aggregate: raw ms since 1970).
  const span = createAggregateState()
  kernels.aggregate(date, 0, date.count, 'integer', null, 0, span)
  const lowValue = span.words[1] * 2 ** 32 + (span.words[0] >>> 0)
  const highValue = span.words[3] * 2 ** 32 + (span.words[2] >>> 0)
  const firstDay = Math.floor(lowValue / DAY_MS), lastDay = Math.floor(highValue / DAY_MS) + 1
  const edges = new Int32Array(2 * (lastDay - firstDay + 1))
  for (let day = firstDay; day <= lastDay; day++) edges.set(pair(day * DAY_MS), 2 * (day - firstDay))
  const days = new Uint32Array(lastDay - firstDay)
  // One checked call each, so a wrong kernel cannot post a figure.
  out.words.fill(0)
  const matched = kernels.matchRange(delay, 0, delay.count, bounds, null, 0, out, 0)
  if (matched !== EXPECTED_DELAY_MATCHES) throw new Error(`${label}: delay in [10, 60] matched ${matched}, not ${EXPECTED_DELAY_MATCHES}`)
  kernels.countValues(origin, 0, origin.count, null, 0, counts)
  if (counts.reduce((a, b) => a + b, 0) !== origin.count) throw new Error(`${label}: origin counts do not add up`)
  kernels.histogram(date, 0, date.count, edges, null, 0, days)
  if (days.reduce((a, b) => a + b, 0) !== date.count) throw new Error(`${label}: the per-day histogram does not add up`)
  const checks = { counts: Array.from(counts), days: Array.from(days), span: Array.from(span.words) }
  return {
    checks,
    reader,
    tasks: [
      { name: `${label} facet origin (${counts.length} terms)`, itemsPerCall: origin.count, run: () => { counts.fill(0); kernels.countValues(origin, 0, origin.count, null, 0, counts) } },
      { name: `${label} range delay [10, 60]`, itemsPerCall: delay.count, run: () => { kernels.matchRange(delay, 0, delay.count, bounds, null, 0, out, 0) } },
      { name: `${label} aggregate distance`, itemsPerCall: distance.count, run: () => { kernels.aggregate(distance, 0, distance.count, 'integer', null, 0, createAggregateState()) } },
      { name: `${label} histogram date (${days.length} days)`, itemsPerCall: date.count, run: () => { days.fill(0); kernels.histogram(date, 0, date.count, edges, null, 0, days) } },
    ],
  }
}

const wasm = tasksFor('wasm', createWasmBackend())
const ts = process.argv.includes('--wasm-only') || !tsKernelsReady() ? null : tasksFor('ts', typeScriptBackend)
if (ts !== null && JSON.stringify(ts.checks) !== JSON.stringify(wasm.checks)) throw new Error('the TS and WebAssembly kernels disagree on flights-3m')

const results = await measure([...wasm.tasks, ...(ts?.tasks ?? [])])
const byName = new Map(results.map((result) => [result.name, result]))
const rows = wasm.tasks.map((task, index) => {
  const mine = byName.get(task.name)!
  const other = ts === null ? undefined : byName.get(ts.tasks[index].name)
  return [
    task.name.slice(5), mine.millisecondsPerCall.toFixed(3),
    other === undefined ? '-' : other.millisecondsPerCall.toFixed(3),
    other === undefined ? '-' : `${(other.millisecondsPerCall / mine.millisecondsPerCall).toFixed(1)}×`,
  ]
})
printTable('Query kernels on flights-3m (3,000,000 values per column; median ms per call)', ['kernel', 'wasm ms', 'ts ms', 'ts / wasm'], rows)
wasm.reader.close()
ts?.reader.close()
