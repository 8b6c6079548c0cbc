/**
 * A worker_threads pool that answers queries over segments held ONCE in shared
 * memory: every worker opens the same bytes, never copied per worker (backend
 * 'ts': a SharedArrayBuffer read in place; 'wasm': one shared WebAssembly.Memory
 * holding the files, over which each worker runs its own kernel instance),
 * each query is split into one contiguous document range per worker (aligned
 * to 1,024 documents) and the parts are merged: counts summed, DocSets written
 * by every worker into its own words of one shared bitset, aggregates combined.
 */
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { SharedKernelMemory } from '../backend/wasm/shared.js'
import { wasmUnavailableReason } from '../backend/wasm/runtime.js'
import type { ColumnType } from '../format/constants.js'
import type { Aggregate } from '../kernels/aggregations.js'
import { notADocSet } from '../kernels/common.js'
import { DocSet } from '../kernels/doc-set.js'
import { WeakTracker } from '../backend/weak-tracker.js'
import type { TermCount } from '../kernels/facets.js'
import type { BoundingBox } from '../kernels/filters.js'
import { rawEdges, type NaturalValue } from '../kernels/natural-units.js'
import { termList, type Terms } from '../kernels/filters.js'
import { openColumns } from '../read/open.js'
import { describeInput, fileBytesOf, shown } from '../read/file-input.js'
import { noColumn, type ColumnsReader } from '../read/reader.js'
import { mergeAggregates, rebuildError, sharedMemoryBackend, splitDocuments, sumCounts, type AggregateParts } from './query-merge.js'
import type { ColumnInfo, OpenedSegment, OpenRequest, PooledMethod, QueryRequest, WorkerData, WorkerReply, WorkerRequest } from './query-protocol.js'

/** Options of createQueryPool. */
export interface QueryPoolOptions {
  /** Workers (default os.availableParallelism()). */
  threads?: number
  /** Each worker's backend: 'ts' or 'wasm' (both read the one shared copy), 'auto' (wasm where it runs). */
  backend?: 'ts' | 'wasm' | 'auto'
}

/** Options of QueryPool.open. */
export interface PooledOpenOptions {
  fileName?: string
  maxDoc?: number
  /**
   * As openColumns' option: true (the default), each worker decodes a format 2 dictionary column's
   * codes once, on its first question, and counts them as format 1's; false keeps every question on
   * the encodings (no copy: each worker's copy is of the whole column).
   */
  decodedCodes?: boolean
}

// Run from source (tests, benchmarks) the worker is TypeScript: a bootstrap registers tsx in the
// worker first (Node 20 does not apply a worker's `--import` loader to its entry module).
const fromSource = import.meta.url.endsWith('.ts')
const workerUrl = new URL(fromSource ? './query-worker.ts' : './query-worker.js', import.meta.url)

function startWorker(workerData: WorkerData): Worker {
  if (!fromSource) return new Worker(workerUrl, { workerData })
  // require.resolve finds the CommonJS build; its ES module twin registers the hooks correctly.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl.href)}) })`
  return new Worker(bootstrap, { eval: true, workerData })
}

type Distributive<T> = T extends unknown ? Omit<T, 'id'> : never

/** One worker and its requests in flight; referenced (keeps the process alive) only while it has some. */
class PoolWorker {
  private readonly worker: Worker
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>()
  private nextId = 0
  private exited: Error | null = null

  constructor(workerData: WorkerData) {
    this.worker = startWorker(workerData)
    this.worker.unref()
    this.worker.on('message', (reply: WorkerReply) => {
      const waiting = this.pending.get(reply.id)
      if (waiting === undefined) return
      this.pending.delete(reply.id)
      if (this.pending.size === 0) this.worker.unref()
      if (reply.ok) waiting.resolve(reply.result)
      else waiting.reject(rebuildError(reply.error))
    })
    this.worker.on('error', (error) => this.fail(error))
    this.worker.on('exit', (code) => this.fail(new Error(`query worker exited (code ${code})`)))
  }

  private fail(error: Error): void {
    this.exited ??= error
    for (const waiting of this.pending.values()) waiting.reject(error)
    this.pending.clear()
  }

  request(message: Distributive<WorkerRequest>): Promise<unknown> {
    if (this.exited !== null) return Promise.reject(this.exited)
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref()
      this.pending.set(id, { resolve, reject })
      try {
        this.worker.postMessage({ ...message, id })
      } catch (error) {
        // An argument structured cloning refuses (a function, a symbol): nothing was sent, so nothing
        // will answer; an entry left pending would keep the worker, and the process, alive.
        this.pending.delete(id)
        if (this.pending.size === 0) this.worker.unref()
        const what = 'field' in message && 'method' in message ? `field "${message.field}": ${message.method}` : message.op
        reject(new TypeError(`${what}: an argument cannot be sent to the pool's workers (${(error as Error).message})`))
      }
    })
  }

  async terminate(): Promise<void> {
    this.fail(new Error('query pool is closed'))
    await this.worker.terminate()
  }
}

let nextSegment = 0
/** Backend 'ts': closed segments' buffers a pool keeps for reuse. */
const SPARE_BUFFERS = 8

/** A pool of query workers; close it (or `await using`) to end them. */
export class QueryPool implements AsyncDisposable {
  readonly threads: number
  readonly backend: 'ts' | 'wasm' | 'auto'
  /** @internal Backend 'wasm' (or 'auto' where WebAssembly runs): the one memory holding the files, shared by every worker. */
  readonly kernelMemory: SharedKernelMemory | null
  private readonly workers: PoolWorker[]
  /** Backend 'wasm': each open segment's file address in kernelMemory. */
  private readonly fileAddresses = new Map<number, number>()
  /**
   * Backend 'ts': the SharedArrayBuffers the pool made for open segments, and those of closed ones,
   * kept for the next opens. An idle worker never collects, so a buffer it has seen stays allocated
   * however the segment ends: reused, the pool's memory stays at its peak rather than growing by
   * every file opened and closed.
   */
  private readonly madeBuffers = new Map<number, SharedArrayBuffer>()
  private readonly spareBuffers: SharedArrayBuffer[] = []
  private closed = false

  constructor(options: QueryPoolOptions = {}) {
    if (typeof options !== 'object' || options === null) throw new TypeError(`createQueryPool: options must be an object, got ${describeInput(options)}`)
    // Only an absent count means the default: null was taken for it.
    const threads = options.threads === undefined ? availableParallelism() : options.threads
    if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads must be a positive integer, got ${shown(threads)}`)
    const backend = options.backend ?? 'auto'
    if (backend !== 'ts' && backend !== 'wasm' && backend !== 'auto') throw new TypeError(`unknown backend ${JSON.stringify(backend)}; expected "ts", "wasm" or "auto"`)
    this.threads = threads
    this.backend = backend
    // Where WebAssembly cannot run, 'wasm' workers fail at open with the reader's BackendUnavailableError.
    const wasm = backend !== 'ts' && wasmUnavailableReason() === null
    this.kernelMemory = wasm ? new SharedKernelMemory(threads) : null
    const sharedMemory = this.kernelMemory === null ? null : this.kernelMemory.memory
    this.workers = Array.from({ length: threads }, (_, window) => new PoolWorker({ sharedMemory, window }))
  }

  /**
   * Opens a columns file in every worker; no worker copies it. Backend 'ts': a Uint8Array not
   * already over shared memory is copied once into a SharedArrayBuffer. Backend 'wasm': the
   * bytes are copied once into the kernels' shared memory, and hashed once, as they are copied.
   * Rejects with the reader's error (CorruptIndexException, ...), the first worker's if several.
   */
  async open(bytes: SharedArrayBuffer | ArrayBuffer | Uint8Array, options: PooledOpenOptions = {}): Promise<PooledSegment> {
    this.assertOpen()
    if (typeof options !== 'object' || options === null) throw new TypeError(`QueryPool.open: options must be an object, got ${describeInput(options)}`)
    const source = fileBytesOf(bytes, 'QueryPool.open')
    const segment = nextSegment++
    const fileName = options.fileName ?? 'columns'
    if (options.decodedCodes !== undefined && typeof options.decodedCodes !== 'boolean') {
      throw new TypeError(`${fileName}: options.decodedCodes must be true or false, not ${String(options.decodedCodes)}`)
    }
    const decodedCodes = options.decodedCodes ?? true
    if (this.kernelMemory !== null) return this.openInKernelMemory(segment, source, fileName, options.maxDoc, decodedCodes)
    let shared: Uint8Array
    if (source.buffer instanceof SharedArrayBuffer) shared = source
    else {
      // The smallest spare that holds the file, else a new buffer.
      let fit = -1
      this.spareBuffers.forEach((spare, index) => {
        if (spare.byteLength >= source.byteLength && (fit < 0 || spare.byteLength < this.spareBuffers[fit].byteLength)) fit = index
      })
      const buffer = fit >= 0 ? this.spareBuffers.splice(fit, 1)[0] : new SharedArrayBuffer(source.byteLength)
      this.madeBuffers.set(segment, buffer)
      shared = new Uint8Array(buffer, 0, source.byteLength)
      shared.set(source)
    }
    const request = this.openRequest(segment, shared, fileName, options.maxDoc, decodedCodes)
    const opened = await this.settle(segment, this.workers.map((worker) => worker.request(request)))
    return new PooledSegment(this, segment, fileName, opened.maxDoc, opened.columns, shared)
  }

  /**
   * Backend 'wasm': copies the file into the kernels' shared memory once. Worker 0 hashes each
   * piece while the next is copied (see COPY_PIECE_BYTES); the other workers, sent the file once it
   * is all there, check the rest of it meanwhile, trusting worker 0 with the checksum: the pool
   * refuses the file if worker 0 does.
   */
  private async openInKernelMemory(
    segment: number, source: Uint8Array, fileName: string, maxDoc: number | undefined, decodedCodes: boolean,
  ): Promise<PooledSegment> {
    const memory = this.kernelMemory!
    const address = memory.allocateFile(source.length)
    this.fileAddresses.set(segment, address)
    const shared = new Uint8Array(memory.memory.buffer, address, source.length)
    const copied = new Int32Array(new SharedArrayBuffer(4))
    const request = this.openRequest(segment, shared, fileName, maxDoc, decodedCodes)
    const opening = [this.workers[0].request({ ...request, copied: copied.buffer as SharedArrayBuffer })]
    try {
      memory.copyFile(source, address, copied)
    } catch (error) {
      Atomics.store(copied, 0, -1)
      Atomics.notify(copied, 0)
      await this.settle(segment, opening)
      throw error
    }
    for (const worker of this.workers.slice(1)) opening.push(worker.request({ ...request, checksumCheckedElsewhere: true }))
    const opened = await this.settle(segment, opening)
    return new PooledSegment(this, segment, fileName, opened.maxDoc, opened.columns, shared)
  }

  private openRequest(
    segment: number, shared: Uint8Array, fileName: string, maxDoc: number | undefined, decodedCodes: boolean,
  ): Distributive<OpenRequest> {
    return {
      op: 'open', segment, buffer: shared.buffer as SharedArrayBuffer, byteOffset: shared.byteOffset, byteLength: shared.byteLength,
      fileName, maxDoc, backend: this.kernelMemory !== null ? 'wasm' : this.backend, decodedCodes,
    }
  }

  /**
   * Waits for every worker's open of the segment (in worker order); on any failure releases it
   * everywhere and rejects with the first worker's error.
   */
  private async settle(segment: number, opening: Promise<unknown>[]): Promise<OpenedSegment> {
    const opened = await Promise.allSettled(opening)
    const failure = opened.find((result) => result.status === 'rejected')
    if (failure !== undefined) {
      await this.release(segment)
      throw (failure as PromiseRejectedResult).reason
    }
    return (opened[0] as PromiseFulfilledResult<OpenedSegment>).value
  }

  /**
   * @internal Sends one request per range to the workers, in range order; once every range has
   * answered, rejects with the first range's error if any: the error the reader raises (it meets
   * the ranges' values in that order), whichever worker failed first, and no worker is still at
   * the question when its caller hears of it.
   */
  async run(requests: Distributive<WorkerRequest>[]): Promise<unknown[]> {
    this.assertOpen()
    const settled = await Promise.allSettled(requests.map((request, index) => this.workers[index].request(request)))
    const failure = settled.find((result) => result.status === 'rejected')
    if (failure !== undefined) throw (failure as PromiseRejectedResult).reason
    return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value)
  }

  /** @internal Sends one request to the first worker. */
  ask(request: Distributive<WorkerRequest>): Promise<unknown> {
    this.assertOpen()
    return this.workers[0].request(request)
  }

  /** @internal Tells every worker to drop a segment, then frees its file in the kernels' memory. */
  async release(segment: number): Promise<void> {
    if (this.closed) return
    await Promise.allSettled(this.workers.map((worker) => worker.request({ op: 'release', segment })))
    const address = this.fileAddresses.get(segment)
    // Freed only once no worker can read it any more (every release answered, or the pool closed).
    if (address !== undefined && !this.closed) {
      this.fileAddresses.delete(segment)
      this.kernelMemory!.freeFile(address)
    }
    const buffer = this.madeBuffers.get(segment)
    if (buffer !== undefined && !this.closed) {
      this.madeBuffers.delete(segment)
      this.spareBuffers.push(buffer)
      // A few kept: beyond them the oldest goes to the collector (the workers may still hold it).
      if (this.spareBuffers.length > SPARE_BUFFERS) this.spareBuffers.shift()
    }
  }

  /** Ends the workers; queries in flight reject. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await Promise.all(this.workers.map((worker) => worker.terminate()))
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close()
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('query pool is closed')
  }
}

/** A segment open in every worker of a pool; methods mirror Column's, by field name, and return promises. */
export class PooledSegment {
  readonly fileName: string
  readonly maxDoc: number
  /** Columns in directory order. */
  readonly columns: readonly ColumnInfo[]
  private readonly pool: QueryPool
  private readonly segment: number
  private readonly byName = new Map<string, ColumnInfo>()
  // The readers openReader lent out (held weakly: a reader dropped unclosed may still be collected).
  private readonly readers = new WeakTracker<ColumnsReader>()
  private readonly shared: Uint8Array
  private closed = false

  /** Not for callers: use QueryPool.open. */
  constructor(pool: QueryPool, segment: number, fileName: string, maxDoc: number, columns: ColumnInfo[], bytes: Uint8Array) {
    this.pool = pool
    this.segment = segment
    this.fileName = fileName
    this.maxDoc = maxDoc
    this.columns = Object.freeze(columns)
    this.shared = bytes
    for (const column of columns) this.byName.set(column.name, column)
  }

  /**
   * The file's bytes in shared memory (the one copy every worker reads). Throws once the segment
   * is closed: with backend 'wasm' its region may then hold the next file opened.
   */
  get bytes(): Uint8Array {
    this.assertOpen()
    return this.shared
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`${this.fileName}: pooled segment is closed`)
  }

  /**
   * A reader in this thread over the same shared bytes (TS kernels, no copy; the file is
   * validated again) whose methods accept the pool's DocSets and make shared ones: for
   * what the pool does not split (topK, accessors). Close it when done.
   */
  openReader(): ColumnsReader {
    const reader = openColumns(this.bytes, { fileName: this.fileName, maxDoc: this.maxDoc, backend: sharedMemoryBackend })
    // Closed with the segment: with backend 'wasm' its bytes may then hold the next file opened.
    this.readers.add(reader)
    return reader
  }

  /** An empty DocSet in shared memory: workers read and write it in place. */
  createDocSet(): DocSet {
    this.assertOpen()
    return new DocSet(sharedMemoryBackend, this.maxDoc)
  }

  /** A shared DocSet holding every document. */
  allDocuments(): DocSet {
    const set = this.createDocSet()
    const words = set.words
    words.fill(-1)
    if ((this.maxDoc & 31) !== 0) words[words.length - 1] = (1 << (this.maxDoc & 31)) - 1
    return set
  }

  private column(field: string): ColumnInfo {
    this.assertOpen()
    const column = this.byName.get(field)
    if (column === undefined) throw new RangeError(noColumn(this.fileName, field, this.columns.map((column) => column.name)))
    return column
  }

  /** The filter's words in shared memory: a pooled DocSet as it is, any other DocSet copied once. */
  private filterWords(field: string, docs: DocSet | undefined): Int32Array | null {
    if (docs === undefined || docs === null) return null
    if (!(docs instanceof DocSet)) throw notADocSet(field, 'docs', docs, 'segment')
    if (docs.maxDoc !== this.maxDoc) {
      throw new RangeError(`field "${field}": docs DocSet has ${docs.maxDoc} documents; this segment has ${this.maxDoc} documents`)
    }
    const words = docs.words
    if (words.buffer instanceof SharedArrayBuffer) return words
    const shared = new Int32Array(new SharedArrayBuffer(words.byteLength))
    shared.set(words)
    return shared
  }

  private async query(method: PooledMethod, field: string, args: unknown[], docs: DocSet | undefined, out: DocSet | null): Promise<unknown[]> {
    this.column(field)
    const filter = this.filterWords(field, docs)
    const outWords = out === null ? null : out.words
    const requests = splitDocuments(this.maxDoc, this.pool.threads).map(({ from, to }): Omit<QueryRequest, 'id'> => ({
      op: 'query', segment: this.segment, method, field, args, from, to, filter, out: outWords,
    }))
    return this.pool.run(requests)
  }

  /** Documents per ordinal (keyword) or per value (bool), like Column.facetCounts. */
  async facetCounts(field: string, docs?: DocSet): Promise<Uint32Array> {
    return sumCounts((await this.query('facetCounts', field, [], docs, null)) as Uint32Array[])
  }

  /** The k terms with the most documents (count descending, ties by ordinal, zeros omitted), like Column.topTerms. */
  async topTerms(field: string, k: number, docs?: DocSet): Promise<TermCount[]> {
    const type = this.column(field).type
    if (type !== 'keyword') throw new TypeError(`field "${field}" is ${type}; topTerms reads keyword columns`)
    if (!(k >= 0) || !Number.isInteger(k)) throw new RangeError(`field "${field}": k must be a non-negative integer, got ${shown(k)}`)
    const counts = await this.facetCounts(field, docs)
    const ordinals: number[] = []
    for (let ordinal = 0; ordinal < counts.length; ordinal++) if (counts[ordinal] !== 0) ordinals.push(ordinal)
    ordinals.sort((a, b) => counts[b] - counts[a] || a - b)
    ordinals.length = Math.min(k, ordinals.length)
    // A close while the counts came back: named as every other question names it, not as the worker saw it.
    this.assertOpen()
    const terms = (await this.pool.ask({ op: 'terms', segment: this.segment, field, ordinals }).catch((error: unknown) => {
      this.assertOpen()
      throw error
    })) as string[]
    return ordinals.map((ordinal, index) => ({ term: terms[index], ordinal, count: counts[ordinal] }))
  }

  /** Values per bucket [edges[b], edges[b + 1]) in natural units, like Column.histogram. */
  async histogram(field: string, edges: readonly NaturalValue[], docs?: DocSet): Promise<Uint32Array> {
    // Edges checked here too, so that one no worker can be sent (a function) is named as Column.histogram names it.
    const type = this.column(field).type
    if ((type === 'integral' || type === 'date' || type === 'fractional') && Array.isArray(edges)) rawEdges(field, type, edges)
    return sumCounts((await this.query('histogram', field, [edges], docs, null)) as Uint32Array[])
  }

  /**
   * Count, min, max and sum, like Column.aggregate. Exact for every integer type.
   * Fractional: the sum adds each range's in-order sum, range after range, so with
   * more than one range it may differ in the last bits from the single-threaded sum.
   */
  async aggregate(field: string, docs?: DocSet): Promise<Aggregate> {
    const type: ColumnType = this.column(field).type
    return mergeAggregates((await this.query('aggregate', field, [], docs, null)) as AggregateParts[], type === 'fractional')
  }

  private async filter(method: PooledMethod, field: string, args: unknown[], docs: DocSet | undefined): Promise<DocSet> {
    const out = this.createDocSet()
    try {
      await this.query(method, field, args, docs, out)
    } catch (error) {
      out.release()
      throw error
    }
    return out
  }

  /** Documents with a value in [lo, hi] (inclusive, natural units), like Column.rangeFilter; a shared DocSet. */
  rangeFilter(field: string, lo: NaturalValue, hi: NaturalValue, docs?: DocSet): Promise<DocSet> {
    return this.filter('rangeFilter', field, [lo, hi], docs)
  }

  /** Documents with any of the terms, like Column.termFilter; a shared DocSet. */
  async termFilter(field: string, terms: Terms, docs?: DocSet): Promise<DocSet> {
    return this.filter('termFilter', field, [termList(field, terms)], docs)
  }

  /** Documents with a point inside the box, like Column.boundingBoxFilter; a shared DocSet. */
  boundingBoxFilter(field: string, box: BoundingBox, docs?: DocSet): Promise<DocSet> {
    return this.filter('boundingBoxFilter', field, [box], docs)
  }

  /** Drops the segment from every worker (the shared bytes go when nothing references them); later calls throw or reject. Idempotent. */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve()
    this.closed = true
    for (const reader of this.readers.drain()) reader.close()
    return this.pool.release(this.segment)
  }
}

/** A pool of `threads` workers (default: os.availableParallelism()) running the query kernels. */
export function createQueryPool(options: QueryPoolOptions = {}): QueryPool {
  return new QueryPool(options)
}
