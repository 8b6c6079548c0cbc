// Format 2 dictionary form 5: each term is the `digits` decimal digits of an
// integer, leading zeros included; the integers must be below 10^digits and
// strictly increasing (so the terms are too, by bytes).
import { SCRATCH } from '../common'
import { NOT_INCREASING, TOO_MANY_DIGITS } from './common'

/** Writes `count` terms from the i64 `values` to `out`, u32 offsets (count + 1) to `offsets`; returns 0 or a status. */
export function digitsDecode(values: usize, count: u32, digits: u32, out: usize, offsets: usize): u32 {
  let bound: i64 = 1
  for (let digit: u32 = 0; digit < digits; digit++) bound *= 10
  let previous: i64 = -1
  let end = out + <usize>digits
  store<u32>(offsets, 0)
  for (let term: u32 = 0; term < count; term++) {
    let value = load<i64>(values + (<usize>term << 3))
    if (value < 0 || value >= bound) {
      store<u32>(SCRATCH, term)
      return TOO_MANY_DIGITS
    }
    if (value <= previous) {
      store<u32>(SCRATCH, term)
      return NOT_INCREASING
    }
    previous = value
    for (let position = end - 1; position >= end - <usize>digits; position--) {
      const rest = value / 10
      store<u8>(position, <u8>(0x30 + value - 10 * rest))
      value = rest
    }
    store<u32>(offsets + ((<usize>term + 1) << 2), <u32>(end - out))
    end += <usize>digits
  }
  return 0
}
