// Packed blocks of width 1 (Node build): each byte of fields names a row of a table holding
// its 8 bits as i64 masks (0 or -1; 256 rows of 64 bytes), so a byte becomes 8 values with 4
// loads and 4 to 8 integer operations, where the SIMD unpack (unpack-simd.ts) spends
// shuffles and a multiply on every 4 fields. i64 with g = 1: base - mask. Doubles (any g):
// a block of width 1 holds two values, so each is a select between their bits, with no
// floating-point operation. 64K values in place, ad hoc: i64 4.5 → 5.2 G values/s; doubles
// 3.95 → 4.45 (rows or'ed with 2^52's bits then added to base - 2^52 had run at 3.9: the f64
// adds are what limits such loops here).
import { doubleFieldRun, fieldRun } from './unpack'

/** Row b: the 8 bits of b, lowest first, as i64 masks. Built at first use. */
const BIT_MASKS: usize = memory.data(256 * 64, 16)
let bitMasksBuilt = false
/** bitsDoubleRun's zero and flips splats, loaded in its loop (V8 rebuilds a splat held in a local at every use). */
const SELECT_VECTORS: usize = memory.data(32, 16)

function buildBitMasks(): void {
  for (let b: u32 = 0; b < 256; b++) {
    for (let k: u32 = 0; k < 8; k++) store<i64>(BIT_MASKS + ((<usize>b << 6) | (<usize>k << 3)), -<i64>((b >> k) & 1))
  }
  bitMasksBuilt = true
}

/** Values [from, to) of a packed block of width 1 at p as base + u (i64, wrapping) to out. */
export function bitsRun(p: usize, from: u32, to: u32, base: i64, out: usize): void {
  let i = min((from + 7) & ~7, to)
  fieldRun(p, from, i, base, 1, out, 1)
  if (!bitMasksBuilt) buildBitMasks()
  let o = out + (<usize>(i - from) << 3)
  const bases = i64x2.splat(base)
  for (; i + 8 <= to; i += 8, o += 64) {
    const row = BIT_MASKS + (<usize>load<u8>(p + (i >>> 3)) << 6)
    v128.store(o, i64x2.sub(bases, v128.load(row)))
    v128.store(o, i64x2.sub(bases, v128.load(row, 16)), 16)
    v128.store(o, i64x2.sub(bases, v128.load(row, 32)), 32)
    v128.store(o, i64x2.sub(bases, v128.load(row, 48)), 48)
  }
  fieldRun(p, i, to, base, 1, o, 1)
}

/**
 * Values [from, to) of a packed block of width 1 at p as the doubles zero (unit 0) and one
 * (unit 1) to out: zero's bits, with the bits where one differs flipped under the mask.
 */
export function bitsDoubleRun(p: usize, from: u32, to: u32, zero: f64, one: f64, out: usize): void {
  let i = min((from + 7) & ~7, to)
  doubleFieldRun(p, from, i, zero, one - zero, out, 1)
  if (!bitMasksBuilt) buildBitMasks()
  let o = out + (<usize>(i - from) << 3)
  v128.store(SELECT_VECTORS, f64x2.splat(zero))
  v128.store(SELECT_VECTORS, v128.xor(f64x2.splat(zero), f64x2.splat(one)), 16)
  for (; i + 8 <= to; i += 8, o += 64) {
    const row = BIT_MASKS + (<usize>load<u8>(p + (i >>> 3)) << 6)
    const zeros = v128.load(SELECT_VECTORS), flips = v128.load(SELECT_VECTORS, 16)
    v128.store(o, v128.xor(zeros, v128.and(v128.load(row), flips)))
    v128.store(o, v128.xor(zeros, v128.and(v128.load(row, 16), flips)), 16)
    v128.store(o, v128.xor(zeros, v128.and(v128.load(row, 32), flips)), 32)
    v128.store(o, v128.xor(zeros, v128.and(v128.load(row, 48), flips)), 48)
  }
  doubleFieldRun(p, i, to, zero, one - zero, o, 1)
}
