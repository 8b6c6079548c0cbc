/**
 * Natural units to raw i64: dates as Date | ms number | bigint ms, integers as
 * number | bigint (a non-integer lower bound rounds up, an upper bound down),
 * doubles through SortableBits with both zeros treated as one value (a bigint
 * for a fractional column is a raw SortableBits value, for exact raw ranges).
 */
import type { ColumnType } from '../format/constants.js'
import { float64ToSortableBits } from '../format/sortable-bits.js'

/** A bound or edge as users give it. */
export type NaturalValue = number | bigint | Date | boolean

const MIN_INT64 = -(2n ** 63n)
const MAX_INT64 = 2n ** 63n - 1n
const NEGATIVE_ZERO_RAW = float64ToSortableBits(-0)
const POSITIVE_ZERO_RAW = 0n

/** Which end of an inclusive range (or a histogram edge, which acts as a lower bound). */
export type BoundSide = 'lower' | 'upper'

/**
 * The raw i64 for a bound, or null when no value can satisfy it (a lower bound
 * above every i64, an upper bound below). Throws for NaN, invalid dates, and
 * values of the wrong kind.
 */
export function rawBound(field: string, type: ColumnType, value: NaturalValue, side: BoundSide): bigint | null {
  if (type === 'fractional' || type === 'geo_point') return rawDoubleBound(field, value, side)
  let integer: bigint
  if (value instanceof Date) {
    if (type !== 'date') throw new TypeError(`field "${field}" is ${type}; Date bounds are for date columns`)
    const time = value.getTime()
    if (Number.isNaN(time)) throw new RangeError(`field "${field}": invalid Date bound`)
    integer = BigInt(time)
  } else if (typeof value === 'boolean') {
    integer = value ? 1n : 0n
  } else if (typeof value === 'bigint') {
    integer = value
  } else if (typeof value === 'number') {
    if (Number.isNaN(value)) throw new RangeError(`field "${field}": NaN is not a bound`)
    if (value === Infinity) return side === 'lower' ? null : MAX_INT64
    if (value === -Infinity) return side === 'lower' ? MIN_INT64 : null
    integer = BigInt(side === 'lower' ? Math.ceil(value) : Math.floor(value))
  } else {
    throw new TypeError(`field "${field}": bound ${String(value)} is not a number, bigint or Date`)
  }
  if (side === 'lower') return integer > MAX_INT64 ? null : integer < MIN_INT64 ? MIN_INT64 : integer
  return integer < MIN_INT64 ? null : integer > MAX_INT64 ? MAX_INT64 : integer
}

function rawDoubleBound(field: string, value: NaturalValue, side: BoundSide): bigint | null {
  if (typeof value === 'bigint') {
    if (value < MIN_INT64 || value > MAX_INT64) throw new RangeError(`field "${field}": raw bound ${value} is outside the i64 range`)
    return value
  }
  if (typeof value !== 'number') throw new TypeError(`field "${field}": bound ${String(value)} is not a number (or a raw SortableBits bigint)`)
  if (Number.isNaN(value)) throw new RangeError(`field "${field}": NaN is not a bound (use raw SortableBits bigints to select NaNs)`)
  // -0 and +0 are one value: a range that reaches zero takes both.
  if (value === 0) return side === 'lower' ? NEGATIVE_ZERO_RAW : POSITIVE_ZERO_RAW
  return float64ToSortableBits(value)
}

/** Natural value as a number or bigint for ordering checks (Date → ms, boolean → 0/1). */
function comparable(value: NaturalValue): number | bigint {
  if (value instanceof Date) return value.getTime()
  if (typeof value === 'boolean') return value ? 1 : 0
  return value
}

/**
 * Raw edges of a histogram plus, for each raw bucket, the user's bucket it
 * counts for: integer edges that round to the same raw value leave empty buckets.
 */
export function rawEdges(field: string, type: ColumnType, edges: readonly NaturalValue[]): { raw: bigint[]; bucketOf: number[] } {
  if (edges.length < 2) throw new RangeError(`field "${field}": a histogram needs at least 2 edges, got ${edges.length}`)
  const raw: bigint[] = []
  const bucketOf: number[] = []
  for (let index = 0; index < edges.length; index++) {
    if (index > 0 && !(comparable(edges[index - 1]) < comparable(edges[index]))) {
      throw new RangeError(`field "${field}": histogram edges must be strictly increasing (edge ${index})`)
    }
    const edge = rawBound(field, type, edges[index], 'lower')
    if (edge === null) throw new RangeError(`field "${field}": histogram edge ${String(edges[index])} is beyond the i64 range`)
    if (raw.length > 0 && raw[raw.length - 1] === edge) {
      // The user's bucket index - 1 is empty; the raw bucket starting here counts for bucket index.
      bucketOf[bucketOf.length - 1] = index
      continue
    }
    raw.push(edge)
    bucketOf.push(index)
  }
  bucketOf.pop()
  return { raw, bucketOf }
}
