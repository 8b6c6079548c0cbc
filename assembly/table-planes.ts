// Table blocks of up to 16 entries (index widths 1-4), 16 values at a time (Node
// build). Index width 4 into raw i64 or doubles: a table of entry pairs, PAIRS (at
// the end), looked up by a byte's two indexes at once. Byte planes (int32, and i64
// within 2^32): byte k of every entry's 32-bit word sits in byte plane k (16 bytes,
// one per entry), so one byte shuffle per plane looks all 16 indexes up at once, and
// byte interleaves turn the four planes into 16 words. No per-value address
// arithmetic or lane loads, which bound the loops of table.ts and typed-table.ts.
// The words are the entries themselves (int32 output), or, for i64 output, the
// entries' offsets from the smallest when they span less than 2^32, widened and
// added to it. Not doubles: offsets converted (or made from their bits) ran no
// faster than lane loads, nor eight planes of whole 8-byte entries (a deeper transpose).

import { window16Mask, window16Multipliers } from './unpack-simd'

/** Byte planes of 16 int32 entries: plane k (16 bytes) holds byte k of entries 0..15. */
const PLANES: usize = memory.data(64, 16)
/** Entries' offsets from the smallest, as u32, for buildPlanes. */
const OFFSETS: usize = memory.data(64, 16)
/** The smallest entry as an i64x2 splat (offset planes). */
const PLANES_BASE: usize = memory.data(16, 16)

/** What storePlanes makes of each word: itself, or the base plus it as an i64. */
export const PLANES_INT32: i32 = 0
export const PLANES_INT64: i32 = 1

/**
 * For i64 output: when the table's entries (count ≤ 16, i64 at p) span less than 2^32, their
 * offsets from the smallest as planes, and the smallest as the base; false otherwise.
 * (Entries ascend in a valid file; the bounds are found anyway, so a corrupt order decodes the same.)
 */
export function buildOffsetPlanes(p: usize, count: u32): bool {
  let low = load<i64>(p), high = low
  for (let j: u32 = 1; j < count; j++) {
    const entry = load<i64>(p + (<usize>j << 3))
    if (entry < low) low = entry
    if (entry > high) high = entry
  }
  if (<u64>(high - low) > 0xFFFF_FFFF) return false
  for (let j: u32 = 0; j < count; j++) store<u32>(OFFSETS + (<usize>j << 2), <u32>(load<i64>(p + (<usize>j << 3)) - low))
  buildPlanes(OFFSETS)
  v128.store(PLANES_BASE, i64x2.splat(low))
  return true
}

/**
 * The 16 int32 entries at p as byte planes (a 16 × 4 byte transpose; entries past a
 * table's count are whatever follows them, and no valid index names them).
 */
export function buildPlanes(p: usize): void {
  // t_j: word k holds byte k of entries 4j..4j+3; then the words are regrouped by k.
  const t0 = byteColumns(v128.load(p)), t1 = byteColumns(v128.load(p, 16))
  const t2 = byteColumns(v128.load(p, 32)), t3 = byteColumns(v128.load(p, 48))
  const u0 = i32x4.shuffle(t0, t1, 0, 4, 1, 5), u1 = i32x4.shuffle(t0, t1, 2, 6, 3, 7)
  const v0 = i32x4.shuffle(t2, t3, 0, 4, 1, 5), v1 = i32x4.shuffle(t2, t3, 2, 6, 3, 7)
  v128.store(PLANES, i32x4.shuffle(u0, v0, 0, 1, 4, 5))
  v128.store(PLANES, i32x4.shuffle(u0, v0, 2, 3, 6, 7), 16)
  v128.store(PLANES, i32x4.shuffle(u1, v1, 0, 1, 4, 5), 32)
  v128.store(PLANES, i32x4.shuffle(u1, v1, 2, 3, 6, 7), 48)
}

/** Four int32 as their bytes by position: bytes 0 of all four, then bytes 1, 2, 3. */
// @ts-ignore: decorator
@inline function byteColumns(v: v128): v128 { return i8x16.shuffle(v, v, 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15) }

/**
 * The 16 indexes of width W (1-4, a literal) in the 2W bytes at q as bytes: each 8 from one
 * 8-byte load (reading up to 8 - W bytes past them, as table.ts's groups do) unpacked in u16 lanes.
 */
// @ts-ignore: decorator
@inline export function indexes16(q: usize, W: u32): v128 {
  const low = i16x8.shr_u(i16x8.mul(i8x16.swizzle(v128.load64_zero(q), window16Mask(W)), window16Multipliers(W)), 16 - W)
  const high = i16x8.shr_u(i16x8.mul(i8x16.swizzle(v128.load64_zero(q + W), window16Mask(W)), window16Multipliers(W)), 16 - W)
  return i8x16.narrow_i16x8_u(low, high)
}

// @ts-ignore: decorator
@inline function plane(k: u32, indexes: v128): v128 { return i8x16.swizzle(v128.load(PLANES + (<usize>k << 4)), indexes) }
// @ts-ignore: decorator
@inline function low8(a: v128, b: v128): v128 { return i8x16.shuffle(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23) }
// @ts-ignore: decorator
@inline function high8(a: v128, b: v128): v128 { return i8x16.shuffle(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31) }
// @ts-ignore: decorator
@inline function low16(a: v128, b: v128): v128 { return i8x16.shuffle(a, b, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23) }
// @ts-ignore: decorator
@inline function high16(a: v128, b: v128): v128 { return i8x16.shuffle(a, b, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31) }

/**
 * The 16 values named by indexes (bytes) to o: words as int32 (64 bytes), or base + word as
 * i64 (128 bytes; the words are unsigned offsets).
 */
// @ts-ignore: decorator
@inline export function storePlanes(indexes: v128, o: usize, mode: i32): void {
  // Bytes 0-1 and 2-3 of values 0-7 (a0, b0) and 8-15 (a1, b1) in u16 lanes; then 4-byte lanes.
  const p0 = plane(0, indexes), p1 = plane(1, indexes), p2 = plane(2, indexes), p3 = plane(3, indexes)
  const a0 = low8(p0, p1), a1 = high8(p0, p1), b0 = low8(p2, p3), b1 = high8(p2, p3)
  const w0 = low16(a0, b0), w1 = high16(a0, b0), w2 = low16(a1, b1), w3 = high16(a1, b1)
  if (mode == PLANES_INT32) {
    v128.store(o, w0)
    v128.store(o, w1, 16)
    v128.store(o, w2, 32)
    v128.store(o, w3, 48)
  } else {
    widenWords(w0, o)
    widenWords(w1, o + 32)
    widenWords(w2, o + 64)
    widenWords(w3, o + 96)
  }
}

/** Four words as base + word, i64, to o. */
// @ts-ignore: decorator
@inline function widenWords(w: v128, o: usize): void {
  const base = v128.load(PLANES_BASE)
  v128.store(o, i64x2.add(i64x2.extend_low_i32x4_u(w), base))
  v128.store(o, i64x2.add(i64x2.extend_high_i32x4_u(w), base), 16)
}

/** Entry pairs for index width 4: pair b (16 bytes) holds the entries of indexes b & 15 and b >> 4 (a byte's two indexes). */
const PAIRS: usize = memory.data(256 * 16, 16)
/** The 16 8-byte entries PAIRS was built from (all zero, as PAIRS, until the first build). */
const PAIRS_KEY: usize = memory.data(16 * 8, 16)

/**
 * PAIRS from the 16 8-byte entries at p (raw, or converted to doubles; past a table's count,
 * whatever lies there: no valid index names them), unless it holds them already: a column's
 * table blocks often share their entries.
 */
export function buildPairs(p: usize): void {
  let same = true
  for (let at: usize = 0; at < 128; at += 16) same = same && i64x2.all_true(i64x2.eq(v128.load(p + at), v128.load(PAIRS_KEY + at)))
  if (same) return
  memory.copy(PAIRS_KEY, p, 128)
  for (let high: usize = 0; high < 16; high++) {
    const second = v128.load64_splat(p + (high << 3))
    const row = PAIRS + (high << 8)
    for (let low: usize = 0; low < 16; low += 2) {
      const firsts = v128.load(p + (low << 3))
      v128.store(row + (low << 4), i64x2.shuffle(firsts, second, 0, 2))
      v128.store(row + (low << 4), i64x2.shuffle(firsts, second, 1, 2), 16)
    }
  }
}

/** The 16 values named by the 16 indexes of width 4 in the 8 bytes at q (validated) to o, through PAIRS. */
// @ts-ignore: decorator
@inline export function storePairs(q: usize, o: usize): void {
  // Byte loads rather than shifts of one 8-byte load: one instruction a byte fewer.
  v128.store(o, v128.load(PAIRS + (<usize>load<u8>(q) << 4)))
  v128.store(o, v128.load(PAIRS + (<usize>load<u8>(q, 1) << 4)), 16)
  v128.store(o, v128.load(PAIRS + (<usize>load<u8>(q, 2) << 4)), 32)
  v128.store(o, v128.load(PAIRS + (<usize>load<u8>(q, 3) << 4)), 48)
  v128.store(o, v128.load(PAIRS + (<usize>load<u8>(q, 4) << 4)), 64)
  v128.store(o, v128.load(PAIRS + (<usize>load<u8>(q, 5) << 4)), 80)
  v128.store(o, v128.load(PAIRS + (<usize>load<u8>(q, 6) << 4)), 96)
  v128.store(o, v128.load(PAIRS + (<usize>load<u8>(q, 7) << 4)), 112)
}
