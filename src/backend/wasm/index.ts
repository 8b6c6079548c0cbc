/**
 * The WebAssembly backend: files live in linear memory (copied once at open),
 * hot loops run in the kernels of assembly/, results come back through the
 * kernels' scratch area and output buffer. Same answers as the TS backend,
 * including error messages.
 */
import type { ColumnsBackend, Float64Mode, ResidentFile, SequenceView } from '../backend.js'
import { int64Result } from '../../format/int64.js'
import { rankOf } from '../bits.js'
import { float64Spans, int32Spans, rawSpans, type Run } from './constant-spans.js'
import { createWasmQueryKernels } from './query.js'
import { COPY_VALUES, LARGE_COPY_VALUES, SHORT_RUN_BYTES, SHORT_STEP_VALUES, tableIndexError, type WasmRuntime, wasmRuntime } from './runtime.js'

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

  constructor(runtime: WasmRuntime, length: number) {
    this.runtime = runtime
    this.length = length
    // 16 bytes of slack: a two-load read of a width > 56 field may look past the last padding.
    this.address = runtime.regions.allocate(length + 16)
    runtime.bytes.fill(0, this.address + length, this.address + length + 16)
    forgotten.register(this, [runtime, this.address], this)
  }

  get bytes(): Uint8Array {
    return this.runtime.bytes.subarray(this.address, this.address + this.length)
  }

  release(): void {
    if (this.released) return
    this.released = true
    forgotten.unregister(this)
    this.runtime.regions.free(this.address)
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
  // Copied runs take steps of up to 2 MiB through a staging region (five flights-3m columns: ~11.7 → ~9 ms against
  // 128 KiB steps through the output buffer, in an ad-hoc run). It is allocated with the first file, since allocating may grow memory
  // (detaching views) and a read should not; where it cannot be had (a worker's arena), the output buffer serves.
  let staging = 0
  function loadStaging(): void {
    if (staging !== 0) return
    try {
      staging = runtime.regions.allocate(8 * LARGE_COPY_VALUES + 4096)
    } catch {
      staging = output
    }
  }
  /**
   * Decodes runs of a sequence by a decode kernel into destination, value v at element perValue × (v + offset):
   * in place when destination lies in linear memory (a ValueBuffer), else in steps through the staging region
   * (or the output buffer), copied out. A run [first, first + count) returns -1, or the position of a refused
   * value (status 2 or 3) with the values before it written, none after it, like the TS backend.
   */
  function runner(sequence: SequenceView, destination: Int32Array | Float64Array, offset: number, perValue: number,
    decode: (records: number, data: number, valueCount: number, first: number, count: number, out: number) => number): Run {
    const base = sequence.file.address
    const copy = destination.buffer !== runtime.bytes.buffer
    // No staging yet (files opened in place from a FileBuffer): the output buffer.
    const stage = staging || output, longSteps = stage === output ? COPY_VALUES : LARGE_COPY_VALUES
    // The destination's getters are read once per run and the staging view made once: per step of 2,048
    // values, reading a typed array's byteOffset, length and buffer cost about 90 ns here, as much as making
    // a view, an eighth of the step (ad hoc).
    const bytesPerValue = perValue * destination.BYTES_PER_ELEMENT
    return (first, count) => {
      const steps = copy ? (count * bytesPerValue <= SHORT_RUN_BYTES ? SHORT_STEP_VALUES : longSteps) : count
      // In place: one step, decoded where its first value goes. Copied steps start 1 KiB past the destination's
      // offset within a 4 KiB page: a copy between equal page offsets (as a page-aligned output buffer and array
      // would have) runs at 2/3 of the speed here. Steps are multiples of 512 values, so each has its first's offset.
      const address = destination.byteOffset + bytesPerValue * (offset + first), out = copy ? stage + ((address + 1024 - stage) & 4095) : address
      // The staged values' view, made again only for a step of another length.
      let staged = destination, stagedLength = 0
      const step = (start: number, n: number): number => {
        const status = decode(base + sequence.recordsStart, base + sequence.dataStart, sequence.count, start, n, out)
        const written = status > 1 ? runtime.words[runtime.scratchWord] >>> 0 : status ? 0 : n
        if (copy && written) {
          if (written !== stagedLength) staged = new (destination.constructor as Int32ArrayConstructor)(runtime.bytes.buffer, out, perValue * (stagedLength = written))
          destination.set(staged, perValue * (offset + start))
        }
        return status
      }
      for (let done = 0, chunk = 0; done < count; done += chunk) {
        chunk = Math.min(steps, count - done)
        const status = step(first + done, chunk)
        if (status === 1) {
          // A table index error (a corrupt file): the TS backend has written the 1,024-value pieces of a typed
          // decode before the one that fails, the values of a raw decode before the bad one. Copy as much, then throw.
          const piece = perValue === 2 ? 1 : 1024
          for (let at = done; copy && at < done + chunk && !step(first + at, Math.min(piece, done + chunk - at));) at += piece
          tableIndexError(runtime, sequence)
        }
        if (status) return done + (runtime.words[runtime.scratchWord] >>> 0)
      }
      return -1
    }
  }
  return {
    name: 'wasm',
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
      const base = sequence.file.address
      if (kernels.getRaw(base + sequence.recordsStart, base + sequence.dataStart, index, scratch) !== 0) {
        tableIndexError(runtime, sequence)
      }
      int64Result[0] = runtime.words[runtime.scratchWord]
      int64Result[1] = runtime.words[runtime.scratchWord + 1]
    },
    // Runs of constant blocks bound for an array outside linear memory are filled there, in the Node build (constant-spans.ts).
    decodeRaw(sequence, first, count, destination, destinationIndex) {
      const run = runner(sequence, destination, destinationIndex - first, 2, kernels.decodeRaw)
      if (destination.buffer === runtime.bytes.buffer) run(first, count)
      else rawSpans(sequence, first, count, destination, destinationIndex, run)
    },
    decodeFloat64(sequence, first, count, mode: Float64Mode, destination, destinationIndex) {
      const sortable = mode === 'sortable'
      const run = runner(sequence, destination, destinationIndex - first, 1, sortable ? kernels.decodeFloat64Sortable : kernels.decodeFloat64Exact)
      return destination.buffer === runtime.bytes.buffer ? run(first, count) : float64Spans(sequence, first, count, sortable, destination, destinationIndex, run)
    },
    decodeInt32(sequence, first, count, ordinalLimit, destination, destinationIndex) {
      const limit = ordinalLimit >= 0 ? ordinalLimit : 0xffffffff
      const run = runner(sequence, destination, destinationIndex - first, 1,
        (records, data, valueCount, from, n, out) => kernels.decodeInt32(records, data, valueCount, from, n, limit, out))
      return destination.buffer === runtime.bytes.buffer ? run(first, count) : int32Spans(sequence, first, count, ordinalLimit, destination, destinationIndex, run)
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
    // The bitmap and ranks are JS copies made at open; a call into WebAssembly would cost more than the popcount.
    rank: rankOf,
    query: createWasmQueryKernels(runtime),
  }
}
