/**
 * aggregate for the TS backend. Integers: a packed block sums its units (exact
 * in a double) and adds n·base + g·Σu to the 128-bit sum once; min/max come from
 * the smallest and largest unit. Doubles ('sortable'): the sum is sequential in
 * value order, so both backends agree bit for bit.
 */
import type { SequenceView } from '../backend.js'
import { addSplitSums, addToSum, type AggregateMode, type AggregateState, type BitsetMemory, foldExtremes } from '../query-kernels.js'
import { BLOCK_VALUES, BlockKind } from '../../format/constants.js'
import { int64Result, multiplyInt64, sortableToFloat64 } from '../../format/int64.js'
import { decodeRaw } from './decode.js'
import { lowMask, selectionBits } from '../bits.js'
import {
  block, decoded, forEachBlock, halfStart, halvesOf, indexCounts, loadBlock, lowestBit, rawAtOffset, selectedCount, tableEntries,
  tableIndexError, TWO_POW_32, unitAt,
} from './query-scan.js'

const extremes = new Int32Array(4)

/** Adds (low, high) × times (times < 2^21) to the sum: two partial products, each exact in a double. */
function addMultiple(words: Int32Array, low: number, high: number, times: number): void {
  const lowProduct = (low >>> 0) * times
  const lowHigh = Math.floor(lowProduct / TWO_POW_32)
  addToSum(words, lowProduct - lowHigh * TWO_POW_32, lowHigh, 0)
  const highProduct = high * times
  const highHigh = Math.floor(highProduct / TWO_POW_32)
  addToSum(words, highProduct - highHigh * TWO_POW_32, highHigh, 1)
}

/** Adds one value: min/max, then count and the sum of its mode. */
function addValue(state: AggregateState, mode: AggregateMode, low: number, high: number): void {
  foldExtremes(state, low, high, low, high)
  state.numbers[0]++
  if (mode === 'sortable') state.numbers[1] += sortableToFloat64(low, high)
  else addToSum(state.words, low, high, 0)
}

/** See QueryKernels.aggregate. */
export function aggregate(
  sequence: SequenceView, first: number, count: number, mode: AggregateMode,
  selection: BitsetMemory | null, selectionStart: number, state: AggregateState,
): void {
  forEachBlock(sequence, first, count, mode, selection, selectionStart, state, aggregateBlock)
}

function aggregateBlock(
  sequence: SequenceView, blockIndex: number, from: number, to: number, mode: AggregateMode,
  selection: Int32Array | null, selectionBit: number, state: AggregateState,
): void {
  loadBlock(sequence, blockIndex)
  if (block.kind === BlockKind.constant) {
    const selected = selectedCount(selection, selectionBit, from, to)
    if (selected === 0) return
    if (mode === 'sortable') {
      for (let done = 0; done < selected; done++) addValue(state, mode, block.baseLow, block.baseHigh)
      return
    }
    foldExtremes(state, block.baseLow, block.baseHigh, block.baseLow, block.baseHigh)
    state.numbers[0] += selected
    addMultiple(state.words, block.baseLow, block.baseHigh, selected)
    return
  }
  if (block.kind === BlockKind.table) {
    aggregateTable(sequence, blockIndex, from, to, mode, selection, selectionBit, state)
    return
  }
  if (block.packedFast && mode === 'integer') {
    aggregateUnits(sequence, from, to, selection, selectionBit, state)
    return
  }
  decodeRaw(sequence, blockIndex * BLOCK_VALUES + from, to - from, decoded, 0)
  if (mode === 'integer') {
    addDecoded(from, to, selection, selectionBit, state)
    return
  }
  for (let position = from; position < to; position += 32) {
    let bits = selectionBits(selection, selectionBit + position - from, Math.min(32, to - position))
    while (bits !== 0) {
      const at = 2 * (position + lowestBit(bits) - from)
      bits &= bits - 1
      addValue(state, mode, decoded[at], decoded[at + 1])
    }
  }
}

/**
 * The selected integers of `decoded` (positions [from, to) of a block): low and high words summed
 * apart in doubles (at most 1,024 values: both exact), smallest and largest kept as pairs, then
 * one 128-bit update, as the WebAssembly kernel does, rather than a carry chain per value.
 */
function addDecoded(from: number, to: number, selection: Int32Array | null, selectionBit: number, state: AggregateState): void {
  let lows = 0, highs = 0, count = 0
  let minLow = 0xffffffff, minHigh = 0x7fffffff, maxLow = 0, maxHigh = -0x80000000
  for (let position = from; position < to; position += 32) {
    let bits = selectionBits(selection, selectionBit + position - from, Math.min(32, to - position))
    while (bits !== 0) {
      const at = 2 * (position + lowestBit(bits) - from)
      bits &= bits - 1
      const low = decoded[at] >>> 0, high = decoded[at + 1]
      lows += low
      highs += high
      count++
      if (high < minHigh || (high === minHigh && low < minLow)) { minLow = low; minHigh = high }
      if (high > maxHigh || (high === maxHigh && low > maxLow)) { maxLow = low; maxHigh = high }
    }
  }
  if (count === 0) return
  foldExtremes(state, minLow | 0, minHigh, maxLow | 0, maxHigh)
  state.numbers[0] += count
  addSplitSums(state.words, lows, highs)
}

/** Packed in u space: Σu, smallest and largest u, then one 128-bit update per block. */
function aggregateUnits(
  sequence: SequenceView, from: number, to: number, selection: Int32Array | null, selectionBit: number, state: AggregateState,
): void {
  const words = sequence.bufferWords
  const width = block.width, mask = block.mask, wordBase = block.wordBase, bitOffset = block.bitOffset
  let unitSum = 0, smallest = block.maxUnit, largest = 0, selected = 0
  if (selection === null) {
    if (width < 32) {
      const extremes = unitExtremes(sequence, words, from, to)
      smallest = extremes.smallest
      largest = extremes.largest
      unitSum = extremes.sum
    } else {
      for (let at = from, bit = from * width + bitOffset; at < to; at++, bit += width) {
        const word = wordBase + (bit >>> 5), shift = bit & 31
        const unit = (((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask) >>> 0
        unitSum += unit
        smallest = unit < smallest ? unit : smallest
        largest = unit > largest ? unit : largest
      }
    }
    selected = to - from
  }
  for (let position = from; selection !== null && position < to; position += 32) {
    const n = Math.min(32, to - position)
    let bits = selectionBits(selection, selectionBit + position - from, n)
    if (bits === 0) continue
    if (bits === lowMask(n)) {
      for (let at = 0, bit = position * width + bitOffset; at < n; at++, bit += width) {
        const word = wordBase + (bit >>> 5), shift = bit & 31
        const unit = (((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask) >>> 0
        unitSum += unit
        if (unit < smallest) smallest = unit
        if (unit > largest) largest = unit
      }
      selected += n
      continue
    }
    while (bits !== 0) {
      const unit = unitAt(words, position + lowestBit(bits)) >>> 0
      bits &= bits - 1
      unitSum += unit
      if (unit < smallest) smallest = unit
      if (unit > largest) largest = unit
      selected++
    }
  }
  if (selected === 0) return
  const divisor = block.divisor
  rawAtOffset(smallest * divisor, extremes, 0)
  rawAtOffset(largest * divisor, extremes, 2)
  foldExtremes(state, extremes[0], extremes[1], extremes[2], extremes[3])
  state.numbers[0] += selected
  addMultiple(state.words, block.baseLow, block.baseHigh, selected)
  // g Σu < 2^52 × 1024 < 2^63: exact as an i64 product (Σu < 2^42 is exact in a double).
  const sumHigh = Math.floor(unitSum / TWO_POW_32)
  multiplyInt64(unitSum - sumHigh * TWO_POW_32, sumHigh, divisor, 0)
  addToSum(state.words, int64Result[0], int64Result[1], 0)
}

/** Table: integers count indexes then fold each used entry once; doubles add in value order. */
function aggregateTable(
  sequence: SequenceView, blockIndex: number, from: number, to: number, mode: AggregateMode,
  selection: Int32Array | null, selectionBit: number, state: AggregateState,
): void {
  const words = sequence.bufferWords
  const entries = block.entries
  indexCounts.fill(0, 0, entries)
  for (let position = from; position < to; position += 32) {
    let bits = selectionBits(selection, selectionBit + position - from, Math.min(32, to - position))
    while (bits !== 0) {
      const entry = unitAt(words, position + lowestBit(bits))
      bits &= bits - 1
      if (entry >= entries) tableIndexError(sequence, blockIndex, entry, entries)
      if (mode === 'sortable') addValue(state, mode, tableEntries[2 * entry], tableEntries[2 * entry + 1])
      else indexCounts[entry]++
    }
  }
  if (mode === 'sortable') return
  for (let entry = 0; entry < entries; entry++) {
    const times = indexCounts[entry]
    if (times === 0) continue
    const low = tableEntries[2 * entry], high = tableEntries[2 * entry + 1]
    foldExtremes(state, low, high, low, high)
    state.numbers[0] += times
    addMultiple(state.words, low, high, times)
  }
}

const unitResult = { smallest: 0, largest: 0, sum: 0 }

/** Units below 2^31 of positions [from, to) of the loaded block: smallest, largest and sum, in int32 registers. */
function unitExtremes(sequence: SequenceView, words: Int32Array, from: number, to: number): typeof unitResult {
  const width = block.width, mask = block.mask, wordBase = block.wordBase
  // Two independent chains of min/max/sum, so consecutive units do not wait on each other.
  let smallest = 0x7fffffff, largest = 0, sum = 0, smallest2 = 0x7fffffff, largest2 = 0, sum2 = 0
  let at = from, bit = from * width + block.bitOffset
  const half = halfStart(sequence), halves = halvesOf(sequence)
  // 16-bit fields: read as they are.
  for (; half >= 0 && at + 2 <= to; at += 2) {
    const unit = halves[half + at], unit2 = halves[half + at + 1]
    sum += unit
    sum2 += unit2
    smallest = Math.min(smallest, unit)
    smallest2 = Math.min(smallest2, unit2)
    largest = Math.max(largest, unit)
    largest2 = Math.max(largest2, unit2)
  }
  bit = at * width + block.bitOffset
  for (; at + 2 <= to; at += 2) {
    let word = wordBase + (bit >>> 5), shift = bit & 31
    const unit = ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask
    bit += width
    word = wordBase + (bit >>> 5); shift = bit & 31
    const unit2 = ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask
    bit += width
    sum += unit
    sum2 += unit2
    smallest = Math.min(smallest, unit)
    smallest2 = Math.min(smallest2, unit2)
    largest = Math.max(largest, unit)
    largest2 = Math.max(largest2, unit2)
  }
  if (at < to) {
    const word = wordBase + (bit >>> 5), shift = bit & 31
    const unit = ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask
    sum += unit
    smallest = Math.min(smallest, unit)
    largest = Math.max(largest, unit)
  }
  smallest = Math.min(smallest, smallest2)
  largest = Math.max(largest, largest2)
  sum += sum2
  unitResult.smallest = smallest
  unitResult.largest = largest
  unitResult.sum = sum
  return unitResult
}
