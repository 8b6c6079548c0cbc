// histogram over a narrow range of values: where edges cut a packed block into many pieces and its
// values lie within 2^U_COUNT_BITS of the least base of the blocks asked, each selected value is
// counted at its place in that range (shared by every such block), and the counts are summed
// between edges once at the end: no search per value and no sum over each block's own span.
// The per-block counting of query-histogram.ts shares the area (takeCounts): the range's counts
// are handed to the slots first, over the stretch its blocks touched only, and zeroed as summed.
import { BLOCK_SHIFT, KIND_PACKED, recordBase, recordKind } from './common'
import { SEL_WORDS, U_BUFFER, blockRecord, bump, upperBound } from './query-common'

/** Per-u counts of one block (query-histogram's countEachU), or per-value counts of the range. */
export const U_COUNT_BITS: u32 = 13
export const U_COUNTS: usize = memory.data(4 << 13, 16)
const RANGE_VALUES: u64 = 1 << U_COUNT_BITS

/** The range's least value; whether it is in use this call; whether U_COUNTS holds its counts, and where. */
let rangeLow: i64 = 0
let rangeOn = false
let rangeHeld = false
let usedLow: u64 = 0
let usedHigh: u64 = 0
/** U_COUNTS[0, dirty) may hold counts of something else (the per-block counting, or a call that failed). */
let dirty: u32 = 0
let rangeEdges: usize = 0
let rangeEdgeCount: u32 = 0
let rangeArea: usize = 0

/**
 * Starts a histogram call over the values [first, first + count) of the blocks at `records`: the
 * range starts at the least base of its packed blocks. Off for fewer values than a quarter of the
 * range (summing it would cost more than they do).
 */
export function rangeStart(records: usize, first: u32, count: u32, edges: usize, edgeCount: u32, area: usize): void {
  // A call that failed left its counts.
  if (rangeHeld) dirty = <u32>RANGE_VALUES
  rangeOn = false
  rangeHeld = false
  if (<u64>count * 4 < RANGE_VALUES) return
  const last = (first + count - 1) >>> BLOCK_SHIFT
  for (let block = first >>> BLOCK_SHIFT; block <= last; block++) {
    const record = blockRecord(records, block)
    if (recordKind(record) != KIND_PACKED) continue
    const base = recordBase(record)
    if (!rangeOn || base < rangeLow) rangeLow = base
    rangeOn = true
  }
  rangeEdges = edges
  rangeEdgeCount = edgeCount
  rangeArea = area
}

/** Whether a packed block of this base may lie in the range (its values are checked when counted). */
export function inRange(base: i64): bool {
  return rangeOn && base >= rangeLow && <u64>(base - rangeLow) < RANGE_VALUES
}

/**
 * Counts the selected u's of U_BUFFER[from, from + take) of a packed block (base, g), whose
 * largest u is `high`, at their values' places in the range; false (nothing counted) when some
 * value may fall outside it.
 */
export function countInRange(from: u32, take: u32, base: i64, g: u64, high: u32): bool {
  if (!inRange(base)) return false
  const start = <u64>(base - rangeLow)
  if (g > RANGE_VALUES || start + g * <u64>high >= RANGE_VALUES) return false
  if (!rangeHeld) {
    if (dirty != 0) memory.fill(U_COUNTS, 0, <usize>dirty << 2)
    dirty = 0
    rangeHeld = true
    usedLow = RANGE_VALUES
    usedHigh = 0
  }
  usedLow = min(usedLow, start)
  usedHigh = max(usedHigh, start + g * <u64>high)
  const counts = U_COUNTS + (<usize>start << 2), step = <usize>g << 2
  const chunks = (take + 31) >>> 5
  for (let c: u32 = 0; c < chunks; c++) {
    let word = load<u32>(SEL_WORDS + (<usize>c << 2))
    if (word == 0xFFFF_FFFF) {
      for (let at = U_BUFFER + (<usize>(from + (c << 5)) << 2), end = at + 128; at < end; at += 4) bump(counts + <usize>load<u32>(at) * step, 1)
      continue
    }
    while (word != 0) {
      const j = from + (c << 5) + ctz(word)
      word &= word - 1
      bump(counts + <usize>load<u32>(U_BUFFER + (<usize>j << 2)) * step, 1)
    }
  }
  return true
}

/**
 * Adds the range's counts to the slots (slot k: values with k edges at or below them), zeroing
 * them as it goes: at the end of a call, and before the per-block counting takes U_COUNTS.
 */
export function rangeFlush(): void {
  if (!rangeHeld) return
  rangeHeld = false
  // The slot of the first value touched, then each edge after it in turn, up to the last value touched.
  let k = upperBound(rangeEdges, rangeEdgeCount, rangeLow + <i64>usedLow)
  let at = usedLow
  const stop = usedHigh + 1
  while (at < stop) {
    let end = stop
    if (k < rangeEdgeCount) {
      const edge = load<i64>(rangeEdges + (<usize>k << 3))
      // Above the first value touched, so above rangeLow: the difference is exact.
      end = min(<u64>edge - <u64>rangeLow, stop)
    }
    let sum: u32 = 0
    for (; at < end; at++) {
      const slot = U_COUNTS + (<usize>at << 2)
      sum += load<u32>(slot)
      store<u32>(slot, 0)
    }
    bump(rangeArea + (<usize>k << 2), sum)
    k++
  }
}

/** The per-block counting takes U_COUNTS[0, values): the range's counts go to the slots first. */
export function takeCounts(values: u32): void {
  rangeFlush()
  if (values > dirty) dirty = values
}
