/**
 * One value of a sequence as an exact number, read in JavaScript straight from
 * the resident file (also WebAssembly's linear memory): no backend call, no
 * BigInt, no 64-bit assembly. A call into WebAssembly alone costs more than
 * the whole read, so single gets take this path with both
 * backends; blocks it cannot serve exactly (tables, widths above 32, values
 * beyond 2^53) give NaN and the caller takes the backend's getRaw.
 *
 * Shaped for V8, measured in a caller's loop (bench/wasm.bench.ts): per-block
 * numbers sit in two plain arrays, not typed arrays, because every typed-array
 * access re-checks its buffer for detachment once any buffer in the process
 * was detached (WebAssembly memory growth does that); a field is one unaligned
 * DataView load (two above 25 bits) rather than two aligned words; one branch
 * on the block's form (a declined block's base is NaN: it returns before the
 * load, as format 2's kinds all do; a constant block's divisor is 0); and the
 * result is returned, not stored in a typed array and read back.
 */
import type { SequenceView } from '../backend/backend.js'
import { BlockKind } from '../format/constants.js'

/** Per-block numbers for exact single reads of a sequence's constant and narrow packed blocks. */
export class NumberLookup {
  /**
   * Two small integers per block: the byte of the file holding its first field's first bit,
   * and its width (0 for a constant block or one the backend must read).
   */
  readonly positions: number[] = []
  /** Two doubles per block: base (NaN where the backend must read) and divisor (0 for a constant block). */
  readonly scales: number[]
  /** The resident file's bytes; replaced after WebAssembly memory growth detaches them (see value). */
  view: DataView
  /** Values served: the sequence's count (a dense column's maxDoc), 0 for NO_LOOKUP. */
  readonly count: number
  private readonly sequence: SequenceView

  constructor(sequence: SequenceView) {
    this.sequence = sequence
    // Starts as an array of doubles, so every column's scales share one elements kind
    // (integral bases alone would make small-integer arrays, and getInt64 polymorphic).
    const scales = [0.5]
    scales.pop()
    this.scales = scales
    this.count = sequence.count
    const records = sequence.records
    // v2 sequences of other forms have no records of their own: every read goes to the backend.
    const own = sequence.cascade === null || sequence.cascade.form === 0
    for (let block = 0; block < sequence.blockCount; block++) {
      if (!own) {
        this.positions.push(0, 0)
        this.scales.push(NaN, 0)
        continue
      }
      const record = 6 * block
      const kind = records[record] & 0xff, width = records[record] >>> 8
      const base = records[record + 3] * 4294967296 + (records[record + 2] >>> 0)
      const divisor = records[record + 5] * 4294967296 + (records[record + 4] >>> 0)
      const exact = Number.isSafeInteger(base)
      // base + g u (u < 2^w) is computed exactly when g u and both ends are safe: a negative base
      // with a large g u could reach a safe value through a product that rounded.
      const packed = kind === BlockKind.packed && width <= 32 && exact && Number.isSafeInteger(divisor * (2 ** width - 1))
        && Number.isSafeInteger(base + divisor * (2 ** width - 1))
      if (packed) {
        // A file holds at most 1 GiB, so the byte is a small integer (below 2^30).
        this.positions.push(sequence.dataStart + records[record + 1], width)
        this.scales.push(base, divisor)
      } else {
        // A constant block reads the file's first bytes (a file has more than 4) and multiplies them by 0.
        this.positions.push(0, 0)
        this.scales.push(kind === BlockKind.constant && exact ? base : NaN, 0)
      }
    }
    this.view = this.fileView()
  }

  /**
   * The value at index (an integer in [0, count), which the caller checks) as an exact number,
   * or NaN when the backend must read it. Small enough that V8 inlines it into getInt64 and both
   * into the caller's loop; only then is the returned double never boxed.
   */
  value(index: number): number {
    // Blocks of 1024 values as literals (test/number-lookup.test.ts checks BLOCK_VALUES): an
    // imported constant is a load and a hole check in V8's code at every use.
    const at = (index >>> 10) << 1
    // A block the backend reads (v2's kinds, wide fields): no field to load.
    const base = this.scales[at]
    if (base !== base) return NaN
    const width = this.positions[at + 1]
    const bit = (index & 1023) * width
    const byte = this.positions[at] + (bit >>> 3), shift = bit & 7
    let field: number
    try {
      // One unaligned load holds a field of up to 25 bits at any bit offset (7 + 25 = 32); wider
      // fields take their top bits from the next byte. The branch follows the column's widths,
      // which random reads rarely mix. A field's 4-byte load stays in the file: the footer follows.
      const view = this.view
      field = view.getUint32(byte, true) >>> shift
      // (x << 24) << 8 is 0 for shift 0, so no branch on the offset.
      if (width > 25) field |= (view.getUint8(byte + 4) << 24) << (8 - shift)
    } catch {
      // Detached by memory growth: later reads take the live memory; this one goes to the backend.
      this.view = this.fileView()
      return NaN
    }
    return base + this.scales[at + 1] * ((field & (-1 >>> (32 - width))) >>> 0)
  }

  /** The resident file's bytes as they are now (the WebAssembly backend's memory may have grown). */
  private fileView(): DataView {
    const bytes = this.sequence.file.bytes
    return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }
}

/** The lookup of a column before its first getInt64, of other columns, and after close: it serves no index. */
export const NO_LOOKUP = new NumberLookup({ count: 0, blockCount: 0, cascade: null, file: { bytes: new Uint8Array(8) } } as unknown as SequenceView)
