/**
 * Questions over a runs sequence (format 2, form 2) a run at a time: range filters set
 * a matching run's selected values at once, counts and histograms add its selected
 * count to its value's slot, integer aggregates add its value times that count. The
 * runs' starts were checked at open (0, then strictly increasing below the count), so
 * a walk finds what reads find; only the runs that meet the range asked for are decoded,
 * from the checkpoints of its first and last blocks.
 */
import type { ColumnsBackend, RunsCascade, SequenceView } from '../backend/backend.js'
import { countSelected, orSelection } from '../backend/bits.js'
import { addSplitSums, type AggregateMode, type AggregateState, type BitsetMemory, foldExtremes } from '../backend/query-kernels.js'
import { BLOCK_SHIFT } from '../format/constants.js'
import { compareInt64, readUint32, sortableToFloat64 } from '../format/int64.js'

/** Runs decoded at a time. */
const RUN_CHUNK = 4096
const startWords = new Int32Array(2 * (RUN_CHUNK + 1))
const valueWords = new Int32Array(2 * RUN_CHUNK)

/** Calls visit(low, high, lo, hi) for each run's values [lo, hi) inside [first, first + count), in order (raw value as words). */
function forEachRunPart(
  backend: ColumnsBackend, sequence: SequenceView, cascade: RunsCascade, first: number, count: number,
  visit: (low: number, high: number, lo: number, hi: number) => void,
): void {
  if (count === 0) return
  const end = first + count, blocks = Math.ceil(cascade.count / 1024)
  // The file as it lies now (a view made at open is stale once WebAssembly memory grows).
  const checkpoint = (block: number) => readUint32(sequence.file.bytes, cascade.checkpointsStart + 4 * block)
  // The run holding the first block's first value, through the run holding the last value asked for.
  const last = (end - 1) >>> BLOCK_SHIFT
  const lastRun = last + 1 < blocks ? checkpoint(last + 1) : cascade.runCount - 1
  for (let run = checkpoint(first >>> BLOCK_SHIFT); run <= lastRun; run += RUN_CHUNK) {
    const n = Math.min(RUN_CHUNK, lastRun + 1 - run), withNext = Math.min(n + 1, cascade.runCount - run)
    backend.decodeRaw(cascade.starts, run, withNext, startWords, 0)
    backend.decodeRaw(cascade.values, run, n, valueWords, 0)
    for (let j = 0; j < n; j++) {
      const lo = Math.max(startWords[2 * j] >>> 0, first)
      const hi = Math.min(j + 1 < withNext ? startWords[2 * j + 2] >>> 0 : cascade.count, end)
      if (lo < hi) visit(valueWords[2 * j], valueWords[2 * j + 1], lo, hi)
    }
  }
}


/** matchRange(s) over a runs sequence: a run in any range (4 words a range, inclusive) sets its selected values; how many. */
export function matchRunForm(
  backend: ColumnsBackend, sequence: SequenceView, cascade: RunsCascade, first: number, count: number, bounds: Int32Array,
  selection: BitsetMemory | null, selectionStart: number, out: BitsetMemory, outStart: number,
): number {
  let found = 0
  forEachRunPart(backend, sequence, cascade, first, count, (low, high, lo, hi) => {
    for (let at = 0; at < bounds.length; at += 4) {
      if (compareInt64(low, high, bounds[at], bounds[at + 1]) < 0 || compareInt64(low, high, bounds[at + 2], bounds[at + 3]) > 0) continue
      // Words fetched here: a decode may have grown WebAssembly memory.
      found += orSelection(selection === null ? null : selection.words, selectionStart + lo - first, out.words, outStart + lo - first, hi - lo)
      return
    }
  })
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
  // Low and high words summed apart, each exact in a double while fewer than 2^20 values are in (then added in).
  let lows = 0, highs = 0, pending = 0
  forEachRunPart(backend, sequence, cascade, first, count, (low, high, lo, hi) => {
    const times = countSelected(selection === null ? null : selection.words, selectionStart + lo - first, hi - lo)
    if (times === 0) return
    foldExtremes(state, low, high, low, high)
    state.numbers[0] += times
    if (mode === 'sortable') {
      const value = sortableToFloat64(low, high)
      let sum = state.numbers[1]
      for (let k = 0; k < times; k++) sum += value
      state.numbers[1] = sum
      return
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
  })
  if (mode === 'integer') addSplitSums(state.words, lows, highs)
}
