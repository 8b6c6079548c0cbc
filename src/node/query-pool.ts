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
import { sharedByEveryCopy } from '../format/library-copy.js'
import { Worker } from 'node:worker_threads'
import { SharedKernelMemory } from '../backend/wasm/shared.js'
import { wasmUnavailableReason } from '../backend/wasm/runtime.js'
import { ResidentLimitError } from '../format/errors.js'
import { checkOpenOptions, residentLimit } from '../read/open.js'
import { describeInput, fileBytesOf, shown } from '../read/file-input.js'
import { PooledSegment } from './pooled-segment.js'
import { rebuildError } from './query-merge.js'
import { withCallerStack } from './query-protocol.js'
import type { OpenedSegment, OpenRequest, WorkerData, WorkerReply, WorkerRequest } from './query-protocol.js'

export { PooledSegment }

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
  /** As openColumns' (default 1 GiB): a larger file is refused before it is copied. */
  maxResidentFileBytes?: number
  /** As openColumns' (default 1 GiB): term bytes the file's keyword dictionaries may decode to, in each worker. */
  maxDecodedBytes?: number
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

/** What every worker's open of a segment is told, as checked by QueryPool.open. */
type OpenSettings = Pick<OpenRequest, 'fileName' | 'maxDoc' | 'decodedCodes' | 'maxDecodedBytes'>

/** A request as the pool's callers build it (the pool numbers it). */
type Distributive<T> = T extends unknown ? Omit<T, 'id'> : never

/** One worker and its requests in flight; referenced (keeps the process alive) only while it has some. */
class PoolWorker {
  private readonly worker: Worker
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>()
  private nextId = 0
  /** Why the worker is gone: each rejection gets a new error of it, so callers may own theirs. */
  private exited: (() => Error) | null = null

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
    // A worker that dies is not replaced: every open segment would have to be opened again in its place.
    const gone = (why: string) => () => new Error(`query worker ${workerData.window} ${why}; the pool cannot answer any more: close it and create another`)
    this.worker.on('error', (error) => this.fail(gone(`failed (${error.message})`)))
    this.worker.on('exit', (code) => this.fail(gone(`exited (code ${code})`)))
  }

  private fail(error: () => Error): void {
    this.exited ??= error
    for (const waiting of this.pending.values()) waiting.reject(this.exited())
    this.pending.clear()
  }

  request(message: Distributive<WorkerRequest>): Promise<unknown> {
    if (this.exited !== null) return Promise.reject(this.exited())
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
    this.fail(() => new Error('query pool is closed'))
    await this.worker.terminate()
  }
}

let nextSegment = 0
/** Backend 'ts': closed segments' buffers a pool keeps for reuse. */
const SPARE_BUFFERS = 8

/**
 * Shared memory that pools reuse once a segment closes (their copies of files, the kernels'
 * memory): a segment's bytes given to open are copied, or closing the first segment would change
 * the second's file under it. Kept on globalThis: every copy of the library in the realm shares it.
 */
const reusedMemory = sharedByEveryCopy('oixk.pool-reused-memory.v1', () => new WeakSet<SharedArrayBuffer>())

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
    // Every option checked here as a reader checks it, before the file is copied.
    checkOpenOptions(fileName, options)
    const decodedCodes = options.decodedCodes ?? true
    const limit = residentLimit(fileName, options)
    if (source.byteLength > limit) throw new ResidentLimitError(fileName, source.byteLength, limit)
    const opening: OpenSettings = { fileName, maxDoc: options.maxDoc, decodedCodes, maxDecodedBytes: options.maxDecodedBytes }
    // A reader in this thread (segment.openReader) opens the bytes as the workers do.
    const readerOptions = { decodedCodes, maxDecodedBytes: options.maxDecodedBytes, maxResidentFileBytes: options.maxResidentFileBytes }
    if (this.kernelMemory !== null) return this.openInKernelMemory(segment, source, opening, readerOptions)
    let shared: Uint8Array
    // The caller's shared bytes as they are (a fixed view: a growable buffer's length-tracking view
    // would change length), unless some pool reuses that memory once its segment closes.
    if (source.buffer instanceof SharedArrayBuffer && !reusedMemory.has(source.buffer)) shared = new Uint8Array(source.buffer, source.byteOffset, source.byteLength)
    else {
      // The smallest spare that holds the file, else a new buffer.
      let fit = -1
      this.spareBuffers.forEach((spare, index) => {
        if (spare.byteLength >= source.byteLength && (fit < 0 || spare.byteLength < this.spareBuffers[fit].byteLength)) fit = index
      })
      const buffer = fit >= 0 ? this.spareBuffers.splice(fit, 1)[0] : new SharedArrayBuffer(source.byteLength)
      reusedMemory.add(buffer)
      this.madeBuffers.set(segment, buffer)
      shared = new Uint8Array(buffer, 0, source.byteLength)
      shared.set(source)
    }
    const request = this.openRequest(segment, shared, opening)
    const opened = await this.settle(segment, this.workers.map((worker) => worker.request(request)))
    return new PooledSegment(this, segment, fileName, opened.maxDoc, opened.columns, shared, readerOptions)
  }

  /**
   * Backend 'wasm': copies the file into the kernels' shared memory once. Worker 0 hashes each
   * piece while the next is copied (see COPY_PIECE_BYTES); the other workers, sent the file once it
   * is all there, check the rest of it meanwhile, trusting worker 0 with the checksum: the pool
   * refuses the file if worker 0 does.
   */
  private async openInKernelMemory(
    segment: number, source: Uint8Array, opening: OpenSettings, readerOptions: PooledSegment['readerOptions'],
  ): Promise<PooledSegment> {
    const memory = this.kernelMemory!
    const address = memory.allocateFile(source.length)
    this.fileAddresses.set(segment, address)
    reusedMemory.add(memory.memory.buffer as SharedArrayBuffer)
    const shared = new Uint8Array(memory.memory.buffer, address, source.length)
    const copied = new Int32Array(new SharedArrayBuffer(4))
    const request = this.openRequest(segment, shared, opening)
    const requests = [this.workers[0].request({ ...request, copied: copied.buffer as SharedArrayBuffer })]
    try {
      memory.copyFile(source, address, copied)
    } catch (error) {
      Atomics.store(copied, 0, -1)
      Atomics.notify(copied, 0)
      await this.settle(segment, requests)
      throw error
    }
    for (const worker of this.workers.slice(1)) requests.push(worker.request({ ...request, checksumCheckedElsewhere: true }))
    const opened = await this.settle(segment, requests)
    return new PooledSegment(this, segment, opening.fileName, opened.maxDoc, opened.columns, shared, readerOptions)
  }

  private openRequest(segment: number, shared: Uint8Array, opening: OpenSettings): Distributive<OpenRequest> {
    return {
      op: 'open', segment, buffer: shared.buffer as SharedArrayBuffer, byteOffset: shared.byteOffset, byteLength: shared.byteLength,
      backend: this.kernelMemory !== null ? 'wasm' : this.backend, ...opening,
    }
  }

  /**
   * Waits for every worker's open of the segment (in worker order); on any failure releases it
   * everywhere and rejects with the first worker's error.
   */
  private async settle(segment: number, opening: Promise<unknown>[]): Promise<OpenedSegment> {
    const call = new Error()
    const opened = await Promise.allSettled(opening)
    const failure = opened.find((result) => result.status === 'rejected')
    if (failure !== undefined) {
      await this.release(segment)
      throw withCallerStack((failure as PromiseRejectedResult).reason, call)
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
    const call = new Error()
    const settled = await Promise.allSettled(requests.map((request, index) => this.workers[index].request(request)))
    const failure = settled.find((result) => result.status === 'rejected')
    if (failure !== undefined) throw withCallerStack((failure as PromiseRejectedResult).reason, call)
    return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value)
  }

  /** @internal Sends one request to the first worker. */
  ask(request: Distributive<WorkerRequest>): Promise<unknown> {
    this.assertOpen()
    const call = new Error()
    return this.workers[0].request(request).catch((error: unknown) => {
      throw withCallerStack(error, call)
    })
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

/** A pool of `threads` workers (default: os.availableParallelism()) running the query kernels. */
export function createQueryPool(options: QueryPoolOptions = {}): QueryPool {
  return new QueryPool(options)
}
