/**
 * Questions over a runs sequence (format 2, form 2) a run at a time: range filters set
 * a matching run's selected values at once (neighbouring matching runs together), counts
 * and histograms add its selected count to its value's slot, integer aggregates add its
 * value times that count. The runs' starts were checked at open (0, then strictly
 * increasing below the count), so a walk finds what reads find; only the runs that meet
 * the range asked for are decoded, from the checkpoints of its first and last blocks.
 */
import type { ColumnsBackend, RunsCascade, SequenceView } from '../backend/backend.js'
import { countSelected, orSelection } from '../backend/bits.js'
import { addSplitSums, type AggregateMode, type AggregateState, type BitsetMemory, foldExtremes } from '../backend/query-kernels.js'
import { BLOCK_SHIFT } from '../format/constants.js'
import { compareInt64, sortableToFloat64 } from '../format/int64.js'
import { checkpointRun } from './block-layouts.js'

/** Runs decoded at a time. */
const RUN_CHUNK = 4096
const startWords = new Int32Array(2 * (RUN_CHUNK + 1))
const valueWords = new Int32Array(2 * RUN_CHUNK)

/** The first run a walk over values from `first` takes: the checkpoint of first's block (read from the live file: WebAssembly memory may have grown). */
function firstRunOf(sequence: SequenceView, cascade: RunsCascade, first: number): number {
  return checkpointRun(sequence, cascade, first >>> BLOCK_SHIFT)
}

/** The last run a walk over values before `end` (> 0) takes: the checkpoint of the block after end - 1's. */
function lastRunOf(sequence: SequenceView, cascade: RunsCascade, end: number): number {
  return checkpointRun(sequence, cascade, ((end - 1) >>> BLOCK_SHIFT) + 1)
}

/** Runs [run, run + n) (n ≤ RUN_CHUNK, up to lastRun) decoded: their values into valueWords, their starts and the next run's into startWords; n. */
function decodeRunChunk(backend: ColumnsBackend, cascade: RunsCascade, run: number, lastRun: number): number {
  const n = Math.min(RUN_CHUNK, lastRun + 1 - run)
  backend.decodeRaw(cascade.starts, run, Math.min(n + 1, cascade.runCount - run), startWords, 0)
  backend.decodeRaw(cascade.values, run, n, valueWords, 0)
  return n
}

/** Where run j of a chunk from `run` ends: the next run's start, or the count after the last run. */
function runEnd(cascade: RunsCascade, run: number, j: number): number {
  return run + j + 1 < cascade.runCount ? startWords[2 * j + 2] >>> 0 : cascade.count
}

/** Calls visit(low, high, lo, hi) for each run's values [lo, hi) inside [first, first + count), in order (raw value as words). */
function forEachRunPart(
  backend: ColumnsBackend, sequence: SequenceView, cascade: RunsCascade, first: number, count: number,
  visit: (low: number, high: number, lo: number, hi: number) => void,
): void {
  if (count === 0) return
  const end = first + count, lastRun = lastRunOf(sequence, cascade, end)
  for (let run = firstRunOf(sequence, cascade, first); run <= lastRun; run += RUN_CHUNK) {
    const n = decodeRunChunk(backend, cascade, run, lastRun)
    for (let j = 0; j < n; j++) {
      const lo = Math.max(startWords[2 * j] >>> 0, first), hi = Math.min(runEnd(cascade, run, j), end)
      if (lo < hi) visit(valueWords[2 * j], valueWords[2 * j + 1], lo, hi)
    }
  }
}

/** matchRange(s) over a runs sequence: a run in any range (4 words a range, inclusive) sets its selected values; how many. */
export function matchRunForm(
  backend: ColumnsBackend, sequence: SequenceView, cascade: RunsCascade, first: number, count: number, bounds: Int32Array,
  selection: BitsetMemory | null, selectionStart: number, out: BitsetMemory, outStart: number,
): number {
  // Matching runs that follow one another are set together ([from, to): a sorted column's matches are one stretch).
  let found = 0, from = 0, to = 0
  // Words fetched here: a decode may have grown WebAssembly memory.
  const set = () => { found += orSelection(selection === null ? null : selection.words, selectionStart + from - first, out.words, outStart + from - first, to - from) }
  forEachRunPart(backend, sequence, cascade, first, count, (low, high, lo, hi) => {
    for (let at = 0; at < bounds.length; at += 4) {
      if (compareInt64(low, high, bounds[at], bounds[at + 1]) < 0 || compareInt64(low, high, bounds[at + 2], bounds[at + 3]) > 0) continue
      if (lo !== to) {
        if (to > from) set()
        from = lo
      }
      to = hi
      return
    }
  })
  if (to > from) set()
  return found
}

/**
 * Counts over a runs sequence: each run's selected count added to slot(low, high) of out. False at
 * a value with no slot when the caller must refuse it (strict): out is then partly added to.
 */
export function tallyRunForm(
  backend: ColumnsBackend, sequence: SequenceView, cascade: RunsCascade, first: number, count: number,
  selection: BitsetMemory | null, selectionStart: number, out: Uint32Array, slot: (low: number, high: number) => number, strict: boolean,
): boolean {
  let refused = false
  forEachRunPart(backend, sequence, cascade, first, count, (low, high, lo, hi) => {
    if (refused) return
    const times = countSelected(selection === null ? null : selection.words, selectionStart + lo - first, hi - lo)
    if (times === 0) return
    const at = slot(low, high)
    if (at >= 0) out[at] += times
    else if (strict) refused = true
  })
  return !refused
}

/**
 * An aggregate over a runs sequence: each run's value once, times its selected values (integers:
 * the exact sum; SortableBits doubles: the value added that many times, in value order, as the
 * kernels add).
 */
export function aggregateRunForm(
  backend: ColumnsBackend, sequence: SequenceView, cascade: RunsCascade, first: number, count: number, mode: AggregateMode,
  selection: BitsetMemory | null, selectionStart: number, state: AggregateState,
): void {
  if (count === 0) return
  // Low and high words summed apart, each exact in a double while fewer than 2^20 values are in (then added in).
  let lows = 0, highs = 0, pending = 0, sum = state.numbers[1], counted = 0
  // The least and greatest values met (starting from the int64 extremes, as words), kept here and
  // folded into the state once: a call a run cost more than the run's own step.
  let minLow = -1, minHigh = 0x7fffffff, maxLow = 0, maxHigh = -0x80000000
  const end = first + count, lastRun = lastRunOf(sequence, cascade, end)
  for (let run = firstRunOf(sequence, cascade, first); run <= lastRun; run += RUN_CHUNK) {
    const n = decodeRunChunk(backend, cascade, run, lastRun)
    // Words fetched after the decode: it may have grown WebAssembly memory.
    const words = selection === null ? null : selection.words
    for (let j = 0; j < n; j++) {
      const lo = Math.max(startWords[2 * j] >>> 0, first), hi = Math.min(runEnd(cascade, run, j), end)
      if (lo >= hi) continue
      const times = words === null ? hi - lo : countSelected(words, selectionStart + lo - first, hi - lo)
      if (times === 0) continue
      const low = valueWords[2 * j], high = valueWords[2 * j + 1]
      if (high < minHigh || (high === minHigh && low >>> 0 < minLow >>> 0)) { minLow = low; minHigh = high }
      if (high > maxHigh || (high === maxHigh && low >>> 0 > maxLow >>> 0)) { maxLow = low; maxHigh = high }
      counted += times
      if (mode === 'sortable') {
        const value = sortableToFloat64(low, high)
        for (let k = 0; k < times; k++) sum += value
        continue
      }
      for (let left = times; left > 0;) {
        const take = Math.min(left, 2 ** 20)
        if (pending + take > 2 ** 20) {
          addSplitSums(state.words, lows, highs)
          lows = highs = pending = 0
        }
        lows += (low >>> 0) * take
        highs += high * take
        pending += take
        left -= take
      }
    }
  }
  if (counted === 0) return
  foldExtremes(state, minLow, minHigh, maxLow, maxHigh)
  state.numbers[0] += counted
  if (mode === 'sortable') state.numbers[1] = sum
  if (mode === 'integer') addSplitSums(state.words, lows, highs)
}
