/**
 * The doubles side of docs/format-v2.md §4: SortableBits (docs/format.md §4),
 * the decimal test "x encodes as n at exponent e" and the choice of e*.
 */
import { bits } from './bytes.js'

const f64 = new Float64Array(1)
const i64View = new BigInt64Array(f64.buffer)
const POWERS = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18]

/** SortableBits.Encode (docs/format.md §4): IEEE bits, all but the sign flipped for negative signs. */
export function sortableBits(x: number): bigint {
  f64[0] = x
  const b = i64View[0]
  return BigInt.asIntN(64, b ^ ((b >> 63n) & 0x7fffffffffffffffn))
}

/** n when x encodes at exponent e (§4 "The exponent e*"), else null. */
export function decimalInteger(x: number, e: number): number | null {
  const n = Math.round(x * POWERS[e]) + 0 // Math.round rounds half up; + 0 turns −0 into +0
  if (!Number.isFinite(n) || Math.abs(n) >= 2 ** 53) return null
  return sortableBits(n / POWERS[e]) === sortableBits(x) ? n : null
}

/** e* over S = min(count, 2048) evenly spaced samples; ties to the smaller e; null when nothing encodes. */
export function chooseExponent(xs: readonly number[]): { e: number; tied: boolean } | null {
  const count = xs.length
  const S = Math.min(count, 2048)
  let best: { e: number; tied: boolean } | null = null
  let bestEstimate = Infinity
  let anyEncodes = false
  for (let e = 0; e <= 18; e++) {
    let c = 0
    let lo = 0
    let hi = 0
    for (let i = 0; i < S; i++) {
      const n = decimalInteger(xs[Math.floor((i * count) / S)], e)
      if (n === null) continue
      if (c === 0 || n < lo) lo = n
      if (c === 0 || n > hi) hi = n
      c++
    }
    anyEncodes ||= c > 0
    const estimate = c * bits(BigInt(hi - lo)) + 96 * (S - c)
    if (estimate < bestEstimate) {
      bestEstimate = estimate
      best = { e, tied: false }
    } else if (estimate === bestEstimate && best) best.tied = true
  }
  return anyEncodes ? best : null
}
