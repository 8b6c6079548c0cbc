/**
 * countValues for the TS backend: a constant block adds its selected count in
 * one step, a packed block counts base + g u with int32 arithmetic, a table
 * block counts indexes then maps them through its entries.
 */
import type { SequenceView } from '../backend.js'
import type { BitsetMemory } from '../query-kernels.js'
import { BLOCK_SHIFT, BLOCK_VALUES, BlockKind } from '../../format/constants.js'
import { decodeRaw } from './decode.js'
import {
  block, countRangeError, loadBlock, lowMask, lowestBit, selectedCount, selectionBits, tableEntries, tableIndexError, unitAt,
} from './query-scan.js'

const decoded = new Int32Array(2 * BLOCK_VALUES)
const indexCounts = new Uint32Array(256)

/** See QueryKernels.countValues. */
export function countValues(
  sequence: SequenceView, first: number, count: number,
  selection: BitsetMemory | null, selectionStart: number, counts: Uint32Array,
): void {
  const selectionWords = selection === null ? null : selection.words
  const end = first + count
  let index = first
  while (index < end) {
    const blockIndex = index >>> BLOCK_SHIFT
    const blockStart = blockIndex << BLOCK_SHIFT
    const stop = Math.min(end, blockStart + BLOCK_VALUES)
    countBlock(sequence, blockIndex, index - blockStart, stop - blockStart, selectionWords, selectionStart + index - first, counts)
    index = stop
  }
}

function countBlock(
  sequence: SequenceView, blockIndex: number, from: number, to: number,
  selection: Int32Array | null, selectionBit: number, counts: Uint32Array,
): void {
  loadBlock(sequence, blockIndex)
  const limit = counts.length
  const blockStart = blockIndex << BLOCK_SHIFT
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
    const words = sequence.bufferWords
    const base = block.baseLow, divisor = block.divisor
    for (let position = from; position < to; position += 32) {
      const n = Math.min(32, to - position)
      let bits = selectionBits(selection, selectionBit + position - from, n)
      if (bits === 0) continue
      if (bits === lowMask(n)) {
        for (let at = position; at < position + n; at++) {
          const value = base + Math.imul(divisor, unitAt(words, at))
          if (value >= limit) countRangeError(sequence, blockStart + at, value, 0, limit)
          counts[value]++
        }
        continue
      }
      while (bits !== 0) {
        const at = position + lowestBit(bits)
        bits &= bits - 1
        const value = base + Math.imul(divisor, unitAt(words, at))
        if (value >= limit) countRangeError(sequence, blockStart + at, value, 0, limit)
        counts[value]++
      }
    }
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
  const blockStart = blockIndex << BLOCK_SHIFT
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
