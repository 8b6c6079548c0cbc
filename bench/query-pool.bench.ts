/**
 * `npm run bench:pool`: issue 5's queries on flights-3m, and issue 27's on a multi-valued
 * column (1M documents, 0-3 values each; format 1 and 2 files), single-threaded (the
 * Column API) against the worker pool with 1 and 2 workers, per backend.
 * Median (and fastest) ms per query after a warm-up; speedup = single-threaded / pool medians.
 * Every answer is checked against the single-threaded one before timing.
 * Both backends' workers read the one shared copy of the file (wasm: in the
 * pool's shared WebAssembly.Memory); the second table is the cost of opening
 * the file once more in the warm 2-worker pool.
 * The machine has 2 cores, so 2 workers can at best halve the time, and any
 * other load on the cores shows in these figures.
 */
import { readFileSync } from 'node:fs'
import { availableParallelism, cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { createQueryPool, type PooledSegment, type QueryPool } from '../src/node/query-pool.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { printTable } from './common.js'
import { multiValuedDocuments } from './multi-documents.js'
import { flushColumns } from '../src/write/columns-writer.js'

const FILE = fileURLToPath(new URL('../build/flights-3m.oixk', import.meta.url))
const DAY_MS = 86_400_000
const DELAYED = 657_373

/** One query: the single-threaded call and the pooled one, answers as comparable strings. */
interface PoolCase {
  name: string
  single: (reader: ColumnsReader) => string
  pooled: (segment: PooledSegment) => Promise<string>
}

const counted = (set: DocSet): string => {
  const count = String(set.count())
  set.release()
  return count
}

/** Every 10th document, as the reader's DocSet and as a pooled one (the same ids). */
function tenPercent(reader: ColumnsReader, segments: PooledSegment[]): { single: DocSet; pooled: Map<PooledSegment, DocSet> } {
  const ids = Array.from({ length: Math.ceil(reader.maxDoc / 10) }, (_, index) => index * 10)
  return { single: DocSet.fromDocuments(reader, ids), pooled: new Map(segments.map((segment) => [segment, DocSet.fromDocuments(segment, ids)])) }
}

/** An answer as comparable text: bigints as decimal strings, count arrays as plain arrays. */
const json = (value: unknown) => JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v instanceof Uint32Array ? Array.from(v) : v))

/** facetCounts of `field` over every document and over a 10% DocSet, single-threaded and pooled. */
function facetCases(field: string, label: string, tenth: ReturnType<typeof tenPercent>): PoolCase[] {
  return [
    { name: `facet ${label}`, single: (r) => json(r.getColumn(field)!.facetCounts()), pooled: async (s) => json(await s.facetCounts(field)) },
    {
      name: `facet ${label} over a 10% DocSet`,
      single: (r) => json(r.getColumn(field)!.facetCounts(tenth.single)),
      pooled: async (s) => json(await s.facetCounts(field, tenth.pooled.get(s))),
    },
  ]
}

function cases(reader: ColumnsReader, segments: PooledSegment[]): PoolCase[] {
  const tenth = tenPercent(reader, segments)
  const date = reader.getColumn('date')!
  const start = Math.floor(Number(date.minRaw) / DAY_MS) * DAY_MS
  const days = Math.floor(Number(date.maxRaw) / DAY_MS) - start / DAY_MS + 1
  const edges = Array.from({ length: days + 1 }, (_, day) => start + day * DAY_MS)
  return [
    ...facetCases('origin', 'origin', tenth),
    {
      name: 'rangeFilter delay [10, 60], then facet origin',
      single: (r) => {
        const delayed = r.getColumn('delay')!.rangeFilter(10, 60)
        const counts = r.getColumn('origin')!.facetCounts(delayed)
        delayed.release()
        return json(counts)
      },
      pooled: async (s) => json(await s.facetCounts('origin', await s.rangeFilter('delay', 10, 60))),
    },
    {
      name: `rangeFilter delay [10, 60] (count ${DELAYED.toLocaleString('en-US')})`,
      single: (r) => counted(r.getColumn('delay')!.rangeFilter(10, 60)),
      pooled: async (s) => counted(await s.rangeFilter('delay', 10, 60)),
    },
    { name: 'aggregate distance', single: (r) => json(r.getColumn('distance')!.aggregate()), pooled: async (s) => json(await s.aggregate('distance')) },
    {
      name: `histogram date per day (${days} buckets)`,
      single: (r) => json(r.getColumn('date')!.histogram(edges)),
      pooled: async (s) => json(await s.histogram('date', edges)),
    },
  ]
}

/** Issue 27's questions on a multi-valued column of 1,000,000 documents with 0-3 values each (bench/multi-documents.ts). */
function multiCases(reader: ColumnsReader, segments: PooledSegment[]): PoolCase[] {
  const tenth = tenPercent(reader, segments)
  return [
    ...facetCases('tags_small', 'tags (multi)', tenth),
    {
      name: "termFilter tags (multi) ['tag3', 'tag7']",
      single: (r) => counted(r.getColumn('tags_small')!.termFilter(['tag3', 'tag7'])),
      pooled: async (s) => counted(await s.termFilter('tags_small', ['tag3', 'tag7'])),
    },
    {
      name: 'rangeFilter nums (multi) [10, 60]',
      single: (r) => counted(r.getColumn('nums_small')!.rangeFilter(10, 60)),
      pooled: async (s) => counted(await s.rangeFilter('nums_small', 10, 60)),
    },
  ]
}

/** Median and fastest ms of `run` after warm-up: at least `minimum` timed calls, more while under `budget` ms. */
async function timeMs(run: () => unknown, minimum = 15, budget = 1500): Promise<{ median: number; best: number }> {
  for (let warm = 0; warm < 10; warm++) await run()
  const times: number[] = []
  const end = performance.now() + budget
  while (times.length < minimum || (performance.now() < end && times.length < 200)) {
    const start = performance.now()
    await run()
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  return { median: times[times.length >> 1], best: times[0] }
}

const SPIN = `const { parentPort } = require('node:worker_threads')
parentPort.on('message', (ms) => { const end = performance.now() + ms; let n = 0; while (performance.now() < end) n++; parentPort.postMessage(n) })`

/**
 * How many cores this process could actually use right now: loop iterations two
 * spinning workers manage together over those one worker manages alone (2.0 on
 * two idle cores; other processes on the cores bring it down).
 */
async function parallelCapacity(): Promise<number> {
  const workers = [new Worker(SPIN, { eval: true }), new Worker(SPIN, { eval: true })]
  const spin = (worker: Worker): Promise<number> => new Promise((resolve) => {
    worker.once('message', resolve)
    worker.postMessage(150)
  })
  try {
    await Promise.all(workers.map(spin))
    const alone = await spin(workers[0])
    const together = (await Promise.all(workers.map(spin))).reduce((a, b) => a + b, 0)
    return together / alone
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()))
  }
}

const MB = (bytes: number): string => (bytes / 1e6).toFixed(1)

/** Opens the file once more in a warm pool: ms, process RSS growth (workers included) and the shared kernel memory's growth. */
async function openCost(backend: string, pool: QueryPool, bytes: Uint8Array): Promise<string[]> {
  const rss = process.memoryUsage().rss
  const kernelBytes = (): number => pool.kernelMemory?.memory.buffer.byteLength ?? 0
  const kernelBefore = kernelBytes()
  const start = performance.now()
  const segment = await pool.open(bytes, { fileName: 'flights-3m (again)' })
  const ms = performance.now() - start
  const row = [backend, ms.toFixed(0), MB(process.memoryUsage().rss - rss), pool.kernelMemory === null ? '-' : MB(kernelBytes() - kernelBefore)]
  await segment.close()
  return row
}

/** Each question single-threaded and through pools of 1 and 2 workers, answers checked: a row per question. */
async function timeSuite(
  label: string, bytes: Uint8Array, backend: 'ts' | 'wasm', makeCases: (reader: ColumnsReader, segments: PooledSegment[]) => PoolCase[], rows: string[][],
): Promise<QueryPool> {
  const reader = openColumns(bytes, { backend })
  const pools = [1, 2].map((threads) => ({ threads, pool: createQueryPool({ threads, backend }) }))
  const segments = await Promise.all(pools.map(async ({ threads, pool }) => ({ threads, segment: await pool.open(bytes, { fileName: label }) })))
  for (const query of makeCases(reader, segments.map(({ segment }) => segment))) {
    const expected = query.single(reader)
    if (query.name.startsWith('rangeFilter delay [10, 60] (count') && expected !== String(DELAYED)) throw new Error(`rangeFilter count ${expected}, expected ${DELAYED}`)
    const single = await timeMs(() => query.single(reader))
    const row = [backend, label, query.name, `${single.median.toFixed(2)} (${single.best.toFixed(2)})`]
    for (const { segment } of segments) {
      const got = await query.pooled(segment)
      if (got !== expected) throw new Error(`${query.name}: pool answered differently (${got.slice(0, 80)} vs ${expected.slice(0, 80)})`)
      const pooled = await timeMs(() => query.pooled(segment))
      row.push(`${pooled.median.toFixed(2)} (${pooled.best.toFixed(2)})`, `${(single.median / pooled.median).toFixed(2)}×`)
    }
    rows.push(row)
  }
  reader.close()
  await pools[0].pool.close()
  return pools[1].pool
}

async function main(): Promise<void> {
  const bytes = readFileSync(FILE)
  const backends: ('ts' | 'wasm')[] = wasmUnavailableReason() === null ? ['ts', 'wasm'] : ['ts']
  const rows: string[][] = []
  const opens: string[][] = []
  console.log(`query pool on ${FILE}: node ${process.version}, ${availableParallelism()} × ${cpus()[0]?.model ?? 'unknown CPU'}`)
  const { schema, docs } = multiValuedDocuments(1_000_000)
  const multiFiles = ([1, 2] as const).map((format) => ({ format, bytes: flushColumns(schema as never, docs as never, { format })! }))
  const capacityBefore = await parallelCapacity()
  for (const backend of backends) {
    const pool = await timeSuite('flights-3m', bytes, backend, cases, rows)
    opens.push(await openCost(backend, pool, bytes))
    await pool.close()
    for (const { format, bytes: multiBytes } of multiFiles) await (await timeSuite(`multi 0-3, v${format}`, multiBytes, backend, multiCases, rows)).close()
  }
  printTable(
    'Worker pool vs single-threaded: median (fastest) ms per query; speedup = median single / median pool; 2 shared cores: noisy',
    ['backend', 'file', 'query', 'single ms', 'pool×1 ms', 'speedup', 'pool×2 ms', 'speedup'],
    rows,
  )
  printTable(
    `Opening flights-3m (${MB(bytes.length)} MB) once more in the warm 2-worker pool`,
    ['backend', 'ms', 'process RSS growth MB', 'shared kernel memory growth MB'],
    opens,
  )
  const capacityAfter = await parallelCapacity()
  console.log(`\nParallel capacity (work of 2 spinning threads / 1): ${capacityBefore.toFixed(2)}× before, ${capacityAfter.toFixed(2)}× after; `
    + `load average ${loadavg().map((load) => load.toFixed(1)).join(' ')}`)
}

await main()
