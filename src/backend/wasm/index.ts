/**
 * The WebAssembly backend: files live in linear memory (copied once at open),
 * hot loops run in the kernels of assembly/, results come back through the
 * kernels' scratch area and output buffer. Same answers as the TS backend,
 * including error messages.
 */
import { LIBRARY_COPY } from '../../format/library-copy.js'
import type { ColumnsBackend, Float64Mode, ResidentFile, SequenceView } from '../backend.js'
import { int64Result } from '../../format/int64.js'
import { rankOf } from '../bits.js'
import { ownedBy } from '../weak-tracker.js'
import { float64Spans, int32Spans, rawSpans, type Run } from './constant-spans.js'
import { createWasmQueryKernels } from './query.js'
import { withCascadeQueries } from '../../cascade/query-adapter.js'
import { createCascadeReads } from './cascade.js'
import { decodeDigitsWasm, decodeTermsWasm } from './terms.js'
import {
  COPY_VALUES, ENTRIES_TABLE_VALUES, LARGE_COPY_VALUES, SHORT_RUN_BYTES, SHORT_STEP_BYTES, tableIndexError, type WasmRuntime, wasmRuntime,
} from './runtime.js'

/** A decode kernel: records, data, value count, run [first, first + count), output address; returns a status. */
type Decode = (records: number, data: number, valueCount: number, first: number, count: number, out: number) => number

/** Codes per decodeRanks call (a multiple of the block size). */
const RANK_CALL_VALUES = 16384

/** Regions of files whose readers were dropped without close(): freed when collected. */
const forgotten = new FinalizationRegistry<[WasmRuntime, number]>(([runtime, address]) => {
  runtime.regions.free(address)
})

/** A file copied into linear memory. */
class WasmResidentFile implements ResidentFile {
  readonly stable = false
  readonly address: number
  private readonly length: number
  private readonly runtime: WasmRuntime
  private released = false

  /** Bytes at the region's start that earlier regions may have written (zeroStale). */
  private readonly stale: number

  constructor(runtime: WasmRuntime, length: number) {
    this.runtime = runtime
    this.length = length
    const usedEnd = runtime.regions.usedEnd
    // 16 bytes of slack: a two-load read of a width > 56 field may look past the last padding.
    this.address = runtime.regions.allocate(length + 16)
    this.stale = Math.min(length, Math.max(0, usedEnd - this.address))
    runtime.bytes.fill(0, this.address + length, this.address + length + 16)
    forgotten.register(this, [runtime, this.address], this)
  }

  /** The view handed out, and the memory view it was cut from (a growth replaces that one). */
  private view: Uint8Array | null = null
  private viewOf: Uint8Array | null = null

  get bytes(): Uint8Array {
    // Kept while memory has not grown: an open asks for the bytes once per sequence.
    const memory = this.runtime.bytes
    if (this.viewOf !== memory) {
      // A view kept after the file (or its FileBuffer) was dropped keeps the region from being freed.
      this.view = ownedBy(memory.subarray(this.address, this.address + this.length), this)
      this.viewOf = memory
    }
    return this.view!
  }

  release(): void {
    if (this.released) return
    this.released = true
    forgotten.unregister(this)
    this.runtime.regions.free(this.address)
  }

  zeroStale(): void {
    this.runtime.bytes.fill(0, this.address, this.address + this.stale)
  }
}

/**
 * The WebAssembly backend over a runtime (default: the process's; throws when WebAssembly
 * with SIMD is unavailable, see wasmUnavailableReason). Node's pool passes a worker's own.
 */
export function createWasmBackend(runtime: WasmRuntime = wasmRuntime()): ColumnsBackend {
  const kernels = runtime.kernels
  const scratch = runtime.scratchAddress
  const output = runtime.outputAddress
  // Copied runs take steps of up to 2 MiB through a staging region (fewer calls than 128 KiB steps through the
  // output buffer). It is allocated with the first file, since allocating may grow memory
  // (detaching views) and a read should not; where it cannot be had (a worker's arena), the output buffer serves.
  let staging = 0
  function loadStaging(): void {
    if (staging !== 0) return
    try {
      staging = runtime.regions.allocate(8 * LARGE_COPY_VALUES + 4096)
    } catch {
      staging = output
    }
    // Where reads keep the entries of sequence dictionaries of more than 2,048 entries (the kernels' static
    // table). None in a worker's arena: such entries are then read one by one.
    try {
      kernels.cascadeEntriesTable(runtime.regions.allocate(8 * ENTRIES_TABLE_VALUES), ENTRIES_TABLE_VALUES)
    } catch {
      kernels.cascadeEntriesTable(0, 0)
    }
  }
  // The read in progress, set by begin() and read by run(): a read makes no closure and, reading again into
  // an array it read into, no view: on short reads those cost more than the decode.
  let sequence: SequenceView | null = null
  let destination: Int32Array | Float64Array | BigInt64Array = runtime.words
  let offset = 0, perValue = 1, bytesPerValue = 4, copy = false
  let decode: Decode = kernels.decodeRaw
  // decodeInt32's ordinal limit, passed by decodeInt32Limited (made once) rather than by a closure per read.
  let int32Limit = 0
  // The last destination found in linear memory (a ValueBuffer's array), and the last view of staged values
  // with its address (see step). Growth needs no check: it detaches a view of unshared memory (its
  // length becomes 0: nothing to read, a view to make again) and leaves a view of shared memory valid.
  // (Weakly: a ValueBuffer's array keeps its buffer alive, and the last one read into must not outlive its caller's use.)
  let inPlaceTarget: WeakRef<Int32Array | Float64Array | BigInt64Array> | null = null
  let staged: Int32Array | Float64Array | BigInt64Array | null = null
  let stagedAt = 0
  // The staged view's type, a key beside stagedAt; the destination's, read by begin().
  let stagedType: unknown = null, destinationType: unknown = null
  const decodeInt32Limited: Decode = (records, data, valueCount, from, n, out) => kernels.decodeInt32(records, data, valueCount, from, n, int32Limit, out)
  const decodeOrdinalsLimited: Decode = (records, data, valueCount, from, n, out) => kernels.decodeRawOrdinals(records, data, valueCount, from, n, int32Limit, out)
  // v2 sequences v1's kernels cannot read (cascade not null): the cascade kernels, selected per read (cascade.ts).
  const cascade = createCascadeReads(runtime)

  /**
   * Starts a read into target, value v at element perValue × (v + valueOffset): in place when target lies in
   * linear memory (a ValueBuffer), else in steps through the staging region (or the output buffer), copied out.
   * Returns whether the read is in place.
   */
  function begin(of: SequenceView, target: Int32Array | Float64Array | BigInt64Array, valueOffset: number, elementsPerValue: number, kernel: Decode): boolean {
    sequence = of
    destination = target
    destinationType = target.constructor
    offset = valueOffset
    perValue = elementsPerValue
    // The destination's getters and its constructor (a lookup through the prototypes) are read once per read, not
    // at each step, where they cost as much as making a view.
    bytesPerValue = elementsPerValue * target.BYTES_PER_ELEMENT
    decode = kernel
    // A typed array's buffer is a getter call: a ValueBuffer's array, read again and again, is known.
    if (target === inPlaceTarget?.deref()) return !(copy = false)
    copy = target.buffer !== runtime.buffer
    if (!copy) inPlaceTarget = new WeakRef(target)
    return !copy
  }

  /** Decodes values [start, start + n) of the read begun to out and, copying, on to their place: the kernel's status. */
  function step(start: number, n: number, out: number): number {
    const of = sequence!, base = of.file.address
    const status = decode(base + of.recordsStart, base + of.dataStart, of.count, start, n, out)
    const written = status > 1 ? runtime.words[runtime.scratchWord] >>> 0 : status ? 0 : n
    if (copy && written) {
      // The staged values' view: the last one made, unless its address, length or type differ.
      const elements = perValue * written
      if (staged === null || stagedAt !== out || staged.length !== elements || stagedType !== destinationType) {
        // stagedAt only once the view exists: a constructor that threw must not leave a key for an old view.
        staged = new (destinationType as Int32ArrayConstructor)(runtime.buffer, out, elements)
        stagedAt = out
        stagedType = destinationType
      }
      // Same types, so a memmove (the cast only names one of them).
      (destination as Int32Array).set(staged as Int32Array, perValue * (offset + start))
    }
    return status
  }

  /**
   * Decodes values [first, first + count) of the read begun: -1, or the position of a refused value (status 2 or
   * 3) with the values before it written, none after it, like the TS backend.
   */
  const run: Run = (first, count) => {
    // No staging (a pool worker, whose files lie in shared memory and are never loaded): the output buffer.
    const stage = staging || output
    const steps = !copy ? count : count * bytesPerValue <= SHORT_RUN_BYTES ? SHORT_STEP_BYTES / bytesPerValue : stage === output ? COPY_VALUES : LARGE_COPY_VALUES
    // In place: one step, decoded where its first value goes. Copied steps start 1 KiB past the destination's
    // offset within a 4 KiB page: a copy between equal page offsets (as a page-aligned output buffer and array
    // would have) runs at 2/3 of the speed here. Steps are multiples of 1,024 values: whole 4 KiB pages of output, so
    // each step has its first's offset, and whole pieces for a table index error (below).
    const address = destination.byteOffset + bytesPerValue * (offset + first), out = copy ? stage + ((address + 1024 - stage) & 4095) : address
    for (let done = 0, chunk = 0; done < count; done += chunk) {
      chunk = Math.min(steps, count - done)
      const status = step(first + done, chunk, out)
      if (status === 1) {
        // A table index error (a corrupt file): the TS backend has written the 1,024-value pieces of a typed
        // decode before the one that fails, the values of a raw decode before the bad one. Copy as much, then throw.
        const piece = decode === kernels.decodeRaw ? 1 : 1024
        for (let at = done; copy && at < done + chunk && !step(first + at, Math.min(piece, done + chunk - at), out);) at += piece
        tableIndexError(runtime, sequence!)
      }
      if (status) return done + (runtime.words[runtime.scratchWord] >>> 0)
    }
    return -1
  }

  /** Ends a read: the backend keeps no reference to the caller's array (only views of linear memory; a read that throws, a corrupt file's, leaves it until the next). */
  function end<T>(result: T): T {
    sequence = null
    cascade.done()
    destination = runtime.words
    return result
  }
  const backend: ColumnsBackend = {
    name: 'wasm',
    copy: LIBRARY_COPY,
    load(bytes: Uint8Array): ResidentFile {
      loadStaging()
      const file = new WasmResidentFile(runtime, bytes.length)
      runtime.bytes.set(bytes, file.address)
      return file
    },
    loadWith(length, fill): ResidentFile {
      loadStaging()
      const file = new WasmResidentFile(runtime, length)
      try {
        fill(file.bytes)
      } catch (error) {
        file.release()
        throw error
      }
      return file
    },
    hash(file, start, end, out) {
      kernels.xxh64(file.address + start, end - start, 0, 0, scratch)
      out[0] = runtime.words[runtime.scratchWord]
      out[1] = runtime.words[runtime.scratchWord + 1]
    },
    getRaw(sequence, index) {
      if (sequence.cascade !== null) return cascade.get(sequence, index)
      const base = sequence.file.address
      if (kernels.getRaw(base + sequence.recordsStart, base + sequence.dataStart, index, scratch) !== 0) {
        tableIndexError(runtime, sequence)
      }
      int64Result[0] = runtime.words[runtime.scratchWord]
      int64Result[1] = runtime.words[runtime.scratchWord + 1]
    },
    getNumber(sequence, index) {
      const cascade = sequence.cascade, base = sequence.file.address
      if (cascade !== null) return kernels.cascadeGetNumber(base + cascade.start, index)
      return kernels.getRawNumber(base + sequence.recordsStart, base + sequence.dataStart, index)
    },
    // Runs of constant blocks bound for an array outside linear memory are filled there, in the Node build (constant-spans.ts).
    decodeRaw(of, first, count, target, destinationIndex) {
      const kernel = of.cascade === null ? kernels.decodeRaw : cascade.select(of, cascade.raw)
      if (begin(of, target, destinationIndex - first, target instanceof BigInt64Array ? 1 : 2, kernel)) run(first, count)
      else rawSpans(of, first, count, target, destinationIndex, run)
      end(0)
    },
    decodeFloat64(of, first, count, mode: Float64Mode, target, destinationIndex) {
      const sortable = mode === 'sortable'
      const kernel = of.cascade === null ? (sortable ? kernels.decodeFloat64Sortable : kernels.decodeFloat64Exact)
        : cascade.select(of, sortable ? cascade.sortable : cascade.exact)
      return end(begin(of, target, destinationIndex - first, 1, kernel)
        ? run(first, count) : float64Spans(of, first, count, sortable, target, destinationIndex, run))
    },
    decodeInt32(of, first, count, ordinalLimit, target, destinationIndex) {
      int32Limit = ordinalLimit >= 0 ? ordinalLimit : 0xffffffff
      const kernel = of.cascade === null ? decodeInt32Limited : cascade.select(of, cascade.int32, int32Limit)
      return end(begin(of, target, destinationIndex - first, 1, kernel)
        ? run(first, count) : int32Spans(of, first, count, ordinalLimit, target, destinationIndex, run))
    },
    decodeRanks(codes, ranks, target, offset, width, extremes) {
      const table = backend.loadWith(ranks.byteLength, (bytes) => bytes.set(new Uint8Array(ranks.buffer, ranks.byteOffset, ranks.byteLength)))
      try {
        // The node's form byte: a cascade's start, or 13 bytes (form, counts) before the records of blocks of v1's kinds alone.
        const node = codes.cascade !== null ? codes.cascade.start : codes.recordsStart - 13
        // In calls of RANK_CALL_VALUES: the optimizing tier replaces a function's baseline code
        // only for later calls, so one call over millions of codes would run unoptimized throughout.
        for (let from = 0; from < codes.count; from += RANK_CALL_VALUES) {
          const status = kernels.decodeRanks(codes.file.address + node, from, Math.min(codes.count, from + RANK_CALL_VALUES), ranks.length, table.address,
            target.address + offset, width, target.address + extremes)
          if (status !== -1) return status
        }
        return -1
      } finally {
        table.release()
      }
    },
    decodeOrdinals(of, first, count, ordinalLimit, target, destinationIndex) {
      int32Limit = ordinalLimit
      const kernel = of.cascade === null ? decodeOrdinalsLimited : cascade.select(of, cascade.ordinals, ordinalLimit)
      begin(of, target, destinationIndex - first, 1, kernel)
      return end(run(first, count))
    },
    checkCanonical(sequence, minMax, canonical) {
      const base = sequence.file.address
      const block = kernels.checkCanonical(base + sequence.recordsStart, base + sequence.dataStart, sequence.count, output)
      if (block === -2) tableIndexError(runtime, sequence)
      const words = runtime.words, out = output >>> 2, at = runtime.scratchWord
      for (let index = 0; index < 4; index++) minMax[index] = words[out + index]
      if (block >= 0) {
        canonical[0] = words[at]
        canonical[1] = words[at + 1]
        for (let index = 2; index < 6; index++) canonical[index] = words[at + index]
      }
      return block
    },
    decodeTerms: (job, detail) => decodeTermsWasm(runtime, job, detail),
    decodeDigits: (job, detail) => decodeDigitsWasm(runtime, backend, job, detail),
    // The bitmap and ranks are JS copies made at open; a call into WebAssembly would cost more than the popcount.
    rank: rankOf,
    // v2 sequences of other forms are decoded a chunk at a time for the kernels (src/cascade/query-adapter.ts).
    query: withCascadeQueries(createWasmQueryKernels(runtime), () => backend),
  }
  return backend
}
