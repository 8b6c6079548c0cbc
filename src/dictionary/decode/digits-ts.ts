/**
 * The TypeScript backend's digits decoder (dictionary form 5), byte for byte
 * and status for status what assembly/strings/digits.ts does.
 */
import type { ColumnsBackend, DigitsJob } from '../../backend/backend.js'
import { NOT_INCREASING, TOO_MANY_DIGITS } from './status.js'

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

/** Term t: integer t's `digits` digits (the integers read through `backend`); the terms' bytes, or a status (details in `detail`). */
export function decodeDigitsTs(job: DigitsJob, backend: ColumnsBackend, detail: Int32Array): Uint8Array | number {
  const { termCount, digits } = job
  const words = new Int32Array(2 * termCount)
  backend.decodeRaw(job.integers, 0, termCount, words, 0)
  const bytes = new Uint8Array(termCount * digits)
  const bound = 10 ** digits
  let previous = -1
  for (let term = 0, end = digits; term < termCount; term++, end += digits) {
    const low = words[2 * term] >>> 0, high = words[2 * term + 1]
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
  return bytes
}
