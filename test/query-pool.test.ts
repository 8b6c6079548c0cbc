/**
 * The worker pool against the single-threaded Column API: on random files of
 * every type × layout and DocSets of several densities (pooled in shared memory,
 * or a reader's, copied once), with 1, 2 and 3 workers, counts, DocSet words,
 * aggregates and histograms are equal exactly. Errors raised in a worker reach
 * the caller with their class and message; close() ends the workers.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { CorruptIndexException } from '../src/format/errors.js'
import { DocSet } from '../src/kernels/doc-set.js'
import type { Column } from '../src/read/column.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { splitDocuments } from '../src/node/query-merge.js'
import { createQueryPool, type PooledSegment, type QueryPool } from '../src/node/query-pool.js'
import { denseFile, randomInteger } from './helpers/dense-file.js'
import { MAX_INT64, randomDocuments } from './helpers/random-columns.js'
import { seededRandom } from './helpers/random.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const FILES = [{ seed: 21, maxDoc: 37 }, { seed: 22, maxDoc: 2077 }, { seed: 23, maxDoc: 3100 }, { seed: 24, maxDoc: 5200 }]

function randomFile(seed: number, maxDoc: number, format: 1 | 2 = 1): Uint8Array {
  const random = seededRandom(seed)
  const { schema, docs } = randomDocuments(random, maxDoc)
  return flushColumns(schema, docs, { format })!
}

/** Filters: none, empty, 10% as the reader's DocSet (the pool copies it), 50% and all as pooled DocSets. */
function filters(reader: ColumnsReader, segment: PooledSegment, seed: number): { name: string; single?: DocSet; pooled?: DocSet }[] {
  const random = seededRandom(seed)
  const sample = (p: number) => Array.from({ length: reader.maxDoc }, (_, d) => d).filter(() => random() < p)
  const tenth = sample(0.1), half = sample(0.5)
  const readerTenth = DocSet.fromDocuments(reader, tenth)
  return [
    { name: 'all (undefined)' },
    { name: 'empty', single: reader.createDocSet(), pooled: segment.createDocSet() },
    { name: '10% (reader DocSet)', single: readerTenth, pooled: readerTenth },
    { name: '50% (pooled DocSet)', single: DocSet.fromDocuments(reader, half), pooled: DocSet.fromDocuments(segment, half) },
    { name: 'all (pooled DocSet)', single: reader.allDocuments(), pooled: segment.allDocuments() },
  ]
}

/** Raw bounds inside the column's range (bigint: raw SortableBits for fractional, ordinals for keyword). */
function quartiles(column: Column): bigint[] {
  const span = column.maxRaw - column.minRaw
  return [column.minRaw, column.minRaw + span / 4n, column.minRaw + span / 2n, column.minRaw + (3n * span) / 4n, column.maxRaw]
}

function words(set: DocSet): number[] {
  return Array.from(set.words)
}

/** The single-threaded fractional sum the pool defines: each range's in-order sum, added range after range. */
function rangeOrderSum(reader: ColumnsReader, column: Column, ids: DocSet | undefined, threads: number): number {
  let sum = 0
  for (const { from, to } of splitDocuments(reader.maxDoc, threads)) {
    const inRange = reader.createDocSet()
    for (let document = from; document < to; document++) if (ids === undefined || ids.has(document)) inRange.add(document)
    const part = column.aggregate(inRange)
    if (part.count > 0) sum += part.sum as number
    inRange.release()
  }
  return sum
}

async function checkColumn(reader: ColumnsReader, segment: PooledSegment, column: Column, threads: number, seed: number): Promise<void> {
  const field = column.name
  const type = column.type
  for (const { name, single, pooled } of filters(reader, segment, seed)) {
    const at = `${field} with ${name}, ${threads} worker(s)`
    if (type === 'keyword' || type === 'bool') {
      expect(await segment.facetCounts(field, pooled), `${at}: facetCounts`).toEqual(column.facetCounts(single))
    }
    if (type === 'keyword') {
      const terms = [column.term(0), column.term(column.dictionary!.termCount - 1), 'no such term']
      expect(words(await segment.termFilter(field, terms, pooled)), `${at}: termFilter`).toEqual(words(column.termFilter(terms, single)))
      const scattered = Array.from({ length: Math.ceil(column.dictionary!.termCount / 3) }, (_, index) => column.term(3 * index))
      expect(words(await segment.termFilter(field, scattered, pooled)), `${at}: termFilter of every 3rd term`).toEqual(words(column.termFilter(scattered, single)))
      for (const k of [0, 3, 100000]) expect(await segment.topTerms(field, k, pooled), `${at}: topTerms(${k})`).toEqual(column.topTerms(k, single))
    }
    if (type === 'geo_point') {
      for (const box of [
        { minLatitude: -45, maxLatitude: 60, minLongitude: -100, maxLongitude: 120 },
        { minLatitude: -90, maxLatitude: 90, minLongitude: 150, maxLongitude: -150 },
      ]) {
        expect(words(await segment.boundingBoxFilter(field, box, pooled)), `${at}: boundingBoxFilter`).toEqual(words(column.boundingBoxFilter(box, single)))
      }
      continue
    }
    const q = quartiles(column)
    for (const [lo, hi] of [[q[1], q[3]], [q[0], q[4]], [q[2], q[2]], [q[3], q[1]]]) {
      expect(words(await segment.rangeFilter(field, lo, hi, pooled)), `${at}: rangeFilter(${lo}, ${hi})`).toEqual(words(column.rangeFilter(lo, hi, single)))
    }
    const aggregate = await segment.aggregate(field, pooled)
    const expected = column.aggregate(single)
    if (type === 'fractional' && threads > 1) {
      expect({ ...aggregate, sum: 0 }, `${at}: aggregate`).toEqual({ ...expected, sum: 0 })
      expect(aggregate.sum, `${at}: aggregate sum`).toEqual(rangeOrderSum(reader, column, single, threads))
    } else {
      expect(aggregate, `${at}: aggregate`).toEqual(expected)
    }
    if (type === 'integral' || type === 'date' || type === 'fractional') {
      const sorted = [...new Set([...q.slice(0, 4), q[4] < MAX_INT64 ? q[4] + 1n : q[4]])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      // A fractional column takes a bigint as its double: bigints that are one double are one edge (refused twice).
      const edges = type === 'fractional' ? sorted.filter((edge, i) => i === 0 || Number(sorted[i - 1]) < Number(edge)) : sorted
      if (edges.length >= 2) expect(await segment.histogram(field, edges, pooled), `${at}: histogram`).toEqual(column.histogram(edges, single))
      // Infinite ends: an integral last bucket without an upper bound counts the largest i64 too, range by range.
      const open = [-Infinity, q[2], Infinity]
      expect(await segment.histogram(field, open, pooled), `${at}: histogram(${open})`).toEqual(column.histogram(open, single))
    }
  }
}

const wasmReason = wasmUnavailableReason()

/** The stdout of a script run in a process of its own: `lines` after imports and `const pool` (one 'ts' worker); fails after a minute. */
async function poolScript(lines: string[]): Promise<string> {
  const directory = mkdtempSync(join(tmpdir(), 'oixk-pool-exit-'))
  try {
    const source = (path: string) => JSON.stringify(pathToFileURL(join(ROOT, path)).href)
    const script = join(directory, 'script.mts')
    writeFileSync(script, [
      `import { createQueryPool } from ${source('src/node/query-pool.ts')}`,
      `import { flushColumns } from ${source('src/write/columns-writer.ts')}`,
      "const pool = createQueryPool({ threads: 1, backend: 'ts' })",
      ...lines,
    ].join('\n'))
    return (await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, timeout: 60_000 })).stdout
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}

function messageOf(action: () => unknown): string {
  try {
    action()
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('expected a throw')
}

for (const { threads, backend } of [
  { threads: 1, backend: 'ts' }, { threads: 2, backend: 'ts' }, { threads: 3, backend: 'ts' },
  { threads: 1, backend: 'wasm' }, { threads: 2, backend: 'wasm' }, { threads: 3, backend: 'wasm' },
] as const) {
  describe(`query pool, ${threads} worker(s), ${backend} backend, equals the single-threaded API`, () => {
    if (backend === 'wasm' && wasmReason !== null) {
      it.skip(`skipped: ${wasmReason}`, () => {})
      return
    }
    let pool: QueryPool
    beforeAll(() => {
      pool = createQueryPool({ threads, backend })
    })
    afterAll(async () => {
      await pool.close()
    })
    // Format 2 files too, with two workers: the workers read cascades through the same kernels.
    for (const { seed, maxDoc, format } of FILES.flatMap((file) => (threads === 2 ? [1, 2] as const : [1] as const).map((format) => ({ ...file, format })))) {
      it(`random file seed ${seed}, maxDoc ${maxDoc}${format === 2 ? ', format 2' : ''}: every column, every filter`, async () => {
        const bytes = randomFile(seed, maxDoc, format)
        const reader = openColumns(bytes, { backend })
        const segment = await pool.open(bytes, { fileName: `seed-${seed}` })
        expect(segment.maxDoc).toBe(maxDoc)
        expect(segment.bytes.buffer).toBeInstanceOf(SharedArrayBuffer)
        expect(segment.columns.map((column) => column.name)).toEqual(reader.columns.map((column) => column.name))
        for (const column of reader.columns) await checkColumn(reader, segment, column, threads, seed + 100)
        await segment.close()
        reader.close()
      })
    }
  })
}

describe('query pool: ranges, errors, shutdown', () => {
  it('splits documents into ranges aligned to 1,024 that cover [0, maxDoc) once', () => {
    expect(splitDocuments(0, 2)).toEqual([{ from: 0, to: 0 }])
    expect(splitDocuments(37, 3)).toEqual([{ from: 0, to: 37 }])
    expect(splitDocuments(3100, 3)).toEqual([{ from: 0, to: 1024 }, { from: 1024, to: 2048 }, { from: 2048, to: 3100 }])
    expect(splitDocuments(5200, 2)).toEqual([{ from: 0, to: 3072 }, { from: 3072, to: 5200 }])
    expect(splitDocuments(3_000_000, 2)).toEqual([{ from: 0, to: 1_500_160 }, { from: 1_500_160, to: 3_000_000 }])
  })

  it('refuses a thread count that is not a positive integer, and an unknown backend, before starting a worker', () => {
    for (const threads of [0, -1, 1.5, NaN, Infinity]) {
      expect(() => createQueryPool({ threads, backend: 'ts' })).toThrow(new RangeError(`threads must be a positive integer, got ${threads}`))
    }
    expect(() => createQueryPool({ threads: 1, backend: 'gpu' as never })).toThrow(new TypeError('unknown backend "gpu"; expected "ts", "wasm" or "auto"'))
    // null was taken for the default count, and '2' shown as 2; null options failed reading a property.
    expect(() => createQueryPool({ threads: null as never, backend: 'ts' })).toThrow(new RangeError('threads must be a positive integer, got null'))
    expect(() => createQueryPool({ threads: '2' as never, backend: 'ts' })).toThrow(new RangeError('threads must be a positive integer, got "2"'))
    expect(() => createQueryPool(null as never)).toThrow(new TypeError('createQueryPool: options must be an object, got null'))
  })

  it('QueryPool.open names options that are not an object', async () => {
    await using pool = createQueryPool({ threads: 1, backend: 'ts' })
    await expect(pool.open(randomFile(31, 100), null as never)).rejects.toThrow(new TypeError('QueryPool.open: options must be an object, got null'))
  })

  it('a script whose only work is a pool query runs until the answer arrives (the worker is kept referenced meanwhile)', async () => {
    // Idle workers are unreferenced so that a pool never keeps a process alive; a pending request must be.
    expect(await poolScript([
      "const bytes = flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, [{ k: 'a' }, { k: 'b' }, { k: 'a' }])!",
      'const segment = await pool.open(bytes)',
      "console.log(JSON.stringify([...await segment.facetCounts('k')]))",
      'await pool.close()',
    ])).toBe('[2,1]\n')
  })

  it('a request no worker can be sent (a symbol bound) rejects, and leaves nothing to keep the process alive', async () => {
    // It was left pending with its worker referenced: the script below never exited (and the pool is not closed).
    expect(await poolScript([
      "const bytes = flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, [{ n: 1 }, { n: 5 }, { n: 9 }])!",
      'const segment = await pool.open(bytes)',
      "console.log(await segment.rangeFilter('n', Symbol('x') as never, 5).then(() => 'answered', (error: Error) => `${error.name}: ${error.message.split(' (')[0]}`))",
      "console.log((await segment.rangeFilter('n', 0, 5)).count())",
    ])).toBe('TypeError: field "n": rangeFilter: an argument cannot be sent to the pool\'s workers\n2\n')
  })

  it('allDocuments() of a segment holds exactly its documents, as a reader\'s does', async () => {
    const pool = createQueryPool({ threads: 1, backend: 'ts' })
    try {
      for (const maxDoc of [37, 64, 2077]) {
        const bytes = randomFile(41, maxDoc)
        const segment = await pool.open(bytes)
        const all = segment.allDocuments()
        expect([all.count(), words(all)]).toEqual([maxDoc, words(openColumns(bytes).allDocuments())])
      }
    } finally {
      await pool.close()
    }
  })

  it('a corrupt file: open rejects with the CorruptIndexException message openColumns throws', async () => {
    const bytes = randomFile(31, 3100)
    bytes[Math.floor(bytes.length / 2)] ^= 0x40
    let expected: unknown
    try {
      openColumns(bytes, { fileName: 'bad.oixk' })
    } catch (error) {
      expected = error
    }
    expect(expected).toBeInstanceOf(CorruptIndexException)
    const pool = createQueryPool({ threads: 2, backend: 'ts' })
    try {
      const opening = pool.open(bytes, { fileName: 'bad.oixk' })
      await expect(opening).rejects.toBeInstanceOf(CorruptIndexException)
      await expect(opening).rejects.toThrow((expected as Error).message)
      await expect(opening).rejects.toMatchObject({ fileName: 'bad.oixk', detail: (expected as CorruptIndexException).detail })
      const good = randomFile(31, 3100)
      await expect(pool.open(good, { maxDoc: 3000 })).rejects.toThrow("columns: the file's maxDoc is 3100, but the segment has 3000 documents (options.maxDoc)")
    } finally {
      await pool.close()
    }
  })

  // Worker 0 hashes each 1 MiB piece as the pool copies it in; the other workers take its checksum.
  it('wasm: a file copied in pieces opens and answers as the single-threaded reader; corrupt, openColumns\' error', async (context) => {
    if (wasmReason !== null) return context.skip()
    const random = seededRandom(41)
    const bytes = denseFile(400_000, () => randomInteger(random, 47))
    expect(bytes.length).toBeGreaterThan(2 * 2 ** 20)
    const reader = openColumns(bytes, { backend: 'wasm' })
    const column = reader.getColumn('v')!
    const pool = createQueryPool({ threads: 2, backend: 'wasm' })
    try {
      const segment = await pool.open(bytes, { fileName: 'pieces.oixk' })
      expect(segment.maxDoc).toBe(400_000)
      expect(Buffer.compare(segment.bytes, bytes)).toBe(0)
      expect(await segment.aggregate('v')).toEqual(column.aggregate())
      const middle = column.minRaw + (column.maxRaw - column.minRaw) / 2n
      expect(words(await segment.rangeFilter('v', column.minRaw, middle))).toEqual(words(column.rangeFilter(column.minRaw, middle)))
      await segment.close()
      for (const at of [100, bytes.length >> 1, bytes.length - 100]) {
        const corrupt = Uint8Array.from(bytes)
        corrupt[at] ^= 0x10
        const expected = messageOf(() => openColumns(corrupt, { fileName: 'pieces.oixk', backend: 'wasm' }))
        expect(expected).toMatch(/^pieces\.oixk: checksum mismatch: stored [0-9a-f]{16}, computed [0-9a-f]{16}$/)
        await expect(pool.open(corrupt, { fileName: 'pieces.oixk' })).rejects.toThrow(expected)
      }
      // Nothing is left of the refused opens.
      expect(pool.kernelMemory!.fileBytes).toBe(0)
    } finally {
      await pool.close()
      reader.close()
    }
  })

  it('errors raised inside a query reach the caller with their class and message', async () => {
    const bytes = randomFile(32, 2077)
    const reader = openColumns(bytes, { backend: 'ts' })
    const pool = createQueryPool({ threads: 2, backend: 'ts' })
    try {
      const segment = await pool.open(bytes)
      const integral = reader.getColumn('integral_dense')!
      await expect(segment.facetCounts('integral_dense')).rejects.toBeInstanceOf(TypeError)
      await expect(segment.facetCounts('integral_dense')).rejects.toThrow(messageOf(() => integral.facetCounts()))
      await expect(segment.histogram('integral_dense', [3, 3])).rejects.toBeInstanceOf(RangeError)
      await expect(segment.histogram('integral_dense', [3, 3])).rejects.toThrow(messageOf(() => integral.histogram([3, 3])))
      await expect(segment.topTerms('bool_dense', 3)).rejects.toThrow(messageOf(() => reader.getColumn('bool_dense')!.topTerms(3)))
      await expect(segment.topTerms('keyword_dense', -1)).rejects.toThrow(messageOf(() => reader.getColumn('keyword_dense')!.topTerms(-1)))
      // Infinity was taken for "every term", and '2' shown as 2.
      for (const k of [Infinity, '2']) {
        await expect(segment.topTerms('keyword_dense', k as number)).rejects.toThrow(new RangeError(messageOf(() => reader.getColumn('keyword_dense')!.topTerms(k as number))))
      }
      // An edge no worker can be sent is named as the reader names it.
      const unsendable = [0, () => 1, 5] as unknown as number[]
      await expect(segment.histogram('integral_dense', unsendable)).rejects.toThrow(messageOf(() => integral.histogram(unsendable)))
      await expect(segment.aggregate('no_such_field')).rejects.toThrow(new RangeError(messageOf(() => reader.column('no_such_field'))))
      const other = openColumns(randomFile(33, 37), { backend: 'ts' })
      await expect(segment.aggregate('integral_dense', other.createDocSet())).rejects.toThrow(
        'field "integral_dense": docs DocSet has 37 documents; this segment has 2077 documents',
      )
      other.close()
      await expect(segment.facetCounts('keyword_dense', [1, 2] as unknown as undefined)).rejects.toThrow(
        'field "keyword_dense": docs is not a DocSet; DocSet.fromDocuments(segment, ids) makes one of ids',
      )
    } finally {
      await pool.close()
      reader.close()
    }
  })

  it('a question failing in several ranges rejects with the first range\'s error, once every range has answered', async () => {
    // The reader meets the values in range order, so the first range's error is the one it raises;
    // before, the first worker to fail won, whichever range it had.
    const pool = createQueryPool({ threads: 2, backend: 'ts' })
    try {
      const workers = (pool as unknown as { workers: { request(request: unknown): Promise<unknown> }[] }).workers
      const answered: string[] = []
      workers[0].request = () => new Promise((_, reject) => setTimeout(() => { answered.push('first'); reject(new CorruptIndexException('f', 'value 3 is bad')) }, 30))
      workers[1].request = () => new Promise((_, reject) => { answered.push('second'); reject(new CorruptIndexException('f', 'value 2000 is bad')) })
      await expect(pool.run([{ op: 'release', segment: 0 }, { op: 'release', segment: 0 }])).rejects.toThrow('f: value 3 is bad')
      expect(answered).toEqual(['second', 'first'])
    } finally {
      await pool.close()
    }
  })

  it('workers of both backends read the one shared copy in place: a byte changed after open is seen', async () => {
    const bytes = flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, Array.from({ length: 4096 }, (_, n) => ({ n })))!
    for (const backend of wasmReason === null ? ['ts', 'wasm'] as const : ['ts'] as const) {
      await using pool = createQueryPool({ threads: 2, backend })
      const segment = await pool.open(bytes)
      const before = await segment.aggregate('n')
      expect(before).toEqual({ count: 4096, min: 0, max: 4095, sum: 4096 * 4095 / 2 })
      // A reader over the same shared bytes (TS: in place) sees what an in-place worker sees.
      const inPlace = openColumns(segment.bytes, { backend: 'ts' })
      segment.bytes[inPlace.getColumn('n')!.values.dataStart] ^= 1
      const after = inPlace.getColumn('n')!.aggregate()
      expect(after.sum).not.toEqual(before.sum)
      expect(await segment.aggregate('n')).toEqual(after)
      inPlace.close()
    }
  })

  it.skipIf(wasmReason !== null)('wasm workers hold no copy: the shared kernel memory is the windows, the file once and one small arena per worker', async () => {
    const random = seededRandom(61)
    const documents = Array.from({ length: 300_000 }, () => ({ n: BigInt(Math.floor(random() * 2 ** 31)) * BigInt(Math.floor(random() * 2 ** 31)) }))
    const bytes = flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, documents)!
    expect(bytes.length).toBeGreaterThan(2_000_000)
    const reference = openColumns(bytes, { backend: 'wasm' })
    await using pool = createQueryPool({ threads: 3, backend: 'wasm' })
    const memory = pool.kernelMemory!.memory
    const start = memory.buffer.byteLength
    const segment = await pool.open(bytes)
    // The segment's bytes are the file's one copy, inside the kernels' memory.
    expect(new Uint8Array(memory.buffer, segment.bytes.byteOffset, bytes.length)).toEqual(bytes)
    expect(pool.kernelMemory!.fileBytes).toBe(Math.ceil((bytes.length + 16) / 16) * 16)
    const column = reference.getColumn('n')!
    const [, lo, hi] = quartiles(column)
    expect(await segment.aggregate('n')).toEqual(column.aggregate())
    expect(words(await segment.rangeFilter('n', lo, hi))).toEqual(words(column.rangeFilter(lo, hi)))
    // Before open: the three static windows only. After: the file (whole pages) and one 1 MiB arena per worker;
    // a copy per worker would add 3 × the file.
    const filePages = Math.ceil((bytes.length + 16) / 65536) * 65536
    expect(memory.buffer.byteLength - start).toBe(filePages + 3 * (1 << 20))
    await segment.close()
    expect(pool.kernelMemory!.fileBytes).toBe(0)
    reference.close()
    // 'auto' (the default) takes the same path where WebAssembly runs; 'ts' has no kernel memory.
    await using auto = createQueryPool({ threads: 1 })
    expect(auto.kernelMemory).not.toBeNull()
    await using ts = createQueryPool({ threads: 1, backend: 'ts' })
    expect(ts.kernelMemory).toBeNull()
  })

  it('openReader: a reader in this thread over the shared bytes that shares DocSets with the pool', async () => {
    const bytes = randomFile(36, 3100)
    const reference = openColumns(bytes, { backend: 'ts' })
    await using pool = createQueryPool({ threads: 2, backend: 'ts' })
    const segment = await pool.open(bytes)
    using reader = segment.openReader()
    const [, lo, hi] = quartiles(reference.getColumn('integral_dense')!)
    const selected = await segment.rangeFilter('integral_dense', lo, hi)
    const expected = reference.getColumn('integral_dense')!.rangeFilter(lo, hi)
    expect(words(selected)).toEqual(words(expected))
    const column = reader.getColumn('date_optional')!
    expect(Array.from(column.topK(10, 'descending', selected))).toEqual(Array.from(reference.getColumn('date_optional')!.topK(10, 'descending', expected)))
    // The pool does not split topK: this reader answers it, multi columns (ranked by their least or largest value) too.
    for (const order of ['descending', 'ascending'] as const) {
      const multi = reader.getColumn('integral_multi')!
      expect(multi.layout).toBe('multi')
      expect(Array.from(multi.topK(10, order, selected)), order).toEqual(Array.from(reference.getColumn('integral_multi')!.topK(10, order, expected)))
    }
    const local = column.rangeFilter(column.minRaw, column.maxRaw, selected)
    expect(local.words.buffer).toBeInstanceOf(SharedArrayBuffer)
    expect(await segment.facetCounts('bool_multi', local)).toEqual(reference.getColumn('bool_multi')!.facetCounts(reference.getColumn('date_optional')!.rangeFilter(column.minRaw, column.maxRaw, expected)))
    // A pool's DocSet given to a reader of its own: both backends are 'ts', so the message says which memory differs.
    expect(() => reference.getColumn('bool_multi')!.facetCounts(selected)).toThrow(new RangeError(
      'field "bool_multi": docs DocSet has 3100 documents on the ts backend; this column has 3100 documents on the ts backend'
      + ' (a DocSet of another memory, such as a query pool\'s: use it with its segment or segment.openReader())'))
    // And the other way round: a plain reader's DocSet given to the pool's reader says which to make it with
    // (it said to use the DocSet with segment.openReader(), which is what was done).
    const own = reference.createDocSet()
    expect(() => reader.getColumn('bool_multi')!.facetCounts(own)).toThrow(new RangeError(
      'field "bool_multi": docs DocSet has 3100 documents on the ts backend; this column has 3100 documents on the ts backend'
      + ' (a DocSet of a reader\'s own memory, where this column reads a query pool\'s: make it with this column\'s reader or its segment)'))
    // And combined with one of that reader's DocSets, either way round.
    const combined = 'DocSet of 3100 documents (ts backend) cannot combine with one of 3100 documents (ts backend)'
      + ' (a DocSet of another memory, such as a query pool\'s: use it with its segment or segment.openReader())'
    expect(() => own.and(selected)).toThrow(new RangeError(combined))
    expect(() => selected.or(own)).toThrow(new RangeError(combined))
    reference.close()
  })

  it("backend 'ts': a closed segment's buffer holds the next file, so opening and closing does not grow memory", async () => {
    // Idle workers never collect: each closed segment's SharedArrayBuffer stayed allocated (an audit
    // measured 2.8 GiB after 1,000 opens and closes of a 2.9 MB file).
    await using pool = createQueryPool({ threads: 2, backend: 'ts' })
    const [small, large] = [randomFile(51, 1500), randomFile(52, 3000)]
    const first = await pool.open(large, { fileName: 'first.oixk' })
    const buffer = first.bytes.buffer
    await first.close()
    const second = await pool.open(small, { fileName: 'second.oixk' })
    expect(second.bytes.buffer).toBe(buffer)
    expect(second.bytes.length).toBe(small.length)
    expect(await second.facetCounts('keyword_dense')).toEqual(openColumns(small).getColumn('keyword_dense')!.facetCounts())
    // A buffer of the caller's is the caller's: never reused.
    const own = new Uint8Array(new SharedArrayBuffer(small.length))
    own.set(small)
    const third = await pool.open(own)
    await third.close()
    await second.close()
    const fourth = await pool.open(large)
    expect(fourth.bytes.buffer).toBe(buffer)
    expect(own).toEqual(small)
    expect(await fourth.facetCounts('keyword_dense')).toEqual(openColumns(large).getColumn('keyword_dense')!.facetCounts())
  })

  it.each(wasmReason === null ? ['ts', 'wasm'] as const : ['ts'] as const)("a segment opened over another segment's bytes keeps its file when the first closes and its memory is reused (%s)", async (backend) => {
    // Pools reuse a closed segment's memory; a segment's bytes handed to open were taken as the
    // caller's own, so the second segment answered with the next file's values, no error.
    const schema = { fields: [{ name: 'n', type: 'integral', column: true }] }
    const maxDoc = 10_000
    const [a, b] = [(d: number) => d % 1000, (d: number) => (d * 7) % 1000].map((value) => flushColumns(schema, Array.from({ length: maxDoc }, (_, d) => ({ n: value(d) })))!)
    const lowest = async (segment: PooledSegment) => (await segment.rangeFilter('n', 0, 9)).toArray()
    const model = openColumns(a, { backend: 'ts' }).getColumn('n')!.rangeFilter(0, 9).toArray()
    await using pool = createQueryPool({ threads: 2, backend })
    await using other = createQueryPool({ threads: 1, backend: 'ts' })
    const first = await pool.open(a, { fileName: 'first.oixk' })
    const [same, across] = [await pool.open(first.bytes, { fileName: 'same.oixk' }), await other.open(first.bytes, { fileName: 'across.oixk' })]
    await first.close()
    const next = await pool.open(b, { fileName: 'next.oixk' })
    for (const segment of [same, across]) expect(await lowest(segment), segment.fileName).toEqual(model)
    expect(await lowest(next)).toEqual(openColumns(b, { backend: 'ts' }).getColumn('n')!.rangeFilter(0, 9).toArray())
  })

  it("backend 'ts': a growable SharedArrayBuffer's view is taken at its length at open", async () => {
    const file = randomFile(55, 1500)
    // Growable shared buffers (ES2024) are not in this project's lib typings.
    type Growable = SharedArrayBuffer & { grow(length: number): void }
    const growable = new (SharedArrayBuffer as unknown as new (length: number, options: { maxByteLength: number }) => Growable)(file.length, { maxByteLength: 2 * file.length })
    const view = new Uint8Array(growable)
    view.set(file)
    await using pool = createQueryPool({ threads: 1, backend: 'ts' })
    const segment = await pool.open(view)
    growable.grow(file.length + 100)
    expect(segment.bytes.length).toBe(file.length)
    const reader = segment.openReader()
    expect(reader.getColumn('keyword_dense')!.facetCounts()).toEqual(openColumns(file).getColumn('keyword_dense')!.facetCounts())
  })

  it.each(wasmReason === null ? ['ts', 'wasm'] as const : ['ts'] as const)('many queries on several segments in flight at once: each answer is its own (%s)', async (backend) => {
    const files = [41, 42, 43].map((seed, index) => randomFile(seed, 1000 + 1500 * index))
    const readers = files.map((bytes) => openColumns(bytes, { backend: 'ts' }))
    await using pool = createQueryPool({ threads: 2, backend })
    const segments = await Promise.all(files.map((bytes, index) => pool.open(bytes, { fileName: `segment-${index}` })))
    const asked = segments.flatMap((segment, index) => ['keyword_multi', 'bool_optional', 'keyword_dense'].map(async (field) => {
      const column = readers[index].getColumn(field)!
      const [lo, , hi] = quartiles(readers[index].getColumn('integral_multi')!).slice(1)
      const [counts, filtered] = await Promise.all([
        segment.facetCounts(field),
        segment.rangeFilter('integral_multi', lo, hi).then((docs) => segment.facetCounts(field, docs)),
      ])
      expect(counts).toEqual(column.facetCounts())
      expect(filtered).toEqual(column.facetCounts(readers[index].getColumn('integral_multi')!.rangeFilter(lo, hi)))
    }))
    await Promise.all(asked)
    for (const reader of readers) reader.close()
  })

  it.each(wasmReason === null ? ['ts', 'wasm'] as const : ['ts'] as const)('multi facets over every document or many: each worker counts its range from the kept first values, both kept forms (%s)', async (backend) => {
    const random = seededRandom(61)
    // rare: 200 terms, a repeat in a document is rare (the repeats are kept as a list); often: 3 terms, 0-6 values (a value bitset).
    const documents = Array.from({ length: 7000 }, () => ({
      rare: Array.from({ length: Math.floor(random() * 4) }, () => `r${Math.floor(random() * 200)}`),
      often: Array.from({ length: Math.floor(random() * 7) }, () => `o${Math.floor(random() * 3)}`),
    }))
    const fields = ['rare', 'often'].map((name) => ({ name, type: 'keyword', facet: true, multi: true }))
    for (const format of [1, 2] as const) {
      const bytes = flushColumns({ fields } as never, documents, { format })!
      const reader = openColumns(bytes, { backend: 'ts' })
      await using pool = createQueryPool({ threads: 3, backend })
      const segment = await pool.open(bytes)
      for (const field of ['rare', 'often'] as const) {
        const column = reader.getColumn(field)!
        // The model: each listed document counted once per distinct term (reader and pool share the counting code).
        const modelOf = (ids: number[]) => {
          const model = new Array<number>(column.dictionary!.termCount).fill(0)
          for (const d of ids) for (const term of new Set(documents[d][field])) model[column.dictionary!.lookupOrdinal(new TextEncoder().encode(term))]++
          return model
        }
        const every = Array.from({ length: documents.length }, (_, d) => d)
        expect(Array.from(column.facetCounts())).toEqual(modelOf(every))
        expect(column.firstValues!.bits === null, `${field}: kept as a list of repeats`).toBe(field === 'rare')
        if (field === 'rare') expect(column.firstValues!.repeats!.positions.length).toBeGreaterThan(20)
        for (let call = 0; call < 2; call++) expect(Array.from(await segment.facetCounts(field)), `${field}, format ${format}, call ${call}`).toEqual(modelOf(every))
        // Half, a tenth (values selected, then their first ones counted) and 1 in 1,000 (walked) of the documents.
        for (const share of [0.5, 0.1, 0.001]) {
          const ids = every.filter(() => random() < share)
          const docs = DocSet.fromDocuments(segment, ids)
          expect(Array.from(await segment.facetCounts(field, docs)), `${field}, format ${format}, ${share}`).toEqual(modelOf(ids))
          expect(Array.from(column.facetCounts(DocSet.fromDocuments(reader, ids))), `reader: ${field}, format ${format}, ${share}`).toEqual(modelOf(ids))
        }
      }
      reader.close()
    }
  })

  it.each(wasmReason === null ? ['ts', 'wasm'] as const : ['ts'] as const)('format 2 dictionary columns: workers answer alike with decoded codes (the default) and without (%s)', async (backend) => {
    const random = seededRandom(71)
    // Enough values for decoded codes (16,384 at least), skewed terms: sequence dictionaries by frequency.
    const term = () => `k${Math.floor(random() ** 3 * 300)}`
    const documents = Array.from({ length: 40000 }, () => ({ kw: term(), tags: Array.from({ length: Math.floor(random() * 3) }, term) }))
    const fields = [{ name: 'kw', type: 'keyword', facet: true }, { name: 'tags', type: 'keyword', facet: true, multi: true }]
    const bytes = flushColumns({ fields } as never, documents, { format: 2 })!
    const reader = openColumns(bytes, { backend: 'ts' })
    expect(reader.getColumn('kw')!.values.cascade?.form).toBe(1)
    await using pool = createQueryPool({ threads: 2, backend })
    await expect(pool.open(bytes, { decodedCodes: 'yes' as never })).rejects.toThrow('columns: options.decodedCodes must be true or false, not yes')
    const half = Array.from({ length: documents.length }, (_, d) => d).filter(() => random() < 0.5)
    for (const decodedCodes of [undefined, true, false]) {
      const segment = await pool.open(bytes, decodedCodes === undefined ? {} : { decodedCodes })
      for (const field of ['kw', 'tags']) {
        const column = reader.getColumn(field)!
        for (let call = 0; call < 2; call++) {
          expect(Array.from(await segment.facetCounts(field)), `${field} ${decodedCodes}`).toEqual(Array.from(column.facetCounts()))
          expect(Array.from(await segment.facetCounts(field, DocSet.fromDocuments(segment, half)))).toEqual(Array.from(column.facetCounts(DocSet.fromDocuments(reader, half))))
          expect(words(await segment.termFilter(field, ['k0', 'k7', 'k250']))).toEqual(words(column.termFilter(['k0', 'k7', 'k250'])))
        }
      }
      await segment.close()
    }
    reader.close()
  })

  it('termFilter of many scattered terms (membership pass) on keyword columns of every layout', async () => {
    const random = seededRandom(51)
    const term = () => `t${Math.floor(random() * 120)}`
    const documents = Array.from({ length: 5000 }, (_, d) => ({
      dense: term(), ...(random() < 0.6 ? { optional: term() } : {}), ...(d % 3 === 0 ? {} : { multi: [term(), term(), term()].slice(0, d % 4) }),
    }))
    const fields = ['dense', 'optional', 'multi'].map((name) => ({ name, type: 'keyword', facet: true, multi: name === 'multi' }))
    const bytes = flushColumns({ fields } as never, documents)!
    const reader = openColumns(bytes, { backend: 'ts' })
    await using pool = createQueryPool({ threads: 3, backend: 'ts' })
    const segment = await pool.open(bytes)
    const half = DocSet.fromDocuments(reader, Array.from({ length: 2500 }, (_, index) => 2 * index))
    for (const field of ['dense', 'optional', 'multi']) {
      const column = reader.getColumn(field)!
      const scattered = Array.from({ length: Math.ceil(column.dictionary!.termCount / 3) }, (_, index) => column.term(3 * index))
      expect(scattered.length).toBeGreaterThan(30)
      for (const docs of [undefined, half]) {
        const expected = column.termFilter(scattered, docs)
        expect(expected.count()).toBeGreaterThan(0)
        expect(words(await segment.termFilter(field, scattered, docs)), `${field}`).toEqual(words(expected))
      }
    }
    reader.close()
  })

  it('await using closes the pool', async () => {
    const bytes = randomFile(35, 100)
    let segment: PooledSegment
    {
      await using pool = createQueryPool({ threads: 1, backend: 'ts' })
      segment = await pool.open(bytes)
      expect((await segment.aggregate('integral_dense')).count).toBe(100)
    }
    await expect(segment.aggregate('integral_dense')).rejects.toThrow('query pool is closed')
  })

  it('close() ends the workers: later calls reject, closing twice is harmless', async () => {
    const bytes = randomFile(34, 1500)
    const pool = createQueryPool({ threads: 2, backend: 'ts' })
    const segment = await pool.open(bytes)
    const counts = await segment.facetCounts('bool_dense')
    expect(counts[0] + counts[1]).toBe(1500)
    await pool.close()
    await pool.close()
    await expect(segment.facetCounts('bool_dense')).rejects.toThrow('query pool is closed')
    await expect(pool.open(bytes)).rejects.toThrow('query pool is closed')
  })

  it.skipIf(wasmReason !== null)('a closed segment refuses every use: its region may hold the next file', async () => {
    await using pool = createQueryPool({ threads: 2, backend: 'wasm' })
    const first = await pool.open(randomFile(36, 1500), { fileName: 'first.oixk' })
    const address = first.bytes.byteOffset
    // A reader it lent out is closed with it: it read the next file's bytes in place.
    const lent = first.openReader()
    await first.close()
    expect(() => lent.getColumn('integral_dense')!.getInt64(0)).toThrow('reader is closed')
    await first.close()
    const closed = 'first.oixk: pooled segment is closed'
    expect(() => first.bytes).toThrow(closed)
    expect(() => first.openReader()).toThrow(closed)
    expect(() => first.createDocSet()).toThrow(closed)
    await expect(first.facetCounts('bool_dense')).rejects.toThrow(closed)
    await expect(first.rangeFilter('integral_dense', 0, 10)).rejects.toThrow(closed)
    await expect(first.aggregate('integral_dense')).rejects.toThrow(closed)
    await expect(first.topTerms('keyword_dense', 3)).rejects.toThrow(closed)
    // topTerms asks twice (counts, then terms): a close between the two is named as above, not as
    // the worker saw it ("segment N is not open in this worker", in about a third of such races).
    const racing = new Set<string>()
    for (let round = 0; round < 30; round++) {
      const segment = await pool.open(randomFile(36, 1500), { fileName: 'racing.oixk' })
      const asked = segment.topTerms('keyword_dense', 3).then(() => 'answered', (error: Error) => error.message)
      await segment.close()
      racing.add(await asked)
    }
    expect([...racing].filter((outcome) => outcome !== 'answered' && outcome !== 'racing.oixk: pooled segment is closed')).toEqual([])
    // The next file takes the freed region: what `first.bytes` would now show.
    const second = await pool.open(randomFile(37, 1500))
    expect(second.bytes.byteOffset).toBe(address)
    const counts = await second.facetCounts('bool_dense')
    expect(counts[0] + counts[1]).toBe(1500)
  })
})
