// Form 2 (sequence runs): u8 form, u32 count, u32 runCount r, a u32 checkpoint per
// 1,024 values (the run holding value 1,024 b) at node + 9, then the run values
// (form 0, r values) and the run starts (form 0, r values). Starts and checkpoints
// were checked at open (0, strictly increasing below count; each checkpoint names
// its run), so their reads cannot fail; run values can (status 5), read in run
// order as the TypeScript reader reads them.
import { BLOCK_SHIFT, BLOCK_VALUES, OK, SCRATCH, unitsOf } from '../../common'
import { RUN_STARTS, RUN_VALUES, blocksEnd, fillRun } from '../common'
import { blocksDecode, blocksGet } from './blocks'
import { KEEP, toDoubles } from './doubles'

// @ts-ignore: decorator
@inline function valuesNode(node: usize): usize {
  return node + 9 + (<usize>unitsOf(load<u32>(node, 1), BLOCK_SHIFT) << 2)
}

/** Start of run `run` (a u32 below count, checked at open), read through the scratch. */
function runStart(starts: usize, run: u32): u32 {
  blocksGet(starts, run, SCRATCH + 48)
  return load<u32>(SCRATCH, 48)
}

/** The run holding value `index`: its checkpoint's block, then a binary search of that block's runs. */
function runOf(node: usize, starts: usize, index: u32): u32 {
  const count = load<u32>(node, 1), r = load<u32>(node, 5)
  const block = index >>> BLOCK_SHIFT, blocks = unitsOf(count, BLOCK_SHIFT)
  let lo = load<u32>(node + 9 + (<usize>block << 2))
  let hi = block + 1 < blocks ? load<u32>(node + 9 + (<usize>(block + 1) << 2)) : r - 1
  while (lo < hi) {
    const middle = (lo + hi + 1) >>> 1
    if (runStart(starts, middle) <= index) lo = middle
    else hi = middle - 1
  }
  return lo
}

/** Value `index` of the runs node to out; status 0 or 5 (a run values block). */
export function runsFormGet(node: usize, index: u32, out: usize): i32 {
  const values = valuesNode(node), starts = blocksEnd(values)
  return blocksGet(values, runOf(node, starts, index), out)
}

/**
 * Values [first, first + n) of the runs node to out: the runs from the one holding first to
 * the one holding the last value, their values and next starts decoded 1,024 runs at a time
 * (the values converted for a decimal: convert, p, doubles.ts).
 */
export function runsFormDecode(node: usize, first: u32, n: u32, out: usize, convert: i32 = KEEP, p: f64 = 1): i32 {
  if (n == 0) return OK
  const count = load<u32>(node, 1), r = load<u32>(node, 5)
  const values = valuesNode(node), starts = blocksEnd(values)
  const stop = first + n
  const last = runOf(node, starts, stop - 1)
  let run = runOf(node, starts, first), position = first
  while (run <= last) {
    const m = min(BLOCK_VALUES, last + 1 - run)
    const status = blocksDecode(values, run, m, RUN_VALUES)
    if (status != OK) return status
    toDoubles(RUN_VALUES, m, convert, p)
    // The starts of runs run + 1 ..: all m of them but past the last run (which ends at count).
    blocksDecode(starts, run + 1, min(m, r - 1 - run), RUN_STARTS)
    for (let t: u32 = 0; t < m; t++) {
      const next = run + t + 1 < r ? load<u32>(RUN_STARTS + (<usize>t << 3)) : count
      // Clamped to [position, stop]: the walk never goes back nor past the run.
      const end = run + t == last ? stop : max(position, min(next, stop))
      fillRun(out + (<usize>(position - first) << 3), load<i64>(RUN_VALUES + (<usize>t << 3)), end - position)
      position = end
    }
    run += m
  }
  return OK
}
