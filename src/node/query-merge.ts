/**
 * The pool's side of a query: document ranges per worker, merged results,
 * DocSets in shared memory and errors rebuilt with their class.
 */
import type { ColumnsBackend } from '../backend/backend.js'
import type { BitsetMemory } from '../backend/query-kernels.js'
import { typeScriptBackend } from '../backend/ts/index.js'
import { BackendUnavailableError, CorruptIndexException, InvalidInputError, ResidentLimitError } from '../format/errors.js'
import { int64ToBigInt, sortableToFloat64 } from '../format/int64.js'
import type { Aggregate } from '../kernels/aggregations.js'
import type { SerializedError } from './query-protocol.js'

/** Documents per alignment unit of a range: a whole number of blocks of a dense column and of bitset words. */
export const RANGE_ALIGNMENT = 1024

/** Splits [0, maxDoc) into at most `parts` contiguous ranges starting at multiples of RANGE_ALIGNMENT (at least one range). */
export function splitDocuments(maxDoc: number, parts: number): { from: number; to: number }[] {
  const units = Math.ceil(maxDoc / RANGE_ALIGNMENT)
  const count = Math.max(1, Math.min(parts, units))
  const ranges: { from: number; to: number }[] = []
  for (let part = 0; part < count; part++) {
    const from = Math.floor((part * units) / count) * RANGE_ALIGNMENT
    const to = part === count - 1 ? maxDoc : Math.floor(((part + 1) * units) / count) * RANGE_ALIGNMENT
    ranges.push({ from: Math.min(from, maxDoc), to })
  }
  return ranges
}

/** Zeroed words in a SharedArrayBuffer, as kernel memory (TS kernels read them in place in any thread). */
function allocateShared(wordCount: number): BitsetMemory {
  const words = new Int32Array(new SharedArrayBuffer(4 * wordCount))
  return { words, address: 0, wordCount, release() {} }
}

/**
 * The backend of pooled DocSets: the TS kernels with bitsets in shared memory,
 * so a pooled DocSet goes to every worker as it is.
 */
export const sharedMemoryBackend: ColumnsBackend = {
  ...typeScriptBackend,
  sharedMemory: true,
  query: { ...typeScriptBackend.query, allocateBitset: allocateShared },
}

/** Adds each part's counts into the first. */
export function sumCounts(parts: Uint32Array[]): Uint32Array {
  const total = parts[0]
  for (let part = 1; part < parts.length; part++) {
    const counts = parts[part]
    for (let index = 0; index < total.length; index++) total[index] += counts[index]
  }
  return total
}

/** An aggregate state as the workers send it (see AggregateState). */
export interface AggregateParts {
  numbers: Float64Array
  words: Int32Array
}

function exact(value: bigint): number | bigint {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value
}

/**
 * Combines per-range states in range order: count added; min/max compared as
 * raw i64 (SortableBits order for doubles, as the kernels compare); integer sums
 * added exactly as 128-bit values; double sums added range after range.
 */
export function mergeAggregates(parts: AggregateParts[], doubles: boolean): Aggregate {
  let count = 0, doubleSum = -0, integerSum = 0n, nanCount = 0
  let min: bigint | null = null, max: bigint | null = null
  for (const { numbers, words } of parts) {
    nanCount += numbers[2]
    if (numbers[0] === 0) continue
    count += numbers[0]
    const partMin = int64ToBigInt(words[0], words[1]), partMax = int64ToBigInt(words[2], words[3])
    if (min === null || partMin < min) min = partMin
    if (max === null || partMax > max) max = partMax
    if (doubles) doubleSum += numbers[1]
    else integerSum += (BigInt.asIntN(64, int64ToBigInt(words[6], words[7])) << 64n) | BigInt.asUintN(64, int64ToBigInt(words[4], words[5]))
  }
  if (count === 0 || min === null || max === null) return doubles ? { count, min: null, max: null, sum: 0, nanCount } : { count, min: null, max: null, sum: 0 }
  if (doubles) {
    const asDouble = (raw: bigint): number => sortableToFloat64(Number(BigInt.asIntN(32, raw)), Number(BigInt.asIntN(32, raw >> 32n)))
    return { count, min: asDouble(min), max: asDouble(max), sum: doubleSum, nanCount }
  }
  return { count, min: exact(min), max: exact(max), sum: exact(integerSum) }
}

type ErrorClass = new (...args: never[]) => Error

const ERROR_CLASSES: Record<string, ErrorClass> = {
  CorruptIndexException, ResidentLimitError, InvalidInputError, BackendUnavailableError,
  TypeError, RangeError, SyntaxError, Error,
}

/** An error from a worker as an instance of its class with the same message and fields (fileName, detail, ...). */
export function rebuildError(serialized: SerializedError): Error {
  const error = new Error(serialized.message)
  const errorClass = ERROR_CLASSES[serialized.name] ?? Error
  Object.setPrototypeOf(error, errorClass.prototype)
  Object.assign(error, serialized.fields)
  if (error.name !== serialized.name) error.name = serialized.name
  return error
}
