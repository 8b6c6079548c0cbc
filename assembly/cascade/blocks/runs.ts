// Run blocks (kind 4, src/cascade/blocks/runs.ts): r = param + 1 run values of
// `width` bits, then the starts of runs 1..r-1 in bits(n - 1) bits; value =
// base + aux × the value of the run holding it. Starts are not checked at open:
// reads follow the TypeScript reader's (the same binary search, the same walk
// when the starts never decrease), so they stay bounded and agree on any file.
import { OK, bitsOf, recordAux, recordBase, recordWidth } from '../../common'
import { bytesOf, field, fillRun, recordParam } from '../common'
import { RUN_PREFIX } from '../widths'

/** Values each run writes before its length is looked at (12 stores of two, below), where runs are long enough. */
const PREFIX_VALUES: u32 = 24

/**
 * The run holding value j: the last run whose start is ≤ j (starts of runs 1..last at `starts`).
 * A fixed number of halvings for a given last, each a select rather than a branch: a random read
 * would mispredict about half of a branchy search's steps.
 */
function runOf(starts: usize, last: u32, pw: u32, j: u32): u32 {
  let base: u32 = 0, length = last + 1
  while (length > 1) {
    const half = length >>> 1
    base = select<u32>(base + half, base, <u32>field(starts, base + half - 1, pw) <= j)
    length -= half
  }
  return base
}

/**
 * Whether the `stored` starts never decrease (they strictly increase in a valid block): then a walk
 * from any value finds what runOf finds. Otherwise (corrupt) decodes read value by value, as the
 * TypeScript reader does, so that a decode gives what single reads give however it is split.
 */
function startsAscending(starts: usize, stored: u32, pw: u32): bool {
  for (let run: u32 = 1; run < stored; run++) if (field(starts, run, pw) < field(starts, run - 1, pw)) return false
  return true
}

/** Value j of the run block (n values) to out. */
export function runsGet(record: usize, p: usize, n: u32, j: u32, out: usize): i32 {
  const r = recordParam(record) + 1, W = recordWidth(record)
  const run = runOf(p + bytesOf(r, W), r - 1, bitsOf(<u64>(n - 1)), j)
  store<i64>(out, recordBase(record) + recordAux(record) * <i64>field(p, run, W))
  return OK
}

/** The runs over values [from, to) to out, the first PREFIX_VALUES of each written unconditionally where `prefix` (a literal). */
// @ts-ignore: decorator
@inline function runsOut(p: usize, starts: usize, r: u32, W: u32, pw: u32, base: i64, g: i64, from: u32, to: u32, out: usize, prefix: bool): void {
  let run = runOf(starts, r - 1, pw, from)
  let position = from
  while (position < to) {
    let end = to
    if (run + 1 < r) end = min(to, <u32>field(starts, run, pw))
    const length = end - position
    const value = base + g * <i64>field(p, run, W)
    const o = out + (<usize>(position - from) << 3)
    if (end + 8 <= to) {
      // Values written past the run's end (never past `to`) are written over by the runs after it.
      const pair = i64x2.splat(value), stop = o + (<usize>length << 3)
      let q = o
      if (prefix && position + PREFIX_VALUES <= to) {
        v128.store(q, pair)
        v128.store(q, pair, 16)
        v128.store(q, pair, 32)
        v128.store(q, pair, 48)
        v128.store(q, pair, 64)
        v128.store(q, pair, 80)
        v128.store(q, pair, 96)
        v128.store(q, pair, 112)
        v128.store(q, pair, 128)
        v128.store(q, pair, 144)
        v128.store(q, pair, 160)
        v128.store(q, pair, 176)
        q += 192
      }
      while (q < stop) {
        v128.store(q, pair)
        v128.store(q, pair, 16)
        v128.store(q, pair, 32)
        v128.store(q, pair, 48)
        q += 64
      }
    } else fillRun(o, value, length)
    position = end
    run++
  }
}

/** Values [from, to) of the run block (n values) to out. */
export function runsDecode(record: usize, p: usize, n: u32, from: u32, to: u32, out: usize): i32 {
  const r = recordParam(record) + 1, W = recordWidth(record), pw = bitsOf(<u64>(n - 1))
  const base = recordBase(record), g = recordAux(record)
  const starts = p + bytesOf(r, W)
  if (!startsAscending(starts, r - 1, pw)) {
    // Corrupt starts: each value by runOf, as runsGet finds it (see startsAscending).
    for (let j = from, o = out; j < to; j++, o += 8) store<i64>(o, base + g * <i64>field(p, runOf(starts, r - 1, pw, j), W))
    return OK
  }
  // Where runs average 8 values or more, the first 24 of each go out whatever its length: most
  // runs then take no branch on their length (a mispredicted loop exit cost more than the stores).
  // Browsers' kernels leave it out (RUN_PREFIX false: scripts/bundle-cascade-widths.as).
  if (RUN_PREFIX && n >= r << 3) runsOut(p, starts, r, W, pw, base, g, from, to, out, true)
  else runsOut(p, starts, r, W, pw, base, g, from, to, out, false)
  return OK
}
