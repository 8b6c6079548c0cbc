/**
 * topK from the block records (dense and optional columns, a multi column's
 * values): every block's bound on the side topK takes from (descending: base +
 * g (2^w - 1), the last table entry or the constant; ascending: the base) orders
 * the blocks, and once the heap is full, blocks whose bound cannot beat its worst
 * value are never decoded.
 */
import type { ColumnsBackend, RunsCascade, SequenceView } from '../backend/backend.js'
import type { BitsetMemory } from '../backend/query-kernels.js'
import { BLOCK_VALUES, BlockKind } from '../format/constants.js'
import { compareInt64, int64ToBigInt, MAX_INT64, MIN_INT64 } from '../format/int64.js'
import { fieldAt } from '../cascade/bits.js'
import { EXCEPTION_GCD_FLAG, Kind } from '../cascade/constants.js'
import { blockData, patchedLayout, runBlockExtremes, runsLayout } from '../cascade/block-layouts.js'
import { RegionSequence } from '../cascade/region-sequence.js'
import type { Column } from '../read/column.js'
import { popcount } from '../backend/bits.js'
import { anyBitInRange } from './layout.js'
import { type BoundedHeap, isNaNRaw } from './top-k.js'
import { offerRuns } from './top-k-runs.js'

const raw = new Int32Array(2 * BLOCK_VALUES)

/** Values [lo, hi] as a block's bound on the side taken, unbounded when they leave the int64 range. */
function boundOf(lo: bigint, hi: bigint, ascending: boolean): bigint {
  if (lo < MIN_INT64 || hi > MAX_INT64) return ascending ? MIN_INT64 : MAX_INT64
  return ascending ? lo : hi
}

/** base + g × [0, 2^width - 1] as a bound (g of either sign). */
function fieldBound(base: bigint, g: bigint, width: number, ascending: boolean): bigint {
  const far = base + g * ((1n << BigInt(width)) - 1n)
  return boundOf(far < base ? far : base, far < base ? base : far, ascending)
}

/**
 * The bound of a format 2 block of a v2 kind from its record (and, for patched and frequent
 * blocks, a byte or a word of its data): runs and dictionary blocks as a frame of their run
 * values or entries, patched blocks as a frame of their low and high bits together, frequent
 * blocks their top value and their exceptions' frame, linear blocks their line's ends and their
 * fields' span.
 */
function v2Bound(sequence: SequenceView, block: number, ascending: boolean): bigint {
  const records = sequence.records, record = 6 * block
  const kind = records[record] & 0xff, width = (records[record] >>> 8) & 0xff, param = records[record] >>> 16
  const base = int64ToBigInt(records[record + 2], records[record + 3])
  const aux = int64ToBigInt(records[record + 4], records[record + 5])
  if (kind === Kind.runs) {
    // Its run values' own least and largest field: a record's frame over-reaches them, and topK
    // would then decode blocks in vain.
    const { words, valuesAt, runCount } = runsLayout(sequence, block)
    let least = Infinity, most = -Infinity
    for (let run = 0; run < runCount; run++) {
      const field = fieldAt(words, valuesAt, run, width)
      if (field < least) least = field
      if (field > most) most = field
    }
    const low = base + aux * BigInt(least), high = base + aux * BigInt(most)
    return boundOf(low < high ? low : high, low < high ? high : low, ascending)
  }
  if (kind === Kind.dictionary) return fieldBound(base, aux, (param >>> 10) + 1, ascending)
  if (kind === Kind.patched) return fieldBound(base, aux, width + patchedLayout(sequence, block).highWidth, ascending)
  if (kind === Kind.frequent) {
    // Exceptions: aux + divisor × field (the divisor, a u64, first in the data when flagged).
    let divisor = 1n
    if ((param & EXCEPTION_GCD_FLAG) !== 0) {
      const { words, data } = blockData(sequence, block)
      divisor = BigInt(fieldAt(words, data, 0, 32) >>> 0) | (BigInt(fieldAt(words, data + 4, 0, 32) >>> 0) << 32n)
    }
    const far = aux + divisor * ((1n << BigInt(width)) - 1n)
    const lo = base < aux ? base : aux, hi = base > far ? base : far
    return boundOf(lo, hi, ascending)
  }
  if (kind === Kind.linear) {
    // Value j = base + floor(j × slope / 1024) + field j: the line's ends, and the fields' span above.
    const span = BigInt(Math.min(BLOCK_VALUES, sequence.count - block * BLOCK_VALUES) - 1) * aux
    const line = span >= 0n ? span / 1024n : -((1023n - span) / 1024n)
    return boundOf(base + (line < 0n ? line : 0n), base + (line > 0n ? line : 0n) + (1n << BigInt(width)) - 1n, ascending)
  }
  return ascending ? MIN_INT64 : MAX_INT64
}

/**
 * A side's block bounds, its blocks in the order topK visits them (made on topK's first walk: range
 * filters read the bounds alone, and a sort of every block's bigint bound cost their first call
 * milliseconds), and which bounds are the blocks' own extremes (1).
 */
interface Bounded { bounds: bigint[]; order: Int32Array | null; exact: Uint8Array }

/** The blocks by bound, most promising first; equal bounds by block (so equal values meet in document order). */
function orderOf(bounds: bigint[], ascending: boolean): Int32Array {
  return Int32Array.from(bounds.keys()).sort((a, b) => {
    if (bounds[a] !== bounds[b]) return (bounds[a] < bounds[b]) === ascending ? -1 : 1
    return a - b
  })
}

/**
 * Each sequence's bounds and order, per side, worked out on its first topK (records and data do not
 * change); apart for topK's that skip NaN, whose bounds, once a block is read, leave its NaNs out
 * (range filters take the others: they must hold every value).
 */
const boundsMade = new WeakMap<SequenceView, { ascending?: Bounded; descending?: Bounded; ascendingNumbers?: Bounded; descendingNumbers?: Bounded }>()

/**
 * The bound of every block (the largest value it can hold, descending, or its smallest), and the
 * blocks by bound; with `numbers`, the bounds topK tightens leaving NaN out.
 */
export function blockBounds(sequence: SequenceView, ascending: boolean, backend?: ColumnsBackend, numbers = false): Bounded {
  let made = boundsMade.get(sequence)
  if (made === undefined) boundsMade.set(sequence, (made = {}))
  if (numbers) return ascending ? (made.ascendingNumbers ??= boundedOf(sequence, true, backend)) : (made.descendingNumbers ??= boundedOf(sequence, false, backend))
  return ascending ? (made.ascending ??= boundedOf(sequence, true, backend)) : (made.descending ??= boundedOf(sequence, false, backend))
}

function boundedOf(sequence: SequenceView, ascending: boolean, backend: ColumnsBackend | undefined): Bounded {
  // A runs sequence (form 2) with a backend to decode its run values: each block's runs' extreme.
  const runs = backend !== undefined && sequence.cascade?.form === 2
  const bounds = runs ? runFormBounds(sequence, backend, ascending) : boundsOf(sequence, ascending)
  const exact = new Uint8Array(bounds.length).fill(sequence instanceof RegionSequence && sequence.extremesAt >= 0 ? 1 : 0)
  return { bounds, order: null, exact }
}

/** A runs sequence's block bounds on one side (runBlockExtremes) as bigints. */
function runFormBounds(sequence: SequenceView, backend: ColumnsBackend, ascending: boolean): bigint[] {
  const extremes = runBlockExtremes(sequence, sequence.cascade as RunsCascade, backend), side = ascending ? 0 : 2
  return Array.from({ length: extremes.length >>> 2 }, (_, block) => int64ToBigInt(extremes[4 * block + side], extremes[4 * block + side + 1]))
}

/** The smallest (ascending) or largest of the first count raw values in `raw`. */
function extremeOf(count: number, ascending: boolean, skipNaN: boolean): bigint {
  const sign = ascending ? -1 : 1
  // High words first, as signed; low words as unsigned where the high words tie. Values that never
  // enter (NaN, where skipped) bound nothing: a block of them alone ranks last.
  let high = ascending ? 0x7fffffff : -0x80000000, low = ascending ? 0xffffffff : 0, found = false
  for (let index = 0; index < count; index++) {
    const h = raw[2 * index + 1], l = raw[2 * index] >>> 0
    if (skipNaN && isNaNRaw(l | 0, h)) continue
    if (!found || sign * (h - high) > 0 || (h === high && sign * (l - low) > 0)) {
      found = true
      high = h
      low = l
    }
  }
  return int64ToBigInt(low | 0, high)
}

/** blockBounds, worked out. */
function boundsOf(sequence: SequenceView, ascending: boolean): bigint[] {
  const records = sequence.records
  const bounds: bigint[] = []
  // Decoded dictionary codes that hold the values: each block's own least or largest, over the base.
  if (sequence instanceof RegionSequence && sequence.extremesAt >= 0) {
    const bytes = sequence.bytes, base = int64ToBigInt(records[2], records[3])
    const extremes = new Uint16Array(bytes.buffer, bytes.byteOffset + sequence.extremesAt, 2 * sequence.blockCount)
    for (let block = 0; block < sequence.blockCount; block++) bounds.push(base + BigInt(extremes[2 * block + (ascending ? 0 : 1)]))
    return bounds
  }
  // v2 sequences of other forms have no records of their own: no block is bounded, all are decoded.
  const own = sequence.cascade === null || sequence.cascade.form === 0
  const v2 = sequence.cascade !== null
  for (let block = 0; block < sequence.blockCount; block++) {
    const record = 6 * block
    const kind = own ? records[record] & 0xff : -1, width = (records[record] >>> 8) & 0xff
    if (v2 && kind > BlockKind.packed) {
      bounds.push(v2Bound(sequence, block, ascending))
      continue
    }
    if (kind !== BlockKind.constant && kind !== BlockKind.packed && kind !== BlockKind.table) {
      bounds.push(ascending ? MIN_INT64 : MAX_INT64)
      continue
    }
    const base = int64ToBigInt(records[record + 2], records[record + 3])
    if (ascending || kind === BlockKind.constant) bounds.push(base)
    // A table's last entry lives in file bytes that only the backend may read: no bound, always decoded.
    else if (kind === BlockKind.table) bounds.push(MAX_INT64)
    else {
      const divisor = int64ToBigInt(records[record + 4], records[record + 5])
      const top = base + divisor * ((1n << BigInt(width)) - 1n)
      // A span that wraps around the i64 range bounds nothing.
      bounds.push(top > MAX_INT64 || top < base ? MAX_INT64 : top)
    }
  }
  return bounds
}

/** Document of value index `value` of an optional column: the rank per 64 documents, then the bits. */
function documentOfValue(column: Column, value: number): number {
  const { words, ranks } = column.presence!
  let lo = 0, hi = ranks.length - 1 // last rank entry with ranks[i] ≤ value
  while (lo < hi) {
    const middle = (lo + hi + 1) >>> 1
    if (ranks[middle] <= value) lo = middle
    else hi = middle - 1
  }
  let word = 2 * lo, skip = value - ranks[lo]
  if (skip >= popcount(words[word])) skip -= popcount(words[word++])
  let bits = words[word]
  for (; skip > 0; skip--) bits &= bits - 1
  return word * 32 + (31 - Math.clz32(bits & -bits))
}

/**
 * Fills the heap with the best selected values of `sequence`, block by block (NaN skipped when
 * asked). With `optional` null, ids and selection bits are value indices (a dense column's
 * documents, or a multi column's values); else they are the optional column's documents. No value at
 * or after `end` is selected.
 */
export function topKFromBlocks(
  sequence: SequenceView, optional: Column | null, backend: ColumnsBackend, heap: BoundedHeap, ascending: boolean,
  selected: BitsetMemory | null, skipNaN: boolean, end = sequence.count,
): void {
  let documents = selected === null ? null : selected.words
  const bounded = blockBounds(sequence, ascending, backend, skipNaN)
  const { bounds, exact } = bounded
  const order = (bounded.order ??= orderOf(bounds, ascending))
  const dense = optional === null
  let tightened = false
  // Once the heap is full, a block of a sequence v1's kernels read gives only the values that can
  // enter, as bits from the range kernel: the others are never looked at in JavaScript.
  let matches: BitsetMemory | null = null
  try {
    for (const block of order) {
      const start = block * BLOCK_VALUES
      // No value selected from `end` on (before the bounds: each check of one is a bigint's).
      if (start >= end) continue
      if (heap.full() && !heap.mayTie(bounds[block])) break
      // A bound that only ties the worst kept, at ids after its: nothing here or in later blocks
      // (bounds no better, equal ones in block order) can enter. Low-cardinality columns stop here.
      if (heap.full() && heap.closedFrom(bounds[block], dense ? start : documentOfValue(optional, start))) break
      const count = Math.min(BLOCK_VALUES, sequence.count - start)
      if (dense && documents !== null && !anyBitInRange(documents, start, start + count)) continue
      // An optional column's block: its values' documents, from the first's to the last's.
      if (!dense && documents !== null && !anyBitInRange(documents, documentOfValue(optional, start), documentOfValue(optional, start + count - 1) + 1)) continue
      // A run block's bound is its runs' own extreme already (v2Bound).
      if (dense && sequence.cascade?.form === 0 && offerRuns(sequence, block, heap, ascending, documents, skipNaN)) continue
      backend.decodeRaw(sequence, start, count, raw, 0)
      // A decode or an allocation may grow WebAssembly memory, which detaches views made before it.
      documents = selected === null ? null : selected.words
      // The block's own extreme, kept as its bound where tighter (a packed block's record bound,
      // base + g (2^w − 1), may lie far past its values): later walks read fewer blocks.
      if (exact[block] === 0) {
        exact[block] = 1
        const extreme = extremeOf(count, ascending, skipNaN)
        if (ascending ? extreme > bounds[block] : extreme < bounds[block]) {
          bounds[block] = extreme
          tightened = true
        }
      }
      // (Packed blocks only: the kernel would decode a table block again.)
      if (dense && heap.full() && sequence.cascade === null && heap.capacity > 0 && (sequence.records[6 * block] & 0xff) === BlockKind.packed) {
        if (matches === null) {
          matches = backend.query.allocateBitset(BLOCK_VALUES >>> 5)
          documents = selected === null ? null : selected.words
        }
        offerMatches(backend, sequence, heap, ascending, start, count, documents, skipNaN, matches)
        continue
      }
      if (dense) {
        offerBlock(heap, ascending, start, count, documents, skipNaN)
        continue
      }
      let document = -1
      for (let index = 0; index < count; index++) {
        document = index === 0 ? documentOfValue(optional, start) : nextPresent(optional, document)
        if (documents !== null && ((documents[document >>> 5] >>> (document & 31)) & 1) === 0) continue
        const low = raw[2 * index], high = raw[2 * index + 1]
        if (skipNaN && isNaNRaw(low, high)) continue
        if (heap.mayEnterOrTie(low, high)) heap.offer(low, high, document)
      }
    }
  } finally {
    matches?.release()
  }
  if (tightened) bounded.order = orderOf(bounds, ascending)
}

/** [lo, hi] words of the values that may enter a full heap: up to its worst (ascending), or from it. */
const enterRange = new Int32Array(4)

/**
 * Offers the values of [start, start + count) (decoded in `raw`) that the range kernel finds at
 * or past the full heap's worst, set in `matches` (a block's worth of bits, cleared here first).
 */
function offerMatches(
  backend: ColumnsBackend, sequence: SequenceView, heap: BoundedHeap, ascending: boolean, start: number, count: number,
  documents: Int32Array | null, skipNaN: boolean, matches: BitsetMemory,
): void {
  if (ascending) enterRange.set([0, -0x80000000, heap.worstLow, heap.worstHigh])
  else enterRange.set([heap.worstLow, heap.worstHigh, -1, 0x7fffffff])
  matches.words.fill(0)
  backend.query.matchRange(sequence, start, count, enterRange, null, 0, matches, 0)
  const words = matches.words
  for (let word = 0; word < (count + 31) >>> 5; word++) {
    for (let bits = words[word]; bits !== 0; bits &= bits - 1) {
      const index = 32 * word + (31 - Math.clz32(bits & -bits)), document = start + index
      if (documents !== null && ((documents[document >>> 5] >>> (document & 31)) & 1) === 0) continue
      const low = raw[2 * index], high = raw[2 * index + 1]
      if (skipNaN && isNaNRaw(low, high)) continue
      if (heap.mayEnterOrTie(low, high)) heap.offer(low, high, document)
    }
  }
}

/**
 * Offers the `count` decoded values in `raw` (ids from `start`; `documents`: selected ids, or null
 * for all), from the end whose value ranks first: a sorted block's best values fill the heap
 * first, and the rest are refused by one comparison each rather than sifted through it.
 */
function offerBlock(heap: BoundedHeap, ascending: boolean, start: number, count: number, documents: Int32Array | null, skipNaN: boolean): void {
  const last = 2 * (count - 1)
  const order = compareInt64(raw[last], raw[last + 1], raw[0], raw[1])
  const backward = ascending ? order < 0 : order > 0
  // Once the heap is full, its worst kept value in locals: a value past it is passed over with no call.
  let full = heap.full() && heap.capacity > 0
  let worstLow = full ? heap.worstLow >>> 0 : 0, worstHigh = full ? heap.worstHigh : 0
  for (let step = 0; step < count; step++) {
    const index = backward ? count - 1 - step : step, document = start + index
    const low = raw[2 * index], high = raw[2 * index + 1]
    if (full && (ascending ? high > worstHigh || (high === worstHigh && low >>> 0 > worstLow) : high < worstHigh || (high === worstHigh && low >>> 0 < worstLow))) continue
    if (documents !== null && ((documents[document >>> 5] >>> (document & 31)) & 1) === 0) continue
    if (skipNaN && isNaNRaw(low, high)) continue
    if (heap.mayEnterOrTie(low, high) && heap.offer(low, high, document) && heap.full()) {
      full = true
      worstLow = heap.worstLow >>> 0
      worstHigh = heap.worstHigh
    }
  }
}

/** The next document after `document` with a value (optional columns). */
function nextPresent(column: Column, document: number): number {
  const words = column.presence!.words
  let word = (document + 1) >>> 5
  let bits = words[word] & (-1 << ((document + 1) & 31))
  while (bits === 0) bits = words[++word]
  return word * 32 + (31 - Math.clz32(bits & -bits))
}
