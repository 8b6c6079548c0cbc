/**
 * Decimal sequences (form 3, ALP's idea with an exact division): doubles that
 * are decimals, x = n / 10^e, stored as the integers n through the integer
 * forms. A value is encoded only when n / 10^e gives its exact bits back
 * (so -0, NaN, ±Infinity and values needing more digits are exceptions, kept
 * raw with their positions); an exception's slot holds the previous value's n.
 * Layout: u8 form, u8 e, u32 count, u32 exceptionCount, u32 positions
 * (ascending), i64 raw values (SortableBits), then the integers' sequence.
 */
import { int64Result, sortableToFloat64 } from '../../format/int64.js'
import type { ByteSink } from '../../write/byte-sink.js'
import { bitsOf } from '../bits.js'
import { EXPONENT_SAMPLE, Form, MAX_EXPONENT } from '../constants.js'
import { POWERS_OF_TEN } from '../powers-of-ten.js'

const TWO_POW_53 = 2 ** 53

/** The integer n that encodes x with exponent e, or NaN when x is an exception. */
export function decimalOf(x: number, e: number): number {
  const scale = POWERS_OF_TEN[e]
  // + 0 turns -0 into 0: n is an integer, and 0 / 10^e is +0.
  const n = Math.round(x * scale) + 0
  if (!(n > -TWO_POW_53 && n < TWO_POW_53)) return NaN
  return Object.is(n / scale, x) ? n : NaN
}

/** The value a decimal sequence gives for integer n: n / 10^e (n below 2^53 is exact as a double). */
export function decimalValue(n: number, e: number): number {
  return n / POWERS_OF_TEN[e]
}

/**
 * The exponent for values [0, count) of raw SortableBits words: the e in 0..18 whose estimate on a
 * sample at fixed positions (value floor(i count / S), S = min(count, 2048)) is smallest, ties to the
 * smaller e; estimate = encoded samples × bits(their largest n - smallest n) + 96 × exceptions.
 * Returns -1 when every sample is an exception at every e.
 */
export function chooseExponent(words: Int32Array, count: number): number {
  const samples = Math.min(count, EXPONENT_SAMPLE)
  const xs = new Float64Array(samples)
  for (let i = 0; i < samples; i++) {
    const at = Math.floor((i * count) / samples)
    xs[i] = sortableToFloat64(words[2 * at], words[2 * at + 1])
  }
  let best = -1, bestEstimate = Infinity
  for (let e = 0; e <= MAX_EXPONENT; e++) {
    let low = Infinity, high = -Infinity, encoded = 0
    for (let i = 0; i < samples; i++) {
      const n = decimalOf(xs[i], e)
      if (n !== n) continue
      encoded++
      if (n < low) low = n
      if (n > high) high = n
    }
    if (encoded === 0) continue
    const estimate = encoded * bitsOf(high - low) + 96 * (samples - encoded)
    if (estimate < bestEstimate) {
      bestEstimate = estimate
      best = e
    }
  }
  return best
}

/** The integers (words) of a decimal sequence and its exceptions' positions. */
export interface DecimalParts {
  integers: Int32Array
  positions: number[]
}

/**
 * Splits values [0, count) of raw words into the integers of exponent e and the exception positions.
 * An exception's slot holds the n of the nearest encoded value before it, or of the first encoded
 * value when none comes before (0 when no value is encoded): runs and frames stay unbroken.
 */
export function decimalParts(words: Int32Array, count: number, e: number): DecimalParts {
  const integers = new Int32Array(2 * count)
  const ns = new Float64Array(count)
  const positions: number[] = []
  let previous = NaN
  for (let index = 0; index < count; index++) {
    const n = decimalOf(sortableToFloat64(words[2 * index], words[2 * index + 1]), e)
    ns[index] = n
    if (n !== n) positions.push(index)
    else if (previous !== previous) previous = n
  }
  if (previous !== previous) previous = 0
  for (let index = 0; index < count; index++) {
    if (ns[index] === ns[index]) previous = ns[index]
    setWords(integers, index, previous)
  }
  return { integers, positions }
}

function setWords(words: Int32Array, index: number, n: number): void {
  const high = Math.floor(n / 4294967296)
  words[2 * index] = (n - high * 4294967296) | 0
  words[2 * index + 1] = high
}

/** Bytes of a decimal node's header and exceptions. */
export function decimalHeaderSize(exceptions: number): number {
  return 10 + 12 * exceptions
}

/** Writes a decimal node's header and exceptions; the integers' sequence follows (written by the caller). */
export function writeDecimalHeader(words: Int32Array, count: number, e: number, positions: number[], sink: ByteSink): void {
  sink.writeUint8(Form.decimal)
  sink.writeUint8(e)
  sink.writeInt32(count)
  sink.writeInt32(positions.length)
  for (const position of positions) sink.writeInt32(position)
  for (const position of positions) sink.writeInt64(words[2 * position], words[2 * position + 1])
}

export { int64Result }
