/**
 * Bit fields as v1 stores them (value j of width w at stream bits [j w, (j + 1) w),
 * bit b in bit b & 7 of byte b >> 3), for fields held as doubles below 2^53:
 * what the v2 encoders pack and the TypeScript decoders unpack. Every sub-stream
 * starts on a byte boundary.
 */

const TWO_POW_32 = 4294967296

/**
 * 2^w for w up to 1024 (any width a record's byte holds, and sums of them): per-block and
 * per-value code reads it here, since V8 compiles `2 ** w` to a call into pow.
 */
export const POW2 = Float64Array.from({ length: 1025 }, (_, w) => 2 ** w)

/** bits(x): significant bits of a non-negative integer below 2^53 (bits(0) = 0). */
export function bitsOf(value: number): number {
  if (value < TWO_POW_32) return 32 - Math.clz32(value)
  return 64 - Math.clz32(Math.floor(value / TWO_POW_32))
}

/** ceil(bits / 8). */
export function bytesFor(bits: number): number {
  return Math.ceil(bits / 8)
}

/** Greatest common divisor of two non-negative integers below 2^53. */
export function gcd(a: number, b: number): number {
  while (b !== 0) {
    const rest = a % b
    a = b
    b = rest
  }
  return a
}

/** Packs fields into a zeroed scratch area of aligned words, then hands out its bytes. */
export class FieldWriter {
  private words: Uint32Array
  private bytes: Uint8Array
  private bit = 0

  constructor(capacityBytes = 16384) {
    this.words = new Uint32Array(Math.ceil(capacityBytes / 4) + 4)
    this.bytes = new Uint8Array(this.words.buffer)
  }

  /** Empties the scratch for a new block of at most `byteLength` bytes. */
  begin(byteLength: number): void {
    const words = Math.ceil(byteLength / 4) + 3
    if (words > this.words.length) {
      this.words = new Uint32Array(2 * words)
      this.bytes = new Uint8Array(this.words.buffer)
    } else {
      this.words.fill(0, 0, words)
    }
    this.bit = 0
  }

  /** Moves to byte `offset` (sub-streams start on byte boundaries). */
  seek(offset: number): void {
    this.bit = offset * 8
  }

  /** The next byte boundary after the last field. */
  get offset(): number {
    return Math.ceil(this.bit / 8)
  }

  /** Writes a raw byte at the current byte boundary. */
  byte(value: number): void {
    const at = this.offset
    this.bytes[at] = value
    this.bit = (at + 1) * 8
  }

  /** Writes an i64 given as (low, high) words at the current byte boundary. */
  int64(low: number, high: number): void {
    this.seek(this.offset)
    this.write(low >>> 0, 32)
    this.write(high >>> 0, 32)
  }

  /** Appends value (an integer in [0, 2^width), width ≤ 53; 64 only through int64) as the next field. */
  write(value: number, width: number): void {
    if (width === 0) return
    const bit = this.bit
    this.bit = bit + width
    const low = value >>> 0
    this.or(bit, low, Math.min(width, 32))
    if (width > 32) this.or(bit + 32, Math.floor(value / TWO_POW_32) >>> 0, width - 32)
  }

  private or(bit: number, value: number, width: number): void {
    const word = bit >>> 5, shift = bit & 31
    this.words[word] |= value << shift
    if (shift + width > 32) this.words[word + 1] |= value >>> (32 - shift)
  }

  /** The bytes written so far (a view of the scratch). */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.offset)
  }
}

/**
 * Field `index` of width ≤ 53 of the sub-stream at byte `start` of the buffer that `words`
 * views whole (aligned int32 words). Reads at most two words past the field: data areas end
 * in 8 zero bytes, and a file's footer follows.
 */
export function fieldAt(words: Int32Array, start: number, index: number, width: number): number {
  if (width === 0) return 0
  const bit = index * width + (start & 3) * 8
  let word = (start >>> 2) + (bit >>> 5)
  const shift = bit & 31
  const low = ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) >>> 0
  if (width <= 32) return width === 32 ? low : low & (0xffffffff >>> (32 - width))
  word++
  const high = ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & (0xffffffff >>> (64 - width))
  return high * TWO_POW_32 + low
}

/**
 * The field of width ≤ 31 at bit `bit` of the stream whose first word is wordBase (mask = 2^width - 1):
 * what unpackSmall reads, for loops that use each field where they read it. bit counts from the
 * word: (start & 3) × 8 + index × width for a stream at byte start.
 */
export function smallField(words: Int32Array, wordBase: number, bit: number, mask: number): number {
  const word = wordBase + (bit >>> 5), shift = bit & 31
  return ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask
}

/** Fields [first, first + count) of width ≤ 31 into an Int32Array (indexes, codes) from position at; see fieldAt. */
export function unpackSmall(
  words: Int32Array, start: number, first: number, count: number, width: number, out: Int32Array, at: number,
): void {
  if (width === 0) {
    out.fill(0, at, at + count)
    return
  }
  const wordBase = start >>> 2, mask = (1 << width) - 1
  for (let index = 0, bit = first * width + (start & 3) * 8; index < count; index++, bit += width) {
    out[at + index] = smallField(words, wordBase, bit, mask)
  }
}

/** Fields [first, first + count) of width ≤ 53 into out from position at; see fieldAt. */
export function unpackFields(
  words: Int32Array, start: number, first: number, count: number, width: number, out: Float64Array, at: number,
): void {
  if (width === 0) {
    out.fill(0, at, at + count)
    return
  }
  const wordBase = start >>> 2
  let bit = first * width + (start & 3) * 8
  if (width <= 32) {
    const mask = 0xffffffff >>> (32 - width)
    for (let index = 0; index < count; index++, bit += width) {
      const word = wordBase + (bit >>> 5), shift = bit & 31
      out[at + index] = (((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask) >>> 0
    }
    return
  }
  const highMask = 0xffffffff >>> (64 - width)
  for (let index = 0; index < count; index++, bit += width) {
    const word = wordBase + (bit >>> 5), shift = bit & 31
    const low = ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) >>> 0
    const high = ((words[word + 1] >>> shift) | ((words[word + 2] << 1) << (31 - shift))) & highMask
    out[at + index] = high * TWO_POW_32 + low
  }
}
