/**
 * Typed decodes for the TS backend: raw words in block-sized chunks, converted
 * to doubles or int32 without BigInt.
 */
import type { Float64Mode, SequenceView } from '../backend.js'
import { BLOCK_VALUES } from '../../format/constants.js'
import { sortableToFloat64Into } from '../../format/int64.js'
import { decodeRaw } from './decode.js'
import { decimalDoubles } from '../../cascade/reader/decode-ts.js'

const scratch = new Int32Array(2 * BLOCK_VALUES)

/** See ColumnsBackend.decodeFloat64. */
export function decodeFloat64(
  sequence: SequenceView, first: number, count: number, mode: Float64Mode, destination: Float64Array, destinationIndex: number,
): number {
  // Decimals: n / 10^e into the doubles directly.
  if (mode === 'sortable' && sequence.cascade?.form === 3) {
    decimalDoubles(sequence, first, count, destination, destinationIndex)
    return -1
  }
  for (let done = 0; done < count; done += BLOCK_VALUES) {
    const chunk = Math.min(BLOCK_VALUES, count - done)
    decodeRaw(sequence, first + done, chunk, scratch, 0)
    const out = destinationIndex + done
    if (mode === 'sortable') {
      for (let index = 0; index < chunk; index++) sortableToFloat64Into(scratch[2 * index], scratch[2 * index + 1], destination, out + index)
      continue
    }
    for (let index = 0; index < chunk; index++) {
      const value = scratch[2 * index + 1] * 4294967296 + (scratch[2 * index] >>> 0)
      if (!Number.isSafeInteger(value)) return done + index
      destination[out + index] = value
    }
  }
  return -1
}

/** See ColumnsBackend.decodeInt32. */
export function decodeInt32(
  sequence: SequenceView, first: number, count: number, ordinalLimit: number, destination: Int32Array, destinationIndex: number,
): number {
  for (let done = 0; done < count; done += BLOCK_VALUES) {
    const chunk = Math.min(BLOCK_VALUES, count - done)
    decodeRaw(sequence, first + done, chunk, scratch, 0)
    const out = destinationIndex + done
    for (let index = 0; index < chunk; index++) {
      const low = scratch[2 * index], high = scratch[2 * index + 1]
      const bad = ordinalLimit >= 0 ? high !== 0 || low >>> 0 >= ordinalLimit : high !== low >> 31
      if (bad) return done + index
      destination[out + index] = low
    }
  }
  return -1
}

/** See ColumnsBackend.decodeOrdinals: each chunk decoded into the destination's words, then checked. */
export function decodeOrdinals(
  sequence: SequenceView, first: number, count: number, ordinalLimit: number, destination: Int32Array, destinationIndex: number,
): number {
  for (let done = 0; done < count; done += BLOCK_VALUES) {
    const chunk = Math.min(BLOCK_VALUES, count - done)
    decodeRaw(sequence, first + done, chunk, destination, destinationIndex + done)
    for (let index = 0, d = 2 * (destinationIndex + done); index < chunk; index++, d += 2) {
      if (destination[d + 1] !== 0 || destination[d] >>> 0 >= ordinalLimit) return done + index
    }
  }
  return -1
}

