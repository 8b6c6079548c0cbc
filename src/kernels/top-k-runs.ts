/**
 * topK over a format 2 run block from its runs (top-k-blocks.ts): a run's values are equal, so
 * a run whose value cannot enter the heap is passed over whole, and inside a run that enters,
 * the first id the heap refuses ends it (the ids after it tie on value and lose on id). Runs are
 * taken from the block's better end, so that after the first few runs most are refused at once.
 * The heap keeps the k best (value, id) pairs whatever the order they come in, so the answer is
 * the decoding path's.
 */
import type { SequenceView } from '../backend/backend.js'
import { BLOCK_VALUES } from '../format/constants.js'
import { fieldAt, POW2 } from '../cascade/bits.js'
import { Kind } from '../cascade/constants.js'
import { runEnd, runsLayout } from '../cascade/block-layouts.js'
import { type BoundedHeap, isNaNRaw } from './top-k.js'

const TWO_POW_32 = 4294967296
/** Each run's end, checked before any is offered. */
const ends = new Int32Array(BLOCK_VALUES)

/**
 * Offers the selected values of run block `block` (value indices as ids; `documents`: selected
 * ids, or null for all) run by run. False (nothing offered): not a run block, run ends out of
 * order, or values beyond the exact numbers: the caller decodes the block, which answers or
 * refuses it as a read does.
 */
export function offerRuns(
  sequence: SequenceView, block: number, heap: BoundedHeap, ascending: boolean, documents: Int32Array | null, skipNaN: boolean,
): boolean {
  const records = sequence.records, record = 6 * block
  if ((records[record] & 0xff) !== Kind.runs) return false
  const width = (records[record] >>> 8) & 0xff
  const base = records[record + 3] * TWO_POW_32 + (records[record + 2] >>> 0)
  const g = records[record + 5] * TWO_POW_32 + (records[record + 4] >>> 0)
  const span = g * (POW2[width] - 1)
  if (!Number.isSafeInteger(base) || !Number.isSafeInteger(span) || !Number.isSafeInteger(base + span)) return false
  const layout = runsLayout(sequence, block), { words, valuesAt, runCount, n } = layout
  for (let run = 0, start = 0; run < runCount; run++) {
    const end = runEnd(layout, run)
    if (end <= start || end > n) return false
    ends[run] = start = end
  }
  // From the end whose value ranks first (descending: the larger).
  const firstValue = base + g * fieldAt(words, valuesAt, 0, width), lastValue = base + g * fieldAt(words, valuesAt, runCount - 1, width)
  const backward = ascending ? lastValue < firstValue : lastValue > firstValue
  const offset = block * BLOCK_VALUES
  for (let step = 0; step < runCount; step++) {
    const run = backward ? runCount - 1 - step : step
    const value = base + g * fieldAt(words, valuesAt, run, width)
    const high = Math.floor(value / TWO_POW_32), low = (value - high * TWO_POW_32) | 0
    if (!heap.mayEnterOrTie(low, high) || (skipNaN && isNaNRaw(low, high))) continue
    for (let index = run === 0 ? 0 : ends[run - 1]; index < ends[run]; index++) {
      const id = offset + index
      if (documents !== null && ((documents[id >>> 5] >>> (id & 31)) & 1) === 0) continue
      if (!heap.offer(low, high, id)) break
    }
  }
  return true
}
