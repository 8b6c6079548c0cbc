// Scalar bit unpacking of packed blocks, specialised per width: the run loops
// below are inlined with a literal width (see widths.ts), so every offset,
// shift and mask is a constant.
//
// Values go in groups of 8: 8 fields of W bits take exactly W bytes, so every
// group starts on a byte boundary and field k of a group sits at the constant
// bit k·W. A field is one unaligned 8-byte load at its first byte (two when a
// field plus its bit shift spans 9 bytes, W ≥ 58), then shifts. The 8 zero
// bytes after a sequence's last block keep those loads inside the data area.

/** Mask of the low W bits (W = 64: all bits; a shift by 64 would wrap to 0). */
// @ts-ignore: decorator
@inline function lowBits(W: u32): u64 {
  return W == 64 ? <u64>-1 : (<u64>1 << <u64>W) - 1
}

/**
 * Field k of a group at q. With g = 1 and W > 32 the field is cut out with a
 * left then a right shift (no 64-bit mask to materialise). With a multiply after
 * it, shift + mask is faster: shifts and the multiply compete for the same
 * execution ports. Fields
 * spanning 9 bytes take their top bits from the next 8 bytes.
 */
// @ts-ignore: decorator
@inline function groupField(q: usize, k: u32, W: u32, unit: bool): u64 {
  const bit = k * W
  const at = q + (bit >>> 3)
  const s = <u64>(bit & 7)
  if (s + W > 64) return ((load<u64>(at) >>> s) | (load<u64>(at + 8) << (64 - s))) & lowBits(W)
  if (unit && W > 32) return (load<u64>(at) << (64 - s - W)) >>> (64 - W)
  return (load<u64>(at) >>> s) & lowBits(W)
}

/**
 * Values [from, to) one field at a time, any width 1..64: the few values before
 * the first whole group and after the last (and rare cases not worth a
 * specialised loop). Not specialised, which keeps the per-width functions small.
 */
export function fieldRun(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, width: u32): void {
  const mask = <u64>-1 >>> <u64>(64 - width)
  for (let i = from, o = out; i < to; i++, o += 8) {
    const bit = i * width
    const at = p + (bit >>> 3)
    const s = <u64>(bit & 7)
    let u = load<u64>(at) >>> s
    // A field of more than 56 bits plus its shift can reach a 9th byte; (b << 1) << (63 - s) is 0 for s = 0.
    if (width > 56) u |= ((<u64>load<u8>(at, 8)) << 1) << (63 - s)
    store<i64>(o, base + g * <i64>(u & mask))
  }
}

/** One group of 8 values, g = 1: base + u, wrapping. */
// @ts-ignore: decorator
@inline function unitGroup(q: usize, o: usize, base: i64, W: u32): void {
  store<i64>(o, base + groupField(q, 0, W, true))
  store<i64>(o, base + groupField(q, 1, W, true), 8)
  store<i64>(o, base + groupField(q, 2, W, true), 16)
  store<i64>(o, base + groupField(q, 3, W, true), 24)
  store<i64>(o, base + groupField(q, 4, W, true), 32)
  store<i64>(o, base + groupField(q, 5, W, true), 40)
  store<i64>(o, base + groupField(q, 6, W, true), 48)
  store<i64>(o, base + groupField(q, 7, W, true), 56)
}

/** One group of 8 values: base + g × u, wrapping. */
// @ts-ignore: decorator
@inline function scaledGroup(q: usize, o: usize, base: i64, g: i64, W: u32): void {
  store<i64>(o, base + g * groupField(q, 0, W, false))
  store<i64>(o, base + g * groupField(q, 1, W, false), 8)
  store<i64>(o, base + g * groupField(q, 2, W, false), 16)
  store<i64>(o, base + g * groupField(q, 3, W, false), 24)
  store<i64>(o, base + g * groupField(q, 4, W, false), 32)
  store<i64>(o, base + g * groupField(q, 5, W, false), 40)
  store<i64>(o, base + g * groupField(q, 6, W, false), 48)
  store<i64>(o, base + g * groupField(q, 7, W, false), 56)
}

/**
 * Values [from, to) of a packed block at p with g = 1 and width W, to out:
 * single fields up to a multiple of 8, whole groups (a count-down loop: less
 * overhead than comparing positions), single fields again. Two groups per
 * iteration gained too little for its code (all widths).
 */
// @ts-ignore: decorator
@inline export function unitRun(p: usize, from: u32, to: u32, base: i64, out: usize, W: u32): void {
  let i = min((from + 7) & ~7, to)
  fieldRun(p, from, i, base, 1, out, W)
  let o = out + (<usize>(i - from) << 3)
  let q = p + <usize>(i >>> 3) * W
  let groups = (to - i) >>> 3
  i += groups << 3
  if (W == 64) {
    // Whole 8-byte words plus the base, two to a vector.
    const bases = i64x2.splat(base)
    for (; groups != 0; groups--, o += 64, q += 64) {
      v128.store(o, i64x2.add(v128.load(q), bases))
      v128.store(o, i64x2.add(v128.load(q, 16), bases), 16)
      v128.store(o, i64x2.add(v128.load(q, 32), bases), 32)
      v128.store(o, i64x2.add(v128.load(q, 48), bases), 48)
    }
  } else for (; groups != 0; groups--, o += 64, q += W) unitGroup(q, o, base, W)
  fieldRun(p, i, to, base, 1, o, W)
}

/** Values [from, to) of a packed block at p with divisor g and width W, to out (as unitRun). */
// @ts-ignore: decorator
@inline export function scaledRun(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, W: u32): void {
  let i = min((from + 7) & ~7, to)
  fieldRun(p, from, i, base, g, out, W)
  let o = out + (<usize>(i - from) << 3)
  let q = p + <usize>(i >>> 3) * W
  let groups = (to - i) >>> 3
  i += groups << 3
  for (; groups != 0; groups--, o += 64, q += W) scaledGroup(q, o, base, g, W)
  fieldRun(p, i, to, base, g, o, W)
}

/** Values [from, to) one field at a time as doubles base + g u (the exact-double decode; width ≤ 52). */
export function doubleFieldRun(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize, width: u32): void {
  const mask = <u64>-1 >>> <u64>(64 - width)
  for (let i = from, o = out; i < to; i++, o += 8) {
    const bit = i * width
    store<f64>(o, base + g * <f64><i64>((load<u64>(p + (bit >>> 3)) >>> <u64>(bit & 7)) & mask))
  }
}
