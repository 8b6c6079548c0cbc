// Linear blocks (kind 7, src/cascade/blocks/linear.ts): base = v0 + min residual,
// aux = s (the slope × 1024), width = rw; value j = base + ((j × s) >> 10) + field_j.
// The i64 product and arithmetic shift equal the TypeScript reader's j q + floor(j f /
// 1024) (s = 1024 q + f): at open |q| (n - 1) + (n - 1) + 2^rw < 2^53, so j × s < 2^63.
import { OK, recordAux, recordBase, recordWidth } from '../../common'
import { U_BUFFER, unpackU32 } from '../../query-common'
import { quad, window16Mask, window16Multipliers, window16Width } from '../../unpack-simd'
import { field } from '../common'
import { lineWidths } from '../widths'

/** lineRun's step vectors: 2q, 4q, 6q, 8q (i64x2), 4f, 8f (i32x4). */
const LINE_VECTORS: usize = memory.data(128, 16)

/** Value j of the linear block (data at p) to out. */
export function linearGet(record: usize, p: usize, j: u32, out: usize): i32 {
  const line = (<i64>j * recordAux(record)) >> 10
  store<i64>(out, recordBase(record) + line + <i64>field(p, j, recordWidth(record)))
  return OK
}

/** Values [from, to) one at a time: base + field + ((j s) >> 10). */
function lineFields(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize, W: u32): void {
  for (let j = from, o = out; j < to; j++, o += 8) store<i64>(o, base + <i64>field(p, j, W) + ((<i64>j * s) >> 10))
}

/**
 * Values [from, to) of the linear block to out (the Node build's per-width loops, lineRun, where
 * they apply; else the generic loop), always status 0.
 */
export function linearDecode(record: usize, p: usize, from: u32, to: u32, out: usize): i32 {
  const s = recordAux(record), W = recordWidth(record), base = recordBase(record)
  if (!lineWidths(p, from, to, base, s, out, W)) lineGeneric(p, from, to, base, s, out, W)
  return OK
}

/**
 * Values [from, to), four a step: base + field + j q + ((j f) >> 10) with s = 1024 q + f
 * (0 ≤ f < 1024), equal to base + field + ((j s) >> 10). Fields of up to 31 bits are unpacked to
 * u32 first (query-common.ts) and take j f in their lanes (j f < 2^20: no carry), with a logical
 * shift (V8 emulates the i64 arithmetic shift on x64); base + j q is carried in i64 lanes as a
 * running sum. Wider fields, rare (residuals of a line are small), one value at a time.
 */
function lineGeneric(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize, W: u32): void {
  const q = s >> 10, f = <i32>(s & 1023)
  let j = from, o = out
  if (W <= 31) {
    unpackU32(p, from, to, W)
    let fractions = i32x4.add(i32x4.splat(<i32>j * f), i32x4.mul(i32x4(0, 1, 2, 3), i32x4.splat(f)))
    let whole0 = i64x2.add(i64x2.replace_lane(i64x2.splat(<i64>j * q), 1, <i64>(j + 1) * q), i64x2.splat(base))
    let whole1 = i64x2.add(whole0, i64x2.splat(2 * q))
    const fractionStep = i32x4.splat(4 * f), wholeStep = i64x2.splat(4 * q)
    for (; j + 4 <= to; j += 4, o += 32) {
      const units = i32x4.add(v128.load(U_BUFFER + (<usize>j << 2)), i32x4.shr_u(fractions, 10))
      v128.store(o, i64x2.add(whole0, i64x2.extend_low_i32x4_u(units)))
      v128.store(o, i64x2.add(whole1, i64x2.extend_high_i32x4_u(units)), 16)
      fractions = i32x4.add(fractions, fractionStep)
      whole0 = i64x2.add(whole0, wholeStep)
      whole1 = i64x2.add(whole1, wholeStep)
    }
  }
  lineFields(p, j, to, base, s, o, W)
}

/**
 * lineGeneric's sum, fused with the unpack for a literal width W ≤ 26 or 28 (the Node build,
 * ../widths.ts): each group of 8 fields is cut out of one 16-byte load by constant shuffles
 * (unpack-simd.ts), gains j f >> 10 in its u32 lanes (below 2^27 + 1024: no carry) and
 * base + j q in i64 lanes; no pass through U_BUFFER. 16-byte loads stay within the fields
 * and the 8 bytes after them (later groups go one value at a time, as simdRun's do).
 */
// @ts-ignore: decorator
@inline export function lineRun(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize, W: u32): void {
  let i = min((from + 7) & ~7, to)
  lineFields(p, from, i, base, s, out, W)
  let o = out + (<usize>(i - from) << 3)
  let q = p + <usize>(i >>> 3) * W
  const h = (4 * W) >>> 3
  let groups = (to - i) >>> 3
  if (W > 0 && W < 16) {
    const limit = p + ((<usize>to * W + 7) >>> 3) + 8, readEnd = q + h + 16
    groups = readEnd > limit ? 0 : min(groups, <u32>((limit - readEnd) / W) + 1)
  }
  const whole = s >> 10, f = <i32>(s & 1023)
  // Steps as static vectors, loaded in the loop: V8 would rebuild each splat at every use, and
  // carried vectors beyond two cost a register move each a group.
  v128.store(LINE_VECTORS, i64x2.splat(2 * whole))
  v128.store(LINE_VECTORS, i64x2.splat(4 * whole), 16)
  v128.store(LINE_VECTORS, i64x2.splat(6 * whole), 32)
  v128.store(LINE_VECTORS, i64x2.splat(8 * whole), 48)
  v128.store(LINE_VECTORS, i32x4.splat(4 * f), 64)
  v128.store(LINE_VECTORS, i32x4.splat(8 * f), 80)
  if (window16Width(W)) {
    v128.store(LINE_VECTORS, window16Mask(W), 96)
    v128.store(LINE_VECTORS, window16Multipliers(W), 112)
  }
  const mask = v128.load(LINE_VECTORS, 96), multipliers = v128.load(LINE_VECTORS, 112)
  let fractions = i32x4.add(i32x4.splat(<i32>i * f), i32x4.mul(i32x4(0, 1, 2, 3), i32x4.splat(f)))
  let whole0 = i64x2.add(i64x2.replace_lane(i64x2.splat(<i64>i * whole), 1, <i64>(i + 1) * whole), i64x2.splat(base))
  i += groups << 3
  for (; groups != 0; groups--, q += W, o += 64) {
    let u0 = i64x2.splat(0), u1 = u0
    if (W > 0 && window16Width(W)) {
      const u = i16x8.shr_u(i16x8.mul(i8x16.swizzle(v128.load(q), mask), multipliers), 16 - W)
      u0 = i32x4.extend_low_i16x8_u(u)
      u1 = i32x4.extend_high_i16x8_u(u)
    } else if (W > 0) {
      u0 = quad(q, 0, h, W)
      u1 = quad(q, 1, h, W)
    }
    u0 = i32x4.add(u0, i32x4.shr_u(fractions, 10))
    u1 = i32x4.add(u1, i32x4.shr_u(i32x4.add(fractions, v128.load(LINE_VECTORS, 64)), 10))
    v128.store(o, i64x2.add(whole0, i64x2.extend_low_i32x4_u(u0)))
    v128.store(o, i64x2.add(i64x2.add(whole0, v128.load(LINE_VECTORS)), i64x2.extend_high_i32x4_u(u0)), 16)
    v128.store(o, i64x2.add(i64x2.add(whole0, v128.load(LINE_VECTORS, 16)), i64x2.extend_low_i32x4_u(u1)), 32)
    v128.store(o, i64x2.add(i64x2.add(whole0, v128.load(LINE_VECTORS, 32)), i64x2.extend_high_i32x4_u(u1)), 48)
    fractions = i32x4.add(fractions, v128.load(LINE_VECTORS, 80))
    whole0 = i64x2.add(whole0, v128.load(LINE_VECTORS, 48))
  }
  lineFields(p, i, to, base, s, o, W)
}
