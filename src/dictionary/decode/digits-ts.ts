/**
 * The TypeScript backend's digits decoder (dictionary form 5), byte for byte
 * and status for status what assembly/strings/digits.ts does.
 */
import type { ColumnsBackend, DigitsJob } from '../../backend/backend.js'
import { NOT_INCREASING, TOO_MANY_DIGITS } from './status.js'
import { POWERS_OF_TEN } from '../../cascade/powers-of-ten.js'

const TWO_POW_32 = 4294967296
const BILLION = 1_000_000_000

/** `count` ≤ 9 decimal digits of `value` (below 10^count), leading zeros included, ending before `end`. */
function writeDigits(bytes: Uint8Array, end: number, count: number, value: number): void {
  for (let position = end - 1; position >= end - count; position--) {
    const rest = (value / 10) | 0
    bytes[position] = 0x30 + value - 10 * rest
    value = rest
  }
}

/** Integers decoded per step, as (low, high) words: a small array kept between calls, not one per dictionary. */
const STEP = 4096
const words = new Int32Array(2 * STEP)

/** Term t: integer t's `digits` digits (the integers read through `backend`); the terms' bytes, or a status (details in `detail`). */
export function decodeDigitsTs(job: DigitsJob, backend: ColumnsBackend, detail: Int32Array): Uint8Array | number {
  const { termCount, digits } = job
  const bytes = new Uint8Array(termCount * digits)
  const bound = POWERS_OF_TEN[digits]
  let previous = -1
  for (let first = 0; first < termCount; first += STEP) {
    const count = Math.min(STEP, termCount - first)
    backend.decodeRaw(job.integers, first, count, words, 0)
    for (let index = 0, term = first, end = (first + 1) * digits; index < count; index++, term++, end += digits) {
      const low = words[2 * index] >>> 0, high = words[2 * index + 1]
      // Below 10^15 < 2^53: exact as a double (a negative high word is a negative value).
      const value = high * TWO_POW_32 + low
      if (high < 0 || value >= bound || value <= previous) {
        detail[0] = term
        return high < 0 || value >= bound ? TOO_MANY_DIGITS : NOT_INCREASING
      }
      previous = value
      // The last 9 digits, then the rest, each in int32 arithmetic.
      const last = high === 0 ? low % BILLION : value % BILLION
      writeDigits(bytes, end, digits < 9 ? digits : 9, last)
      if (digits > 9) writeDigits(bytes, end - 9, digits - 9, (value - last) / BILLION)
    }
  }
  return bytes
}
