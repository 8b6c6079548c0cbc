/**
 * One value of a sequence as an exact number, read in JavaScript straight from
 * the resident file's words (also WebAssembly's linear memory): no backend
 * call, no BigInt, no 64-bit assembly. A call into WebAssembly alone costs
 * more than the whole read (5.7 ns on Node 20), so single gets take this path
 * with both backends; blocks it cannot serve exactly (tables, widths above 32,
 * values beyond 2^53) give NaN and the caller takes the backend's getRaw.
 *
 * Shaped for V8, measured in a caller's loop (bench/wasm.bench.ts): per-block
 * numbers sit in two plain arrays, not typed arrays, because every typed-array
 * access re-checks its buffer for detachment once any buffer in the process
 * was detached (WebAssembly memory growth does that); no branch on the block's
 * form (a declined block's base is NaN, a constant block's divisor 0); and the
 * result is returned, not stored in a typed array and read back (7.6 ns a call
 * where the typed-array tables and result took 12.8, Node 20).
 */
import type { SequenceView } from '../backend/backend.js'
import { BlockKind } from '../format/constants.js'

/** Per-block numbers for exact single reads of a sequence's constant and narrow packed blocks. */
export class NumberLookup {
  /**
   * Two small integers per block: the aligned word of the buffer holding its first field's
   * first byte, and that field's first bit within the word | width << 8.
   */
  readonly positions: number[] = []
  /** Two doubles per block: base (NaN where the backend must read) and divisor (0 for a constant block). */
  readonly scales: number[]
  /** The buffer's words; replaced after WebAssembly memory growth detaches them (see value). */
  words: Int32Array
  private readonly sequence: SequenceView

  constructor(sequence: SequenceView) {
    this.sequence = sequence
    // Starts as an array of doubles, so every column's scales share one elements kind
    // (integral bases alone would make small-integer arrays, and getInt64 polymorphic).
    const scales = [0.5]
    scales.pop()
    this.scales = scales
    const records = sequence.records
    for (let block = 0; block < sequence.blockCount; block++) {
      const record = 6 * block
      const kind = records[record] & 0xff, width = records[record] >>> 8
      const base = records[record + 3] * 4294967296 + (records[record + 2] >>> 0)
      const divisor = records[record + 5] * 4294967296 + (records[record + 4] >>> 0)
      const exact = Number.isSafeInteger(base)
      // Every value base + g u (u < 2^w) is exact iff the largest is.
      const packed = kind === BlockKind.packed && width <= 32 && exact && Number.isSafeInteger(divisor)
        && Number.isSafeInteger(base + divisor * (2 ** width - 1))
      if (packed) {
        const firstByte = sequence.dataStartInBuffer + records[record + 1]
        this.positions.push(firstByte >>> 2, (firstByte & 3) << 3 | width << 8) // a buffer holds < 2^32 bytes
        this.scales.push(base, divisor)
      } else {
        // Words 0 and 1 exist in any buffer holding a file; a constant block multiplies what they give by 0.
        this.positions.push(0, 0)
        this.scales.push(kind === BlockKind.constant && exact ? base : NaN, 0)
      }
    }
    this.words = sequence.bufferWords
  }

  /**
   * The value at index (< count) as an exact number, or NaN when the backend must read it.
   * Small enough that V8 inlines it into getInt64 and both into the caller's loop; only then
   * is the returned double never boxed (the same holds for getInt64's own result).
   */
  value(index: number): number {
    // Blocks of 1024 values as literals (test/number-lookup.test.ts checks BLOCK_VALUES): an
    // imported constant is a load and a hole check in V8's code at every use.
    const at = (index >>> 10) << 1
    const first = this.positions[at + 1], width = first >>> 8
    const bit = (first & 31) + (index & 1023) * width
    const word = this.positions[at] + (bit >>> 5), shift = bit & 31
    let words = this.words
    let low: number | undefined = words[word]
    // Detached by memory growth (length 0): take the live buffer. Optimised code never sees
    // undefined here until that happens, so this costs nothing in the common case.
    if (low === undefined) low = (words = this.refresh())[word]
    // (x << 1) << (31 - shift) is 0 for shift 0, so no branch on the offset; the data's padding covers word + 1.
    const field = ((low >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & (-1 >>> (32 - width))
    return this.scales[at] + this.scales[at + 1] * (field >>> 0)
  }

  /** The buffer's words after memory growth replaced it. */
  refresh(): Int32Array {
    const buffer = this.sequence.file.bytes.buffer
    return (this.words = new Int32Array(buffer, 0, buffer.byteLength >>> 2))
  }
}
