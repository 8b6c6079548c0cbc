// Indexes mapped through a table of i64 entries (dictionary blocks, and sequence
// dictionary codes in frame blocks): out[j] = table[index_j] for indexes of W ≤ 16
// bits packed as v1 packs units. Groups of 8 indexes (W bytes, starting on a byte)
// are cut out of one or two 8-byte loads straight into byte offsets (index × 8:
// shifted and masked in place), and two entries go out per 16-byte store. No
// index is compared with k in the loop: every index of W bits names a readable
// entry (the caller's table has 2^W), and the group's indexes are checked
// together, SWAR (checkWord); a run with a bad index is read again one index at
// a time, to report the first (faster than unpacking to u32 first, then a checked
// pair loop).
import { OK } from '../common'
import { field, indexError } from './common'
import { PAIR_GATHER, gatherGroups, pairGroups } from './widths'

/** Bits [0, W) of each even field of a group half (fields 0, 2 of four; 0, 2, 4, 6 of eight). */
// @ts-ignore: decorator
@inline function evenFields(W: u32, fields: u32): u64 {
  let mask: u64 = 0
  for (let j: u32 = 0; j < fields; j += 2) mask |= ((<u64>1 << <u64>W) - 1) << <u64>(j * W)
  return mask
}

/** Bit W of each even field's 2W-bit slot: where index + (2^W - k) carries iff index ≥ k. */
// @ts-ignore: decorator
@inline function carryBits(W: u32, fields: u32): u64 {
  let mask: u64 = 0
  for (let j: u32 = 0; j < fields; j += 2) mask |= <u64>1 << <u64>(j * W + W)
  return mask
}

/**
 * The check word of `fields` indexes of width W at the bottom of x: with c = 2^W - k added
 * to every even field alone (its odd neighbour masked off, so no carry crosses slots), and to
 * every odd field the same way, bit W of a slot is set iff its index is ≥ k. Or-ed over a
 * run, masked by carryBits at the end (the bits below are noise).
 */
// @ts-ignore: decorator
@inline function checkWord(x: u64, W: u32, even: u64, spread: u64): u64 {
  return ((x & even) + spread) | (((x >>> <u64>W) & even) + spread)
}

/** Byte offset (index × 2^shift: 8-byte entries, or 4) of field j of width W at the bottom of x: one shift and a mask. */
// @ts-ignore: decorator
@inline function offsetOf(x: u64, j: u32, W: u32, shift: u32 = 3): usize {
  const mask = ((<u64>1 << <u64>W) - 1) << <u64>shift
  const at = j * W
  return <usize>((at >= shift ? x >>> <u64>(at - shift) : x << (<u64>shift - <u64>at)) & mask)
}

/** Entries at byte offsets a and b of the table to o: one 16-byte store. */
// @ts-ignore: decorator
@inline export function pairOut(o: usize, table: usize, a: usize, b: usize): void {
  v128.store(o, v128.load64_lane(table + b, v128.load64_zero(table + a), 1))
}

/** Four fields of x (from field `first`) to o: two pair stores. */
// @ts-ignore: decorator
@inline function quadOut(x: u64, first: u32, o: usize, table: usize, W: u32): void {
  pairOut(o, table, offsetOf(x, first, W), offsetOf(x, first + 1, W))
  pairOut(o + 16, table, offsetOf(x, first + 2, W), offsetOf(x, first + 3, W))
}

/**
 * `groups` groups of 8 indexes of width W (1..16) from q to out through the table; returns the
 * or of their check words (spread: c = 2^W - k at each even slot; 0 and unused when k = 2^W).
 * `checked` false (a literal, where every index of W bits is below k): no check words at all.
 * Widths up to 7 take a group from one load (8W ≤ 56 bits), wider ones from two, four fields
 * each (the second at bit 4W of the group: a byte, and a shift of 4 for odd widths).
 */
// @ts-ignore: decorator
@inline export function groupRun(q: usize, groups: u32, table: usize, out: usize, W: u32, spread: u64, checked: bool = true): u64 {
  let checks: u64 = 0
  const half = (4 * W) >>> 3, shift = <u64>((4 * W) & 7)
  // Constants with a literal W; computed once a call otherwise (the browser's generic instance).
  const even = evenFields(W, W <= 7 ? 8 : 4)
  for (let o = out; groups != 0; groups--, q += W, o += 64) {
    if (W <= 7) {
      const x = load<u64>(q)
      if (checked) checks |= checkWord(x, W, even, spread)
      quadOut(x, 0, o, table, W)
      quadOut(x, 4, o + 32, table, W)
    } else {
      const x = load<u64>(q), y = load<u64>(q + half) >>> shift
      if (checked) checks |= checkWord(x, W, even, spread) | checkWord(y, W, even, spread)
      quadOut(x, 0, o, table, W)
      quadOut(y, 0, o + 32, table, W)
    }
  }
  return checks & carryBits(W, W <= 7 ? 8 : 4)
}

/** Four fields of x (from field `first`) through a table of 4-byte entries to o: one 16-byte store. */
// @ts-ignore: decorator
@inline function quadOut32(x: u64, first: u32, o: usize, table: usize, W: u32): void {
  let v = v128.load32_zero(table + offsetOf(x, first, W, 2))
  v = v128.load32_lane(table + offsetOf(x, first + 1, W, 2), v, 1)
  v = v128.load32_lane(table + offsetOf(x, first + 2, W, 2), v, 2)
  v128.store(o, v128.load32_lane(table + offsetOf(x, first + 3, W, 2), v, 3))
}

/**
 * groupRun for a table of 4-byte entries (int32 reads, sequences/codes-typed.ts), every index of
 * W bits readable and below k: no check words.
 */
// @ts-ignore: decorator
@inline export function groupRun32(q: usize, groups: u32, table: usize, out: usize, W: u32): void {
  const half = (4 * W) >>> 3, shift = <u64>((4 * W) & 7)
  for (let o = out; groups != 0; groups--, q += W, o += 32) {
    const x = load<u64>(q)
    quadOut32(x, 0, o, table, W)
    if (W <= 7) quadOut32(x, 4, o + 16, table, W)
    else quadOut32(load<u64>(q + half) >>> shift, 0, o + 16, table, W)
  }
}

/**
 * Entry pairs for index widths up to 4 (the Node build): PAIRS[a | b << W] = (table[a], table[b]),
 * so two indexes (2W bits) name one 16-byte load. 4 KiB, built from a table's 2^W entries.
 */
const PAIRS: usize = memory.data(16 * 256, 16)
/** The table and width PAIRS was built for; 0: nothing valid. */
let pairsTable: usize = 0
let pairsWidth: u32 = 0

/** PAIRS no longer holds a table's pairs: its entries change (a block dictionary's, or a new read's). */
export function forgetPairs(): void {
  pairsTable = 0
}

/** PAIRS for the 2^W entries at table, unless it holds them already. */
function pairsFor(table: usize, W: u32): void {
  if (pairsTable == table && pairsWidth == W) return
  const count = <u32>1 << W
  for (let b: u32 = 0; b < count; b++) {
    const high = load<i64>(table + (<usize>b << 3))
    for (let a: u32 = 0; a < count; a++) {
      v128.store(PAIRS + (<usize>(a | (b << W)) << 4), i64x2.replace_lane(i64x2.splat(load<i64>(table + (<usize>a << 3))), 1, high))
    }
  }
  pairsTable = table
  pairsWidth = W
}

/**
 * groupRun through PAIRS (W ≤ 4, a literal): a group's 8 indexes (W ≤ 4 bytes) are four pair
 * numbers of 2W bits, each one shift, one mask and one 16-byte load: at width 2, about 2.5
 * instructions a value against 8.
 */
// @ts-ignore: decorator
@inline export function pairRun(q: usize, groups: u32, out: usize, W: u32, spread: u64): u64 {
  let checks: u64 = 0
  const even = evenFields(W, 8), mask = ((<u64>1 << <u64>(2 * W)) - 1) << 4
  for (let o = out; groups != 0; groups--, q += W, o += 64) {
    const x = <u64>load<u32>(q)
    checks |= checkWord(x, W, even, spread)
    const x16 = x << 4
    v128.store(o, v128.load(PAIRS + <usize>(x16 & mask)))
    v128.store(o, v128.load(PAIRS + <usize>((x16 >>> <u64>(2 * W)) & mask)), 16)
    v128.store(o, v128.load(PAIRS + <usize>((x16 >>> <u64>(4 * W)) & mask)), 32)
    v128.store(o, v128.load(PAIRS + <usize>((x16 >>> <u64>(6 * W)) & mask)), 48)
  }
  return checks & carryBits(W, 8)
}

/** c = 2^W - k at the bottom of each even slot of a group (or half), for checkWord. */
function spreadOf(W: u32, k: u32): u64 {
  const c = <u64>((<u32>1 << W) - k)
  let spread: u64 = 0
  for (let j: u32 = 0; j < (W <= 7 ? <u32>8 : 4); j += 2) spread |= c << <u64>(j * W)
  return spread
}

/**
 * Indexes [from, to) of width W (1..16) of the stream at q mapped through the table to out;
 * status 0, or 5 with the first index ≥ k (in index order). The table must have 2^W readable
 * entries (those from k on are read for bad indexes and never kept: the run is read again).
 * Reads 8 bytes at a group's start, within a stream followed by 8 bytes (data or padding).
 */
export function gatherIndexes(q: usize, from: u32, to: u32, W: u32, table: usize, k: u32, out: usize): i32 {
  const start = min((from + 7) & ~7, to)
  const groups = (to - start) >>> 3, end = start + (groups << 3)
  const full = k >= (<u32>1 << W)
  let bad = false
  let o = out
  for (let j = from; j < start; j++, o += 8) {
    const index = <u32>field(q, j, W)
    bad |= index >= k
    store<i64>(o, load<i64>(table + (<usize>index << 3)))
  }
  if (groups != 0) {
    const at = q + <usize>(start >>> 3) * W, spread = full ? 0 : spreadOf(W, k)
    // Pairs where the Node build has them and the run repays building them (2^2W stores; a stable table's are kept).
    let checks: u64
    if (PAIR_GATHER && W >= 1 && W <= 4 && groups >= (<u32>1 << (2 * W)) >>> 4) {
      pairsFor(table, W)
      checks = pairGroups(at, groups, o, W, spread)
    } else checks = gatherGroups(at, groups, table, o, W, spread)
    bad |= checks != 0 && !full
  }
  o += <usize>groups << 6
  for (let j = end; j < to; j++, o += 8) {
    const index = <u32>field(q, j, W)
    bad |= index >= k
    store<i64>(o, load<i64>(table + (<usize>index << 3)))
  }
  if (!bad) return OK
  // A bad index somewhere (a corrupt file): the first one in order.
  for (let j = from; j < to; j++) {
    const index = <u32>field(q, j, W)
    if (index >= k) return indexError(index, k)
  }
  return OK
}
