// SIMD unpacking of wide fields (W ≤ 56 outside unpack-simd.ts's 4-byte windows):
// two groups at a time. Field k of a group and field k of the next sit W bytes
// apart at the same bit shift (8 fields take W bytes), so one i64x2 holds both,
// each lane an 8-byte load, and one shift pair cuts both fields out. Eight such
// vectors (k = 0..7) interleave into the two groups' 16 values in order.
//
// Doubles (W ≤ 52) are made from their bits, 2^52 + u, as wasm has no i64x2 to
// f64x2 conversion. Faster than the scalar loops (unpack.ts) at widths 27–52.
import { TWO_52, TWO_52_HIGH } from './common'
import { doubleFieldRun, fieldRun } from './unpack'

/** Constant splats the loop reads from static memory: base, g, 2^52's bits, 2^52, the units' mask 2^W - 1. */
const PAIR_VECTORS: usize = memory.data(80, 16)

/**
 * Field k of the group at q and of the next group as u64x2 (units, high bits cleared): a shift
 * and a mask rather than two shifts (faster for doubles, the same for i64).
 */
// @ts-ignore: decorator
@inline function fieldPair(q: usize, k: u32, W: u32, mask: v128): v128 {
  const bit = k * W
  const at = q + (bit >>> 3)
  const pair = v128.load64_lane(at + W, v128.load64_zero(at), 1)
  return v128.and(i64x2.shr_u(pair, bit & 7), mask)
}

/**
 * Units as exact doubles (below 2^52): the bits of 2^52 + u. Then base + u as one add of
 * base - 2^52 (mode 1: exact when base ≥ -2^52, see pairRun), or g u + base (mode 2).
 */
// @ts-ignore: decorator
@inline function doublesOf(units: v128, mode: i32, magic: v128, two52: v128, base: v128, g: v128): v128 {
  const biased = v128.or(units, magic)
  if (mode == PAIR_DOUBLE_UNIT) return f64x2.add(biased, base)
  return f64x2.add(f64x2.mul(f64x2.sub(biased, two52), g), base)
}

/** Field k of two groups as values: i64 base + u (PAIR_UNIT), or doubles. */
// @ts-ignore: decorator
@inline function valuePair(q: usize, k: u32, W: u32, mode: i32, magic: v128, two52: v128, base: v128, g: v128, mask: v128): v128 {
  const units = fieldPair(q, k, W, mask)
  if (mode == PAIR_UNIT) return i64x2.add(units, base)
  return doublesOf(units, mode, magic, two52, base, g)
}

/**
 * Two groups at q (16 values) to o: all eight pairs first, so the constants load once (stores
 * between them made V8 reload them). A mode without a constant gets base in its place, unused.
 */
// @ts-ignore: decorator
@inline function groupPair(q: usize, o: usize, W: u32, mode: i32): void {
  const base = v128.load(PAIR_VECTORS)
  const g = mode == PAIR_DOUBLE_SCALED ? v128.load(PAIR_VECTORS, 16) : base
  const magic = mode == PAIR_UNIT ? base : v128.load(PAIR_VECTORS, 32)
  const two52 = mode == PAIR_DOUBLE_SCALED ? v128.load(PAIR_VECTORS, 48) : base
  const mask = v128.load(PAIR_VECTORS, 64)
  const v0 = valuePair(q, 0, W, mode, magic, two52, base, g, mask), v1 = valuePair(q, 1, W, mode, magic, two52, base, g, mask)
  const v2 = valuePair(q, 2, W, mode, magic, two52, base, g, mask), v3 = valuePair(q, 3, W, mode, magic, two52, base, g, mask)
  const v4 = valuePair(q, 4, W, mode, magic, two52, base, g, mask), v5 = valuePair(q, 5, W, mode, magic, two52, base, g, mask)
  const v6 = valuePair(q, 6, W, mode, magic, two52, base, g, mask), v7 = valuePair(q, 7, W, mode, magic, two52, base, g, mask)
  v128.store(o, i64x2.shuffle(v0, v1, 0, 2))
  v128.store(o, i64x2.shuffle(v2, v3, 0, 2), 16)
  v128.store(o, i64x2.shuffle(v4, v5, 0, 2), 32)
  v128.store(o, i64x2.shuffle(v6, v7, 0, 2), 48)
  v128.store(o, i64x2.shuffle(v0, v1, 1, 3), 64)
  v128.store(o, i64x2.shuffle(v2, v3, 1, 3), 80)
  v128.store(o, i64x2.shuffle(v4, v5, 1, 3), 96)
  v128.store(o, i64x2.shuffle(v6, v7, 1, 3), 112)
}

/** Mode of pairRun: i64 base + u. */
export const PAIR_UNIT: i32 = 0
/** Modes of pairRun: exact doubles base + u, base + g u (W ≤ 52, as the double decode proved). */
export const PAIR_DOUBLE_UNIT: i32 = 1
export const PAIR_DOUBLE_SCALED: i32 = 2

/**
 * Values [from, to) of a packed block at p, width W (a literal, ≤ 56), to out: single fields up to
 * a multiple of 8, pairs of groups, then single fields. Loads stay where the scalar loop's go:
 * 8 bytes at a field's first byte.
 */
// @ts-ignore: decorator
@inline export function pairRun(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, W: u32, mode: i32): void {
  let i = min((from + 7) & ~7, to)
  if (mode == PAIR_UNIT) fieldRun(p, from, i, base, 1, out, W)
  else doubleFieldRun(p, from, i, <f64>base, <f64>g, out, W)
  let o = out + (<usize>(i - from) << 3)
  let q = p + <usize>(i >>> 3) * W
  v128.store(PAIR_VECTORS, i64x2.splat((<i64>1 << W) - 1), 64)
  if (mode == PAIR_UNIT) v128.store(PAIR_VECTORS, i64x2.splat(base))
  else {
    // Mode 1 adds base - 2^52 to 2^52 + u: exact, as base - 2^52 is an integer within ±2^53.
    v128.store(PAIR_VECTORS, f64x2.splat(mode == PAIR_DOUBLE_UNIT ? <f64>base - TWO_52 : <f64>base))
    v128.store(PAIR_VECTORS, f64x2.splat(<f64>g), 16)
    v128.store(PAIR_VECTORS, i64x2.splat(<i64>TWO_52_HIGH << 32), 32)
    v128.store(PAIR_VECTORS, f64x2.splat(TWO_52), 48)
  }
  let pairs = (to - i) >>> 4
  i += pairs << 4
  for (; pairs != 0; pairs--, o += 128, q += 2 * W) groupPair(q, o, W, mode)
  if (mode == PAIR_UNIT) fieldRun(p, i, to, base, 1, o, W)
  else doubleFieldRun(p, i, to, <f64>base, <f64>g, o, W)
}
