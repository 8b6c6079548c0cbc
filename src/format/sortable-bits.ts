/**
 * SortableBits as bigints, for users and tools (the hot paths use int64.ts).
 */
import { bigIntToInt64, float64ToSortable, int64Result, int64ToBigInt, sortableToFloat64 } from './int64.js'

/** SortableBits.Encode: the raw i64 of a double (order-preserving; NaN payloads and -0 kept). */
export function float64ToSortableBits(value: number): bigint {
  float64ToSortable(value)
  return int64ToBigInt(int64Result[0], int64Result[1])
}

/** SortableBits.Decode: the double of a raw i64. */
export function sortableBitsToFloat64(raw: bigint): number {
  bigIntToInt64(raw)
  return sortableToFloat64(int64Result[0], int64Result[1])
}
