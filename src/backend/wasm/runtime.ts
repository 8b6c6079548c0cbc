/**
 * The one WebAssembly instance of the process: the kernels compiled from
 * assembly/, their linear memory, the regions allocated in it, and typed views
 * that are recreated whenever the memory grows (growth detaches every view).
 */
import type { SequenceView } from '../backend.js'
import { CorruptIndexException } from '../../format/errors.js'
import type { KernelInstance, LinearMemory } from './memory-types.js'
import type { CascadeKernels } from './cascade.js'
import type { StringKernels } from './terms.js'
import { RegionAllocator } from './regions.js'
import { kernelBytes, kernelBytesSync } from './kernel-bytes.js'
import { instantiateKernels, instantiateKernelsSync } from './instantiate.js'
import { registerLinearMemory } from '../destinations.js'

/** The kernels' exports (see assembly/index.ts for the ABI); the v2 cascade kernels' are in cascade.ts. */
export interface Kernels extends CascadeKernels, StringKernels {
  readonly memory: LinearMemory
  heapBase(): number
  scratch(): number
  decodeRaw(records: number, data: number, count: number, first: number, length: number, out: number): number
  getRaw(records: number, data: number, index: number, out: number): number
  getRawNumber(records: number, data: number, index: number): number
  decodeFloat64Sortable(records: number, data: number, count: number, first: number, length: number, out: number): number
  decodeFloat64Exact(records: number, data: number, count: number, first: number, length: number, out: number): number
  decodeInt32(records: number, data: number, count: number, first: number, length: number, limit: number, out: number): number
  decodeRawOrdinals(records: number, data: number, count: number, first: number, length: number, limit: number, out: number): number
  rank(bitmap: number, ranks: number, document: number): number
  xxh64(pointer: number, length: number, seedLow: number, seedHigh: number, out: number): void
  /** XXH64 in pieces (see assembly/xxh64.ts): the Node builds only (SHARED_EXPORTS), not the browser's. */
  xxh64Start?(seedLow: number, seedHigh: number): void
  xxh64Update?(pointer: number, end: number): number
  xxh64Finish?(pointer: number, end: number, length: number, out: number): void
  checkCanonical(records: number, data: number, count: number, out: number): number
  queryCountValues(
    records: number, data: number, first: number, count: number, selection: number, selectionStart: number,
    area: number, n: number, stride: number, lanes: number, pairs: number, largest: number,
  ): number
  queryMatchRange(
    records: number, data: number, first: number, count: number, selection: number, selectionStart: number,
    out: number, outStart: number,
  ): number
  queryAggregate(records: number, data: number, first: number, count: number, mode: number, selection: number, selectionStart: number): number
  queryHistogram(
    records: number, data: number, first: number, count: number, selection: number, selectionStart: number,
    edges: number, edgeCount: number, area: number,
  ): number
  queryCountDecoded(
    node: number, first: number, count: number, selection: number, selectionStart: number, area: number, n: number, stride: number, lanes: number,
    pairs: number,
  ): number
  queryMatchMembers(
    node: number, first: number, count: number, members: number, k: number, selection: number, selectionStart: number,
    out: number, outStart: number, staging: number, lo: number, hi: number,
  ): number
  queryMatchBytes(data: number, count: number, lo: number, hi: number, out: number): number
  queryCountSelectedBytes(data: number, count: number, selection: number, selectionStart: number, area: number, n: number): void
  queryMatchOrdinals(
    records: number, data: number, first: number, count: number, members: number, k: number, selection: number, selectionStart: number,
    out: number, outStart: number,
  ): number
  queryRunsHistogram(
    node: number, first: number, count: number, selection: number, selectionStart: number, edges: number, edgeCount: number, area: number,
    extremes: number,
  ): number
  runBlockExtremes(node: number, out: number): void
  queryRunsAggregate(node: number, first: number, count: number, selection: number, selectionStart: number): number
  queryMulti(
    offsetRecords: number, offsetData: number, valueRecords: number, valueData: number, from: number, to: number,
    selection: number, out: number, area: number, n: number, mode: number, total: number,
  ): number
  decodeRanks(node: number, from: number, count: number, k: number, ranks: number, out: number, width: number, extremes: number): number
  prepareBitTables(tables: number): void
  queryStarts(starts: number, nonempty: number, total: number, docCount: number, selection: number, test: number, out: number, tables: number, stream: number): void
  bitsetCount(address: number, words: number): number
  bitsetCombine(target: number, other: number, words: number, operation: number): void
}

const REQUIRED_EXPORTS = [
  'memory', 'heapBase', 'scratch', 'decodeRaw', 'getRaw', 'getRawNumber', 'decodeFloat64Sortable', 'decodeFloat64Exact', 'decodeInt32',
  'rank', 'xxh64', 'checkCanonical',
  'queryCountValues', 'queryMatchRange', 'queryAggregate', 'queryHistogram', 'queryCountDecoded', 'queryMatchMembers', 'queryMatchBytes', 'queryCountSelectedBytes', 'queryMatchOrdinals', 'queryRunsHistogram', 'runBlockExtremes', 'queryRunsAggregate', 'queryMulti', 'queryStarts', 'prepareBitTables', 'decodeRanks', 'bitsetCount', 'bitsetCombine',
  'decodeRawOrdinals', 'cascadeGet', 'cascadeDecode', 'cascadeDecodeFloat64Sortable', 'cascadeDecodeFloat64Exact', 'cascadeDecodeInt32',
  'cascadeDecodeOrdinals', 'cascadeEntriesTable', 'cascadeGetNumber',
  'decodeTerms', 'digitsDecode',
]

/** Values decoded per kernel call into the output buffer (512 KiB: stays in L2 while copied out). */
export const OUTPUT_VALUES = 65536
/**
 * Values per decode-and-copy step into a destination outside linear memory: 128 KiB of
 * i64, so the copy reads what the kernel just wrote from L2 rather than from memory.
 */
export const COPY_VALUES = 16384
/** Values per step of a long copied run, through a region of its own (2 MiB of i64). */
export const LARGE_COPY_VALUES = 262144
/** Entries of the table reads decode large sequence dictionaries into (512 KiB; assembly/index.ts: cascadeEntriesTable). */
export const ENTRIES_TABLE_VALUES = 65536
/**
 * Copied runs of at most SHORT_RUN_BYTES of output (an L2) take steps of SHORT_STEP_BYTES of output
 * (1,024 i64 or doubles, 2,048 int32s), so the copy reads what the kernel just wrote from L1, and the
 * kernel's source and staging fit in L1 beside the lines the copy writes (faster than steps of
 * 2,048 values). Steps stay multiples of 1,024 values: a table index error copies whole 1,024-value
 * pieces, as the TS backend writes them (see run). Longer runs keep long steps, which are faster
 * there. (Not through non-temporal stores: glibc here uses them only for copies from 240 MiB,
 * `ld.so --list-tunables`.)
 */
export const SHORT_RUN_BYTES = 1 << 20
export const SHORT_STEP_BYTES = 8192
const RESERVED_LOW_MEMORY = 65536

/** The instance, its allocator and views. */
export class WasmRuntime {
  readonly kernels: Kernels
  readonly regions: RegionAllocator
  /** Address of the kernels' 64-byte scratch area, in bytes and in int32 words. */
  readonly scratchAddress: number
  readonly scratchWord: number
  /** Address of the output buffer (OUTPUT_VALUES × 8 bytes) kernels decode runs into. */
  readonly outputAddress: number
  /** The memory's buffer as of the last growth (read without a getter call). */
  buffer!: ArrayBufferLike
  bytes!: Uint8Array
  words!: Int32Array
  floats!: Float64Array

  /** `regions` makes the allocator (default: all memory above the static data); Node's pool bounds it to a worker's arena. */
  constructor(instance: KernelInstance, regions?: (onGrow: () => void) => RegionAllocator) {
    this.kernels = instance.exports as unknown as Kernels
    this.refreshViews()
    this.scratchAddress = this.kernels.scratch()
    this.scratchWord = this.scratchAddress >>> 2
    const onGrow = () => this.refreshViews()
    this.regions = regions ? regions(onGrow) : new RegionAllocator(
      this.kernels.memory, Math.max(this.kernels.heapBase(), RESERVED_LOW_MEMORY), onGrow,
    )
    this.outputAddress = this.regions.allocate(OUTPUT_VALUES * 8)
  }

  /** Recreates every view of linear memory (after growth the old ones are detached). */
  refreshViews(): void {
    const buffer = this.kernels.memory.buffer
    registerLinearMemory(buffer, this)
    this.buffer = buffer
    this.bytes = new Uint8Array(buffer)
    this.words = new Int32Array(buffer)
    this.floats = new Float64Array(buffer)
  }
}

/** A kernel's status 1 (table index out of range; block, index and entries in scratch), worded as the TS backend words it. */
export function tableIndexError(runtime: WasmRuntime, sequence: SequenceView): never {
  const words = runtime.words, at = runtime.scratchWord
  const block = words[at] >>> 0, index = words[at + 1] >>> 0, entries = words[at + 2] >>> 0
  throw new CorruptIndexException(
    sequence.fileName,
    `${sequence.label}: block ${block} has table index ${index}, beyond its ${entries} entries`,
  )
}

let runtime: WasmRuntime | null = null
let unavailable: string | null = null

/** Why WebAssembly (with SIMD) cannot run here, or null when it can. */
export function wasmUnavailableReason(): string | null {
  if (runtime !== null) return null
  if (unavailable !== null) return unavailable
  if (typeof WebAssembly !== 'object') return (unavailable = 'this JavaScript engine has no WebAssembly')
  try {
    // Synchronous compilation: fine in Node and in workers; a browser's main thread refuses
    // modules this size (call initWasm() there first).
    const bytes = kernelBytesSync()
    // Not cached as unavailable: initWasm() may still succeed.
    if (typeof bytes === 'string') return bytes
    return adopt(instantiateKernelsSync(bytes))
  } catch (error) {
    return (unavailable = compileFailure(error))
  }
}

function compileFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  // A page's Content-Security-Policy refuses compilation outright: say how to allow it rather than blame SIMD.
  const hint = /Content.Security.Policy|unsafe-eval/i.test(message)
    ? "a Content-Security-Policy blocks WebAssembly (allow it with 'wasm-unsafe-eval' in script-src)"
    : 'WebAssembly SIMD may be missing'
  return `the kernels did not compile here (${message}); ${hint}`
}

/** Checks the instance's exports and makes it the process's runtime. */
function adopt(instance: KernelInstance): string | null {
  const missing = REQUIRED_EXPORTS.filter((name) => !(name in instance.exports))
  if (missing.length > 0) return (unavailable = `the kernels lack ${missing.join(', ')} (rebuild with npm run build:wasm)`)
  runtime = new WasmRuntime(instance)
  unavailable = null
  return null
}

let pending: Promise<string | null> | null = null

/**
 * Compiles and instantiates the kernels asynchronously, as a browser's main thread
 * requires; afterwards backend 'auto' is WebAssembly and 'wasm' works. Resolves to
 * why WebAssembly cannot run here (no WebAssembly, no SIMD, blocked by a
 * Content-Security-Policy), or null when it can. Never rejects; idempotent.
 */
export function initWasmRuntime(): Promise<string | null> {
  if (runtime !== null) return Promise.resolve(null)
  return (pending ??= (async () => {
    if (typeof WebAssembly !== 'object') return (unavailable = 'this JavaScript engine has no WebAssembly')
    try {
      const instance = await instantiateKernels(await kernelBytes())
      // A synchronous first use (Node, a worker) may have made the runtime meanwhile: keep that one.
      return runtime !== null ? null : adopt(instance)
    } catch (error) {
      return (unavailable = compileFailure(error))
    }
  })())
}

/** The process's runtime, created on first use. */
export function wasmRuntime(): WasmRuntime {
  const reason = wasmUnavailableReason()
  if (reason !== null) throw new Error(reason)
  return runtime!
}
