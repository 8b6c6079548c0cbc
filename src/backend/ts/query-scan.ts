/**
 * Pieces shared by the pure-TypeScript query kernels: the walk over a run's
 * blocks, a block's geometry, the translation of raw bounds into a packed
 * block's u space, and per-block scratch (the bit helpers are in ../bits.ts).
 *
 * Error rule shared with the WebAssembly kernels: only selected values are read,
 * in value order, so the first bad selected value raises; a table block that
 * matchRange decides from its entries alone (none or all in range) reads no index.
 */
import type { SequenceView } from '../backend.js'
import type { BitsetMemory } from '../query-kernels.js'
import { BLOCK_SHIFT, BLOCK_VALUES, BlockKind } from '../../format/constants.js'
import { CorruptIndexException } from '../../format/errors.js'
import { int64ToBigInt, readInt32 } from '../../format/int64.js'
import { popcount, selectionBits } from '../bits.js'


export const TWO_POW_32 = 4294967296
/** Packed spans g (2^w - 1) below this keep every u-space product exact in a double. */
const SAFE_SPAN = 2 ** 52

/** Position (0..31) of the lowest set bit of a non-zero word. */
export function lowestBit(bits: number): number {
  return 31 - Math.clz32(bits & -bits)
}

/** The raw value of a table index beyond its entries: the reader's message. */
export function tableIndexError(sequence: SequenceView, block: number, index: number, entries: number): never {
  throw new CorruptIndexException(
    sequence.fileName,
    `${sequence.label}: block ${block} has table index ${index}, beyond its ${entries} entries`,
  )
}

/** countValues' message for a raw value that is not a counts index. */
export function countRangeError(sequence: SequenceView, valueIndex: number, low: number, high: number, limit: number): never {
  throw new CorruptIndexException(
    sequence.fileName,
    `${sequence.label}: value ${valueIndex} is ${int64ToBigInt(low, high)}, not in [0, ${limit})`,
  )
}

/**
 * x - base as a double when x ≥ base (signed): exact below 2^53, Infinity from there;
 * -1 when x < base.
 */
export function offsetFromBase(xLow: number, xHigh: number, baseLow: number, baseHigh: number): number {
  if (xHigh < baseHigh || (xHigh === baseHigh && xLow >>> 0 < baseLow >>> 0)) return -1
  const borrow = xLow >>> 0 < baseLow >>> 0 ? 1 : 0
  const high = (xHigh - baseHigh - borrow) >>> 0
  if (high >= 0x200000) return Infinity
  return high * TWO_POW_32 + ((xLow - baseLow) >>> 0)
}

/** Smallest u with base + g u ≥ base + offset (offset ≥ 0, exact). */
export function ceilUnits(offset: number, divisor: number): number {
  if (divisor === 1) return offset
  let q = Math.floor(offset / divisor)
  if (q * divisor > offset) q--
  if ((q + 1) * divisor <= offset) q++
  return q * divisor < offset ? q + 1 : q
}

/** Largest u with base + g u ≤ base + offset (offset ≥ 0, exact). */
export function floorUnits(offset: number, divisor: number): number {
  if (divisor === 1) return offset
  let q = Math.floor(offset / divisor)
  if (q * divisor > offset) q--
  if ((q + 1) * divisor <= offset) q++
  return q
}

/**
 * The geometry of the block last passed to `loadBlock` (module state, so the
 * kernels allocate nothing): kind, the u-field reader's word base and first
 * bit, and for a packed block whether u space is usable (`packedFast`).
 */
export const block = {
  kind: 0,
  width: 0,
  mask: 0,
  baseLow: 0,
  baseHigh: 0,
  /** Word index (in bufferWords) holding the first index/unit byte, and that byte's bit offset within it. */
  wordBase: 0,
  bitOffset: 0,
  /** The same first byte as an index into sequence.bytes (width-8 fields are plain bytes). */
  byteStart: 0,
  /** packed: divisor g and span g (2^w - 1) as doubles (valid when packedFast). */
  divisor: 0,
  maxUnit: 0,
  span: 0,
  /** packed with w ≤ 32, g < 2^32, span < 2^52 and base + span without i64 overflow. */
  packedFast: false,
  /** table: entry count; entries are in tableEntries as [low, high] words. */
  entries: 0,
}

export const tableEntries = new Int32Array(2 * 256)
// Scratch of one block at a time, shared: no kernel calls another or keeps it across blocks.
/** Raw [low, high] words of the block's positions from `from` on (decodeRaw). */
export const decoded = new Int32Array(2 * BLOCK_VALUES)
/** Selected values per table index. */
export const indexCounts = new Uint32Array(256)

/** Fills `block` (and `tableEntries` for a table) for block number `index`. */
export function loadBlock(sequence: SequenceView, index: number): void {
  const records = sequence.records
  const record = 6 * index
  const kind = records[record] & 0xff
  const width = records[record] >>> 8
  block.kind = kind
  block.width = width
  block.baseLow = records[record + 2]
  block.baseHigh = records[record + 3]
  block.packedFast = false
  if (kind === BlockKind.constant) return
  let start = sequence.dataStartInBuffer + records[record + 1]
  if (kind === BlockKind.table) {
    const entries = records[record + 4]
    const entriesStart = sequence.dataStart + records[record + 1]
    const bytes = sequence.bytes
    for (let entry = 0; entry < 2 * entries; entry++) tableEntries[entry] = readInt32(bytes, entriesStart + 4 * entry)
    block.entries = entries
    start += 8 * entries
  }
  block.byteStart = sequence.dataStart + records[record + 1] + (kind === BlockKind.table ? 8 * block.entries : 0)
  block.wordBase = start >>> 2
  block.bitOffset = (start & 3) * 8
  block.mask = width >= 32 ? -1 : (1 << width) - 1
  if (kind !== BlockKind.packed || width > 32 || records[record + 5] !== 0) return
  const divisor = records[record + 4] >>> 0
  const maxUnit = width === 32 ? TWO_POW_32 - 1 : 2 ** width - 1
  const span = divisor * maxUnit
  if (span >= SAFE_SPAN) return
  if (offsetFromBase(-1, 0x7fffffff, block.baseLow, block.baseHigh) < span) return
  block.divisor = divisor
  block.maxUnit = maxUnit
  block.span = span
  block.packedFast = true
}

/** Each buffer's u16 view, made on first use (weakly held: a closed reader's buffer is not kept). */
const halvesMade = new WeakMap<ArrayBufferLike, Uint16Array>()

/** The sequence's whole buffer as u16s (16-bit fields read in place; see halfStart). */
export function halvesOf(sequence: SequenceView): Uint16Array {
  const buffer = sequence.bytes.buffer
  let view = halvesMade.get(buffer)
  if (view === undefined) halvesMade.set(buffer, (view = new Uint16Array(buffer, 0, Math.floor(buffer.byteLength / 2))))
  return view
}

/**
 * Where the loaded block's fields start in halvesOf(sequence) when they are 16 bits on an even
 * byte (a format 2 dictionary's codes decoded as 16-bit values, most often), else -1: read as
 * bit fields.
 */
export function halfStart(sequence: SequenceView): number {
  const at = sequence.bytes.byteOffset + block.byteStart
  return block.width !== 16 || (at & 1) !== 0 ? -1 : at >>> 1
}

/** The u field (index or unit, width ≤ 32) at position `position` of the loaded block, as an int32. */
export function unitAt(words: Int32Array, position: number): number {
  const bit = position * block.width + block.bitOffset
  const word = block.wordBase + (bit >>> 5), shift = bit & 31
  return ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & block.mask
}

/** Words [low, high] of base + offset for the loaded block (offset < 2^53, no overflow). */
export function rawAtOffset(offset: number, out: Int32Array, at: number): void {
  const offsetHigh = Math.floor(offset / TWO_POW_32)
  const offsetLow = offset - offsetHigh * TWO_POW_32
  const low = (block.baseLow + offsetLow) | 0
  out[at] = low
  out[at + 1] = block.baseHigh + offsetHigh + ((low ^ 0x80000000) < (block.baseLow ^ 0x80000000) ? 1 : 0)
}

/** Selected values among positions [from, to) of a block starting at value blockStart. */
export function selectedCount(selection: Int32Array | null, selectionBit: number, from: number, to: number): number {
  if (selection === null) return to - from
  let total = 0
  for (let position = from; position < to; position += 32) {
    total += popcount(selectionBits(selection, selectionBit + position - from, Math.min(32, to - position)))
  }
  return total
}

/**
 * One kernel's work on positions [from, to) of block blockIndex; selectionBit is
 * the selection bit of `from`. `a` and `b` carry the kernel's own arguments, so
 * the kernels pass module functions and allocate no closure per call.
 */
export type BlockVisit<A, B> = (
  sequence: SequenceView, blockIndex: number, from: number, to: number, a: A,
  selection: Int32Array | null, selectionBit: number, b: B,
) => void

/** Whether any of the n selection bits from bit `bit` is set. */
function anySelected(selection: Int32Array, bit: number, n: number): boolean {
  let at = 0
  // Aligned (a DocSet of a dense column): whole words tested as they are.
  if ((bit & 31) === 0) for (let word = bit >>> 5; at + 32 <= n; at += 32, word++) if (selection[word] !== 0) return true
  for (; at < n; at += 32) if (selectionBits(selection, bit + at, Math.min(32, n - at)) !== 0) return true
  return false
}

/**
 * Calls visit for each block's share of the values [first, first + count), in value order (the error rule above).
 * A share with nothing selected is skipped before its record is read (as the WebAssembly kernels do): a
 * cross-filtered view selects whole blocks of nothing.
 */
export function forEachBlock<A, B>(
  sequence: SequenceView, first: number, count: number, a: A,
  selection: BitsetMemory | null, selectionStart: number, b: B, visit: BlockVisit<A, B>,
): void {
  const selectionWords = selection === null ? null : selection.words
  const end = first + count
  for (let index = first; index < end;) {
    const blockIndex = index >>> BLOCK_SHIFT
    const blockStart = blockIndex * BLOCK_VALUES
    const stop = Math.min(end, blockStart + BLOCK_VALUES)
    const selectionBit = selectionStart + index - first
    if (selectionWords === null || anySelected(selectionWords, selectionBit, stop - index)) {
      visit(sequence, blockIndex, index - blockStart, stop - blockStart, a, selectionWords, selectionBit, b)
    }
    index = stop
  }
}
