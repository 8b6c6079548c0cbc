/**
 * Micro-bench of the query API on the pure-TypeScript backend over
 * build/flights-3m.oixk (run `npm start` first if it is missing):
 * node --import tsx bench/query-ts.bench.ts [ts|wasm]
 */
import { readFileSync } from 'node:fs'
import { openColumns } from '../src/read/open.js'
import { measure, printTable, seededRandom } from './common.js'

const backend = (process.argv[2] ?? 'ts') as 'ts' | 'wasm'
const reader = openColumns(readFileSync('build/flights-3m.oixk'), { backend })
const column = (name: string) => {
  const found = reader.getColumn(name)
  if (found === null) throw new Error(`flights-3m has no column ${name}`)
  return found
}
const origin = column('origin'), delay = column('delay'), distance = column('distance'), date = column('date')

const random = seededRandom(10)
const tenPercent = reader.createDocSet()
for (let document = 0; document < reader.maxDoc; document++) if (random() < 0.1) tenPercent.add(document)

const delayed = delay.rangeFilter(10, 60)
const delayedCount = delayed.count()
if (delayedCount !== 657373) throw new Error(`rangeFilter(delay, 10, 60) counts ${delayedCount}, expected 657373`)

// One edge per UTC day over the column's range.
const DAY = 86_400_000
const first = Math.floor(Number(date.minRaw) / DAY) * DAY, last = Number(date.maxRaw)
const days: number[] = []
for (let edge = first; edge <= last + DAY; edge += DAY) days.push(edge)

const counts = new Uint32Array(origin.dictionary!.termCount)
const out = reader.createDocSet()
const maxDoc = reader.maxDoc
const results = await measure([
  { name: 'facetCounts(origin) all docs', itemsPerCall: maxDoc, run: () => origin.facetCounts(undefined, counts) },
  { name: 'facetCounts(origin) 10% DocSet', itemsPerCall: maxDoc, run: () => origin.facetCounts(tenPercent, counts) },
  { name: 'rangeFilter(delay, 10, 60)', itemsPerCall: maxDoc, run: () => delay.rangeFilter(10, 60, undefined, out) },
  { name: 'aggregate(distance)', itemsPerCall: maxDoc, run: () => distance.aggregate() },
  { name: `histogram(date, ${days.length - 1} days)`, itemsPerCall: maxDoc, run: () => date.histogram(days) },
  { name: 'topK(delay, 10, descending)', itemsPerCall: maxDoc, run: () => delay.topK(10, 'descending') },
  { name: 'termFilter(origin, 3 terms)', itemsPerCall: maxDoc, run: () => origin.termFilter(['SEA', 'LAX', 'ORD'], undefined, out) },
  { name: 'filter then facet (delay 10..60 → origin)', itemsPerCall: maxDoc, run: () => origin.facetCounts(delay.rangeFilter(10, 60, undefined, out), counts) },
])
printTable(
  `Query API on flights-3m (${maxDoc} documents), ${backend} backend; rangeFilter count ${delayedCount}`,
  ['query', 'ms per call', 'documents/s'],
  results.map((result) => [result.name, result.millisecondsPerCall.toFixed(3), `${(result.itemsPerSecond / 1e6).toFixed(0)} M/s`]),
)
reader.close()
