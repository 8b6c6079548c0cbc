/**
 * The WebAssembly backend: files live in linear memory (copied once at open),
 * hot loops run in the kernels of assembly/, results come back through the
 * kernels' scratch area and output buffer. Same answers as the TS backend,
 * including error messages.
 */
import type { ColumnsBackend, Float64Mode, ResidentFile } from '../backend.js'
import { int64Result } from '../../format/int64.js'
import { rankOf } from '../bits.js'
import { createWasmQueryKernels } from './query.js'
import { OUTPUT_VALUES, tableIndexError, type WasmRuntime, wasmRuntime } from './runtime.js'

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
  return {
    name: 'wasm',
    load(bytes: Uint8Array): ResidentFile {
      const file = new WasmResidentFile(runtime, bytes.length)
      runtime.bytes.set(bytes, file.address)
      return file
    },
    loadWith(length, fill): ResidentFile {
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
    decodeRaw(sequence, first, count, destination, destinationIndex) {
      const base = sequence.file.address
      const records = base + sequence.recordsStart, data = base + sequence.dataStart
      // A destination in linear memory (a ValueBuffer) is decoded into in place: no output buffer, no copy.
      if (destination.buffer === runtime.bytes.buffer) {
        if (kernels.decodeRaw(records, data, sequence.count, first, count, destination.byteOffset + 8 * destinationIndex) !== 0) {
          tableIndexError(runtime, sequence)
        }
        return
      }
      for (let done = 0; done < count; done += OUTPUT_VALUES) {
        const chunk = Math.min(OUTPUT_VALUES, count - done)
        if (kernels.decodeRaw(records, data, sequence.count, first + done, chunk, output) !== 0) tableIndexError(runtime, sequence)
        destination.set(runtime.outputWords(chunk), 2 * (destinationIndex + done))
      }
    },
    decodeFloat64(sequence, first, count, mode: Float64Mode, destination, destinationIndex) {
      const base = sequence.file.address
      const records = base + sequence.recordsStart, data = base + sequence.dataStart
      // In place into linear memory, as decodeRaw; only 'sortable' (no value can be refused, so nothing is half-written).
      if (mode === 'sortable' && destination.buffer === runtime.bytes.buffer) {
        if (kernels.decodeFloat64Sortable(records, data, sequence.count, first, count, destination.byteOffset + 8 * destinationIndex) !== 0) {
          tableIndexError(runtime, sequence)
        }
        return -1
      }
      for (let done = 0; done < count; done += OUTPUT_VALUES) {
        const chunk = Math.min(OUTPUT_VALUES, count - done)
        const status = mode === 'sortable'
          ? kernels.decodeFloat64Sortable(records, data, sequence.count, first + done, chunk, output)
          : kernels.decodeFloat64Exact(records, data, sequence.count, first + done, chunk, output)
        if (status === 2) {
          // Like the TS backend: the values before the bad one are written, nothing after it.
          const position = runtime.words[runtime.scratchWord] >>> 0
          if (position > 0) destination.set(runtime.outputFloats(position), destinationIndex + done)
          return done + position
        }
        if (status !== 0) tableIndexError(runtime, sequence)
        destination.set(runtime.outputFloats(chunk), destinationIndex + done)
      }
      return -1
    },
    decodeInt32(sequence, first, count, ordinalLimit, destination, destinationIndex) {
      const base = sequence.file.address
      const records = base + sequence.recordsStart, data = base + sequence.dataStart
      const limit = ordinalLimit >= 0 ? ordinalLimit : 0xffffffff
      for (let done = 0; done < count; done += OUTPUT_VALUES) {
        const chunk = Math.min(OUTPUT_VALUES, count - done)
        const status = kernels.decodeInt32(records, data, sequence.count, first + done, chunk, limit, output)
        if (status === 2 || status === 3) {
          const position = runtime.words[runtime.scratchWord] >>> 0
          if (position > 0) destination.set(runtime.outputInt32(position), destinationIndex + done)
          return done + position
        }
        if (status !== 0) tableIndexError(runtime, sequence)
        destination.set(runtime.outputInt32(chunk), destinationIndex + done)
      }
      return -1
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
