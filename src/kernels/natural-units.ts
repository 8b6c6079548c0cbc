/**
 * Natural units to raw i64, meaning what the writer's input means: dates as
 * Date | ms number | bigint ms | ISO-8601 string (the writer's parser),
 * integers as number | bigint (a non-integer lower bound rounds up, an upper
 * bound down), doubles as number | bigint (its double, as the writer stores it)
 * through SortableBits with both zeros treated as one value. `{ raw }` gives a
 * raw i64 as it is (for doubles: SortableBits, the way to select NaNs).
 */
import { isDate } from '../format/brands.js'
import type { ColumnType } from '../format/constants.js'
import { parseIsoDateMillis } from '../format/iso-date.js'
import { MAX_INT64, MIN_INT64 } from '../format/int64.js'
import { float64ToSortableBits, sortableBitsToFloat64 } from '../format/sortable-bits.js'
import { shown } from '../read/file-input.js'

/** A raw i64 bound, taken as it is (doubles: SortableBits). */
export interface RawBound {
  raw: bigint
}

/** A bound or edge as users give it. */
export type NaturalValue = number | bigint | Date | boolean | string | RawBound

const NEGATIVE_ZERO_RAW = float64ToSortableBits(-0)
const POSITIVE_ZERO_RAW = 0n

/** Which end of an inclusive range (or a histogram edge, which acts as a lower bound). */
export type BoundSide = 'lower' | 'upper'

/** An object literal's kind (or one with no prototype): the { raw } bounds whose keys are checked. */
export function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function rawOf(field: string, value: object): bigint | null {
  if (isDate(value) || !('raw' in value)) return null
  const raw = (value as RawBound).raw
  if (typeof raw !== 'bigint' || raw < MIN_INT64 || raw > MAX_INT64) {
    throw new RangeError(`field "${field}": { raw } must hold a bigint in the i64 range, got ${shown(raw)}`)
  }
  // In a plain object another key would be dropped unseen (the writer refuses { bits } with others alike); an
  // instance of a class is read for its raw alone, which may be a getter.
  const others = isPlainObject(value) ? Object.keys(value).filter((key) => key !== 'raw') : []
  if (others.length !== 0) throw new TypeError(`field "${field}": a { raw } bound holds raw alone, got also ${others.map((key) => JSON.stringify(key)).join(', ')}`)
  return raw
}

/**
 * The raw i64 for a bound, or null when no value can satisfy it (a lower bound
 * above every i64, an upper bound below). Throws for NaN, invalid dates, and
 * values of the wrong kind.
 */
export function rawBound(field: string, type: ColumnType, value: NaturalValue, side: BoundSide): bigint | null {
  if (value !== null && typeof value === 'object') {
    const raw = rawOf(field, value)
    if (raw !== null) return raw
  }
  if (type === 'fractional' || type === 'geo_point') return rawDoubleBound(field, value, side)
  let integer: bigint
  if (isDate(value)) {
    if (type !== 'date') throw new TypeError(`field "${field}" is ${type}; Date bounds are for date columns`)
    const time = value.getTime()
    if (Number.isNaN(time)) throw new RangeError(`field "${field}": invalid Date bound`)
    integer = BigInt(time)
  } else if (typeof value === 'string') {
    if (type !== 'date') throw new TypeError(`field "${field}" is ${type}; string bounds are ISO-8601 dates, for date columns`)
    const millis = parseIsoDateMillis(value)
    if (typeof millis === 'string') throw new RangeError(`field "${field}": invalid date bound ${JSON.stringify(value)}: ${millis}`)
    integer = BigInt(millis)
  } else if (typeof value === 'boolean') {
    if (type !== 'bool') throw new TypeError(`field "${field}" is ${type}; boolean bounds are for bool columns`)
    integer = value ? 1n : 0n
  } else if (typeof value === 'bigint') {
    integer = value
  } else if (typeof value === 'number') {
    if (Number.isNaN(value)) throw new RangeError(`field "${field}": NaN is not a bound`)
    if (value === Infinity) return side === 'lower' ? null : MAX_INT64
    if (value === -Infinity) return side === 'lower' ? MIN_INT64 : null
    // From 2^53 on, numbers skip integers: 2 ** 53 + 1 arrives as 2 ** 53, so the bound asked for is unknowable.
    if (Math.abs(value) >= 2 ** 53) {
      throw new RangeError(`field "${field}": bound ${value} is beyond 2^53, where a number cannot hold every integer; pass a bigint (or ±Infinity for no bound)`)
    }
    integer = BigInt(side === 'lower' ? Math.ceil(value) : Math.floor(value))
  } else {
    throw new TypeError(`field "${field}": bound ${shown(value)} is not a number, bigint, Date, ISO date string or { raw }`)
  }
  if (side === 'lower') return integer > MAX_INT64 ? null : integer < MIN_INT64 ? MIN_INT64 : integer
  return integer < MIN_INT64 ? null : integer > MAX_INT64 ? MAX_INT64 : integer
}

function rawDoubleBound(field: string, value: NaturalValue, side: BoundSide): bigint {
  // A bigint means the double the writer would store for it, not raw bits ({ raw } says that).
  const number = typeof value === 'bigint' ? Number(value) : value
  // The writer refuses such a bigint rather than store an infinity: no double is the one it means.
  if (typeof value === 'bigint' && !Number.isFinite(number)) {
    throw new RangeError(`field "${field}": a bigint bound beyond the largest double (about 1.8e308); pass ±Infinity`)
  }
  if (typeof number !== 'number') {
    throw new TypeError(`field "${field}": bound ${shown(value)} is not a number or bigint (or { raw: SortableBits })`)
  }
  if (Number.isNaN(number)) throw new RangeError(`field "${field}": NaN is not a bound (use { raw: SortableBits } bounds to select NaNs)`)
  // -0 and +0 are one value: a range that reaches zero takes both.
  if (number === 0) return side === 'lower' ? NEGATIVE_ZERO_RAW : POSITIVE_ZERO_RAW
  return float64ToSortableBits(number)
}

/** rawBound for rangeFilter's `lo` or `hi`, whose errors say which of the two they are about. */
export function rangeBound(field: string, type: ColumnType, value: NaturalValue, which: 'lo' | 'hi'): bigint | null {
  try {
    return rawBound(field, type, value, which === 'lo' ? 'lower' : 'upper')
  } catch (error) {
    if (error instanceof Error) error.message = `${error.message} (rangeFilter's ${which})`
    throw error
  }
}

/**
 * A natural value (already checked by rawBound) as a number or bigint for ordering checks: dates in
 * ms, doubles as the double stored (so 2n ** 53n and 2n ** 53n + 1n are one edge), { raw } as given.
 */
function comparable(field: string, type: ColumnType, value: NaturalValue): number | bigint {
  if (isDate(value)) return value.getTime()
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value === 'bigint' && type === 'fractional') return Number(value)
  if (typeof value === 'string' || typeof value === 'object') {
    const raw = rawBound(field, type, value, 'lower')!
    return type === 'fractional' ? sortableBitsToFloat64(raw) : raw
  }
  return value
}

/**
 * Whether edge b lies above edge a: in natural order, or in raw order where either is `{ raw }`
 * (docs/query.md), so that NaN patterns and -0 / +0 can be told apart, as by rangeFilter.
 */
function increasing(field: string, type: ColumnType, a: NaturalValue, b: NaturalValue): boolean {
  const isRaw = (value: NaturalValue) => typeof value === 'object' && value !== null && rawOf(field, value) !== null
  if (!isRaw(a) && !isRaw(b)) return comparable(field, type, a) < comparable(field, type, b)
  // An edge above every i64 (no raw value) lies above any other.
  const above = 2n ** 64n
  return (rawBound(field, type, a, 'lower') ?? above) < (rawBound(field, type, b, 'lower') ?? above)
}

/**
 * Raw edges of a histogram plus, for each raw bucket, the user's bucket it
 * counts for: integer edges that round to the same raw value leave empty buckets.
 */
export function rawEdges(field: string, type: ColumnType, edges: readonly NaturalValue[]): { raw: bigint[]; bucketOf: number[]; openBucket: number } {
  if (edges.length < 2) throw new RangeError(`field "${field}": a histogram needs at least 2 edges, got ${edges.length}`)
  // Every edge checked first, those after one above every i64 too, and only then compared.
  const bounds = Array.from(edges, (edge, index) => {
    if (typeof edge === 'number' && Number.isNaN(edge)) throw new RangeError(`field "${field}": histogram edge ${index} is NaN`)
    try {
      return rawBound(field, type, edge, 'lower')
    } catch (error) {
      if (error instanceof Error) error.message = `${error.message} (histogram edge ${index})`
      throw error
    }
  })
  for (let index = 1; index < edges.length; index++) {
    if (!increasing(field, type, edges[index - 1], edges[index])) {
      throw new RangeError(`field "${field}": histogram edges must be strictly increasing (edge ${index})`)
    }
  }
  const raw: bigint[] = []
  const bucketOf: number[] = []
  let openBucket = -1
  for (let index = 0; index < edges.length; index++) {
    const edge = bounds[index]
    if (edge === null) {
      // Above every i64 (Infinity, or an integer beyond 2^63 - 1): the bucket below it has no upper
      // bound, and the buckets from it on count nothing. Its raw edge is the largest i64, whose own
      // values the caller adds to openBucket.
      if (raw.length === 0) return { raw: [], bucketOf: [], openBucket: -1 }
      openBucket = index - 1
      if (raw[raw.length - 1] !== MAX_INT64) {
        raw.push(MAX_INT64)
        bucketOf.push(index)
      }
      break
    }
    if (raw.length > 0 && raw[raw.length - 1] === edge) {
      // The user's bucket index - 1 is empty; the raw bucket starting here counts for bucket index.
      bucketOf[bucketOf.length - 1] = index
      continue
    }
    raw.push(edge)
    bucketOf.push(index)
  }
  bucketOf.pop()
  return { raw, bucketOf, openBucket }
}
