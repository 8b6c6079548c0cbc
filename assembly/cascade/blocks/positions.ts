// Exception positions of frequent and patched blocks (src/cascade/blocks/positions.ts):
// a list of e positions of bits(n - 1) bits, or a bitmap of n bits. The list is not
// checked at open, so its reads follow the TypeScript reader step for step (the same
// binary search; a list that does not strictly increase is searched position by
// position); bitmap bits past the e-th name no exception.
import { BLOCK_ENTRIES, bytesOf, field, unpackValues } from '../common'

/** Bytes the positions take (the list only when smaller than the bitmap: the param's flag says). */
// @ts-ignore: decorator
@inline export function positionsBytes(list: bool, e: u32, n: u32, pw: u32): usize {
  return list ? bytesOf(e, pw) : <usize>((n + 7) >>> 3)
}

/** Bits below bit b (b < 64). */
// @ts-ignore: decorator
@inline function below(b: u32): u64 {
  return (<u64>1 << <u64>b) - 1
}

/** The rank of position `index` among the exceptions, or -1 when it is none. */
export function exceptionRank(start: usize, list: bool, e: u32, pw: u32, index: u32): i32 {
  if (list) {
    if (e == 0) return -1
    // The last rank whose position is ≤ index (rank 0 when none is), as runs.ts's runOf searches.
    let base: u32 = 0, length = e
    while (length > 1) {
      const half = length >>> 1
      base = select<u32>(base + half, base, <u32>field(start, base + half, pw) <= index)
      length -= half
    }
    return <u32>field(start, base, pw) == index ? <i32>base : -1
  }
  // 8-byte words: a load at word w ends at most 7 bytes past the bitmap.
  const word = index >>> 6
  const bits = load<u64>(start + (<usize>word << 3))
  if (((bits >>> <u64>(index & 63)) & 1) == 0) return -1
  let rank = <u32>popcnt<u64>(bits & below(index & 63))
  for (let w: u32 = 0; w < word; w++) rank += <u32>popcnt<u64>(load<u64>(start + (<usize>w << 3)))
  return rank < e ? <i32>rank : -1
}

/** How an exception's term lands: it becomes the value (frequent), is added (patched), or is a code (sequence dictionaries). */
const SET: i32 = 0
const ADD: i32 = 1
const CODE: i32 = 2

/**
 * One exception: value `position` (of the run from `from`, at out) becomes `term`, or gains it
 * (ADD: patched blocks); or (CODE) term plus the position's low field (lw bits at lows) is a code,
 * whose table entry the value becomes: false when the code is not below k.
 */
// @ts-ignore: decorator
@inline function visit(out: usize, position: u32, from: u32, term: i64, mode: i32, lows: usize, lw: u32, table: usize, k: u32): bool {
  const o = out + (<usize>(position - from) << 3)
  if (mode == CODE) {
    const code = term + <i64>field(lows, position, lw)
    if (<u64>code >= <u64>k) return false
    store<i64>(o, load<i64>(table + (<usize>code << 3)))
  } else store<i64>(o, mode == ADD ? load<i64>(o) + term : term)
  return true
}

/** Set bits below position `to` of the bitmap at start (n bits), counting at most e. */
function ranksBelow(start: usize, n: u32, e: u32, to: u32): u32 {
  let count: u32 = 0
  for (let at: u32 = 0; at < to; at += 64) {
    let bits = load<u64>(start + (<usize>at >>> 3))
    const end = min(min(n, to) - at, 64)
    if (end < 64) bits &= below(end)
    count += <u32>popcnt<u64>(bits)
  }
  return min(count, e)
}

/**
 * Applies each exception at a position in [from, to) to the run at out, in rank order (visit), its
 * term being low + step × field `rank` of the W-bit fields at `values`; false at a code ≥ k (CODE).
 * A list whose positions do not strictly increase (corrupt) is searched for each position as
 * exceptionRank searches it, so that a decode gives what single reads give however it is split (a
 * walk would depend on where it starts), as the TypeScript reader does. A bitmap's terms are
 * unpacked first (unpackValues, SIMD in the Node build), which leaves its walk a copy per exception.
 */
// @ts-ignore: decorator
@inline function eachException(
  start: usize, list: bool, e: u32, n: u32, pw: u32, from: u32, to: u32, out: usize, values: usize, W: u32, low: i64, step: i64,
  mode: i32, lows: usize, lw: u32, table: usize, k: u32,
): bool {
  if (list) {
    // Each position read once (as u16 into BLOCK_ENTRIES: pw ≤ 10), checked to increase as it is read;
    // those below `from` counted, which for an increasing list is where the run's exceptions start.
    let previous: i32 = -1, below: u32 = 0, ascending = true
    for (let rank: u32 = 0; rank < e; rank++) {
      const position = <u32>field(start, rank, pw)
      ascending = ascending && <i32>position > previous
      previous = <i32>position
      below += <u32>(position < from)
      store<u16>(BLOCK_ENTRIES + (<usize>rank << 1), <u16>position)
    }
    if (!ascending) {
      for (let position = from; position < to; position++) {
        const rank = exceptionRank(start, true, e, pw, position)
        if (rank >= 0 && !visit(out, position, from, low + step * <i64>field(values, rank, W), mode, lows, lw, table, k)) return false
      }
      return true
    }
    for (let rank = below; rank < e; rank++) {
      const position = <u32>load<u16>(BLOCK_ENTRIES + (<usize>rank << 1))
      if (position >= to) break
      if (!visit(out, position, from, low + step * <i64>field(values, rank, W), mode, lows, lw, table, k)) return false
    }
    return true
  }
  const first = ranksBelow(start, n, e, from), last = ranksBelow(start, n, e, to)
  unpackValues(values, first, last, low, step, BLOCK_ENTRIES, W)
  // Ranks from `first` up to `last` (bits past the e-th name no exception): one term each, in order.
  let term = BLOCK_ENTRIES, end = BLOCK_ENTRIES + (<usize>(last - first) << 3)
  for (let at = from & ~63; at < to && term < end; at += 64) {
    let bits = load<u64>(start + (<usize>at >>> 3))
    // The bitmap's last word may end inside it: the bits past n belong to the next sub-stream.
    if (n - at < 64) bits &= below(n - at)
    if (at < from) bits &= ~below(from - at)
    if (to - at < 64) bits &= below(to - at)
    for (; bits != 0 && term < end; term += 8) {
      if (!visit(out, at + <u32>ctz<u64>(bits), from, load<i64>(term), mode, lows, lw, table, k)) return false
      bits &= bits - 1
    }
  }
  return true
}

/** Frequent (add false) and patched (add true) blocks' exceptions over the run at out: see eachException. */
export function applyExceptions(
  start: usize, list: bool, e: u32, n: u32, pw: u32, from: u32, to: u32,
  out: usize, values: usize, W: u32, low: i64, step: i64, add: bool,
): void {
  if (add) eachException(start, list, e, n, pw, from, to, out, values, W, low, step, ADD, 0, 0, 0, 0)
  else eachException(start, list, e, n, pw, from, to, out, values, W, low, step, SET, 0, 0, 0, 0)
}

/**
 * Codes of a sequence dictionary in a frequent or patched block (lows: the patched low fields of
 * lw bits, lw = 0 for frequent blocks) over the run at out: each exception's code is its term
 * plus its low field, mapped through the k entries at table; false at a code ≥ k (see eachException).
 */
export function codeExceptions(
  start: usize, list: bool, e: u32, n: u32, pw: u32, from: u32, to: u32, out: usize, values: usize, W: u32, low: i64, step: i64,
  lows: usize, lw: u32, table: usize, k: u32,
): bool {
  return eachException(start, list, e, n, pw, from, to, out, values, W, low, step, CODE, lows, lw, table, k)
}
