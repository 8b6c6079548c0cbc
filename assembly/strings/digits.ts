// Format 2 dictionary form 5: each term is the `digits` decimal digits of an
// integer, leading zeros included; the integers must be below 10^digits and
// strictly increasing (so the terms are too, by bytes).
import { SCRATCH } from '../common'
import { NOT_INCREASING, TOO_MANY_DIGITS } from './common'

/** "00" to "99": two digits a store. */
const PAIRS: usize = memory.data(200)
// Built on first use (by each instance of a shared memory alike: the same bytes).
let pairsReady = false

/** Spells `value` (below 10^digits ≤ 10^9) as `digits` digits ending before `end`, two at a time. */
// @ts-ignore: decorator
@inline function spellSmall(value: u32, digits: u32, end: usize): void {
  let position = end
  // A u32 divided by 100 a pair, where the longer digit strings' i64 loop divides by 10 a digit.
  for (let left = digits; left >= 2; left -= 2) {
    const rest = value / 100
    position -= 2
    store<u16>(position, load<u16>(PAIRS + (<usize>(value - 100 * rest) << 1)))
    value = rest
  }
  if (digits & 1) store<u8>(position - 1, <u8>(0x30 + value))
}

/** Writes `count` terms from the i64 `values` to `out`, `digits` bytes each (no offsets: term t starts at t × digits); returns 0 or a status. */
export function digitsDecode(values: usize, count: u32, digits: u32, out: usize): u32 {
  if (!pairsReady) {
    for (let pair: u32 = 0; pair < 100; pair++) store<u16>(PAIRS + (pair << 1), <u16>((0x30 + pair / 10) | ((0x30 + pair % 10) << 8)))
    pairsReady = true
  }
  let bound: i64 = 1
  for (let digit: u32 = 0; digit < digits; digit++) bound *= 10
  let previous: i64 = -1
  let end = out + <usize>digits
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
    if (digits <= 9) spellSmall(<u32>value, digits, end)
    else {
      for (let position = end - 1; position >= end - <usize>digits; position--) {
        const rest = value / 10
        store<u8>(position, <u8>(0x30 + value - 10 * rest))
        value = rest
      }
    }
    end += <usize>digits
  }
  return 0
}
