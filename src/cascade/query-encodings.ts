/**
 * Facets and histograms of format 2 sequences answered from their encodings
 * rather than from decoded values, where an encoding lets the kernels skip work
 * (docs/query.md, "Format 2"):
 * - a sequence dictionary counts its codes (k slots), then adds each code's
 *   count to its entry's slot, once per code;
 * - patched blocks are counted by v1's packed kernels over their low fields
 *   (a v1 record per block, made once per sequence), then each selected patch
 *   moves one count from its low value's slot to its value's slot;
 * - run blocks add each run's selected count to its value's slot;
 * - frequent blocks add their top value's selected count at once (the selected
 *   values less the selected exceptions), and each selected exception alone;
 * - constant and frame blocks are v1's and go to v1's kernels as they are.
 * Other blocks are decoded a chunk at a time (query-adapter.ts). A value out of
 * range, or a block that a valid file would not hold (run starts out of order),
 * sends the whole call to the decoding path, so errors are worded, and answers
 * given, exactly as reads give them. Exception lists out of order are walked as
 * reads find their exceptions (a search per position), as the WebAssembly
 * kernels decode them: a value that no selected document holds raises nothing.
 */
import type { ColumnsBackend, DictionaryCascade, ResidentFile, SequenceView } from '../backend/backend.js'
import { countSelected, popcount } from '../backend/bits.js'
import { releaseWithReader } from '../backend/owned-regions.js'
import type { BitsetMemory } from '../backend/query-kernels.js'
import { BLOCK_SHIFT, BLOCK_VALUES } from '../format/constants.js'
import { CorruptIndexException } from '../format/errors.js'
import { addOffset, compareInt64 } from '../format/int64.js'
import { bitsOf, bytesFor, fieldAt, POW2, smallField } from './bits.js'
import { forEachExceptionAsRead, positionsIncrease, positionsSize } from './blocks/positions.js'
import { EXCEPTION_GCD_FLAG, Kind, POSITIONS_LIST_FLAG } from './constants.js'
import { DECODED_COUNTING_MAX_ENTRIES, type DecodedCodes, decodeCodesView } from './decoded-codes.js'
import { blockData, patchedLayout, runEnd, runsLayout } from './block-layouts.js'
import { patchesByNumber } from './query-patch-moves.js'
import { type Operation, SLOTS_MAY_DIFFER, type Slots } from './query-slots.js'
import { tallyRunForm } from './query-run-form.js'

const TWO_POW_32 = 4294967296

/** Whether a frequent block (record word 0) steps its exceptions: at most `limit` of them. */
function steppedFrequent(word: number, limit: number): boolean {
  return (word & 0xff) === Kind.frequent && (word >>> 16 & 1023) <= limit
}

/** Whether v1's kernels read the block (record word 0) through a lens: v1's own kinds, and patched blocks' low fields with at most patchLimit patches. */
function lensKind(word: number, patchLimit: number): boolean {
  const kind = word & 0xff
  return kind === Kind.constant || kind === Kind.frame || (kind === Kind.patched && (word >>> 16 & 1023) <= patchLimit)
}

/** Thrown inside a call to hand it to the decoding path. */
class Undecided extends Error {}

/** A sequence's blocks as v1 records (patched: its low fields as a frame), in the backend's memory too. */
interface Lens {
  readonly view: SequenceView
  readonly file: ResidentFile
}

const pair = new Int32Array(2)
/** A dictionary block's count per entry (dictionaryBlock). */
const entryCounts = new Uint32Array(1024)
const lowPair = new Int32Array(2)

/** Tallies over v2 encodings for one backend (`backend()` asked lazily, as it holds the kernels being made). */
export function createEncodedTallies(backend: () => ColumnsBackend) {
  const lenses = new WeakMap<SequenceView, Lens>()
  const released = new FinalizationRegistry<ResidentFile>((file) => file.release())
  const entryCache = new WeakMap<SequenceView, Int32Array>()

  function lensOf(sequence: SequenceView): Lens {
    let lens = lenses.get(sequence)
    if (lens !== undefined) return lens
    const source = sequence.records
    const records = new Int32Array(source.length)
    for (let at = 0; at < source.length; at += 6) {
      const kind = source[at] & 0xff, width = (source[at] >>> 8) & 0xff
      records.set(source.subarray(at, at + 6), at)
      // Patched: a frame of its low fields (after its byte of patch width), or a constant when they are 0 bits wide.
      if (kind === Kind.patched) {
        records[at] = width === 0 ? Kind.constant : Kind.frame | (width << 8)
        records[at + 1] = source[at + 1] + 1
        if (width === 0) records[at + 4] = records[at + 5] = 0
      }
    }
    let file: ResidentFile
    try {
      file = backend().loadWith(records.byteLength, (bytes) => bytes.set(new Uint8Array(records.buffer)))
    } catch {
      // No memory for the records (a pool worker's bounded arena): count the decoding way.
      throw new Undecided()
    }
    const view: SequenceView = {
      file: sequence.file, fileName: sequence.fileName, label: sequence.label, count: sequence.count, blockCount: sequence.blockCount,
      records, recordsStart: file.address - sequence.file.address, dataStart: sequence.dataStart, dataLength: sequence.dataLength,
      cascade: null,
      get bytes() { return sequence.bytes },
      get bufferWords() { return sequence.bufferWords },
      get dataStartInBuffer() { return sequence.dataStartInBuffer },
    }
    lens = { view, file }
    lenses.set(sequence, lens)
    released.register(view, file)
    releaseWithReader(sequence.file, file)
    return lens
  }

  const decodedViews = new WeakMap<DictionaryCascade, DecodedCodes | null>()

  /**
   * The codes of a sequence dictionary decoded once as ranks (decoded-codes.ts), or null where none
   * can be made. Counting every value (`countingAll`) reads them only at width 8: wider codes count
   * faster from their encodings there (countDecoded), and slower once a DocSet selects.
   */
  function decodedOf(cascade: DictionaryCascade, countingAll: boolean): DecodedCodes | null {
    if (countingAll && cascade.entries.count > DECODED_COUNTING_MAX_ENTRIES) return null
    let decoded = decodedViews.get(cascade)
    if (decoded === undefined) {
      decoded = decodeCodesView(backend(), cascade, entriesOf(cascade.entries))
      if (decoded !== null) released.register(decoded.view, decoded.file)
      decodedViews.set(cascade, decoded)
    }
    return decoded
  }

  function entriesOf(entries: SequenceView): Int32Array {
    let raws = entryCache.get(entries)
    if (raws === undefined) {
      raws = new Int32Array(2 * entries.count)
      backend().decodeRaw(entries, 0, entries.count, raws, 0)
      entryCache.set(entries, raws)
    }
    return raws
  }

  /** Moves one count from the low value's slot to the value's slot for each selected patch in [from, to) of a patched block. */
  function patches(
    sequence: SequenceView, block: number, from: number, to: number, selection: Int32Array | null, bit: number, out: Uint32Array, slots: Slots,
  ): void {
    const records = sequence.records, at = 6 * block
    const baseLow = records[at + 2], baseHigh = records[at + 3], g = records[at + 5] * TWO_POW_32 + (records[at + 4] >>> 0)
    const layout = patchedLayout(sequence, block)
    const { words, lowsAt, width, positionsAt, list, e, n, positionWidth, highsAt, highWidth } = layout
    const scale = POW2[width]
    const base = baseHigh * TWO_POW_32 + (baseLow >>> 0)
    // Every value of the block an exact number (codes, small integers): slots by number, no pairs.
    // (A list that does not increase, corrupt, is walked below as reads find its patches.)
    const ordered = !list || positionsIncrease(words, positionsAt, e, n, positionWidth)
    if (ordered && slots.numberSlot !== undefined && width <= 31 && highWidth <= 31 && Math.abs(base) + g * scale * POW2[highWidth] < 2 ** 53) {
      if (!patchesByNumber(layout, base, g, from, to, selection, bit, out, slots)) throw new Undecided()
      return
    }
    forEachExceptionAsRead(words, positionsAt, list, e, n, positionWidth, from, to, (position, rank) => {
      if (selection !== null && ((selection[(bit + position - from) >>> 5] >>> ((bit + position - from) & 31)) & 1) === 0) return
      const low = fieldAt(words, lowsAt, position, width)
      addOffset(baseLow, baseHigh, g * low, lowPair, 0)
      addOffset(baseLow, baseHigh, g * (low + scale * fieldAt(words, highsAt, rank, highWidth)), pair, 0)
      const was = slots.slot(lowPair[0], lowPair[1]), now = slots.slot(pair[0], pair[1])
      if (now < 0 && slots.strict) throw new Undecided()
      if (was >= 0) out[was]--
      if (now >= 0) out[now]++
    }, ordered)
  }

  /** Adds each run's selected count in [from, to) of a run block to its value's slot. */
  function runs(
    sequence: SequenceView, block: number, from: number, to: number, selection: Int32Array | null, bit: number, out: Uint32Array, slots: Slots,
  ): void {
    const records = sequence.records, at = 6 * block
    const width = (records[at] >>> 8) & 0xff
    const baseLow = records[at + 2], baseHigh = records[at + 3], g = records[at + 5] * TWO_POW_32 + (records[at + 4] >>> 0)
    // A block whose bound (base + g (2^width - 1)) shares the base's slot adds its selected count at once, as v1's kernels do.
    if (!slots.strict) {
      addOffset(baseLow, baseHigh, g * (POW2[width] - 1), pair, 0)
      const top = slots.slot(pair[0], pair[1])
      if (top >= 0 && top === slots.slot(baseLow, baseHigh)) {
        out[top] += countSelected(selection, bit, to - from)
        return
      }
    }
    const layout = runsLayout(sequence, block), { words, valuesAt: data, runCount, n } = layout
    // Every value of the block an exact number (base and bound are): each run's slot by numbers, no pairs.
    const base = baseHigh * TWO_POW_32 + (baseLow >>> 0), numberSlot = slots.numberSlot
    const numeric = numberSlot !== undefined && Number.isSafeInteger(base) && Number.isSafeInteger(base + g * (POW2[width] - 1))
    let start = 0
    // Every run's end checked, past `to` too: with one out of order, reads search the starts and may not find what a walk finds.
    for (let run = 0; run < runCount; run++) {
      const end = runEnd(layout, run)
      if (end <= start || end > n) throw new Undecided()
      const lo = Math.max(start, from), hi = Math.min(end, to)
      if (lo < hi) {
        const selected = countSelected(selection, bit + lo - from, hi - lo)
        if (selected > 0 && numeric) {
          const slot = numberSlot!(base + g * fieldAt(words, data, run, width))
          if (slot < 0 && slots.strict) throw new Undecided()
          if (slot >= 0) out[slot] += selected
        } else if (selected > 0) {
          addOffset(baseLow, baseHigh, g * fieldAt(words, data, run, width), pair, 0)
          const slot = slots.slot(pair[0], pair[1])
          if (slot < 0 && slots.strict) throw new Undecided()
          if (slot >= 0) out[slot] += selected
        }
      }
      start = end
    }
  }

  /**
   * Values [from, to) of dictionary block `block`, selected: each index counted (one beyond the
   * entries, selected or not: the decoding path names it), then each entry's count goes to its value's slot.
   */
  function dictionaryBlock(
    sequence: SequenceView, block: number, from: number, to: number, selection: Int32Array | null, bit: number, out: Uint32Array, slots: Slots,
  ): void {
    const records = sequence.records, at = 6 * block
    const width = (records[at] >>> 8) & 0xff, param = records[at] >>> 16
    const k = (param & 1023) + 1, entryWidth = (param >>> 10) + 1
    if (entryWidth > 53 || width > 10) throw new Undecided()
    const { words, data } = blockData(sequence, block), indexesAt = data + bytesFor(k * entryWidth)
    entryCounts.fill(0, 0, k)
    // Every index of the stretch read and checked, selected or not, as the WebAssembly kernels
    // decode whole stretches: one beyond the entries raises however a selection falls.
    const wordBase = indexesAt >>> 2, mask = (1 << width) - 1
    for (let j = from, b = (indexesAt & 3) * 8 + from * width, s = bit; j < to; j++, b += width, s++) {
      const index = smallField(words, wordBase, b, mask)
      if (index >= k) throw new Undecided()
      entryCounts[index] += selection === null ? 1 : (selection[s >>> 5] >>> (s & 31)) & 1
    }
    const baseLow = records[at + 2], baseHigh = records[at + 3], g = records[at + 5] * TWO_POW_32 + (records[at + 4] >>> 0)
    for (let entry = 0; entry < k; entry++) {
      if (entryCounts[entry] === 0) continue
      const offset = g * fieldAt(words, data, entry, entryWidth)
      if (!Number.isSafeInteger(offset)) throw new Undecided()
      addOffset(baseLow, baseHigh, offset, pair, 0)
      const slot = slots.slot(pair[0], pair[1])
      if (slot < 0 && slots.strict) throw new Undecided()
      if (slot >= 0) out[slot] += entryCounts[entry]
    }
  }

  /** Adds a frequent block's selected values in [from, to) to their slots: the top value's count at once, then each selected exception. */
  function frequent(
    sequence: SequenceView, block: number, from: number, to: number, selection: Int32Array | null, bit: number, out: Uint32Array, slots: Slots,
  ): void {
    const records = sequence.records, at = 6 * block
    const width = (records[at] >>> 8) & 0xff, param = records[at] >>> 16
    const n = Math.min(BLOCK_VALUES, sequence.count - block * BLOCK_VALUES)
    const { words, data } = blockData(sequence, block)
    const e = param & 1023, list = (param & POSITIONS_LIST_FLAG) !== 0, positionWidth = bitsOf(n - 1)
    // Exception = x0 (aux) + divisor × field (the divisor stored first when the flag says so).
    const hasDivisor = (param & EXCEPTION_GCD_FLAG) !== 0
    const divisor = hasDivisor ? (fieldAt(words, data, 0, 32) >>> 0) + fieldAt(words, data + 4, 0, 32) * TWO_POW_32 : 1
    const positionsAt = data + (hasDivisor ? 8 : 0), valuesAt = positionsAt + positionsSize(e, n, positionWidth)
    const auxLow = records[at + 4], auxHigh = records[at + 5]
    const x0 = auxHigh * TWO_POW_32 + (auxLow >>> 0), numberSlot = slots.numberSlot
    let exceptions = 0
    if (!list && numberSlot !== undefined && width <= 31 && Number.isSafeInteger(x0) && Number.isSafeInteger(x0 + divisor * (POW2[width] - 1))) {
      // A bitmap of many exceptions, each an exact number: stepped here by numbers (no pairs, no call per exception).
      exceptions = bitmapExceptions(words, positionsAt, valuesAt, e, n, width, from, to, selection, bit, x0, divisor, numberSlot, slots.strict, out)
    } else forEachExceptionAsRead(words, positionsAt, list, e, n, positionWidth, from, to, (position, rank) => {
      const b = bit + position - from
      if (selection !== null && ((selection[b >>> 5] >>> (b & 31)) & 1) === 0) return
      const offset = divisor * fieldAt(words, valuesAt, rank, width)
      if (!Number.isSafeInteger(offset)) throw new Undecided()
      addOffset(auxLow, auxHigh, offset, pair, 0)
      const slot = slots.slot(pair[0], pair[1])
      if (slot < 0 && slots.strict) throw new Undecided()
      if (slot >= 0) out[slot]++
      exceptions++
    })
    const top = countSelected(selection, bit, to - from) - exceptions
    if (top === 0) return
    const slot = slots.slot(records[at + 2], records[at + 3])
    if (slot < 0 && slots.strict) throw new Undecided()
    if (slot >= 0) out[slot] += top
  }

  /**
   * frequent's exceptions at positions [from, to) of a bitmap block, selected ones counted in their
   * slots (x0 + divisor × field, exact numbers); how many were selected. As forEachException walks them.
   */
  function bitmapExceptions(
    words: Int32Array, positionsAt: number, valuesAt: number, e: number, n: number, width: number, from: number, to: number,
    selection: Int32Array | null, bit: number, x0: number, divisor: number, numberSlot: (value: number) => number, strict: boolean, out: Uint32Array,
  ): number {
    const mask = POW2[width] - 1, valueWord = valuesAt >>> 2, valueBit = (valuesAt & 3) * 8
    let rank = 0, selected = 0
    for (let word = 0; word * 32 < Math.min(n, to); word++) {
      let bits = fieldAt(words, positionsAt, word, 32)
      if (n - 32 * word < 32) bits &= (1 << (n - 32 * word)) - 1
      if ((word + 1) * 32 <= from) {
        rank += popcount(bits)
        continue
      }
      for (; bits !== 0 && rank < e; rank++) {
        const position = 32 * word + 31 - Math.clz32(bits & -bits)
        bits &= bits - 1
        if (position >= to) return selected
        const b = bit + position - from
        if (position < from || (selection !== null && ((selection[b >>> 5] >>> (b & 31)) & 1) === 0)) continue
        const slot = numberSlot(x0 + divisor * smallField(words, valueWord, valueBit + rank * width, mask))
        if (slot < 0 && strict) throw new Undecided()
        if (slot >= 0) out[slot]++
        selected++
      }
    }
    return selected
  }

  /** Blocks that op.blockSlots puts in one slot counted whole, stretches of the others walked (given `walk`) or decoded. */
  function tallyBoundedBlocks(
    sequence: SequenceView, first: number, count: number, selection: BitsetMemory | null, selectionStart: number, out: Uint32Array, op: Operation,
    walk?: (from: number, n: number, bit: number) => void,
  ): void {
    const end = first + count, firstBlock = first >>> BLOCK_SHIFT
    const slots = op.blockSlots!(sequence, firstBlock, ((end - 1) >>> BLOCK_SHIFT) - firstBlock + 1)
    for (let index = first; index < end;) {
      const whole = slots[(index >>> BLOCK_SHIFT) - firstBlock]
      let stop = Math.min(end, ((index >>> BLOCK_SHIFT) + 1) * BLOCK_VALUES)
      // Words read at each step: a decode may grow the memory they are in.
      if (whole !== SLOTS_MAY_DIFFER) {
        if (whole >= 0) out[whole] += countSelected(selection === null ? null : selection.words, selectionStart + index - first, stop - index)
      } else {
        while (stop < end && slots[(stop >>> BLOCK_SHIFT) - firstBlock] === SLOTS_MAY_DIFFER) stop = Math.min(end, stop + BLOCK_VALUES)
        if (walk !== undefined) walk(index, stop - index, selectionStart + index - first)
        else op.decode(sequence, index, stop - index, selection, selectionStart + index - first, out)
      }
      index = stop
    }
  }

  /** Values [first, first + count) tallied from the encodings into out; counting(n) counts codes below n. */
  function tally(
    sequence: SequenceView, first: number, count: number, selection: BitsetMemory | null, selectionStart: number, out: Uint32Array,
    op: Operation, counting: (n: number) => Operation,
  ): void {
    const cascade = sequence.cascade
    if (cascade === null) return op.inner(sequence, first, count, selection, selectionStart, out)
    if (cascade.form === 1) {
      // Every value asked about, and a decoded copy that holds the values: format 1's kernel reads it
      // as a format 1 sequence, its blocks bounded exactly (a block inside one bucket counted at once).
      const over = op.overValues
      const copy = over !== undefined && over !== false && selection === null ? decodedOf(cascade, false) : null
      if (copy?.holdsValues && (over === true || (over as (view: SequenceView) => boolean)(copy.view))) return op.inner(copy.view, first, count, selection, selectionStart, out)
      // Codes are below k at open or counting refuses them (as a read would): then the decoding path words it.
      const k = cascade.entries.count
      // Counted by field where the codes are decoded (a value less the least entry, or a rank), else
      // by code; then each counted field or code goes to its value's slot. (Counting beats format 1's
      // histogram kernel on a copy of values under a DocSet: docs/query.md, "Decoded codes".)
      const decoded = decodedOf(cascade, selection === null)
      const n = decoded?.span ?? k
      const codeCounts = new Uint32Array(n)
      tally(decoded?.fields ?? cascade.codes, first, count, selection, selectionStart, codeCounts, counting(n), counting)
      const entries = decoded?.holdsValues ? null : decoded?.sorted ?? entriesOf(cascade.entries)
      for (let code = 0; code < n; code++) {
        if (codeCounts[code] === 0) continue
        if (entries === null) addOffset(decoded!.sorted[0], decoded!.sorted[1], code, pair, 0)
        const slot = entries === null ? op.slots.slot(pair[0], pair[1]) : op.slots.slot(entries[2 * code], entries[2 * code + 1])
        if (slot < 0 && op.slots.strict) throw new Undecided()
        if (slot >= 0) out[slot] += codeCounts[code]
      }
      return
    }
    if (cascade.form === 2 && op.decodeAll !== true) {
      const walked = cascade.count >= op.runLength * cascade.runCount
      // Runs: each run's selected count to its value's slot (a value with none, counted strictly: the decoding path names it).
      const walk = (from: number, n: number, bit: number) => {
        if (!tallyRunForm(backend(), sequence, cascade, from, n, selection, bit, out, op.slots.slot, op.slots.strict)) throw new Undecided()
      }
      // Histograms: blocks whose runs' values all fall in one slot counted whole, the rest walked or decoded.
      if (op.blockSlots !== undefined) {
        return tallyBoundedBlocks(sequence, first, count, selection, selectionStart, out, op, walked ? walk : undefined)
      }
      if (walked) return walk(first, count, selectionStart)
    }
    if (cascade.form !== 0 || op.decodeAll === true) return op.decode(sequence, first, count, selection, selectionStart, out)
    const blocks = cascade.blocks
    const kinds = blocks.records
    const words = selection === null ? null : selection.words
    const end = first + count
    // Histograms: blocks whose records put every value in one slot are counted whole, unread.
    // (Not where a runs kernel takes every block: flights-3m's date.)
    const firstBlock = first >>> BLOCK_SHIFT, blockCount = ((end - 1) >>> BLOCK_SHIFT) - firstBlock + 1
    let bounded = op.blockSlots !== undefined
    if (bounded && op.runBlocks !== undefined) {
      bounded = false
      for (let b = firstBlock; b < firstBlock + blockCount && !bounded; b++) bounded = (kinds[6 * b] & 0xff) !== Kind.runs
    }
    const slots = bounded ? op.blockSlots!(blocks, firstBlock, blockCount) : null
    const read = (at: number) => slots === null || slots[(at >>> BLOCK_SHIFT) - firstBlock] === SLOTS_MAY_DIFFER
    // Stretches of blocks the lens reads go to v1's kernels in one call each; the rest block by block.
    for (let index = first; index < end;) {
      const block = index >>> BLOCK_SHIFT
      const kind = kinds[6 * block] & 0xff
      let stop = Math.min(end, (block + 1) * BLOCK_VALUES)
      const bit = selectionStart + index - first
      const patchLimit = op.patchLimit
      // (A stretch of run blocks goes to a kernel where there is one: a call for all of them beats a step per block here.
      // Dictionary blocks are read: an index beyond the entries must raise, as format 1's table indexes do.)
      const whole = slots === null || (kind === Kind.runs && op.runBlocks !== undefined) || kind === Kind.dictionary
        ? SLOTS_MAY_DIFFER : slots[block - firstBlock]
      if (whole !== SLOTS_MAY_DIFFER) {
        if (whole >= 0) out[whole] += countSelected(words, bit, stop - index)
      } else if (lensKind(kinds[6 * block], patchLimit)) {
        while (stop < end && lensKind(kinds[6 * (stop >>> BLOCK_SHIFT)], patchLimit) && read(stop)) stop = Math.min(end, stop + BLOCK_VALUES)
        op.inner(lensOf(blocks).view, index, stop - index, selection, bit, out)
        for (let at = index; at < stop;) {
          const b = at >>> BLOCK_SHIFT, next = Math.min(stop, (b + 1) * BLOCK_VALUES)
          if ((kinds[6 * b] & 0xff) === Kind.patched) {
            patches(blocks, b, at - b * BLOCK_VALUES, next - b * BLOCK_VALUES, words, selectionStart + at - first, out, op.slots)
          }
          at = next
        }
      } else if (kind === Kind.runs) {
        while (op.runBlocks !== undefined && stop < end && (kinds[6 * (stop >>> BLOCK_SHIFT)] & 0xff) === Kind.runs) stop = Math.min(end, stop + BLOCK_VALUES)
        if (op.runBlocks === undefined || !op.runBlocks(blocks, index, stop - index, selection, bit, out)) {
          for (let at = index; at < stop;) {
            const b = at >>> BLOCK_SHIFT, next = Math.min(stop, (b + 1) * BLOCK_VALUES)
            runs(blocks, b, at - b * BLOCK_VALUES, next - b * BLOCK_VALUES, words, selectionStart + at - first, out, op.slots)
            at = next
          }
        }
      } else if (kind === Kind.dictionary && op.dictionaryBlocks === true) {
        dictionaryBlock(blocks, block, index - block * BLOCK_VALUES, stop - block * BLOCK_VALUES, words, bit, out, op.slots)
      } else if (steppedFrequent(kinds[6 * block], op.exceptionLimit)) {
        frequent(blocks, block, index - block * BLOCK_VALUES, stop - block * BLOCK_VALUES, words, bit, out, op.slots)
      } else {
        // Decoded in one stretch with the blocks after it that neither the lens, runs nor frequent read.
        const decoded = (word: number) => !lensKind(word, patchLimit) && (word & 0xff) !== Kind.runs && !steppedFrequent(word, op.exceptionLimit)
        while (stop < end && decoded(kinds[6 * (stop >>> BLOCK_SHIFT)]) && read(stop)) stop = Math.min(end, stop + BLOCK_VALUES)
        op.decode(sequence, index, stop - index, selection, bit, out)
      }
      index = stop
    }
  }

  /**
   * One byte per entry of a sequence dictionary (form 1): 1 where the entry lies in any of the
   * ranges (bounds: [loLow, loHigh, hiLow, hiHigh] per range).
   */
  function codeMembers(sequence: SequenceView, bounds: Int32Array): Uint8Array {
    const cascade = sequence.cascade as DictionaryCascade
    const entries = entriesOf(cascade.entries), k = cascade.entries.count
    const members = new Uint8Array(k)
    for (let code = 0; code < k; code++) {
      const low = entries[2 * code], high = entries[2 * code + 1]
      for (let at = 0; at < bounds.length && members[code] === 0; at += 4) {
        if (compareInt64(low, high, bounds[at], bounds[at + 1]) >= 0 && compareInt64(low, high, bounds[at + 2], bounds[at + 3]) <= 0) members[code] = 1
      }
    }
    return members
  }

  /**
   * Tallies values [first, first + count) of a v2 sequence into out from its encodings, or, when the
   * encodings cannot say (a value out of range, a block no valid file holds), as decodePath does.
   */
  const tallyEncoded = function tallyEncoded(
    sequence: SequenceView, first: number, count: number, selection: BitsetMemory | null, selectionStart: number, out: Uint32Array,
    op: Operation, counting: (n: number) => Operation,
  ): void {
    const before = out.slice()
    try {
      tally(sequence, first, count, selection, selectionStart, out, op, counting)
    } catch (error) {
      if (!(error instanceof Undecided || error instanceof CorruptIndexException)) throw error
      out.set(before)
      op.decode(sequence, first, count, selection, selectionStart, out)
    }
  }
  /** The lens's view of a sequence, or null where the backend has no memory for its records. */
  const lensView = (sequence: SequenceView): SequenceView | null => {
    try {
      return lensOf(sequence).view
    } catch (error) {
      if (error instanceof Undecided) return null
      throw error
    }
  }
  return { tallyEncoded, codeMembers, lensView, entriesOf, decodedOf }
}
