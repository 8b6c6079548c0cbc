/**
 * Integer aggregates over a format 2 blocks sequence whose run blocks are read a run
 * at a time: each run's value once, times its selected values (count, min, max and the
 * exact sum, as the kernels keep them). Other blocks, and a run block whose starts do
 * not ascend (corrupt; reads then find values one by one), go to the caller's decoding
 * path, so answers and errors are a decode's. Doubles never come here: their sum adds
 * values in order.
 */
import type { SequenceView } from '../backend/backend.js'
import { countSelected } from '../backend/bits.js'
import { addSplitSums, type AggregateState, type BitsetMemory, foldExtremes, type QueryKernels } from '../backend/query-kernels.js'
import { BLOCK_SHIFT, BLOCK_VALUES } from '../format/constants.js'
import { addOffset, compareInt64 } from '../format/int64.js'
import { fieldAt } from './bits.js'
import { Kind } from './constants.js'
import { runEnd, runsLayout } from './block-layouts.js'

const TWO_POW_32 = 4294967296

/**
 * Aggregates values [first, first + count) (selected from selectionStart) into state; decode(from, n,
 * bit) takes what runs cannot. `kernel` (the backend's aggregateRuns, if any) takes stretches of run
 * blocks whole; where it cannot say, they are walked here block by block.
 */
export function aggregateRunBlocks(
  blocks: SequenceView, first: number, count: number, selection: BitsetMemory | null, selectionStart: number, state: AggregateState,
  decode: (from: number, n: number, bit: number) => void, kernel: QueryKernels['aggregateRuns'],
): void {
  const records = blocks.records, end = first + count
  const isRuns = (block: number) => (records[6 * block] & 0xff) === Kind.runs
  for (let index = first; index < end;) {
    const block = index >>> BLOCK_SHIFT, bit = selectionStart + index - first
    let stop = Math.min(end, (block + 1) * BLOCK_VALUES)
    if (!isRuns(block)) {
      // Decoded in one stretch with the blocks after it that are not run blocks.
      while (stop < end && !isRuns(stop >>> BLOCK_SHIFT)) stop = Math.min(end, stop + BLOCK_VALUES)
      decode(index, stop - index, bit)
      index = stop
      continue
    }
    while (stop < end && isRuns(stop >>> BLOCK_SHIFT)) stop = Math.min(end, stop + BLOCK_VALUES)
    // A stretch of run blocks in the kernel, or where it cannot say, all of it here (not asked again).
    if (kernel === undefined || !kernel(blocks, index, stop - index, selection, bit, state)) {
      for (let at = index; at < stop;) {
        const b = at >>> BLOCK_SHIFT, next = Math.min(stop, (b + 1) * BLOCK_VALUES)
        if (!addRuns(blocks, b, at - b * BLOCK_VALUES, next - b * BLOCK_VALUES, selection, selectionStart + at - first, state)) decode(at, next - at, selectionStart + at - first)
        at = next
      }
    }
    index = stop
  }
}

const value = new Int32Array(2)

/**
 * The selected values of positions [from, to) of run block `block` added to state; false (state
 * untouched) when its starts do not ascend or a run's offset from the base is not an exact number.
 */
function addRuns(
  blocks: SequenceView, block: number, from: number, to: number, selection: BitsetMemory | null, bit: number, state: AggregateState,
): boolean {
  const records = blocks.records, at = 6 * block
  const baseLow = records[at + 2], baseHigh = records[at + 3]
  const g = records[at + 5] * TWO_POW_32 + (records[at + 4] >>> 0)
  const layout = runsLayout(blocks, block), words = selection === null ? null : selection.words
  // Summed apart in doubles (at most 1,024 values: exact), extremes kept as pairs, then one 128-bit update.
  let lows = 0, highs = 0, selected = 0
  let minLow = 0, minHigh = 0, maxLow = 0, maxHigh = 0
  let start = 0
  // Every run's end checked, past `to` too: with one out of order, reads search the starts and may not find what a walk finds.
  for (let run = 0; run < layout.runCount; run++) {
    const stop = runEnd(layout, run)
    if (stop <= start || stop > layout.n) return false
    const lo = Math.max(start, from), hi = Math.min(stop, to)
    start = stop
    if (lo >= hi) continue
    const times = countSelected(words, bit + lo - from, hi - lo)
    if (times === 0) continue
    const offset = g * fieldAt(layout.words, layout.valuesAt, run, layout.width)
    if (!Number.isSafeInteger(offset)) return false
    addOffset(baseLow, baseHigh, offset, value, 0)
    if (selected === 0 || compareInt64(value[0], value[1], minLow, minHigh) < 0) { minLow = value[0]; minHigh = value[1] }
    if (selected === 0 || compareInt64(value[0], value[1], maxLow, maxHigh) > 0) { maxLow = value[0]; maxHigh = value[1] }
    lows += (value[0] >>> 0) * times
    highs += value[1] * times
    selected += times
  }
  if (selected === 0) return true
  foldExtremes(state, minLow, minHigh, maxLow, maxHigh)
  state.numbers[0] += selected
  addSplitSums(state.words, lows, highs)
  return true
}

