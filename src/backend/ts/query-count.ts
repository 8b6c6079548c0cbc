/**
 * countValues for the TS backend: a constant block adds its selected count in
 * one step, a packed block counts base + g u with int32 arithmetic, a table
 * block counts indexes then maps them through its entries.
 */
import type { SequenceView } from '../backend.js'
import type { BitsetMemory } from '../query-kernels.js'
import { BLOCK_VALUES, BlockKind } from '../../format/constants.js'
import { decodeRaw } from './decode.js'
import { selectionBits } from '../bits.js'
import { plainBytesBelow } from '../../cascade/region-sequence.js'
import {
  block, countRangeError, decoded, forEachBlock, indexCounts, loadBlock, lowestBit, selectedCount, tableEntries,
  tableIndexError, unitAt,
} from './query-scan.js'

/** Three extra count lanes for small counts arrays: consecutive increments of one counter no longer wait on each other. */
const LANE_LIMIT = 4096
const lanes = new Uint32Array(3 * LANE_LIMIT)
let laneLimit = 0

/** See QueryKernels.countValues. */
export function countValues(
  sequence: SequenceView, first: number, count: number,
  selection: BitsetMemory | null, selectionStart: number, counts: Uint32Array,
): void {
  laneLimit = counts.length <= LANE_LIMIT ? counts.length : 0
  lanes.fill(0, 0, 3 * laneLimit)
  try {
    if (!countDecodedBytes(sequence, first, count, selection, selectionStart, counts)) {
      forEachBlock(sequence, first, count, null, selection, selectionStart, counts, countBlock)
    }
  } finally {
    for (let value = 0; value < laneLimit; value++) counts[value] += lanes[value] + lanes[laneLimit + value] + lanes[2 * laneLimit + value]
  }
}

function countBlock(
  sequence: SequenceView, blockIndex: number, from: number, to: number, _unused: null,
  selection: Int32Array | null, selectionBit: number, counts: Uint32Array,
): void {
  loadBlock(sequence, blockIndex)
  const limit = counts.length
  const blockStart = blockIndex * BLOCK_VALUES
  if (block.kind === BlockKind.constant) {
    const selected = selectedCount(selection, selectionBit, from, to)
    if (selected === 0) return
    if (block.baseHigh !== 0 || block.baseLow >>> 0 >= limit) {
      countRangeError(sequence, blockStart + firstSelected(selection, selectionBit, from, to), block.baseLow, block.baseHigh, limit)
    }
    counts[block.baseLow] += selected
    return
  }
  if (block.kind === BlockKind.table) {
    countTable(sequence, blockIndex, from, to, selection, selectionBit, counts)
    return
  }
  // base + g u stays an int32 only for small non-negative bases and spans; the rest is corrupt data for an ordinal.
  if (block.packedFast && block.baseHigh === 0 && block.baseLow >= 0 && block.baseLow + block.span < 0x80000000) {
    if (selection === null) countAllUnits(sequence, blockStart, from, to, counts)
    else countSelectedUnits(sequence, blockStart, from, to, selection, selectionBit, counts)
    return
  }
  decodeRaw(sequence, blockStart + from, to - from, decoded, 0)
  for (let position = from; position < to; position += 32) {
    let bits = selectionBits(selection, selectionBit + position - from, Math.min(32, to - position))
    while (bits !== 0) {
      const at = position + lowestBit(bits)
      bits &= bits - 1
      const low = decoded[2 * (at - from)], high = decoded[2 * (at - from) + 1]
      if (high !== 0 || low >>> 0 >= limit) countRangeError(sequence, blockStart + at, low, high, limit)
      counts[low]++
    }
  }
}

/** Table: when every entry is a valid counts index, count indexes then map; else value by value. */
function countTable(
  sequence: SequenceView, blockIndex: number, from: number, to: number,
  selection: Int32Array | null, selectionBit: number, counts: Uint32Array,
): void {
  const words = sequence.bufferWords
  const entries = block.entries
  const limit = counts.length
  const blockStart = blockIndex * BLOCK_VALUES
  let entriesValid = true
  for (let entry = 0; entry < entries; entry++) {
    if (tableEntries[2 * entry + 1] !== 0 || tableEntries[2 * entry] >>> 0 >= limit) entriesValid = false
  }
  if (entriesValid) indexCounts.fill(0, 0, entries)
  for (let position = from; position < to; position += 32) {
    let bits = selectionBits(selection, selectionBit + position - from, Math.min(32, to - position))
    while (bits !== 0) {
      const at = position + lowestBit(bits)
      bits &= bits - 1
      const entry = unitAt(words, at)
      if (entry >= entries) tableIndexError(sequence, blockIndex, entry, entries)
      if (entriesValid) {
        indexCounts[entry]++
        continue
      }
      const low = tableEntries[2 * entry], high = tableEntries[2 * entry + 1]
      if (high !== 0 || low >>> 0 >= limit) countRangeError(sequence, blockStart + at, low, high, limit)
      counts[low]++
    }
  }
  if (!entriesValid) return
  for (let entry = 0; entry < entries; entry++) counts[tableEntries[2 * entry]] += indexCounts[entry]
}

/** Position of the first selected value among [from, to) (the caller knows there is one). */
function firstSelected(selection: Int32Array | null, selectionBit: number, from: number, to: number): number {
  for (let position = from; position < to; position += 32) {
    const bits = selectionBits(selection, selectionBit + position - from, Math.min(32, to - position))
    if (bits !== 0) return position + lowestBit(bits)
  }
  return to
}

/** Packed, every value: base + g u as int32, four per step (the facet hot loop). */
function countAllUnits(sequence: SequenceView, blockStart: number, from: number, to: number, counts: Uint32Array): void {
  const words = sequence.bufferWords
  const width = block.width, mask = block.mask, wordBase = block.wordBase
  const base = block.baseLow, divisor = block.divisor, limit = counts.length
  // The largest value the block can hold is below limit: no per-value check needed.
  const checked = base + block.span >= limit
  let at = from, bit = from * width + block.bitOffset
  // Unrolled by four into four lanes; a value beyond limit stops the unrolled loop and the checked loop below raises it.
  if (divisor === 1 && laneLimit > 0) {
    const lane1 = laneLimit, lane2 = 2 * laneLimit
    if (width === 8) {
      const bytes = sequence.bytes, byteStart = block.byteStart
      for (; at + 4 <= to; at += 4) {
        const value0 = base + bytes[byteStart + at], value1 = base + bytes[byteStart + at + 1]
        const value2 = base + bytes[byteStart + at + 2], value3 = base + bytes[byteStart + at + 3]
        if (checked && (value0 >= limit || value1 >= limit || value2 >= limit || value3 >= limit)) break
        counts[value0]++
        lanes[value1]++
        lanes[lane1 + value2]++
        lanes[lane2 + value3]++
      }
      bit = at * width + block.bitOffset
    }
    for (; at + 4 <= to; at += 4) {
      let word = wordBase + (bit >>> 5), shift = bit & 31
      const value0 = base + (((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask)
      bit += width
      word = wordBase + (bit >>> 5); shift = bit & 31
      const value1 = base + (((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask)
      bit += width
      word = wordBase + (bit >>> 5); shift = bit & 31
      const value2 = base + (((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask)
      bit += width
      word = wordBase + (bit >>> 5); shift = bit & 31
      const value3 = base + (((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask)
      if (checked && (value0 >= limit || value1 >= limit || value2 >= limit || value3 >= limit)) {
        bit -= 3 * width
        break
      }
      bit += width
      counts[value0]++
      lanes[value1]++
      lanes[lane1 + value2]++
      lanes[lane2 + value3]++
    }
  }
  for (; at < to; at++, bit += width) {
    const word = wordBase + (bit >>> 5), shift = bit & 31
    const value = base + Math.imul(divisor, ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask)
    if (checked && value >= limit) countRangeError(sequence, blockStart + at, value, 0, limit)
    counts[value]++
  }
}

/** Packed under a selection: 32 values per selection word, skipped whole when it is 0. */
function countSelectedUnits(
  sequence: SequenceView, blockStart: number, from: number, to: number, selection: Int32Array, selectionBit: number, counts: Uint32Array,
): void {
  const words = sequence.bufferWords
  const width = block.width, mask = block.mask, wordBase = block.wordBase, bitOffset = block.bitOffset
  const base = block.baseLow, divisor = block.divisor, limit = counts.length
  for (let position = from; position < to; position += 32) {
    let bits = selectionBits(selection, selectionBit + position - from, Math.min(32, to - position))
    while (bits !== 0) {
      const at = position + (31 - Math.clz32(bits & -bits))
      bits &= bits - 1
      const bit = at * width + bitOffset
      const word = wordBase + (bit >>> 5), shift = bit & 31
      const value = base + Math.imul(divisor, ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask)
      if (value >= limit) countRangeError(sequence, blockStart + at, value, 0, limit)
      counts[value]++
    }
  }
}

/**
 * A decoded view of 8-bit fields over base 0 (format 2's dictionary codes decoded once,
 * decoded-codes.ts) whose every field is below counts.length, as its blocks' extremes show: its
 * bytes counted in one loop over the whole range, with no block steps and no check per value.
 * False: not such a view.
 */
function countDecodedBytes(
  sequence: SequenceView, first: number, count: number, selection: BitsetMemory | null, selectionStart: number, counts: Uint32Array,
): boolean {
  const view = laneLimit === 0 ? null : plainBytesBelow(sequence, counts.length)
  if (view === null) return false
  const bytes = view.bytes, data = view.dataStart + first, end = data + count
  if (selection !== null) {
    const words = selection.words
    for (let position = 0; position < count; position += 32) {
      let bits = selectionBits(words, selectionStart + position, Math.min(32, count - position))
      for (; bits !== 0; bits &= bits - 1) counts[bytes[data + position + (31 - Math.clz32(bits & -bits))]]++
    }
    return true
  }
  countBytes(bytes, data, end, counts)
  return true
}

/** counts[bytes[at]]++ for at in [from, to), four lanes at a time. */
function countBytes(bytes: Uint8Array, from: number, to: number, counts: Uint32Array): void {
  const lane1 = laneLimit, lane2 = 2 * laneLimit
  let at = from
  for (; at + 4 <= to; at += 4) {
    counts[bytes[at]]++
    lanes[bytes[at + 1]]++
    lanes[lane1 + bytes[at + 2]]++
    lanes[lane2 + bytes[at + 3]]++
  }
  for (; at < to; at++) counts[bytes[at]]++
}
