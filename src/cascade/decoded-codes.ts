/**
 * A sequence dictionary's codes decoded once, for queries: each value as the rank
 * of its entry among the entries in ascending order, in a v1 sequence of frame
 * blocks (base 0, divisor 1) of width 8 (at most 256 entries) or 16 (at most
 * 65,536) in the backend's own memory, which v1's kernels read at v1's speed.
 * Ranks rather than codes: a range of values is then one range of ranks, and a
 * keyword column's ranks are its ordinals' order. Codes of patched or dictionary
 * blocks otherwise cost a decode per question; here one decode per reader
 * (docs/query.md, "Decoded codes"). Made on a column's first question, only where
 * every code is below k (a corrupt code leaves the encodings' path, which refuses
 * it as a read does), and given back when the reader closes (or the view is
 * collected). A reader opened with `decodedCodes: false` keeps its codes encoded.
 */
import type { ColumnsBackend, DictionaryCascade, ResidentFile, SequenceView } from '../backend/backend.js'
import { BLOCK_VALUES, DATA_PADDING_BYTES } from '../format/constants.js'
import { compareInt64 } from '../format/int64.js'
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

/** Bytes a decoded view of `count` codes below k holds (0: none is made). */
export function decodedCodesBytes(k: number, count: number): number {
  if (k > DECODED_CODES_MAX_ENTRIES || count < DECODED_CODES_MIN_VALUES) return 0
  return 24 * Math.ceil(count / BLOCK_VALUES) + (widthOf(k) / 8) * count + DATA_PADDING_BYTES
}

/**
 * A decoded view, its memory, and the entries in ascending order (raw i64 as low, high words): rank r
 * holds sorted[2r, 2r + 1]. `ranksAreValues`: the entries are 0 to k - 1 (a keyword column's
 * ordinals, every term used), so the view reads as the sequence itself.
 */
export interface DecodedCodes { view: SequenceView; file: ResidentFile; sorted: Int32Array; ranksAreValues: boolean }

/**
 * The codes of `cascade` as ranks (entries: its k raw entries as words), or null: too few values
 * or too many entries, no memory for them, a reader opened with `decodedCodes: false`, or a code
 * not below k.
 */
export function decodeCodesView(backend: ColumnsBackend, cascade: DictionaryCascade, entries: Int32Array): DecodedCodes | null {
  const k = cascade.entries.count, count = cascade.count, codes = cascade.codes
  const bytes = decodedCodesBytes(k, count)
  if (bytes === 0 || encodedOnly.has(codes.file)) return null
  const width = widthOf(k)
  const order = Array.from({ length: k }, (_, code) => code)
  order.sort((a, b) => compareInt64(entries[2 * a], entries[2 * a + 1], entries[2 * b], entries[2 * b + 1]) || a - b)
  const rankOf = new Uint16Array(k), sorted = new Int32Array(2 * k)
  let ranksAreValues = true
  order.forEach((code, rank) => {
    rankOf[code] = rank
    sorted[2 * rank] = entries[2 * code]
    sorted[2 * rank + 1] = entries[2 * code + 1]
    ranksAreValues &&= sorted[2 * rank] === rank && sorted[2 * rank + 1] === 0
  })
  let file: ResidentFile
  try {
    file = backend.loadWith(bytes, () => {})
  } catch {
    return null
  }
  const view = new RegionSequence(file, codes.fileName, codes.label, count, Math.ceil(count / BLOCK_VALUES), width, (width / 8) * count + DATA_PADDING_BYTES)
  let complete = false
  try {
    complete = backend.decodeRanks(codes, rankOf, file, view.dataStart, width) === -1
  } catch {
    // A block that cannot be read: the encodings' path raises what a read raises.
  } finally {
    if (!complete) file.release()
  }
  if (!complete) return null
  const made = madeFor.get(codes.file) ?? []
  made.push(file)
  madeFor.set(codes.file, made)
  return { view, file, sorted, ranksAreValues }
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
