// Histograms over a stretch of run blocks (kind 4) of a form-0 node, the shape a
// sorted date column takes: a block whose span [base, bound] falls in one slot
// adds its selected count at once; any other block adds each run's selected
// values to its value's slot, one step per run. Slots as query-histogram.ts's:
// area[upperBound(edges, v)], edgeCount + 1 of them. Mirrors the TypeScript walk
// (src/cascade/query-encodings.ts, runs), which answers when this cannot: run
// starts are not checked at open, and a run ending at or before its start or
// past its block returns UNDECIDED before anything reaches the caller's counts.
import { BLOCK_SHIFT, BLOCK_VALUES, OK, RECORD_BYTES, bitsOf, unitsOf, recordAux, recordBase, recordDataOffset, recordKind, recordWidth } from '../common'
import { SEL_WORDS, blockTake, bump, loadSelection, packedBound, packedFits, selectedCount, upperBound } from '../query-common'
import { KIND_RUNS, blocksData, blocksRecords, bytesOf, field, nodeCount, recordParam } from './common'

/** A block that is not a run block, or runs whose starts do not ascend within it. */
export const UNDECIDED: i32 = 7

/** Selected positions [a, b) of SEL_WORDS. */
export function selectedBetween(a: u32, b: u32): u32 {
  let k: u32 = 0
  while (a < b) {
    const shift = a & 31, n = min<u32>(32 - shift, b - a)
    const word = load<u32>(SEL_WORDS + (<usize>(a >>> 5) << 2)) >>> shift
    k += popcnt(n == 32 ? word : word & ((<u32>1 << n) - 1))
    a += n
  }
  return k
}

/** Whether v falls in slot s (edges[s - 1] ≤ v < edges[s]): runs in value order mostly stay in the last one. */
// @ts-ignore: decorator
@inline function inSlot(edges: usize, edgeCount: u32, s: u32, v: i64): bool {
  return (s == 0 || load<i64>(edges + (<usize>(s - 1) << 3)) <= v) && (s == edgeCount || load<i64>(edges + (<usize>s << 3)) > v)
}

/**
 * Each block's least and largest value (two i64s a block) of the form-0 node to out: a run block's
 * over its run values, any other block's as the whole i64 range. Made once per sequence, for
 * queryRunsHistogram: a record's span over-reaches its runs, and a block it puts over two slots
 * walks its runs.
 */
export function runBlockExtremes(node: usize, out: usize): void {
  const records = blocksRecords(node), data = blocksData(node), total = nodeCount(node)
  // Not `block << BLOCK_SHIFT < total`: past 2^32 - 1,024 values that wraps, and the walk went on writing.
  for (let block: u32 = 0, blocks = unitsOf(total, BLOCK_SHIFT); block < blocks; block++) {
    const record = records + <usize>block * RECORD_BYTES, to = out + (<usize>block << 4)
    let least = i64.MIN_VALUE, most = i64.MAX_VALUE
    if (recordKind(record) == KIND_RUNS) {
      const W = recordWidth(record), r = recordParam(record) + 1
      const base = recordBase(record), g = recordAux(record), p = data + recordDataOffset(record)
      least = i64.MAX_VALUE
      most = i64.MIN_VALUE
      for (let run: u32 = 0; run < r; run++) {
        const v = base + g * <i64>field(p, run, W)
        least = min(least, v)
        most = max(most, v)
      }
    }
    store<i64>(to, least)
    store<i64>(to, most, 8)
  }
}

/**
 * Histogram of the selected values [first, first + count) of the form-0 node (every block in the
 * stretch a run block; sel: selection bits from selStart, 0: all) into area's edgeCount + 1 u32
 * slots (zeroed here); `extremes`: runBlockExtremes' (0: none, the records' spans bound blocks).
 * Status 0, or UNDECIDED with the slots meaning nothing.
 */
export function queryRunsHistogram(
  node: usize, first: u32, count: u32, sel: usize, selStart: u32, edges: usize, edgeCount: u32, area: usize, extremes: usize,
): i32 {
  memory.fill(area, 0, <usize>(edgeCount + 1) << 2)
  const records = blocksRecords(node), data = blocksData(node), total = nodeCount(node)
  const end = first + count
  let last: u32 = 0
  for (let index = first, take: u32 = 0; index < end; index += take) {
    take = blockTake(index, end)
    // With no selection, every value counts: nothing to load, and a block's count is its take.
    if (sel != 0 && loadSelection(sel, selStart + (index - first), take) == 0) continue
    const block = index >>> BLOCK_SHIFT, from = index & (BLOCK_VALUES - 1), to = from + take
    const record = records + <usize>block * RECORD_BYTES
    if (recordKind(record) != KIND_RUNS) return UNDECIDED
    const W = recordWidth(record), r = recordParam(record) + 1
    const base = recordBase(record), g = recordAux(record)
    // The slot after `last` when the block's values lie in it and the one before (-1: not known).
    let twoSlots: i32 = -1
    if (extremes != 0) {
      const at = extremes + (<usize>block << 4), least = load<i64>(at), most = load<i64>(at, 8)
      if (!inSlot(edges, edgeCount, last, least)) last = upperBound(edges, edgeCount, least)
      if (inSlot(edges, edgeCount, last, most)) {
        bump(area + (<usize>last << 2), sel == 0 ? take : selectedCount(take))
        continue
      }
      if (last < edgeCount && inSlot(edges, edgeCount, last + 1, most)) twoSlots = <i32>last + 1
    } else if (packedFits(base, <u64>g, W)) {
      if (!inSlot(edges, edgeCount, last, base)) last = upperBound(edges, edgeCount, base)
      if (inSlot(edges, edgeCount, last, packedBound(base, <u64>g, W))) {
        bump(area + (<usize>last << 2), sel == 0 ? take : selectedCount(take))
        continue
      }
    }
    const n = min<u32>(BLOCK_VALUES, total - (block << BLOCK_SHIFT))
    const p = data + recordDataOffset(record)
    const starts = p + bytesOf(r, W), pw = bitsOf(<u64>(n - 1))
    if (twoSlots >= 0 && sel == 0 && from == 0 && to == n) {
      // Values in two slots (a sorted column's block across one edge): each run's length goes to
      // the upper slot or not, without a branch.
      const edge = load<i64>(edges + (<usize>last << 3))
      let start: u32 = 0, above: u32 = 0
      for (let run: u32 = 0; run < r; run++) {
        const stop = run + 1 < r ? <u32>field(starts, run, pw) : n
        if (stop <= start || stop > n) return UNDECIDED
        const v = base + g * <i64>field(p, run, W)
        above += select<u32>(stop - start, 0, v >= edge)
        start = stop
      }
      bump(area + (<usize>last << 2), n - above)
      last = <u32>twoSlots
      bump(area + (<usize>last << 2), above)
      continue
    }
    if (sel == 0 && from == 0 && to == n) {
      // The whole block, every value: runs add up in the slot at hand until one leaves it (a loop
      // of its own: folded into the one below, it measured slower).
      let start: u32 = 0, pending: u32 = 0
      for (let run: u32 = 0; run < r; run++) {
        const stop = run + 1 < r ? <u32>field(starts, run, pw) : n
        if (stop <= start || stop > n) return UNDECIDED
        const v = base + g * <i64>field(p, run, W)
        if (!inSlot(edges, edgeCount, last, v)) {
          bump(area + (<usize>last << 2), pending)
          pending = 0
          last = upperBound(edges, edgeCount, v)
        }
        pending += stop - start
        start = stop
      }
      bump(area + (<usize>last << 2), pending)
      continue
    }
    let start: u32 = 0
    // Every run's end checked, past `to` too, as the TypeScript walk does.
    for (let run: u32 = 0; run < r; run++) {
      const stop = run + 1 < r ? <u32>field(starts, run, pw) : n
      if (stop <= start || stop > n) return UNDECIDED
      const lo = max<u32>(start, from), hi = min<u32>(stop, to)
      if (lo < hi) {
        const k = sel == 0 ? hi - lo : selectedBetween(lo - from, hi - from)
        if (k != 0) {
          const v = base + g * <i64>field(p, run, W)
          if (!inSlot(edges, edgeCount, last, v)) last = upperBound(edges, edgeCount, v)
          bump(area + (<usize>last << 2), k)
        }
      }
      start = stop
    }
  }
  return OK
}
