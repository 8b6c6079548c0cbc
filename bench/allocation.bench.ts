/**
 * Shows that per-value accessors and readValues allocate nothing after open:
 * millions of calls, heap growth and garbage collections counted around them.
 * Run with --expose-gc (npm run bench does).
 */
import { PerformanceObserver } from 'node:perf_hooks'
import { flushColumns, openColumns } from '../src/index.js'
import { printTable, seededRandom } from './common.js'

const DOCUMENTS = 100_000
const CALLS = 2_000_000

function makeReader(backend: 'ts' | 'wasm') {
  const random = seededRandom(3)
  const terms = ['ATL', 'BOS', 'DEN', 'LAX', 'ORD', 'SEA']
  const docs = Array.from({ length: DOCUMENTS }, (_, index) => ({
    delay: Math.floor(random() * 400) - 60,
    price: Math.round(random() * 100000) / 100,
    origin: terms[index % terms.length],
    tags: index % 3 === 0 ? [] : [index, index + 1],
    sparse: index % 5 === 0 ? index : null,
    where: { lat: random() * 180 - 90, lon: random() * 360 - 180 },
    when: 1_600_000_000_000 + index * 60_000,
  }))
  const schema = {
    fields: [
      { name: 'delay', type: 'integral', column: true },
      { name: 'price', type: 'fractional', column: true },
      { name: 'origin', type: 'keyword', facet: true },
      { name: 'tags', type: 'integral', column: true, multi: true },
      { name: 'sparse', type: 'integral', column: true },
      { name: 'where', type: 'geo_point', column: true },
      { name: 'when', type: 'date', column: true },
    ],
  }
  return openColumns(flushColumns(schema, docs)!, { backend })
}

/** Runs each accessor CALLS times on both backends; returns heap growth and GC count per accessor. */
export async function benchAllocation(): Promise<string[][]> {
  return [...await benchBackend('ts'), ...await benchBackend('wasm')]
}

async function benchBackend(backend: 'ts' | 'wasm'): Promise<string[][]> {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) throw new Error('run with node --expose-gc')
  const reader = makeReader(backend)
  const delay = reader.getColumn('delay')!, price = reader.getColumn('price')!, origin = reader.getColumn('origin')!
  const tags = reader.getColumn('tags')!, sparse = reader.getColumn('sparse')!, where = reader.getColumn('where')!
  const when = reader.getColumn('when')!
  const raw = new BigInt64Array(4096), doubles = new Float64Array(4096), ordinals = new Int32Array(4096)
  const point = new Float64Array(2)
  // A typed-array sink: a captured `let` holding a double would box a HeapNumber per update.
  const sink = new Float64Array(1)
  // Each case gets its own loop function (its own call-site feedback), like a user's hot loop;
  // one shared loop calling closures would be polymorphic and measure V8's boxing, not ours.
  const loop = (body: string) => new Function('delay', 'price', 'origin', 'tags', 'sparse', 'where', 'when', 'raw', 'doubles', 'ordinals', 'point', 'sink', 'calls',
    `for (let index = 0; index < calls; index++) { ${body} }`) as (...args: unknown[]) => void
  const cases: [string, (index: number) => void][] = ([
    ['getInt64 (dense)', `sink[0] += delay.getInt64(index % ${DOCUMENTS})`],
    ['getFloat64', `sink[0] += price.getFloat64(index % ${DOCUMENTS})`],
    ['getInt64 (date, beyond int32)', `sink[0] += when.getInt64(index % ${DOCUMENTS})`],
    ['getOrdinal', `sink[0] += origin.getOrdinal(index % ${DOCUMENTS})`],
    ['hasValue + valueCount (optional)', `const document = index % ${DOCUMENTS}; if (sparse.hasValue(document)) sink[0] += sparse.valueCount(document)`],
    ['getInt64 (optional)', `sink[0] += sparse.getInt64((index * 5) % ${DOCUMENTS})`],
    ['valueCount + getInt64 nth (multi)', `const document = index % ${DOCUMENTS}; if (tags.valueCount(document) > 1) sink[0] += tags.getInt64(document, 1)`],
    ['getGeoPoint(out)', `sink[0] += where.getGeoPoint(index % ${DOCUMENTS}, 0, point)[0]`],
    ['readValues 4096 → BigInt64Array', `delay.readValues((index * 4096) % ${DOCUMENTS - 4096}, raw)`],
    ['readValues 4096 → Float64Array', `price.readValues((index * 4096) % ${DOCUMENTS - 4096}, doubles)`],
    ['readValues 4096 → Int32Array (ordinals)', `origin.readValues((index * 4096) % ${DOCUMENTS - 4096}, ordinals)`],
  ] as const).map(([name, body]) => {
    const run = loop(body)
    return [name, (calls: number) => run(delay, price, origin, tags, sparse, where, when, raw, doubles, ordinals, point, sink, calls)]
  })
  let collections = 0
  const observer = new PerformanceObserver((list) => { collections += list.getEntries().length })
  observer.observe({ entryTypes: ['gc'] })
  const rows: string[][] = []
  for (const [name, call] of cases) {
    const calls = name.startsWith('readValues') ? CALLS / 100 : CALLS
    // Warm up until the loop runs optimised code from its first iteration: TurboFan compiles
    // concurrently, and a measured call that starts in the interpreter boxes every double.
    for (let round = 0; round < 10; round++) {
      call(calls / 8)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    gc()
    // GC entries arrive asynchronously: let the forced collection's entry land before counting.
    await new Promise((resolve) => setTimeout(resolve, 20))
    collections = 0
    const before = process.memoryUsage().heapUsed
    call(calls)
    const growth = process.memoryUsage().heapUsed - before
    await new Promise((resolve) => setTimeout(resolve, 20))
    rows.push([backend, name, String(calls), String(growth), (growth / calls).toFixed(3), String(collections)])
  }
  observer.disconnect()
  if (sink[0] === 0.5) console.log(sink[0])
  return rows
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable('Allocation after open (heap growth over the calls; GCs during them)', ['backend', 'accessor', 'calls', 'heap growth (bytes)', 'bytes/call', 'GCs'], await benchAllocation())
}
