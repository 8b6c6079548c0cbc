/**
 * Bulk decode into the caller's typed array: BigInt64Array destinations by the
 * backend's raw decode, doubles and int32 by its typed decodes; errors name the
 * field and the value.
 */
import type { ColumnsBackend, SequenceView } from '../backend/backend.js'
import type { ColumnType } from '../format/constants.js'
import { CorruptIndexException } from '../format/errors.js'
import { int64Result, int64ToBigInt } from '../format/int64.js'

/** What is wrong with a keyword value whose ordinal (low, high words) is no term's: one wording for every read path. */
export function ordinalOutOfRange(valueIndex: number, low: number, high: number, termCount: number): string {
  return `value ${valueIndex} has ordinal ${int64ToBigInt(low, high)}, not in [0, ${termCount}), the term ordinals`
}

/** The full check's words (and merge's) for a bool value other than 0 or 1. */
export function notABool(valueIndex: number, low: number, high: number): string {
  return `value ${valueIndex} is ${int64ToBigInt(low, high)}, not a bool (0 or 1)`
}

/** The full check's words (and merge's) for a geo part outside [-bound, bound] degrees, NaN included. */
export function outsideDegrees(valueIndex: number, part: 'latitude' | 'longitude', degrees: number, bound: number): string {
  return `value ${valueIndex} has ${part} ${degrees}, outside [-${bound}, ${bound}]`
}

function ordinalError(sequence: SequenceView, valueIndex: number, low: number, high: number, termCount: number): never {
  throw new CorruptIndexException(sequence.fileName, `${sequence.label}: ${ordinalOutOfRange(valueIndex, low, high, termCount)}`)
}

/** The remedy readValues' message ends with for an integer a double cannot hold (toArray puts its own in its place). */
export const BEYOND_DOUBLES = 'read into a BigInt64Array'

/** Fills destination (one of the three kinds: Column.readValues checks) with values [first, first + destination.length) of the sequence. */
export function readValuesInto(
  backend: ColumnsBackend, sequence: SequenceView, type: ColumnType, field: string, termCount: number,
  first: number, destination: BigInt64Array | Float64Array | Int32Array,
): void {
  const count = destination.length
  if (destination instanceof BigInt64Array) {
    // Given as it is: the WebAssembly backend needs no int32 view of it (making one costs more than a short read).
    if (termCount < 0) return backend.decodeRaw(sequence, first, count, destination, 0)
    // Ordinals checked by the backend as it decodes (in the kernels, with WebAssembly), not by a loop here after.
    const bad = backend.decodeOrdinals(sequence, first, count, termCount, destination, 0)
    if (bad < 0) return
    backend.getRaw(sequence, first + bad)
    ordinalError(sequence, first + bad, int64Result[0], int64Result[1], termCount)
  }
  const doubles = type === 'fractional' || type === 'geo_point'
  if (destination instanceof Float64Array) {
    if (termCount >= 0) return ordinalsAsDoubles(backend, sequence, termCount, first, destination)
    const bad = backend.decodeFloat64(sequence, first, count, doubles ? 'sortable' : 'exact', destination, 0)
    if (bad >= 0) {
      backend.getRaw(sequence, first + bad)
      throw new RangeError(`field "${field}": value ${first + bad} (${int64ToBigInt(int64Result[0], int64Result[1])}) is beyond 2^53; ${BEYOND_DOUBLES}`)
    }
    return
  }
  if (doubles) {
    throw new TypeError(`field "${field}" is ${type}; read it into a Float64Array (doubles) or BigInt64Array (raw)`)
  }
  const bad = backend.decodeInt32(sequence, first, count, termCount, destination, 0)
  if (bad < 0) return
  backend.getRaw(sequence, first + bad)
  const low = int64Result[0], high = int64Result[1]
  if (termCount >= 0) ordinalError(sequence, first + bad, low, high, termCount)
  throw new RangeError(`field "${field}": value ${first + bad} (${int64ToBigInt(low, high)}) does not fit an Int32Array; use a Float64Array or BigInt64Array`)
}

/** Ordinals widened to doubles a chunk at a time (no scratch in proportion to the read). */
const ORDINAL_CHUNK = 65536
let ordinalScratch = new Int32Array(0)

/**
 * Keyword ordinals into doubles: decoded as int32 and checked against the term count
 * by the backend's int32 decode (in the kernel, with WebAssembly), then widened by the engine's
 * typed-array copy; a chunk with an ordinal out of range writes nothing.
 */
function ordinalsAsDoubles(backend: ColumnsBackend, sequence: SequenceView, termCount: number, first: number, destination: Float64Array): void {
  if (ordinalScratch.length === 0) ordinalScratch = new Int32Array(ORDINAL_CHUNK)
  for (let at = 0; at < destination.length; at += ORDINAL_CHUNK) {
    const part = ordinalScratch.subarray(0, Math.min(ORDINAL_CHUNK, destination.length - at))
    const bad = backend.decodeInt32(sequence, first + at, part.length, termCount, part, 0)
    if (bad >= 0) {
      backend.getRaw(sequence, first + at + bad)
      ordinalError(sequence, first + at + bad, int64Result[0], int64Result[1], termCount)
    }
    destination.set(part, at)
  }
}
