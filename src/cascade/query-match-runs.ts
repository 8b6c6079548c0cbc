/**
 * Range filters over a form-0 sequence's run blocks from their runs
 * (query-adapter.ts): a block whose bound lies inside one range matches all its
 * selected values, a block whose bound meets no range matches none, and in
 * others each run is tested once and its values set 32 at a time. Other
 * blocks, and run blocks that a valid file would not hold (run ends out of
 * order) or whose values are not all exact numbers, go to the caller's decoding
 * path, which answers or refuses them as reads do.
 */
import type { ColumnsBackend, RunsCascade, SequenceView } from '../backend/backend.js'
import { orSelection } from '../backend/bits.js'
import type { BitsetMemory } from '../backend/query-kernels.js'
import { BLOCK_SHIFT, BLOCK_VALUES } from '../format/constants.js'
import { fieldAt, POW2 } from './bits.js'
import { Kind } from './constants.js'
import { blockBounds } from '../kernels/top-k-blocks.js'
import { runBlockExtremes, runEnd, runsLayout } from './block-layouts.js'

const TWO_POW_32 = 4294967296
const SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/**
 * The ranges' bounds as numbers. A bound beyond 2^53 rounds, but rounding keeps its order with
 * every exact integer, the only values compared with it here.
 */
function rangesOf(bounds: Int32Array): Float64Array {
  const ranges = new Float64Array(bounds.length >>> 1)
  for (let at = 0; at < ranges.length; at++) ranges[at] = bounds[2 * at + 1] * TWO_POW_32 + (bounds[2 * at] >>> 0)
  return ranges
}

/** Whether value lies in one of the ranges. */
function inRanges(ranges: Float64Array, value: number): boolean {
  for (let at = 0; at < ranges.length; at += 2) if (ranges[at] <= value && value <= ranges[at + 1]) return true
  return false
}

/** Whether [min, max] lies inside one of the ranges. */
function insideRanges(ranges: Float64Array, min: number, max: number): boolean {
  for (let at = 0; at < ranges.length; at += 2) if (ranges[at] <= min && max <= ranges[at + 1]) return true
  return false
}

/**
 * Values [first, first + count) of a form-0 sequence matched against the ranges (bounds: 4 words
 * a range, as matchRange's): run blocks here, stretches of other blocks by `decoded(from, n)`,
 * which sets their bits as matchRange does. Returns how many values matched. A runs sequence
 * (form 2, with the backend) has its blocks classed likewise, every stretch not wholly inside or
 * outside a range going to `decoded`.
 */
export function matchRunBlocks(
  blocks: SequenceView, first: number, count: number, bounds: Int32Array, selection: BitsetMemory | null, selectionStart: number,
  out: BitsetMemory, outStart: number, decoded: (from: number, n: number) => number, backend?: ColumnsBackend,
): number {
  // A runs sequence has no records of blocks: no block is taken for a run block below.
  const records = blocks.cascade === null || blocks.cascade.form === 0 ? blocks.records : null, ranges = rangesOf(bounds)
  const end = first + count, firstBlock = first >>> BLOCK_SHIFT
  // Most blocks of a sorted column meet no range, or lie inside one: each block classed in one
  // plain loop, then stretches of a class taken at once (V8 optimizes a loop soon, where a few
  // calls per block stay slow for dozens of questions).
  const classes = blockClasses(blockExtremes(blocks, backend), ranges, firstBlock, ((end - 1) >>> BLOCK_SHIFT) - firstBlock + 1)
  // Words read again after each decode, which may grow the memory they are in.
  let selected = selection === null ? null : selection.words, outWords = out.words
  let found = 0
  for (let index = first; index < end;) {
    const block = index >>> BLOCK_SHIFT, kind = classes[block - firstBlock]
    let stop = Math.min(end, (block + 1) * BLOCK_VALUES)
    if (kind !== PARTLY) {
      let next = block + 1
      while (next * BLOCK_VALUES < end && classes[next - firstBlock] === kind) next++
      stop = Math.min(end, next * BLOCK_VALUES)
      if (kind === INSIDE) found += orSelection(selected, selectionStart + index - first, outWords, outStart + index - first, stop - index)
      index = stop
      continue
    }
    const start = block * BLOCK_VALUES
    const matched = records === null || (records[6 * block] & 0xff) !== Kind.runs ? -1
      : matchRuns(blocks, block, index - start, stop - start, ranges, selected, selectionStart + index - first, outWords, outStart + index - first)
    if (matched >= 0) found += matched
    else {
      // With the blocks after it that are decoded too: not run blocks, and neither apart from every range nor inside one.
      while (stop < end && (records === null || (records[6 * (stop >>> BLOCK_SHIFT)] & 0xff) !== Kind.runs) && classes[(stop >>> BLOCK_SHIFT) - firstBlock] === PARTLY) {
        stop = Math.min(end, stop + BLOCK_VALUES)
      }
      found += decoded(index, stop - index)
      selected = selection === null ? null : selection.words
      outWords = out.words
    }
    index = stop
  }
  return found
}

/** A block's place against the ranges: apart from every one, inside one, or partly in. */
const APART = 0, INSIDE = 1, PARTLY = 2

/** The class of each of the blocks [firstBlock, firstBlock + blockCount) by their extremes. */
function blockClasses(extremes: Float64Array, ranges: Float64Array, firstBlock: number, blockCount: number): Uint8Array {
  const classes = new Uint8Array(blockCount)
  for (let b = 0; b < blockCount; b++) {
    const min = extremes[2 * (firstBlock + b)], max = extremes[2 * (firstBlock + b) + 1]
    let kind = APART
    for (let at = 0; at < ranges.length && kind !== INSIDE; at += 2) {
      if (ranges[at] <= min && max <= ranges[at + 1]) kind = INSIDE
      else if (ranges[at] <= max && min <= ranges[at + 1]) kind = PARTLY
    }
    classes[b] = kind
  }
  return classes
}

const extremesOf = new WeakMap<SequenceView, Float64Array>()

/**
 * Each block's least and largest value as numbers, as topK bounds them (records; a run block's own
 * run values; a frequent block's divisor), a bound beyond the exact numbers as -Infinity or
 * Infinity, which meets every range. Kept with the sequence. A runs sequence (form 2) needs the
 * backend, to walk its runs once.
 */
export function blockExtremes(blocks: SequenceView, backend?: ColumnsBackend): Float64Array {
  let extremes = extremesOf.get(blocks)
  if (extremes !== undefined) return extremes
  if (backend !== undefined && blocks.cascade?.form === 2) {
    extremes = runFormExtremes(blocks, blocks.cascade, backend)
    extremesOf.set(blocks, extremes)
    return extremes
  }
  const lows = blockBounds(blocks, true, backend).bounds, highs = blockBounds(blocks, false, backend).bounds
  const exact = (bound: bigint, beyond: number) => (bound >= -SAFE && bound <= SAFE ? Number(bound) : beyond)
  extremes = new Float64Array(2 * blocks.blockCount)
  for (let block = 0; block < blocks.blockCount; block++) {
    extremes[2 * block] = exact(lows[block], -Infinity)
    extremes[2 * block + 1] = exact(highs[block], Infinity)
  }
  extremesOf.set(blocks, extremes)
  return extremes
}

/**
 * blockExtremes of a runs sequence, from runBlockExtremes' words as numbers (no bigint a block: a
 * sorted column of 16 M values spent its first range filter's milliseconds there).
 */
function runFormExtremes(sequence: SequenceView, cascade: RunsCascade, backend: ColumnsBackend): Float64Array {
  const words = runBlockExtremes(sequence, cascade, backend), extremes = new Float64Array(words.length >>> 1)
  for (let at = 0; at < extremes.length; at += 2) {
    const least = words[2 * at + 1] * TWO_POW_32 + (words[2 * at] >>> 0), most = words[2 * at + 3] * TWO_POW_32 + (words[2 * at + 2] >>> 0)
    // An extreme beyond the exact numbers bounds nothing on its side, as in blockExtremes.
    extremes[at] = Number.isSafeInteger(least) ? least : -Infinity
    extremes[at + 1] = Number.isSafeInteger(most) ? most : Infinity
  }
  return extremes
}

/** A run block's [least, largest] value that its record allows, or null: not a run block, or not exact numbers. */
function runBound(records: Int32Array, block: number): [number, number] | null {
  const record = 6 * block
  if ((records[record] & 0xff) !== Kind.runs) return null
  const width = (records[record] >>> 8) & 0xff
  const base = records[record + 3] * TWO_POW_32 + (records[record + 2] >>> 0)
  const g = records[record + 5] * TWO_POW_32 + (records[record + 4] >>> 0)
  const span = g * (POW2[width] - 1), top = base + span
  if (!Number.isSafeInteger(base) || !Number.isSafeInteger(span) || !Number.isSafeInteger(top)) return null
  return [Math.min(base, top), Math.max(base, top)]
}

/** Values [lo, hi) of a block set in out where selected (bit positions as matchRuns's); how many. */
function setValues(lo: number, hi: number, from: number, selection: Int32Array | null, selected: number, out: Int32Array, at: number): number {
  return orSelection(selection, selected + lo - from, out, at + lo - from, hi - lo)
}

/**
 * Values [from, to) of run block `block` matched; selection bit `selected` and out bit `at` are
 * those of value `from`. Returns how many matched, or -1 (nothing set) for the decoding path.
 */
function matchRuns(
  blocks: SequenceView, block: number, from: number, to: number, ranges: Float64Array,
  selection: Int32Array | null, selected: number, out: Int32Array, at: number,
): number {
  const records = blocks.records, record = 6 * block
  const width = (records[record] >>> 8) & 0xff
  const base = records[record + 3] * TWO_POW_32 + (records[record + 2] >>> 0)
  const g = records[record + 5] * TWO_POW_32 + (records[record + 4] >>> 0)
  const bound = runBound(records, block)
  if (bound === null) return -1
  const [min, max] = bound
  if (insideRanges(ranges, min, max)) return setValues(from, to, from, selection, selected, out, at)
  const layout = runsLayout(blocks, block), { words, valuesAt, runCount, n } = layout
  // Run ends checked before any bit is set: a block that fails is decoded whole.
  for (let run = 0, start = 0; run < runCount; run++) {
    const end = runEnd(layout, run)
    if (end <= start || end > n) return -1
    start = end
  }
  let matched = 0
  for (let run = 0, start = 0; run < runCount && start < to; run++) {
    const end = runEnd(layout, run)
    const lo = Math.max(start, from), hi = Math.min(end, to)
    if (lo < hi && inRanges(ranges, base + g * fieldAt(words, valuesAt, run, width))) matched += setValues(lo, hi, from, selection, selected, out, at)
    start = end
  }
  return matched
}
