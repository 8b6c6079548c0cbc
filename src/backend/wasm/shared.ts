/**
 * The kernels on ONE shared WebAssembly.Memory for Node's worker pool: the
 * main thread writes each file into it once, and every worker runs its own
 * instance of the shared-memory build (scripts/build-wasm.js) over it.
 *
 * Layout: [SHARED_BASE, filesStart) holds one window of static data per worker
 * (each instance's scratch areas and tables: the build is patched to its
 * window, so instances never touch each other's); files and each worker's arena
 * (output buffer, bitsets, counts) are then taken by atomic `memory.grow` calls,
 * whose pages belong to the thread that grew. Node only: nothing here may reach
 * a browser bundle.
 */
import { instantiateKernelsSync } from './instantiate.js'
import type { LinearMemory } from './memory-types.js'
import { RegionAllocator } from './regions.js'
import { type Kernels, WasmRuntime } from './runtime.js'
import { inflateRawSync } from 'node:zlib'
import { SHARED_BASE, SHARED_RELOCATIONS, SHARED_STATIC_BYTES, SHARED_WASM_DEFLATED } from './shared-module-bytes.js'

const PAGE_BYTES = 65536
const MAX_PAGES = 65536
/** Each worker's window of static data: whole pages, so patched addresses keep their low 16 bits. */
const WINDOW_BYTES = Math.ceil(SHARED_STATIC_BYTES / PAGE_BYTES) * PAGE_BYTES
/** Static addresses are 4-byte LEB128 immediates: below 2^27 they can be patched in place. */
const PATCHABLE_END = 1 << 27
/** Exports beyond the runtime's that the pool's open needs (hashFollowingCopy). */
const SHARED_EXPORTS = ['xxh64Start', 'xxh64Update', 'xxh64Finish']
/** Workers one shared memory can serve. */
export const MAX_SHARED_WORKERS = Math.floor((PATCHABLE_END - SHARED_BASE) / WINDOW_BYTES)
/** A worker arena grows by at least this much at a time (1 MiB), so small bitsets do not grow memory per call. */
const MIN_ARENA_GROWTH_PAGES = 16
/**
 * Pieces a file is copied in while a worker hashes it: the copy of one piece and the hash of the
 * one before run side by side, which beats the copy then the hash on one thread; 1 MiB measured best.
 */
const COPY_PIECE_BYTES = 1 << 20

/**
 * An allocator over the pages its thread grew: `memory.grow` is atomic on shared memory and
 * returns where the new pages start, which may be past pages other threads grew meanwhile.
 */
export class SharedRegionAllocator extends RegionAllocator {
  private readonly minimumGrowthPages: number

  /** Starts with nothing free; every region comes from pages this allocator grows. */
  constructor(memory: LinearMemory, onGrow: () => void, minimumGrowthPages: number) {
    // Not [memory end, memory end): two reads of the end, with another thread growing between them,
    // would give this allocator that thread's pages (two workers' output buffers overlapped so).
    super(memory, null, onGrow)
    this.minimumGrowthPages = minimumGrowthPages
  }

  protected override grow(size: number): void {
    const pages = Math.max(Math.ceil(size / PAGE_BYTES), this.minimumGrowthPages)
    let start: number
    try {
      start = this.memory.grow(pages) * PAGE_BYTES
    } catch {
      throw new RangeError(
        `oixk: shared WebAssembly memory cannot grow by ${size} bytes (its 4 GiB limit); this thread uses ${this.bytesInUse} bytes of it, and pages `
        + 'the pool\'s files or other workers took stay theirs, freed or not (room left by closed files serves later files only): close the pool and create another',
      )
    }
    this.addFree(start, pages * PAGE_BYTES)
    this.onGrow()
  }
}

/** The pool's shared memory: the workers' static windows, then files allocated by the main thread. */
export class SharedKernelMemory {
  readonly memory: LinearMemory
  readonly workers: number
  private readonly files: SharedRegionAllocator

  constructor(workers: number) {
    if (workers > MAX_SHARED_WORKERS) throw new RangeError(`a shared WebAssembly memory serves at most ${MAX_SHARED_WORKERS} workers, got ${workers}`)
    this.workers = workers
    const filesStart = SHARED_BASE + workers * WINDOW_BYTES
    this.memory = new WebAssembly.Memory({ initial: filesStart / PAGE_BYTES, maximum: MAX_PAGES, shared: true })
    this.files = new SharedRegionAllocator(this.memory, () => {}, 0)
  }

  /**
   * Copies a file into the shared memory once; returns its address. 16 zero bytes follow it:
   * a two-load read of a width > 56 field may look past the last padding (as in index.ts).
   */
  addFile(bytes: Uint8Array): number {
    const address = this.allocateFile(bytes.length)
    new Uint8Array(this.memory.buffer, address, bytes.length).set(bytes)
    return address
  }

  /** A region for a file of `length` bytes and its 16 zero bytes (see addFile), to fill with copyFile. */
  allocateFile(length: number): number {
    const address = this.files.allocate(length + 16)
    new Uint8Array(this.memory.buffer, address + length, 16).fill(0)
    return address
  }

  /**
   * Copies a file to its region (allocateFile) in pieces of COPY_PIECE_BYTES, raising copied[0] to
   * the bytes copied after each (Atomics.store and notify), so that a worker can hash each piece
   * while the next is copied (hashFollowingCopy).
   */
  copyFile(bytes: Uint8Array, address: number, copied: Int32Array): void {
    const view = new Uint8Array(this.memory.buffer, address, bytes.length)
    for (let done = 0; done < bytes.length;) {
      const end = Math.min(done + COPY_PIECE_BYTES, bytes.length)
      view.set(bytes.subarray(done, end), done)
      Atomics.store(copied, 0, (done = end))
      Atomics.notify(copied, 0)
    }
  }

  /** Gives a file's region back (after every worker dropped it). */
  freeFile(address: number): void {
    this.files.free(address)
  }

  /** Bytes of files held. */
  get fileBytes(): number {
    return this.files.bytesInUse
  }
}

/** The build's bytes: deflated, since its per-width loops repeat (a tenth of the size in the package). */
function inflateKernels(text: string): Uint8Array {
  return new Uint8Array(inflateRawSync(Buffer.from(text, 'base64')))
}

let built: Uint8Array | null = null

/** The shared-memory build with its static data moved to window `worker`. */
export function sharedKernelBytes(worker: number): Uint8Array {
  if (!(worker >= 0 && worker < MAX_SHARED_WORKERS)) throw new RangeError(`no static window ${worker} (at most ${MAX_SHARED_WORKERS} workers)`)
  built ??= inflateKernels(SHARED_WASM_DEFLATED)
  const bytes = Uint8Array.from(built)
  const shift = worker * WINDOW_BYTES
  for (const at of SHARED_RELOCATIONS) {
    const value = ((bytes[at] & 0x7f) | ((bytes[at + 1] & 0x7f) << 7) | ((bytes[at + 2] & 0x7f) << 14) | ((bytes[at + 3] & 0x7f) << 21)) + shift
    bytes[at] = (value & 0x7f) | 0x80
    bytes[at + 1] = ((value >>> 7) & 0x7f) | 0x80
    bytes[at + 2] = ((value >>> 14) & 0x7f) | 0x80
    bytes[at + 3] = value >>> 21
  }
  return bytes
}

/**
 * XXH64 (seed 0) of [address, address + length) of a file that another thread is copying into the
 * shared memory (SharedKernelMemory.copyFile) as [low, high] uint32 words: each piece is hashed as
 * soon as copied[0] (bytes of the file copied, from its start) covers it, the thread waiting
 * (Atomics.wait) for the next. Returns once the whole file is copied; copied[0] = -1: the copy failed.
 */
export function hashFollowingCopy(runtime: WasmRuntime, address: number, length: number, fileLength: number, copied: Int32Array): [number, number] {
  const kernels = runtime.kernels as Required<Kernels>, stop = address + length
  // Usize results come back as int32: >>> 0 (the shared memory reaches 4 GiB).
  let at = address, covered = 0
  kernels.xxh64Start(0, 0)
  for (;;) {
    covered = Atomics.load(copied, 0)
    if (covered < 0) throw new Error('oixk: the copy of the file into shared memory failed')
    if (length >= 32) at = kernels.xxh64Update(at, Math.min(address + covered, stop)) >>> 0
    if (covered >= fileLength) break
    Atomics.wait(copied, 0, covered)
  }
  if (length >= 32) kernels.xxh64Finish(at, stop, length, runtime.scratchAddress)
  else kernels.xxh64(address, length, 0, 0, runtime.scratchAddress)
  return [runtime.words[runtime.scratchWord], runtime.words[runtime.scratchWord + 1]]
}

/**
 * A worker's runtime: its own instance (static data in window `worker`) over the shared memory,
 * allocating only from pages it grows itself. Call refreshViews when another thread grew the memory.
 */
export function createSharedWasmRuntime(memory: LinearMemory, worker: number): WasmRuntime {
  // The instance re-exports the imported memory as `memory`, as the runtime expects.
  const instance = instantiateKernelsSync(sharedKernelBytes(worker), { env: { memory } })
  const missing = SHARED_EXPORTS.filter((name) => !(name in instance.exports))
  if (missing.length > 0) throw new Error(`oixk: the shared-memory kernels lack ${missing.join(', ')} (run npm run build:wasm)`)
  return new WasmRuntime(instance, (onGrow) => new SharedRegionAllocator(memory, onGrow, MIN_ARENA_GROWTH_PAGES))
}
