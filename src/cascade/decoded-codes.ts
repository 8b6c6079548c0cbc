/**
 * A sequence dictionary's codes decoded once, for queries, in a v1 sequence of
 * frame blocks (divisor 1) of width 8 (at most 256 entries) or 16 (at most
 * 65,536) in the backend's own memory, which v1's kernels read at v1's speed.
 * Where the entries span less than 2^width (a keyword's ordinals, small
 * integers), each value is stored as itself less the least entry (the blocks'
 * base): the view *is* the sequence, and every question goes to v1's kernels
 * as on a v1 file (sums by vectors, block bounds for topK). Otherwise each value
 * is its entry's rank among the entries in ascending order (base 0): a range of
 * values is then one range of ranks. Codes of patched or dictionary
 * blocks otherwise cost a decode per question; here one decode per reader
 * (docs/query.md, "Decoded codes"). Made on a column's first question, only where
 * every code is below k (a corrupt code leaves the encodings' path, which refuses
 * it as a read does), and given back when the reader closes (or the view is
 * collected). A reader opened with `decodedCodes: false` keeps its codes encoded.
 */
import { ascendingEntries } from './sequences/entry-order.js'
import type { ColumnsBackend, DictionaryCascade, ResidentFile, SequenceView } from '../backend/backend.js'
import { BLOCK_VALUES, DATA_PADDING_BYTES } from '../format/constants.js'
import { compareInt64, int64ToBigInt } from '../format/int64.js'
import { RegionSequence } from './region-sequence.js'

/** Entries a decoded view serves questions that count every value at most (width 8). */
export const DECODED_COUNTING_MAX_ENTRIES = 256
/** Entries a decoded view serves at most (width 16). */
export const DECODED_CODES_MAX_ENTRIES = 65536
/** Sequences shorter than this are read from their encodings: their decode costs little per question. */
export const DECODED_CODES_MIN_VALUES = 16 * BLOCK_VALUES

/** The decoded views made for each resident file (a reader's), given back when it closes. */
const madeFor = new WeakMap<ResidentFile, ResidentFile[]>()
/** Files whose readers keep their codes encoded (OpenOptions.decodedCodes false). */
const encodedOnly = new WeakSet<ResidentFile>()

/** No decoded views for the sequences of this resident file. */
export function keepCodesEncoded(file: ResidentFile): void {
  encodedOnly.add(file)
}

/** Gives back the decoded views made for the sequences of this resident file (its reader closes). */
export function releaseDecodedCodes(file: ResidentFile): void {
  for (const made of madeFor.get(file) ?? []) made.release()
  madeFor.delete(file)
}

/** Bytes the decoded views of this resident file's sequences hold now. */
export function decodedCodesMemory(file: ResidentFile): number {
  let total = 0
  for (const made of madeFor.get(file) ?? []) total += made.bytes.byteLength
  return total
}

/** Bits a decoded view of k entries gives each value. */
function widthOf(k: number): 8 | 16 {
  return k <= 256 ? 8 : 16
}

/** Where a decoded view's data starts: after its records, and the fields' records when its base is not 0. */
function dataAt(count: number, fieldsRecords: boolean): number {
  return (fieldsRecords ? 48 : 24) * Math.ceil(count / BLOCK_VALUES)
}

/** Where a decoded view's block extremes start: after its records and data, at a multiple of 4. */
function extremesAt(k: number, count: number, fieldsRecords: boolean): number {
  // Not `(… + 3) & ~3`: past 2^31 bytes that wraps, and a small region would be decoded into.
  return 4 * Math.ceil((dataAt(count, fieldsRecords) + (widthOf(k) / 8) * count + DATA_PADDING_BYTES) / 4)
}

/**
 * Bytes a decoded view of `count` codes below k holds (0: none is made): records, data, and each
 * block's extremes; `fieldsRecords`: a second set of records, of base 0 (a view of values over a
 * least entry other than 0).
 */
export function decodedCodesBytes(k: number, count: number, fieldsRecords = false): number {
  if (k > DECODED_CODES_MAX_ENTRIES || count < DECODED_CODES_MIN_VALUES) return 0
  const bytes = extremesAt(k, count, fieldsRecords) + 4 * Math.ceil(count / BLOCK_VALUES)
  // Addresses inside a copy stay below 2^31 (the kernels' offsets); a larger one is not made.
  return bytes < 2 ** 31 ? bytes : 0
}

/** Whether a decoded view of these k entries (raw i64 as words) holds the values: they span less than 2^width. */
export function spanFits(entries: Int32Array, k: number): boolean {
  if (k === 0 || k > DECODED_CODES_MAX_ENTRIES) return false
  let least = 0, most = 0
  for (let code = 1; code < k; code++) {
    if (compareInt64(entries[2 * code], entries[2 * code + 1], entries[2 * least], entries[2 * least + 1]) < 0) least = code
    if (compareInt64(entries[2 * code], entries[2 * code + 1], entries[2 * most], entries[2 * most + 1]) > 0) most = code
  }
  return int64ToBigInt(entries[2 * most], entries[2 * most + 1]) - int64ToBigInt(entries[2 * least], entries[2 * least + 1]) < 1n << BigInt(widthOf(k))
}

/**
 * A decoded view, its memory, and the entries in ascending order (raw i64 as low, high words).
 * `holdsValues`: the view reads as the sequence itself (each field its value less the blocks'
 * base, the least entry); else rank r stands for sorted[2r, 2r + 1]. `fields`: the same data
 * under records of base 0 (the view itself when its base is 0), for counting; `span`: how many
 * fields the values may take (largest entry less the least, plus 1), or k for ranks.
 */
export interface DecodedCodes { view: RegionSequence; fields: SequenceView; file: ResidentFile; sorted: Int32Array; holdsValues: boolean; span: number }

/**
 * The codes of `cascade` as values less the least entry, or ranks (entries: its k raw entries as
 * words), or null: too few values
 * or too many entries, no memory for them, a reader opened with `decodedCodes: false`, or a code
 * not below k.
 */
export function decodeCodesView(backend: ColumnsBackend, cascade: DictionaryCascade, entries: Int32Array): DecodedCodes | null {
  const k = cascade.entries.count, count = cascade.count, codes = cascade.codes
  const bytes = decodedCodesBytes(k, count)
  if (bytes === 0 || encodedOnly.has(codes.file)) return null
  const width = widthOf(k)
  // A stable radix sort (equal entries, which only a file a flush did not write holds, by code): a
  // comparator sort of 64,000 entries cost a fresh reader's first question 12-20 ms.
  const order = ascendingEntries(entries, k)
  const fieldOf = new Uint16Array(k), sorted = new Int32Array(2 * k)
  for (let rank = 0; rank < k; rank++) {
    const code = order[rank]
    fieldOf[code] = rank
    sorted[2 * rank] = entries[2 * code]
    sorted[2 * rank + 1] = entries[2 * code + 1]
  }
  // Entries spanning less than 2^width: each code's field is its entry less the least (once per entry).
  const least = int64ToBigInt(sorted[0], sorted[1])
  const holdsValues = spanFits(entries, k)
  if (holdsValues) for (let code = 0; code < k; code++) fieldOf[code] = Number(int64ToBigInt(entries[2 * code], entries[2 * code + 1]) - least)
  const base = holdsValues ? [sorted[0], sorted[1]] as const : [0, 0] as const
  const fieldsRecords = base[0] !== 0 || base[1] !== 0
  const span = holdsValues ? Number(int64ToBigInt(sorted[2 * k - 2], sorted[2 * k - 1]) - least) + 1 : k
  let file: ResidentFile
  try {
    file = backend.loadWith(decodedCodesBytes(k, count, fieldsRecords), () => {})
  } catch {
    return null
  }
  const blocks = Math.ceil(count / BLOCK_VALUES), dataLength = (width / 8) * count + DATA_PADDING_BYTES
  const dataStart = dataAt(count, fieldsRecords)
  const view = new RegionSequence(file, codes.fileName, codes.label, count, blocks, width, dataLength, base, { recordsStart: 0, dataStart })
  const fields = fieldsRecords ? new RegionSequence(file, codes.fileName, codes.label, count, blocks, width, dataLength, [0, 0], { recordsStart: 24 * blocks, dataStart }) : view
  let complete = false
  try {
    complete = backend.decodeRanks(codes, fieldOf, file, view.dataStart, width, extremesAt(k, count, fieldsRecords)) === -1
  } catch {
    // A block that cannot be read: the encodings' path raises what a read raises.
  } finally {
    if (!complete) file.release()
  }
  if (!complete) return null
  view.extremesAt = extremesAt(k, count, fieldsRecords)
  const made = madeFor.get(codes.file) ?? []
  made.push(file)
  madeFor.set(codes.file, made)
  return { view, fields, file, sorted, holdsValues, span }
}

/**
 * Bounds (4 words a range: lo, 0, hi, 0) of the ranks whose entries lie in each range of `bounds`
 * (4 words a range: raw lo, raw hi as low, high words), ranges that hold no entry left out.
 */
export function rankBounds(sorted: Int32Array, bounds: Int32Array): Int32Array {
  const k = sorted.length >>> 1, out: number[] = []
  // The first rank whose entry is at least (low, high), or, with `above`, above it.
  const search = (low: number, high: number, above: boolean): number => {
    let from = 0, to = k
    while (from < to) {
      const middle = (from + to) >>> 1
      const order = compareInt64(sorted[2 * middle], sorted[2 * middle + 1], low, high)
      if (order < 0 || (above && order === 0)) from = middle + 1
      else to = middle
    }
    return from
  }
  for (let at = 0; at < bounds.length; at += 4) {
    const lo = search(bounds[at], bounds[at + 1], false), hi = search(bounds[at + 2], bounds[at + 3], true) - 1
    if (lo <= hi) out.push(lo, 0, hi, 0)
  }
  return Int32Array.from(out)
}

/**
 * Stretches of blocks of a decoded view over values [first, first + count) whose own least and
 * largest fields meet any of the ranges (4 words a range, inclusive, in the view's values: base +
 * field): visit(from, n) for each; a block apart from every range is passed over (its records'
 * span, 2^width wide, would send it to a pass over its values). What the visits return, summed.
 */
export function visitMeetingBlocks(view: RegionSequence, first: number, count: number, ranges: Int32Array, visit: (from: number, n: number) => number): number {
  if (view.extremesAt < 0 || count === 0) return visit(first, count)
  const base = int64ToBigInt(view.records[2], view.records[3])
  // Each range in field space, clamped to [-1, 65536]: fields are u16.
  const field = (low: number, high: number) => {
    const offset = int64ToBigInt(low, high) - base
    return offset < -1n ? -1 : offset > 65536n ? 65536 : Number(offset)
  }
  const spans: number[] = []
  for (let at = 0; at < ranges.length; at += 4) spans.push(field(ranges[at], ranges[at + 1]), field(ranges[at + 2], ranges[at + 3]))
  // One pass, no allocation: a stretch of meeting blocks is visited where it ends. A visit may grow
  // WebAssembly memory, which detaches a view of the extremes made before it: made again after each.
  const end = first + count, firstBlock = Math.floor(first / BLOCK_VALUES), lastBlock = Math.floor((end - 1) / BLOCK_VALUES)
  // A range that meets every block (a term found in each, as a hub airport is) needs no walk.
  const { leastMost, largestLeast } = view.extremesSummary()!
  for (let at = 0; at < spans.length; at += 2) if (spans[at] <= largestLeast && spans[at + 1] >= leastMost) return visit(first, count)
  let extremes = view.extremes()!, found = 0, stretch = -1
  for (let block = firstBlock; block <= lastBlock; block++) {
    const least = extremes[2 * block], largest = extremes[2 * block + 1]
    let meets = false
    for (let at = 0; at < spans.length && !meets; at += 2) meets = least <= spans[at + 1] && largest >= spans[at]
    if (meets) {
      if (stretch < 0) stretch = Math.max(first, block * BLOCK_VALUES)
    } else if (stretch >= 0) {
      found += visit(stretch, block * BLOCK_VALUES - stretch)
      stretch = -1
      extremes = view.extremes()!
    }
  }
  if (stretch >= 0) found += visit(stretch, end - stretch)
  return found
}
