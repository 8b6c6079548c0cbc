// SIMD unpacking for widths whose fields fit a 4-byte window (W + its largest
// bit shift ≤ 32: W ≤ 26, 28, 32) with g = 1, g < 2^32, or g a multiple of
// 2^32, faster than the scalar loops for each (more so with the masks and
// multipliers as constants, below).
//
// Four fields at a time: a byte shuffle puts each field's 4-byte window in a
// 32-bit lane, a multiply by 2^(32 - W - s) shifts each lane by its own amount
// so the field ends at bit 31, and one right shift by 32 - W leaves it alone.
// Then the units become i64 lanes: widened (g = 1), multiplied by g into 64 bits
// (extmul, g < 2^32), or, when g = h · 2^32, multiplied by h in 32 bits (exact:
// g · u < 2^64) and moved to the high halves; and the base is added.
//
// The shuffle masks and multipliers depend on the width alone, so each width's
// function has them as v128 constants: with a constant mask whose indexes are all
// in range, V8 emits the byte shuffle alone, where a mask loaded from memory also
// needs an instruction clamping out-of-range indexes. The base and g are loaded
// from static memory in the loop (V8 rebuilds a splat at every use).
import { TWO_52, TWO_52_HIGH } from './common'
import { doubleFieldRun, fieldRun } from './unpack'

/** How units become values: see the header. */
export const UNIT: i32 = 0
export const MULTIPLY: i32 = 1
export const MULTIPLY_HIGH: i32 = 2
/**
 * Exact doubles, for the double decode's proven blocks (typed-float64.ts): base + u where
 * every value is an int32 (common.ts: int32Doubles), base + u (g = 1, base ≥ -2^52), or base + g u.
 */
export const DOUBLE_INT32: i32 = 3
export const DOUBLE_UNIT: i32 = 4
export const DOUBLE_SCALED: i32 = 5

/**
 * The loop's run-time constants: base splat, then g (or its high word) splat; for doubles, base
 * (- 2^52 for DOUBLE_UNIT, an i32x4 for DOUBLE_INT32) and g (DOUBLE_UNIT: 2^52's high word).
 */
const VECTORS: usize = memory.data(32, 16)

// @ts-ignore: decorator
@inline function byteOf(k: u32, W: u32): u32 { return (k * W) >>> 3 }

/** 2^(32 - W - s) for field k: moves the field's top bit to bit 31. */
// @ts-ignore: decorator
@inline function topShift(k: u32, W: u32): u64 {
  return <u64>1 << <u64>(32 - W - ((k * W) & 7))
}

/** For window16Width: the swizzle mask putting each of the 8 fields' 2-byte window in a u16 lane. */
// @ts-ignore: decorator
@inline export function window16Mask(W: u32): v128 {
  return i8x16(
    <i8>byteOf(0, W), <i8>(byteOf(0, W) + 1), <i8>byteOf(1, W), <i8>(byteOf(1, W) + 1),
    <i8>byteOf(2, W), <i8>(byteOf(2, W) + 1), <i8>byteOf(3, W), <i8>(byteOf(3, W) + 1),
    <i8>byteOf(4, W), <i8>(byteOf(4, W) + 1), <i8>byteOf(5, W), <i8>(byteOf(5, W) + 1),
    <i8>byteOf(6, W), <i8>(byteOf(6, W) + 1), <i8>byteOf(7, W), <i8>(byteOf(7, W) + 1))
}

/** 2^(16 - W - s) for field k: moves the field's top bit to bit 15 of its lane. */
// @ts-ignore: decorator
@inline function topShift16(k: u32, W: u32): i16 {
  return <i16>(<u32>1 << (16 - W - ((k * W) & 7)))
}

// @ts-ignore: decorator
@inline export function window16Multipliers(W: u32): v128 {
  return i16x8(topShift16(0, W), topShift16(1, W), topShift16(2, W), topShift16(3, W),
    topShift16(4, W), topShift16(5, W), topShift16(6, W), topShift16(7, W))
}

/**
 * Units of fields 0..3 (k = 0) or 4..7 (k = 1) of the group at q, as u32x4. W must be a
 * literal (inlined into a function per width): with a width known only at run time, the
 * constants are built lane by lane at every group, several times slower.
 */
// @ts-ignore: decorator
@inline export function quad(q: usize, k: u32, h: u32, W: u32): v128 {
  if (W == 32 || W == 16 || W == 8) return wholeUnits(q, k, W)
  const bytes = v128.load(q + k * h)
  const windows = i8x16.swizzle(bytes, windowMask(4 * k, k * h, W))
  return i32x4.shr_u(i32x4.mul(windows, i32x4(
    <i32>topShift(4 * k, W), <i32>topShift(4 * k + 1, W), <i32>topShift(4 * k + 2, W), <i32>topShift(4 * k + 3, W))), 32 - W)
}

/**
 * Units of fields 0..3 (k = 0) or 4..7 (k = 1) of a group of whole bytes, halves or words
 * (W = 8, 16, 32) as u32x4: a widening load, no shuffle, multiply or shift.
 */
// @ts-ignore: decorator
@inline export function wholeUnits(q: usize, k: u32, W: u32): v128 {
  const at = q + k * (W >>> 1)
  if (W == 32) return v128.load(at)
  if (W == 16) return v128.load16x4_u(at)
  return i32x4.extend_low_i16x8_u(v128.load8x8_u(at))
}

/** The swizzle mask of fields k0..k0+3 (from group byte h) as a constant. */
// @ts-ignore: decorator
@inline function windowMask(k0: u32, h: u32, W: u32): v128 {
  return i8x16(
    <i8>(byteOf(k0, W) - h), <i8>(byteOf(k0, W) - h + 1), <i8>(byteOf(k0, W) - h + 2), <i8>(byteOf(k0, W) - h + 3),
    <i8>(byteOf(k0 + 1, W) - h), <i8>(byteOf(k0 + 1, W) - h + 1), <i8>(byteOf(k0 + 1, W) - h + 2), <i8>(byteOf(k0 + 1, W) - h + 3),
    <i8>(byteOf(k0 + 2, W) - h), <i8>(byteOf(k0 + 2, W) - h + 1), <i8>(byteOf(k0 + 2, W) - h + 2), <i8>(byteOf(k0 + 2, W) - h + 3),
    <i8>(byteOf(k0 + 3, W) - h), <i8>(byteOf(k0 + 3, W) - h + 1), <i8>(byteOf(k0 + 3, W) - h + 2), <i8>(byteOf(k0 + 3, W) - h + 3))
}

/** One group of 8 values from units u0 (fields 0..3) and u1 (4..7), g = 1. */
// @ts-ignore: decorator
@inline function unitGroup(u0: v128, u1: v128, o: usize): void {
  const base = v128.load(VECTORS)
  v128.store(o, i64x2.add(i64x2.extend_low_i32x4_u(u0), base))
  v128.store(o, i64x2.add(i64x2.extend_high_i32x4_u(u0), base), 16)
  v128.store(o, i64x2.add(i64x2.extend_low_i32x4_u(u1), base), 32)
  v128.store(o, i64x2.add(i64x2.extend_high_i32x4_u(u1), base), 48)
}

/** One group of 8 values, g < 2^32: u × g is exact in an i64 lane. */
// @ts-ignore: decorator
@inline function scaledGroup(u0: v128, u1: v128, o: usize): void {
  const base = v128.load(VECTORS)
  const g = v128.load(VECTORS, 16)
  v128.store(o, i64x2.add(i64x2.extmul_low_i32x4_u(u0, g), base))
  v128.store(o, i64x2.add(i64x2.extmul_high_i32x4_u(u0, g), base), 16)
  v128.store(o, i64x2.add(i64x2.extmul_low_i32x4_u(u1, g), base), 32)
  v128.store(o, i64x2.add(i64x2.extmul_high_i32x4_u(u1, g), base), 48)
}

/** One group of 8 values, g = h · 2^32: h × u < 2^32 is the value's high word, its low word 0. */
// @ts-ignore: decorator
@inline function highGroup(u0: v128, u1: v128, o: usize): void {
  const h32 = v128.load(VECTORS, 16)
  const high0 = i32x4.mul(u0, h32)
  const high1 = i32x4.mul(u1, h32)
  const base = v128.load(VECTORS)
  const zero = i64x2.splat(0)
  v128.store(o, i64x2.add(i32x4.shuffle(zero, high0, 0, 4, 1, 5), base))
  v128.store(o, i64x2.add(i32x4.shuffle(zero, high0, 2, 6, 3, 7), base), 16)
  v128.store(o, i64x2.add(i32x4.shuffle(zero, high1, 0, 4, 1, 5), base), 32)
  v128.store(o, i64x2.add(i32x4.shuffle(zero, high1, 2, 6, 3, 7), base), 48)
}

/**
 * One group of 8 exact doubles. DOUBLE_INT32: base + u in i32 lanes (no lane overflows, the
 * caller checked), each pair converted by one instruction and nothing else: faster than
 * DOUBLE_UNIT, as the f64 adds are what limits these loops. DOUBLE_UNIT (g = 1, base ≥
 * -2^52): each unit beside the high word of 2^52 is the bits of 2^52 + u, and one add of
 * base - 2^52 (exact) follows, faster than converting the lanes with the scaled mode's multiply and add.
 * DOUBLE_SCALED: units below 2^31 convert as signed i32 lanes, one instruction
 * (W ≤ 28 here), then base + g u in f64 lanes.
 */
// @ts-ignore: decorator
@inline function doubleGroup(u0: v128, u1: v128, o: usize, mode: i32): void {
  const base = v128.load(VECTORS)
  if (mode == DOUBLE_INT32) {
    const low = i32x4.add(u0, base), high = i32x4.add(u1, base)
    v128.store(o, f64x2.convert_low_i32x4_s(low))
    v128.store(o, f64x2.convert_low_i32x4_s(i32x4.shuffle(low, low, 2, 3, 2, 3)), 16)
    v128.store(o, f64x2.convert_low_i32x4_s(high), 32)
    v128.store(o, f64x2.convert_low_i32x4_s(i32x4.shuffle(high, high, 2, 3, 2, 3)), 48)
    return
  }
  if (mode == DOUBLE_UNIT) {
    const high = v128.load(VECTORS, 16)
    v128.store(o, f64x2.add(i32x4.shuffle(u0, high, 0, 4, 1, 5), base))
    v128.store(o, f64x2.add(i32x4.shuffle(u0, high, 2, 6, 3, 7), base), 16)
    v128.store(o, f64x2.add(i32x4.shuffle(u1, high, 0, 4, 1, 5), base), 32)
    v128.store(o, f64x2.add(i32x4.shuffle(u1, high, 2, 6, 3, 7), base), 48)
    return
  }
  const g = v128.load(VECTORS, 16)
  const d0 = f64x2.convert_low_i32x4_s(u0), d1 = f64x2.convert_low_i32x4_s(i32x4.shuffle(u0, u0, 2, 3, 2, 3))
  const d2 = f64x2.convert_low_i32x4_s(u1), d3 = f64x2.convert_low_i32x4_s(i32x4.shuffle(u1, u1, 2, 3, 2, 3))
  v128.store(o, f64x2.add(f64x2.mul(d0, g), base))
  v128.store(o, f64x2.add(f64x2.mul(d1, g), base), 16)
  v128.store(o, f64x2.add(f64x2.mul(d2, g), base), 32)
  v128.store(o, f64x2.add(f64x2.mul(d3, g), base), 48)
}

/**
 * Widths whose 8 fields each fit a 2-byte window, but for 8 and 16 (plain widening loads):
 * the group unpacks in u16 lanes from one load, with one 16-bit multiply (cheaper than two
 * 32-bit ones). Not width 1, the browser build's one SIMD width, whose bundle has no bytes to
 * spare for a small gain.
 */
// @ts-ignore: decorator
@inline export function window16Width(W: u32): bool {
  return W > 1 && W <= 10 && W != 8 || W == 12
}

/** The units of a group at q as two u32x4 (fields 0..3 and 4..7), then its 8 values to o. */
// @ts-ignore: decorator
@inline function group(q: usize, o: usize, h: u32, W: u32, mode: i32): void {
  let u0: v128, u1: v128
  if (window16Width(W)) {
    const u = i16x8.shr_u(i16x8.mul(i8x16.swizzle(v128.load(q), window16Mask(W)), window16Multipliers(W)), 16 - W)
    u0 = i32x4.extend_low_i16x8_u(u)
    u1 = i32x4.extend_high_i16x8_u(u)
  } else {
    u0 = quad(q, 0, h, W)
    u1 = quad(q, 1, h, W)
  }
  if (mode == UNIT) unitGroup(u0, u1, o)
  else if (mode == MULTIPLY) scaledGroup(u0, u1, o)
  else if (mode == MULTIPLY_HIGH) highGroup(u0, u1, o)
  else doubleGroup(u0, u1, o, mode)
}

/**
 * Values [from, to) of a packed block at p, width W (fields within 4-byte
 * windows), base + g × u (mode: g = 1, g < 2^32 or g = h · 2^32; or exact
 * doubles, for blocks the double decode proved exact), to out.
 * 16-byte loads may read past a group: only groups whose loads end within the
 * run's data plus the 8 bytes after it go through SIMD (W ≥ 16: all of them).
 */
// @ts-ignore: decorator
@inline export function simdRun(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, W: u32, mode: i32): void {
  const double = mode >= DOUBLE_INT32
  let i = min((from + 7) & ~7, to)
  if (double) doubleFieldRun(p, from, i, <f64>base, <f64>g, out, W)
  else fieldRun(p, from, i, base, g, out, W)
  let o = out + (<usize>(i - from) << 3)
  let q = p + <usize>(i >>> 3) * W
  const h = byteOf(4, W)
  if (mode == DOUBLE_INT32) v128.store(VECTORS, i32x4.splat(<i32>base))
  else if (double) {
    const unit = mode == DOUBLE_UNIT
    v128.store(VECTORS, f64x2.splat(unit ? <f64>base - TWO_52 : <f64>base))
    v128.store(VECTORS, unit ? i32x4.splat(TWO_52_HIGH) : f64x2.splat(<f64>g), 16)
  } else {
    v128.store(VECTORS, i64x2.splat(base))
    v128.store(VECTORS, i32x4.splat(mode == MULTIPLY_HIGH ? <u32>(g >>> 32) : <u32>g), 16)
  }
  let groups = (to - i) >>> 3
  if (W < 16) {
    const limit = p + ((<usize>to * W + 7) >>> 3) + 8
    const readEnd = q + h + 16
    groups = readEnd > limit ? 0 : min(groups, <u32>((limit - readEnd) / W) + 1)
  }
  i += groups << 3
  for (; groups >= 2; groups -= 2, o += 128, q += 2 * W) {
    group(q, o, h, W, mode)
    group(q + W, o + 64, h, W, mode)
  }
  if (groups != 0) {
    group(q, o, h, W, mode)
    o += 64
  }
  if (double) doubleFieldRun(p, i, to, <f64>base, <f64>g, o, W)
  else fieldRun(p, i, to, base, g, o, W)
}
