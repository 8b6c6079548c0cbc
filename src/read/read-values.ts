/**
 * Bulk decode into the caller's typed array. BigInt64Array destinations are
 * filled in place through an int32 view; other types go through a block-sized
 * scratch and are converted without BigInt.
 */
import type { ColumnsBackend, SequenceView } from '../backend/backend.js'
import { BLOCK_VALUES, type ColumnType } from '../format/constants.js'
import { CorruptIndexException } from '../format/errors.js'
import { int64ToBigInt, int64ToNumber, sortableToFloat64 } from '../format/int64.js'

const scratch = new Int32Array(2 * BLOCK_VALUES)
// One cached int32 view of the last BigInt64Array destination: reusing a destination allocates nothing.
let viewedDestination: BigInt64Array | null = null
let destinationWords: Int32Array = new Int32Array(0)

function wordsOf(destination: BigInt64Array): Int32Array {
  if (destination !== viewedDestination || destinationWords.buffer !== destination.buffer || destinationWords.length !== 2 * destination.length) {
    destinationWords = new Int32Array(destination.buffer, destination.byteOffset, 2 * destination.length)
    viewedDestination = destination
  }
  return destinationWords
}

function ordinalError(sequence: SequenceView, valueIndex: number, low: number, high: number, termCount: number): never {
  throw new CorruptIndexException(
    sequence.fileName,
    `${sequence.label}: value ${valueIndex} has ordinal ${int64ToBigInt(low, high)}, not in [0, ${termCount}, the term ordinals)`,
  )
}

/** Fills destination with values [first, first + destination.length) of the sequence. */
export function readValuesInto(
  backend: ColumnsBackend, sequence: SequenceView, type: ColumnType, field: string, termCount: number,
  first: number, destination: BigInt64Array | Float64Array | Int32Array,
): void {
  const count = destination.length
  if (destination instanceof BigInt64Array) {
    const words = wordsOf(destination)
    backend.decodeRaw(sequence, first, count, words, 0)
    if (termCount >= 0) {
      for (let index = 0; index < count; index++) {
        const low = words[2 * index], high = words[2 * index + 1]
        if (high !== 0 || low >>> 0 >= termCount) ordinalError(sequence, first + index, low, high, termCount)
      }
    }
    return
  }
  const doubles = type === 'fractional' || type === 'geo_point'
  const isFloat = destination instanceof Float64Array
  if (!isFloat && !(destination instanceof Int32Array)) {
    throw new TypeError('readValues: destination must be a BigInt64Array, Float64Array or Int32Array')
  }
  if (!isFloat && doubles) {
    throw new TypeError(`field "${field}" is ${type}; read it into a Float64Array (doubles) or BigInt64Array (raw)`)
  }
  for (let done = 0; done < count; done += BLOCK_VALUES) {
    const chunk = Math.min(BLOCK_VALUES, count - done)
    backend.decodeRaw(sequence, first + done, chunk, scratch, 0)
    if (doubles) {
      for (let index = 0; index < chunk; index++) destination[done + index] = sortableToFloat64(scratch[2 * index], scratch[2 * index + 1])
      continue
    }
    for (let index = 0; index < chunk; index++) {
      const low = scratch[2 * index], high = scratch[2 * index + 1]
      if (termCount >= 0 && (high !== 0 || low >>> 0 >= termCount)) ordinalError(sequence, first + done + index, low, high, termCount)
      if (isFloat) {
        const value = int64ToNumber(low, high)
        if (!Number.isSafeInteger(value)) {
          throw new RangeError(`field "${field}": value ${first + done + index} (${int64ToBigInt(low, high)}) is beyond 2^53; read into a BigInt64Array`)
        }
        destination[done + index] = value
      } else {
        if (high !== low >> 31) {
          throw new RangeError(`field "${field}": value ${first + done + index} (${int64ToBigInt(low, high)}) does not fit an Int32Array; use a Float64Array or BigInt64Array`)
        }
        destination[done + index] = low
      }
    }
  }
}
