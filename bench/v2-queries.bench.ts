/**
 * flights-3m's questions on its format 1 and format 2 files side by side (issue: answers straight
 * from v2 encodings), one tinybench run in rounds, both backends: every question on v2 at most as
 * slow as on v1 (the target; the ratio v2 / v1 is printed beside each), plus the decode of all five
 * columns and the open (checksum and structure) of each file. DuckDB's figures for the same
 * questions are the queries suite's (bench/suites/queries.ts, bench/results/results.md).
 * Needs build/flights-3m.oixk (npm start). `node --expose-gc --import tsx bench/v2-queries.bench.ts`.
 */
import { existsSync, readFileSync } from 'node:fs'
import { type BackendName, DocSet, mergeColumns, openColumns } from '../src/index.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { type Measured, measureRounds, printTable } from './common.js'

const PATH = 'build/flights-3m.oixk'
const ROUNDS = 5
const TIME = 300

if (!existsSync(PATH)) {
  console.error(`${PATH} is missing: run npm start first`)
  process.exit(2)
}
const v1Bytes = new Uint8Array(readFileSync(PATH))
const v2Bytes = (() => {
  using source = openColumns(v1Bytes, { backend: 'ts' })
  return mergeColumns([{ reader: source, docMap: Int32Array.from({ length: source.maxDoc }, (_, d) => d) }], { maxDoc: source.maxDoc, format: 2 })!
})()
console.log(`flights-3m: format 1 ${v1Bytes.length.toLocaleString('en-US')} bytes, format 2 ${v2Bytes.length.toLocaleString('en-US')} bytes`)

const DAY = 86_400_000
const TWELVE_AIRPORTS = ['ATL', 'BOS', 'DEN', 'DFW', 'IAH', 'JFK', 'LAX', 'MIA', 'ORD', 'PHX', 'SEA', 'SFO']

/** The questions of the queries suite (facets, filters, aggregates, histograms), then a few more, on one reader. */
function questions(reader: ColumnsReader): [string, () => unknown][] {
  const origin = reader.getColumn('origin')!, delay = reader.getColumn('delay')!, distance = reader.getColumn('distance')!, date = reader.getColumn('date')!
  // A fixed 10% of documents (every tenth), and day edges over the date range.
  const sample = DocSet.fromDocuments(reader, Array.from({ length: Math.ceil(reader.maxDoc / 10) }, (_, index) => 10 * index))
  const first = Math.floor(Number(date.minRaw) / DAY) * DAY, last = Math.floor(Number(date.maxRaw) / DAY) * DAY + DAY
  const days = Array.from({ length: (last - first) / DAY + 1 }, (_, index) => first + index * DAY)
  const steps = Array.from({ length: 21 }, (_, index) => -60 + 15 * index)
  const counts = new Uint32Array(origin.dictionary!.termCount)
  return [
    ['facet origin', () => origin.facetCounts(undefined, counts)],
    ['facet origin, 10% DocSet', () => origin.facetCounts(sample, counts)],
    ['range delay [10, 60] count', () => { using docs = delay.rangeFilter(10, 60); return docs.count() }],
    ['aggregate distance', () => distance.aggregate()],
    ['histogram per day (date)', () => date.histogram(days)],
    ['histogram delay, 15-minute steps', () => delay.histogram(steps)],
    ['filter delay then facet origin', () => { using docs = delay.rangeFilter(10, 60); return origin.facetCounts(docs, counts) }],
    ['term filter origin ORD', () => { using docs = origin.termFilter('ORD'); return docs.count() }],
    // Beyond the queries suite: twelve airports (more ordinal runs than a pass each), a date range
    // (run blocks) and topK over each kind of sequence.
    ['term filter origin, 12 airports', () => { using docs = origin.termFilter(TWELVE_AIRPORTS); return docs.count() }],
    ['range date, 30 days, count', () => { using docs = date.rangeFilter(first + 20 * DAY, first + 50 * DAY - 1); return docs.count() }],
    ['topK 10 latest dates', () => date.topK(10, 'descending')],
    ['topK 10 shortest distances', () => distance.topK(10, 'ascending')],
    ['topK 10 largest delays', () => delay.topK(10, 'descending')],
  ]
}

const readers: Record<string, ColumnsReader> = {}
for (const backend of ['wasm', 'ts'] as BackendName[]) {
  readers[`v1 ${backend}`] = openColumns(v1Bytes, { backend })
  readers[`v2 ${backend}`] = openColumns(v2Bytes, { backend })
}
// Same answers first: a benchmark of different answers says nothing.
const names = questions(readers['v1 wasm']).map(([name]) => name)
for (const name of names) {
  const answer = (label: string) => JSON.stringify(questions(readers[label]).find(([candidate]) => candidate === name)![1](), (_, value) => (typeof value === 'bigint' ? String(value) : ArrayBuffer.isView(value) ? Array.from(value as Uint32Array) : value))
  const expected = answer('v1 wasm')
  for (const label of Object.keys(readers)) if (answer(label) !== expected) throw new Error(`${name}: ${label} answers differently from v1 wasm`)
}

// Each question's four cells side by side in the run (format 1 beside format 2), so that a burst
// from a neighbour on the machine falls on both formats alike rather than on one of them.
const tasks: Measured[] = []
const asked = Object.fromEntries(Object.keys(readers).map((label) => [label, questions(readers[label])]))
names.forEach((name, index) => {
  for (const label of Object.keys(readers)) tasks.push({ name: `${label}|${name}`, itemsPerCall: 1, run: asked[label][index][1] })
})
// Decode of all five columns into preallocated arrays, and open (checksum + structure) of each file.
for (const backend of ['wasm', 'ts'] as BackendName[]) {
  for (const [format, bytes] of [['v1', v1Bytes], ['v2', v2Bytes]] as const) {
    const reader = readers[`${format} ${backend}`]
    const destinations = reader.columns.map((column) => new BigInt64Array(column.valueCount()))
    tasks.push({ name: `${format} ${backend}|decode all five columns`, itemsPerCall: 1, run: () => reader.columns.forEach((column, index) => column.readValues(0, destinations[index])) })
    tasks.push({ name: `${format} ${backend}|open (checksum and structure)`, itemsPerCall: 1, run: () => openColumns(bytes, { backend }).close() })
  }
}
const measured = await measureRounds(tasks, ROUNDS, TIME, 5)
const ms = (label: string, name: string) => measured.find((entry) => entry.name === `${label}|${name}`)!.millisecondsPerCall
const rows = [...names, 'decode all five columns', 'open (checksum and structure)'].map((name) => {
  const cells = [name]
  for (const backend of ['wasm', 'ts']) {
    const v1 = ms(`v1 ${backend}`, name), v2 = ms(`v2 ${backend}`, name)
    cells.push(v1.toFixed(2), v2.toFixed(2), `${(v2 / v1).toFixed(2)}${v2 <= v1 ? ' ok' : ''}`)
  }
  return cells
})
printTable(`flights-3m, median ms of ${ROUNDS} rounds (v2 / v1: target ≤ 1)`, ['question', 'v1 wasm', 'v2 wasm', 'v2/v1', 'v1 ts', 'v2 ts', 'v2/v1'], rows)
for (const reader of Object.values(readers)) reader.close()
