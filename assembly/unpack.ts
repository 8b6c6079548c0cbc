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
@inline function unitRun(p: usize, from: u32, to: u32, base: i64, out: usize, W: u32): void {
  let i = from
  let o = out
  for (; i < to && (i & 7) != 0; i++, o += 8) store<i64>(o, base + fieldAt(p, i, W))
  let q = p + <usize>(i >>> 3) * W
  for (; i + 8 <= to; i += 8, o += 64, q += W) unitGroup(q, o, base, W)
  for (; i < to; i++, o += 8) store<i64>(o, base + fieldAt(p, i, W))
}

/** Values [from, to) of a packed block at p with divisor g, width W, to out. */
// @ts-ignore: decorator
@inline function scaledRun(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, W: u32): void {
  let i = from
  let o = out
  for (; i < to && (i & 7) != 0; i++, o += 8) store<i64>(o, base + g * fieldAt(p, i, W))
  let q = p + <usize>(i >>> 3) * W
  for (; i + 8 <= to; i += 8, o += 64, q += W) scaledGroup(q, o, base, g, W)
  for (; i < to; i++, o += 8) store<i64>(o, base + g * fieldAt(p, i, W))
}

/** Decodes values [from, to) of a packed block with g = 1 (no multiply), width 1..64, into out. */
export function unpackUnit(p: usize, from: u32, to: u32, base: i64, out: usize, width: u32): void {
  switch (width) {
    case 1: unitRun(p, from, to, base, out, 1); return
    case 2: unitRun(p, from, to, base, out, 2); return
    case 3: unitRun(p, from, to, base, out, 3); return
    case 4: unitRun(p, from, to, base, out, 4); return
    case 5: unitRun(p, from, to, base, out, 5); return
    case 6: unitRun(p, from, to, base, out, 6); return
    case 7: unitRun(p, from, to, base, out, 7); return
    case 8: unitRun(p, from, to, base, out, 8); return
    case 9: unitRun(p, from, to, base, out, 9); return
    case 10: unitRun(p, from, to, base, out, 10); return
    case 11: unitRun(p, from, to, base, out, 11); return
    case 12: unitRun(p, from, to, base, out, 12); return
    case 13: unitRun(p, from, to, base, out, 13); return
    case 14: unitRun(p, from, to, base, out, 14); return
    case 15: unitRun(p, from, to, base, out, 15); return
    case 16: unitRun(p, from, to, base, out, 16); return
    case 17: unitRun(p, from, to, base, out, 17); return
    case 18: unitRun(p, from, to, base, out, 18); return
    case 19: unitRun(p, from, to, base, out, 19); return
    case 20: unitRun(p, from, to, base, out, 20); return
    case 21: unitRun(p, from, to, base, out, 21); return
    case 22: unitRun(p, from, to, base, out, 22); return
    case 23: unitRun(p, from, to, base, out, 23); return
    case 24: unitRun(p, from, to, base, out, 24); return
    case 25: unitRun(p, from, to, base, out, 25); return
    case 26: unitRun(p, from, to, base, out, 26); return
    case 27: unitRun(p, from, to, base, out, 27); return
    case 28: unitRun(p, from, to, base, out, 28); return
    case 29: unitRun(p, from, to, base, out, 29); return
    case 30: unitRun(p, from, to, base, out, 30); return
    case 31: unitRun(p, from, to, base, out, 31); return
    case 32: unitRun(p, from, to, base, out, 32); return
    case 33: unitRun(p, from, to, base, out, 33); return
    case 34: unitRun(p, from, to, base, out, 34); return
    case 35: unitRun(p, from, to, base, out, 35); return
    case 36: unitRun(p, from, to, base, out, 36); return
    case 37: unitRun(p, from, to, base, out, 37); return
    case 38: unitRun(p, from, to, base, out, 38); return
    case 39: unitRun(p, from, to, base, out, 39); return
    case 40: unitRun(p, from, to, base, out, 40); return
    case 41: unitRun(p, from, to, base, out, 41); return
    case 42: unitRun(p, from, to, base, out, 42); return
    case 43: unitRun(p, from, to, base, out, 43); return
    case 44: unitRun(p, from, to, base, out, 44); return
    case 45: unitRun(p, from, to, base, out, 45); return
    case 46: unitRun(p, from, to, base, out, 46); return
    case 47: unitRun(p, from, to, base, out, 47); return
    case 48: unitRun(p, from, to, base, out, 48); return
    case 49: unitRun(p, from, to, base, out, 49); return
    case 50: unitRun(p, from, to, base, out, 50); return
    case 51: unitRun(p, from, to, base, out, 51); return
    case 52: unitRun(p, from, to, base, out, 52); return
    case 53: unitRun(p, from, to, base, out, 53); return
    case 54: unitRun(p, from, to, base, out, 54); return
    case 55: unitRun(p, from, to, base, out, 55); return
    case 56: unitRun(p, from, to, base, out, 56); return
    case 57: unitRun(p, from, to, base, out, 57); return
    case 58: unitRun(p, from, to, base, out, 58); return
    case 59: unitRun(p, from, to, base, out, 59); return
    case 60: unitRun(p, from, to, base, out, 60); return
    case 61: unitRun(p, from, to, base, out, 61); return
    case 62: unitRun(p, from, to, base, out, 62); return
    case 63: unitRun(p, from, to, base, out, 63); return
    case 64: unitRun(p, from, to, base, out, 64); return
  }
}

/** Decodes values [from, to) of a packed block (base + g × u), width 1..64, into out. */
export function unpackScaled(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, width: u32): void {
  switch (width) {
    case 1: scaledRun(p, from, to, base, g, out, 1); return
    case 2: scaledRun(p, from, to, base, g, out, 2); return
    case 3: scaledRun(p, from, to, base, g, out, 3); return
    case 4: scaledRun(p, from, to, base, g, out, 4); return
    case 5: scaledRun(p, from, to, base, g, out, 5); return
    case 6: scaledRun(p, from, to, base, g, out, 6); return
    case 7: scaledRun(p, from, to, base, g, out, 7); return
    case 8: scaledRun(p, from, to, base, g, out, 8); return
    case 9: scaledRun(p, from, to, base, g, out, 9); return
    case 10: scaledRun(p, from, to, base, g, out, 10); return
    case 11: scaledRun(p, from, to, base, g, out, 11); return
    case 12: scaledRun(p, from, to, base, g, out, 12); return
    case 13: scaledRun(p, from, to, base, g, out, 13); return
    case 14: scaledRun(p, from, to, base, g, out, 14); return
    case 15: scaledRun(p, from, to, base, g, out, 15); return
    case 16: scaledRun(p, from, to, base, g, out, 16); return
    case 17: scaledRun(p, from, to, base, g, out, 17); return
    case 18: scaledRun(p, from, to, base, g, out, 18); return
    case 19: scaledRun(p, from, to, base, g, out, 19); return
    case 20: scaledRun(p, from, to, base, g, out, 20); return
    case 21: scaledRun(p, from, to, base, g, out, 21); return
    case 22: scaledRun(p, from, to, base, g, out, 22); return
    case 23: scaledRun(p, from, to, base, g, out, 23); return
    case 24: scaledRun(p, from, to, base, g, out, 24); return
    case 25: scaledRun(p, from, to, base, g, out, 25); return
    case 26: scaledRun(p, from, to, base, g, out, 26); return
    case 27: scaledRun(p, from, to, base, g, out, 27); return
    case 28: scaledRun(p, from, to, base, g, out, 28); return
    case 29: scaledRun(p, from, to, base, g, out, 29); return
    case 30: scaledRun(p, from, to, base, g, out, 30); return
    case 31: scaledRun(p, from, to, base, g, out, 31); return
    case 32: scaledRun(p, from, to, base, g, out, 32); return
    case 33: scaledRun(p, from, to, base, g, out, 33); return
    case 34: scaledRun(p, from, to, base, g, out, 34); return
    case 35: scaledRun(p, from, to, base, g, out, 35); return
    case 36: scaledRun(p, from, to, base, g, out, 36); return
    case 37: scaledRun(p, from, to, base, g, out, 37); return
    case 38: scaledRun(p, from, to, base, g, out, 38); return
    case 39: scaledRun(p, from, to, base, g, out, 39); return
    case 40: scaledRun(p, from, to, base, g, out, 40); return
    case 41: scaledRun(p, from, to, base, g, out, 41); return
    case 42: scaledRun(p, from, to, base, g, out, 42); return
    case 43: scaledRun(p, from, to, base, g, out, 43); return
    case 44: scaledRun(p, from, to, base, g, out, 44); return
    case 45: scaledRun(p, from, to, base, g, out, 45); return
    case 46: scaledRun(p, from, to, base, g, out, 46); return
    case 47: scaledRun(p, from, to, base, g, out, 47); return
    case 48: scaledRun(p, from, to, base, g, out, 48); return
    case 49: scaledRun(p, from, to, base, g, out, 49); return
    case 50: scaledRun(p, from, to, base, g, out, 50); return
    case 51: scaledRun(p, from, to, base, g, out, 51); return
    case 52: scaledRun(p, from, to, base, g, out, 52); return
    case 53: scaledRun(p, from, to, base, g, out, 53); return
    case 54: scaledRun(p, from, to, base, g, out, 54); return
    case 55: scaledRun(p, from, to, base, g, out, 55); return
    case 56: scaledRun(p, from, to, base, g, out, 56); return
    case 57: scaledRun(p, from, to, base, g, out, 57); return
    case 58: scaledRun(p, from, to, base, g, out, 58); return
    case 59: scaledRun(p, from, to, base, g, out, 59); return
    case 60: scaledRun(p, from, to, base, g, out, 60); return
    case 61: scaledRun(p, from, to, base, g, out, 61); return
    case 62: scaledRun(p, from, to, base, g, out, 62); return
    case 63: scaledRun(p, from, to, base, g, out, 63); return
    case 64: scaledRun(p, from, to, base, g, out, 64); return
  }
}
