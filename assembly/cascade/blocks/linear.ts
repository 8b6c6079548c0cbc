// Linear blocks (kind 7, src/cascade/blocks/linear.ts): base = v0 + min residual,
// aux = s (the slope × 1024), width = rw; value j = base + ((j × s) >> 10) + field_j.
// The i64 product and arithmetic shift equal the TypeScript reader's j q + floor(j f /
// 1024) (s = 1024 q + f): at open |q| (n - 1) + (n - 1) + 2^rw < 2^53, so j × s < 2^63.
import { OK, recordAux, recordBase, recordWidth } from '../../common'
import { U_BUFFER, unpackU32 } from '../../query-common'
import { field } from '../common'

/** Value j of the linear block (data at p) to out. */
export function linearGet(record: usize, p: usize, j: u32, out: usize): i32 {
  const line = (<i64>j * recordAux(record)) >> 10
  store<i64>(out, recordBase(record) + line + <i64>field(p, j, recordWidth(record)))
  return OK
}

/**
 * Values [from, to) of the linear block to out, four a step: base + field + j q + ((j f) >> 10)
 * with s = 1024 q + f (0 ≤ f < 1024), equal to base + field + ((j s) >> 10). Fields of up to 31
 * bits are unpacked to u32 first (query-common.ts) and take j f in their lanes (j f < 2^20: no
 * carry), with a logical shift (V8 emulates the i64 arithmetic shift on x64); base + j q is
 * carried in i64 lanes as a running sum. (Unpacking inside this loop, with the generic unpack's
 * masks in registers, ran at half the speed: ad hoc.) Wider fields, rare (residuals of a line
 * are small), one value at a time.
 */
export function linearDecode(record: usize, p: usize, from: u32, to: u32, out: usize): i32 {
  const s = recordAux(record), q = s >> 10, f = <i32>(s & 1023), W = recordWidth(record), base = recordBase(record)
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
  for (; j < to; j++, o += 8) store<i64>(o, base + <i64>field(p, j, W) + ((<i64>j * s) >> 10))
  return OK
}
