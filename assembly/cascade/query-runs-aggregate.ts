// Integer aggregates over a stretch of run blocks (kind 4) of a form-0 node: each run's
// value once, times its selected values, into queryAggregate's state in scratch (f64
// count, f64 sum unused here, i64 min, i64 max, the 128-bit sum). Mirrors the TypeScript
// walk (src/cascade/query-aggregate-runs.ts), which answers when this cannot: a block that
// is not a run block, whose runs' ends do not ascend (every one checked), or whose values
// could wrap returns UNDECIDED with the state as it was.
import { BLOCK_SHIFT, BLOCK_VALUES, OK, RECORD_BYTES, SCRATCH, bitsOf, recordAux, recordBase, recordDataOffset, recordKind, recordWidth } from '../common'
import { addSignedTimes, addUnsignedProduct, blockTake, loadSelection, loadSum, packedFits, storeSum } from '../query-common'
import { KIND_RUNS, blocksData, blocksRecords, bytesOf, field, nodeCount, recordParam } from './common'
import { UNDECIDED, selectedBetween } from './query-runs'

/** Adds the selected values [first, first + count) of the form-0 node (sel: selection bits from selStart, 0: all); status 0 or UNDECIDED. */
export function queryRunsAggregate(node: usize, first: u32, count: u32, sel: usize, selStart: u32): i32 {
  const records = blocksRecords(node), data = blocksData(node), total = nodeCount(node)
  let seen = load<f64>(SCRATCH), smallest = load<i64>(SCRATCH, 16), largest = load<i64>(SCRATCH, 24)
  loadSum(SCRATCH + 32)
  const end = first + count
  for (let index = first, take: u32 = 0; index < end; index += take) {
    take = blockTake(index, end)
    if (sel != 0 && loadSelection(sel, selStart + (index - first), take) == 0) continue
    const block = index >>> BLOCK_SHIFT, from = index & (BLOCK_VALUES - 1), to = from + take
    const record = records + <usize>block * RECORD_BYTES
    if (recordKind(record) != KIND_RUNS) return UNDECIDED
    const W = recordWidth(record), r = recordParam(record) + 1, base = recordBase(record), g = recordAux(record)
    // Fields of at most 53 bits: Σ field × k (k ≤ 1,024) stays below 2^64; g ≥ 1 keeps value order field order.
    if (W == 0 || W > 53 || g < 1 || !packedFits(base, <u64>g, W)) return UNDECIDED
    const n = min<u32>(BLOCK_VALUES, total - (block << BLOCK_SHIFT))
    const p = data + recordDataOffset(record), starts = p + bytesOf(r, W), pw = bitsOf(<u64>(n - 1))
    let start: u32 = 0, k: u32 = 0, fields: u64 = 0, least: u64 = u64.MAX_VALUE, most: u64 = 0
    if (sel == 0 && from == 0 && to == n) {
      // A whole block, every value (a loop of its own: no run is cut or unselected).
      for (let run: u32 = 0; run < r; run++) {
        const stop = run + 1 < r ? <u32>field(starts, run, pw) : n
        if (stop <= start || stop > n) return UNDECIDED
        const u = field(p, run, W)
        least = min(least, u)
        most = max(most, u)
        fields += u * <u64>(stop - start)
        start = stop
      }
      k = n
    } else for (let run: u32 = 0; run < r; run++) {
      const stop = run + 1 < r ? <u32>field(starts, run, pw) : n
      if (stop <= start || stop > n) return UNDECIDED
      const lo = max<u32>(start, from), hi = min<u32>(stop, to)
      start = stop
      if (lo >= hi) continue
      const m = sel == 0 ? hi - lo : selectedBetween(lo - from, hi - from)
      if (m == 0) continue
      const u = field(p, run, W)
      least = min(least, u)
      most = max(most, u)
      fields += u * <u64>m
      k += m
    }
    if (k == 0) continue
    const low = base + g * <i64>least, high = base + g * <i64>most
    if (seen == 0 || low < smallest) smallest = low
    if (seen == 0 || high > largest) largest = high
    seen += <f64>k
    addSignedTimes(base, k)
    addUnsignedProduct(<u64>g, fields)
  }
  store<f64>(SCRATCH, seen)
  store<i64>(SCRATCH, smallest, 16)
  store<i64>(SCRATCH, largest, 24)
  storeSum(SCRATCH + 32)
  return OK
}
