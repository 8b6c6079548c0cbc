/**
 * 64-bit integers as pairs of int32 words (low, high), so hot paths never touch
 * BigInt. Results of two-word operations land in `int64Result` (no allocation).
 */

/** Output slot of the two-word operations below: [low, high]. */
export const int64Result = new Int32Array(2)

const TWO_POW_32 = 4294967296

const float64Scratch = new Float64Array(1)
const wordsOfFloat64 = new Int32Array(float64Scratch.buffer)
if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
  throw new Error('oixk needs a little-endian platform (typed arrays view file bytes directly)')
}

// One cached int32 view of the last BigInt64Array viewed: reading into one array again allocates nothing.
let viewedInt64s: BigInt64Array | null = null
let viewedWords: Int32Array = new Int32Array(0)

/** The BigInt64Array's values as (low, high) int32 words: a view of the same memory, the last one made reused. */
export function int64Words(values: BigInt64Array): Int32Array {
  // A typed array keeps its buffer for life; the length check catches one over a resizable buffer.
  if (values !== viewedInt64s || viewedWords.length !== 2 * values.length) {
    viewedWords = new Int32Array(values.buffer, values.byteOffset, 2 * values.length)
    viewedInt64s = values
  }
  return viewedWords
}

/** Signed comparison of two i64 given as words: negative, zero or positive. */
export function compareInt64(aLow: number, aHigh: number, bLow: number, bHigh: number): number {
  if (aHigh !== bHigh) return aHigh < bHigh ? -1 : 1
  if (aLow === bLow) return 0
  return aLow >>> 0 < bLow >>> 0 ? -1 : 1
}

/** Number of significant bits of an unsigned 64-bit value (bits(0) = 0). */
export function bitsOfUnsigned(low: number, high: number): number {
  return high !== 0 ? 64 - Math.clz32(high) : 32 - Math.clz32(low)
}

/** Number of significant bits of a non-negative double holding an integer below 2^64. */
export function bitsOfNumber(value: number): number {
  if (value < TWO_POW_32) return 32 - Math.clz32(value)
  return 64 - Math.clz32(Math.floor(value / TWO_POW_32))
}

/** Splits a safe integer into words in int64Result. */
export function numberToInt64(value: number): void {
  const high = Math.floor(value / TWO_POW_32)
  int64Result[0] = value - high * TWO_POW_32
  int64Result[1] = high
}

/** The int64 range as bigints. */
export const MIN_INT64 = -(2n ** 63n)
export const MAX_INT64 = 2n ** 63n - 1n

/** The i64 as a bigint. */
export function int64ToBigInt(low: number, high: number): bigint {
  return (BigInt(high) << 32n) | BigInt(low >>> 0)
}

/** Splits a bigint (taken modulo 2^64) into words in int64Result. */
export function bigIntToInt64(value: bigint): void {
  int64Result[0] = Number(BigInt.asIntN(32, value))
  int64Result[1] = Number(BigInt.asIntN(32, value >> 32n))
}

/**
 * a × b modulo 2^64 into int64Result. Works on 16-bit limbs and carries after
 * every partial product so each intermediate sum stays below 2^32.
 */
export function multiplyInt64(aLow: number, aHigh: number, bLow: number, bHigh: number): void {
  const a0 = aLow & 0xffff, a1 = aLow >>> 16, a2 = aHigh & 0xffff, a3 = aHigh >>> 16
  const b0 = bLow & 0xffff, b1 = bLow >>> 16, b2 = bHigh & 0xffff, b3 = bHigh >>> 16
  let limb0 = a0 * b0
  let limb1 = limb0 >>> 16
  limb0 &= 0xffff
  limb1 += a1 * b0
  let limb2 = limb1 >>> 16
  limb1 &= 0xffff
  limb1 += a0 * b1
  limb2 += limb1 >>> 16
  limb1 &= 0xffff
  limb2 += a2 * b0
  let limb3 = limb2 >>> 16
  limb2 &= 0xffff
  limb2 += a1 * b1
  limb3 += limb2 >>> 16
  limb2 &= 0xffff
  limb2 += a0 * b2
  limb3 += limb2 >>> 16
  limb2 &= 0xffff
  // Only the low 16 bits of the top limb survive, so its sum may exceed 2^32 (still exact).
  limb3 = (limb3 + a3 * b0 + a2 * b1 + a1 * b2 + a0 * b3) & 0xffff
  int64Result[0] = (limb1 << 16) | limb0
  int64Result[1] = (limb3 << 16) | limb2
}

/** SortableBits.Encode of a double into int64Result: order-preserving, keeps NaN payloads and -0. */
export function float64ToSortable(value: number): void {
  float64Scratch[0] = value
  sortableFromIeeeWords(wordsOfFloat64[0], wordsOfFloat64[1])
}

/** SortableBits.Encode of IEEE bits given as words, into int64Result. */
export function sortableFromIeeeWords(low: number, high: number): void {
  if (high < 0) {
    int64Result[0] = ~low
    int64Result[1] = high ^ 0x7fffffff
  } else {
    int64Result[0] = low
    int64Result[1] = high
  }
}

/** SortableBits.Decode of (low, high) written to destination[index]: returns nothing, so no double is boxed. */
export function sortableToFloat64Into(low: number, high: number, destination: Float64Array, index: number): void {
  if (high < 0) {
    wordsOfFloat64[0] = ~low
    wordsOfFloat64[1] = high ^ 0x7fffffff
  } else {
    wordsOfFloat64[0] = low
    wordsOfFloat64[1] = high
  }
  destination[index] = float64Scratch[0]
}

/** SortableBits.Decode: the double whose sortable raw form is (low, high). */
export function sortableToFloat64(low: number, high: number): number {
  sortableToFloat64Into(low, high, float64Scratch, 0)
  return float64Scratch[0]
}

/** Reads a little-endian u32 at any offset. */
export function readUint32(bytes: Uint8Array, offset: number): number {
  return (bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24)) >>> 0
}

/** Reads a little-endian i32 (the low or high word of an i64) at any offset. */
export function readInt32(bytes: Uint8Array, offset: number): number {
  return bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24)
}

/** Writes a little-endian 32-bit word at any offset. */
export function writeInt32(bytes: Uint8Array, offset: number, value: number): void {
  bytes[offset] = value
  bytes[offset + 1] = value >>> 8
  bytes[offset + 2] = value >>> 16
  bytes[offset + 3] = value >>> 24
}

/** Writes the i64 (low, high) + offset (offset an integer, |offset| < 2^53) as words into out[at], out[at + 1]. */
export function addOffset(low: number, high: number, offset: number, out: Int32Array, at: number): void {
  const offsetHigh = Math.floor(offset / TWO_POW_32)
  const offsetLow = offset - offsetHigh * TWO_POW_32
  const sum = (low >>> 0) + offsetLow
  out[at] = sum | 0
  out[at + 1] = (high + offsetHigh + (sum >= TWO_POW_32 ? 1 : 0)) | 0
}
