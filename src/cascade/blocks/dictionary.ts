/**
 * Dictionary blocks (kind 3): the block's distinct values as entries (offsets
 * from base = min, divided by aux = g, ascending, in ew = bits(range / g) bits),
 * then each value's entry index in width = bits(k - 1) bits; param = (k - 1) |
 * (ew - 1) << 10. Any number of distinct values (v1's table stops at 256 and
 * stores entries in 8 bytes each).
 */
import { bitsOf, bytesFor, type FieldWriter, fieldAt, unpackFields } from '../bits.js'
import type { BlockAnalysis } from '../block-analysis.js'
import { auxNumber, type BlockView, recordAux } from '../block-view.js'
import { Kind } from '../constants.js'
import { CorruptIndexException } from '../../format/errors.js'
import { putPair } from './pairs.js'
import type { BlockRecord } from './record.js'

/** Entry count k of a dictionary block's param. */
export function dictionaryEntries(param: number): number {
  return (param & 1023) + 1
}

/** Entry width ew of a dictionary block's param. */
export function dictionaryEntryWidth(param: number): number {
  return (param >>> 10) + 1
}

/** Data bytes of the dictionary form (k ≥ 2). */
export function dictionarySize(a: BlockAnalysis): number {
  return bytesFor(a.distinctCount * a.width) + bytesFor(a.n * bitsOf(a.distinctCount - 1))
}

/** Writes the dictionary form. */
export function writeDictionary(a: BlockAnalysis, writer: FieldWriter, record: BlockRecord): void {
  const k = a.distinctCount, g = a.divisor, indexWidth = bitsOf(k - 1)
  record.set(Kind.dictionary, indexWidth, (k - 1) | ((a.width - 1) << 10), a.minLow, a.minHigh, g)
  for (let entry = 0; entry < k; entry++) writer.write(a.distinct[entry] / g, a.width)
  writer.seek(writer.offset)
  for (let index = 0; index < a.n; index++) writer.write(entryOf(a, a.u[index]), indexWidth)
}

/** The entry of an offset: binary search over the sorted distinct offsets. */
function entryOf(a: BlockAnalysis, offset: number): number {
  let lo = 0, hi = a.distinctCount - 1
  while (lo < hi) {
    const middle = (lo + hi) >>> 1
    if (a.distinct[middle] < offset) lo = middle + 1
    else hi = middle
  }
  return lo
}

function indexError(view: BlockView, index: number, k: number): never {
  throw new CorruptIndexException(view.fileName, `${view.label}: block ${view.block} has dictionary index ${index}, beyond its ${k} entries`)
}

/**
 * Offset from the base of value j of the dictionary block whose record is word r of records (data at
 * byte `data`): its entry's. NaN for an index beyond the entries (dictionaryPairs names it).
 */
export function dictionaryOffset(words: Int32Array, records: Int32Array, r: number, data: number, _n: number, j: number): number {
  const head = records[r], param = head >>> 16, k = dictionaryEntries(param), entryWidth = dictionaryEntryWidth(param)
  const entry = fieldAt(words, data + ((k * entryWidth + 7) >>> 3), j, (head >>> 8) & 0xff)
  return entry < k ? recordAux(records, r) * fieldAt(words, data, entry, entryWidth) : NaN
}

const entries = new Float64Array(1024)
const entryLow = new Int32Array(1024), entryHigh = new Int32Array(1024)
const pair = new Int32Array(2)

/** Values [from, to) as (low, high) pairs into destination from word d: each entry's pair made once, then copied. */
export function dictionaryPairs(view: BlockView, from: number, to: number, destination: Int32Array, d: number): void {
  const k = dictionaryEntries(view.param), entryWidth = dictionaryEntryWidth(view.param)
  const words = view.words, g = auxNumber(view)
  if (g === 1) {
    // Entries as int32 words: the field's low and high 32 bits added to the base with a carry. Each
    // field from the words holding it, shifted without a branch (the word after the entries is the
    // indexes', or padding).
    const baseLow = view.baseLow, baseHigh = view.baseHigh
    const lowMask = entryWidth >= 32 ? -1 : (1 << entryWidth) - 1, highMask = entryWidth <= 32 ? 0 : (1 << (entryWidth - 32)) - 1
    const wordBase = view.data >>> 2
    let bit = (view.data & 3) * 8
    for (let entry = 0; entry < k; entry++, bit += entryWidth) {
      const word = wordBase + (bit >>> 5), shift = bit & 31
      const low = ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & lowMask
      const high = ((words[word + 1] >>> shift) | ((words[word + 2] << 1) << (31 - shift))) & highMask
      // In int32s: the low words' sum wrapped, carrying one when it wrapped below the field.
      const sum = (baseLow + low) | 0
      entryLow[entry] = sum
      entryHigh[entry] = (baseHigh + high + ((sum >>> 0) < (low >>> 0) ? 1 : 0)) | 0
    }
  } else {
    unpackFields(words, view.data, 0, k, entryWidth, entries, 0)
    for (let entry = 0; entry < k; entry++) {
      putPair(view.baseLow, view.baseHigh, g * entries[entry], pair, 0)
      entryLow[entry] = pair[0]
      entryHigh[entry] = pair[1]
    }
  }
  // Each index read where it is used, from a word kept between indexes (one load per 32 bits).
  const start = view.data + bytesFor(k * entryWidth), W = view.width, mask = W === 0 ? 0 : (1 << W) - 1
  const bit = from * W + (start & 3) * 8
  let word = (start >>> 2) + (bit >>> 5), shift = bit & 31, current = words[word]
  let outside = 0
  const last = k - 1
  for (let end = d + 2 * (to - from); d < end; d += 2) {
    let entry = current >>> shift
    shift += W
    if (shift >= 32) {
      current = words[++word]
      shift -= 32
      // The field's bits from the next word (none when it ended on the word's edge).
      if (shift !== 0) entry |= current << (W - shift)
    }
    entry &= mask
    outside |= last - entry
    destination[d] = entryLow[entry]
    destination[d + 1] = entryHigh[entry]
  }
  // Indexes are checked together (negative once one is beyond last); a bad one is found again to name it.
  if (outside < 0) {
    for (let index = from; index < to; index++) {
      const entry = fieldAt(words, start, index, W)
      if (entry >= k) indexError(view, entry, k)
    }
  }
}
