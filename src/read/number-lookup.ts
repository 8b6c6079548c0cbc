/**
 * One value of a sequence as an exact number, read in JavaScript straight from
 * the resident file's words (also WebAssembly's linear memory): no backend
 * call, no BigInt, no 64-bit assembly. A call into WebAssembly alone costs
 * more than the whole read (5.7 ns on Node 20), so single gets take this path
 * with both backends; blocks it cannot serve exactly (tables, widths above 32,
 * values beyond 2^53) answer false and the caller takes the backend's getRaw.
 */
import type { SequenceView } from '../backend/backend.js'
import { BLOCK_SHIFT, BLOCK_VALUES, BlockKind } from '../format/constants.js'

/** Marks a block the lookup leaves to the backend. */
const SLOW = 255

/** Per-block numbers for exact single reads of a sequence's constant and narrow packed blocks. */
export class NumberLookup {
  private readonly sequence: SequenceView
  /** Width of each block's fields: 0 for a constant block, SLOW where the backend must read. */
  private readonly widths: Uint8Array
  private readonly bases: Float64Array
  private readonly divisors: Float64Array
  /** Each block's first field: the aligned word of the buffer holding its first byte, and its bit within that word. */
  private readonly firstWords: Int32Array
  private readonly firstShifts: Uint8Array
  private words: Int32Array

  constructor(sequence: SequenceView) {
    this.sequence = sequence
    const blocks = sequence.blockCount, records = sequence.records
    this.widths = new Uint8Array(blocks)
    this.bases = new Float64Array(blocks)
    this.divisors = new Float64Array(blocks)
    this.firstWords = new Int32Array(blocks)
    this.firstShifts = new Uint8Array(blocks)
    for (let block = 0; block < blocks; block++) {
      const record = 6 * block
      const kind = records[record] & 0xff, width = records[record] >>> 8
      const base = records[record + 3] * 4294967296 + (records[record + 2] >>> 0)
      const divisor = records[record + 5] * 4294967296 + (records[record + 4] >>> 0)
      this.bases[block] = base
      this.divisors[block] = divisor
      const firstByte = sequence.dataStartInBuffer + records[record + 1]
      this.firstWords[block] = Math.floor(firstByte / 4) // a buffer holds < 2^32 bytes: words fit an int32
      this.firstShifts[block] = 8 * (firstByte % 4)
      const exact = Number.isSafeInteger(base)
      if (kind === BlockKind.constant) this.widths[block] = exact ? 0 : SLOW
      else if (kind === BlockKind.packed && width <= 32 && exact && Number.isSafeInteger(divisor)) {
        // Every value base + g u (u < 2^w) is exact iff the largest is.
        this.widths[block] = Number.isSafeInteger(base + divisor * (2 ** width - 1)) ? width : SLOW
      } else this.widths[block] = SLOW
    }
    this.words = sequence.bufferWords
  }

  /**
   * Writes the value at index (< count) as an exact number to out[0] and returns true, or
   * returns false when the backend must read it. The value goes through a typed array, not a
   * return value: a double returned from a call V8 does not inline is boxed (an allocation).
   */
  load(index: number, out: Float64Array): boolean {
    const block = index >>> BLOCK_SHIFT
    const width = this.widths[block]
    if (width === SLOW) return false
    if (width === 0) {
      out[0] = this.bases[block]
      return true
    }
    let words = this.words
    // WebAssembly memory growth detaches the view (length 0): take the current buffer.
    if (words.length === 0) words = this.refresh()
    const bit = this.firstShifts[block] + (index & (BLOCK_VALUES - 1)) * width
    const word = this.firstWords[block] + (bit >>> 5), shift = bit & 31
    // (x << 1) << (31 - shift) is 0 for shift 0, so no branch on the offset; the data's padding covers word + 1.
    const field = ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & (-1 >>> (32 - width))
    out[0] = this.bases[block] + this.divisors[block] * (field >>> 0)
    return true
  }

  private refresh(): Int32Array {
    const buffer = this.sequence.file.bytes.buffer
    this.words = new Int32Array(buffer, 0, buffer.byteLength >>> 2)
    return this.words
  }
}
