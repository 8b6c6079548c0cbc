// Bit unpacking of packed blocks, specialised per width: every width 1..64 gets
// its own loop in which the field offsets, shifts and masks are constants.
//
// Values go in groups of 8: 8 fields of W bits take exactly W bytes, so every
// group starts on a byte boundary and field k of a group sits at the constant
// bit k·W. Each field is one unaligned 8-byte load at its first byte (two for
// W > 56, where a field plus its shift can span 9 bytes), a constant shift and
// a constant mask. The 8 zero bytes after a sequence's last block keep those
// loads inside the data area.

/** Mask of the low W bits (W = 64: all bits; a shift by 64 would wrap to 0). */
// @ts-ignore: decorator
@inline function lowBits(W: u32): u64 {
  return W == 64 ? <u64>-1 : (<u64>1 << <u64>W) - 1
}

/** Field k of a group at q: with W and k literal this folds to a load at a constant offset, a shift and a mask. */
// @ts-ignore: decorator
@inline function groupField(q: usize, k: u32, W: u32): u64 {
  const bit = k * W
  const s = <u64>(bit & 7)
  let v = load<u64>(q + (bit >>> 3)) >>> s
  if (W > 56 && s + W > 64) v |= <u64>load<u8>(q + (bit >>> 3) + 8) << (64 - s)
  return v & lowBits(W)
}

/** Field i of the block at p (any i): the head and tail of a run, outside whole groups. */
// @ts-ignore: decorator
@inline export function fieldAt(p: usize, i: u32, W: u32): u64 {
  if (W == 64) return load<u64>(p + (<usize>i << 3))
  const bit = i * W
  const at = p + (bit >>> 3)
  const s = <u64>(bit & 7)
  let v = load<u64>(at) >>> s
  // (byte << 1) << (63 - s) instead of byte << (64 - s): s = 0 must give 0, not byte.
  if (W > 56) v |= ((<u64>load<u8>(at, 8)) << 1) << (63 - s)
  return v & lowBits(W)
}

/** One group of 8 values, g = 1: base + u, wrapping. */
// @ts-ignore: decorator
@inline function unitGroup(q: usize, o: usize, base: i64, W: u32): void {
  store<i64>(o, base + groupField(q, 0, W))
  store<i64>(o, base + groupField(q, 1, W), 8)
  store<i64>(o, base + groupField(q, 2, W), 16)
  store<i64>(o, base + groupField(q, 3, W), 24)
  store<i64>(o, base + groupField(q, 4, W), 32)
  store<i64>(o, base + groupField(q, 5, W), 40)
  store<i64>(o, base + groupField(q, 6, W), 48)
  store<i64>(o, base + groupField(q, 7, W), 56)
}

/** One group of 8 values: base + g × u, wrapping. */
// @ts-ignore: decorator
@inline function scaledGroup(q: usize, o: usize, base: i64, g: i64, W: u32): void {
  store<i64>(o, base + g * groupField(q, 0, W))
  store<i64>(o, base + g * groupField(q, 1, W), 8)
  store<i64>(o, base + g * groupField(q, 2, W), 16)
  store<i64>(o, base + g * groupField(q, 3, W), 24)
  store<i64>(o, base + g * groupField(q, 4, W), 32)
  store<i64>(o, base + g * groupField(q, 5, W), 40)
  store<i64>(o, base + g * groupField(q, 6, W), 48)
  store<i64>(o, base + g * groupField(q, 7, W), 56)
}

/** Values [from, to) of a packed block at p with g = 1, width W, to out. */
// @ts-ignore: decorator
@inline export function unitRun(p: usize, from: u32, to: u32, base: i64, out: usize, W: u32): void {
  let i = from
  let o = out
  for (; i < to && (i & 7) != 0; i++, o += 8) store<i64>(o, base + fieldAt(p, i, W))
  let q = p + <usize>(i >>> 3) * W
  for (; i + 8 <= to; i += 8, o += 64, q += W) unitGroup(q, o, base, W)
  for (; i < to; i++, o += 8) store<i64>(o, base + fieldAt(p, i, W))
}

/** Values [from, to) of a packed block at p with divisor g, width W, to out. */
// @ts-ignore: decorator
@inline export function scaledRun(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, W: u32): void {
  let i = from
  let o = out
  for (; i < to && (i & 7) != 0; i++, o += 8) store<i64>(o, base + g * fieldAt(p, i, W))
  let q = p + <usize>(i >>> 3) * W
  for (; i + 8 <= to; i += 8, o += 64, q += W) scaledGroup(q, o, base, g, W)
  for (; i < to; i++, o += 8) store<i64>(o, base + g * fieldAt(p, i, W))
}

// ---- prototype C: per-W inlined, loop constants stored to static memory per call ----
const VECTORS: usize = memory.data(128, 16)
// @ts-ignore: decorator
@inline function window4(b: u32): u64 {
  return <u64>(b | ((b + 1) << 8) | ((b + 2) << 16) | ((b + 3) << 24))
}
// @ts-ignore: decorator
@inline function byteOf(k: u32, W: u32): u32 { return (k * W) >>> 3 }
// @ts-ignore: decorator
@inline function pow32(k: u32, W: u32): u64 { return <u64>1 << <u64>(32 - W - ((k * W) & 7)) }
// @ts-ignore: decorator
@inline function quadMask(k0: u32, h: u32, W: u32): v128 {
  return i64x2.replace_lane(i64x2.splat(
    window4(byteOf(k0, W) - h) | (window4(byteOf(k0 + 1, W) - h) << 32)), 1,
    window4(byteOf(k0 + 2, W) - h) | (window4(byteOf(k0 + 3, W) - h) << 32))
}
// @ts-ignore: decorator
@inline function quadPow(k0: u32, W: u32): v128 {
  return i64x2.replace_lane(i64x2.splat(pow32(k0, W) | (pow32(k0 + 1, W) << 32)), 1, pow32(k0 + 2, W) | (pow32(k0 + 3, W) << 32))
}

// @ts-ignore: decorator
@inline export function simdUnit32(p: usize, from: u32, to: u32, base: i64, out: usize, W: u32): void {
  let i = from
  let o = out
  for (; i < to && (i & 7) != 0; i++, o += 8) store<i64>(o, base + fieldAt(p, i, W))
  let q = p + <usize>(i >>> 3) * W
  const h = byteOf(4, W)
  const limit = p + ((<usize>to * W + 7) >>> 3) + 8
  v128.store(VECTORS, quadMask(0, 0, W))
  v128.store(VECTORS, quadMask(4, h, W), 16)
  v128.store(VECTORS, quadPow(0, W), 32)
  v128.store(VECTORS, quadPow(4, W), 48)
  v128.store(VECTORS, i64x2.splat(base), 64)
  for (; i + 8 <= to && q + h + 16 <= limit; i += 8, o += 64, q += W) {
    const u0 = i32x4.shr_u(i32x4.mul(i8x16.swizzle(v128.load(q), v128.load(VECTORS)), v128.load(VECTORS, 32)), 32 - W)
    const u1 = i32x4.shr_u(i32x4.mul(i8x16.swizzle(v128.load(q + h), v128.load(VECTORS, 16)), v128.load(VECTORS, 48)), 32 - W)
    const b = v128.load(VECTORS, 64)
    v128.store(o, i64x2.add(i64x2.extend_low_i32x4_u(u0), b))
    v128.store(o, i64x2.add(i64x2.extend_high_i32x4_u(u0), b), 16)
    v128.store(o, i64x2.add(i64x2.extend_low_i32x4_u(u1), b), 32)
    v128.store(o, i64x2.add(i64x2.extend_high_i32x4_u(u1), b), 48)
  }
  for (; i < to; i++, o += 8) store<i64>(o, base + fieldAt(p, i, W))
}
