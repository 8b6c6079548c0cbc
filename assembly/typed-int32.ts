// The int32 decode's fast path (Node build; the browser bundle's widths stub answers
// false, keeping its kernels small): constant and packed blocks with W ≤ 32 and
// g < 2^32 are unpacked and scaled in i32 lanes in one pass, straight to the output,
// with no i64. From the record alone, a block either fits the output whole (no check
// at all) or has a range of units whose values fit (int32, or below the ordinal
// limit); then each group's units are compared with that range before it is stored.
//
// A chunk with any doubt goes to the checked path (typed.ts), which rewrites it from
// its start. The fast path never stores a group holding a bad value, so whatever it
// wrote lies before the first bad value: the output (even decoded in place into a
// ValueBuffer, with nothing copied) and the first error reported are the same
// either way.
import {
  BLOCK_SHIFT, BLOCK_VALUES, KIND_CONSTANT, KIND_PACKED, KIND_TABLE, RECORD_BYTES, recordAux, recordBase, recordDataOffset,
  recordKind, recordWidth,
} from './common'
import {
  fields4, fields8, loadLimit, prepareUnpack, prepareUnpack16, simdWidth, unpack16Mask, unpack16Multiplier, unpackMask,
  unpackMultiplier, window16,
} from './query-common'
import { TYPED_ENTRIES, chunkTablesValid, tableTyped } from './typed-table'
import { quad, wholeUnits } from './unpack-simd'

/** How a block reaches the int32 output: not at all (the checked path), unchecked, or with its units checked. */
const NO: i32 = 0
const FITS: i32 = 1
const CHECK: i32 = 2

/** Set by blockFits for CHECK: a value fits iff its unit u is in [unitLow, unitLow + unitSpan] (unsigned compare). */
let unitLow: u32 = 0
let unitSpan: u32 = 0

/**
 * Whether the packed block's values fit the output: every one from the record alone
 * (FITS), or those whose unit lies in [unitLow, unitLow + unitSpan] (CHECK), where the
 * bounds come from base + g u ∈ [low, high]: low = INT32_MIN, high = INT32_MAX for
 * integers, [0, limit - 1] for ordinals. Within those units, base + g u computed in
 * wrapping i32 lanes is the exact value. NO when W > 32, g is 0 or ≥ 2^32, or base >
 * high (then no unit fits, or the i64 sum could wrap back into range: the checked path
 * decides).
 */
function packedFits(record: usize, ordinals: bool, limit: u32): i32 {
  const W = recordWidth(record)
  const g = <u64>recordAux(record)
  const base = recordBase(record)
  const low: i64 = ordinals ? 0 : <i64>i32.MIN_VALUE
  const high: i64 = ordinals ? <i64>limit - 1 : <i64>i32.MAX_VALUE
  if (W > 32 || g == 0 || g > 0xFFFF_FFFF || base > high) return NO
  const top = (<u64>1 << <u64>W) - 1
  // Units from first to last map into [low, high]; u64 arithmetic, since base may be far below low.
  const first = base >= low ? 0 : (<u64>(low - base) + g - 1) / g
  let last = <u64>(high - base) / g
  if (last > top) last = top
  if (first > last) return NO
  if (first == 0 && last == top) return FITS
  unitLow = <u32>first
  unitSpan = <u32>(last - first)
  return CHECK
}

/** Whether value fits the output: int32, or an ordinal below limit. */
// @ts-ignore: decorator
@inline function valueFits(value: i64, ordinals: bool, limit: u32): bool {
  return ordinals ? value >= 0 && value < <i64>limit : value == <i64><i32>value
}

/** FITS, CHECK (see packedFits) or NO for any block; a table block fits when every entry does. */
function blockFits(record: usize, data: usize, ordinals: bool, limit: u32): i32 {
  const kind = recordKind(record)
  if (kind == KIND_PACKED) return packedFits(record, ordinals, limit)
  if (kind == KIND_CONSTANT) return valueFits(recordBase(record), ordinals, limit) ? FITS : NO
  if (kind != KIND_TABLE) return NO
  const entries = <u32>recordAux(record)
  const p = data + recordDataOffset(record)
  for (let j: u32 = 0; j < entries; j++) if (!valueFits(load<i64>(p + (<usize>j << 3)), ordinals, limit)) return NO
  return FITS
}

/** Table entries at p to TYPED_ENTRIES as int32 (they fit: blockFits). */
function tableEntriesInt32(p: usize, entries: u32): void {
  for (let j: u32 = 0; j < entries; j++) store<i32>(TYPED_ENTRIES + (<usize>j << 2), <i32>load<i64>(p + (<usize>j << 3)))
}

/** Field i of width W ≤ 32: one unaligned 8-byte load (W + shift ≤ 39 bits). */
// @ts-ignore: decorator
@inline function fieldAt(p: usize, i: u32, W: u32, mask: u64): i32 {
  const bit = i * W
  return <i32>((load<u64>(p + (bit >>> 3)) >>> <u64>(bit & 7)) & mask)
}

/** base + g u in wrapping i32 lanes (exact: the block fits), without the multiply when g = 1. */
// @ts-ignore: decorator
@inline function scale(u: v128, bases: v128, steps: v128, unit: bool): v128 {
  return unit ? i32x4.add(u, bases) : i32x4.add(i32x4.mul(u, steps), bases)
}

/** Whether all eight units of a group lie in the checked range. */
// @ts-ignore: decorator
@inline function unitsFit(u0: v128, u1: v128, lows: v128, spans: v128): bool {
  return i32x4.all_true(v128.and(i32x4.le_u(i32x4.sub(u0, lows), spans), i32x4.le_u(i32x4.sub(u1, lows), spans)))
}

/**
 * Fields [i, to) of the packed block at p to o (4 bytes each) as base + g u; with check, stops
 * before the first group (or value) whose unit is out of range (packedFits). Returns the index
 * it stopped at (to when done).
 */
// @ts-ignore: decorator
@inline function packedRun(p: usize, i: u32, to: u32, W: u32, base: i32, g: i32, o: usize, check: bool, unit: bool, literal: bool = false): u32 {
  const mask: u64 = (<u64>1 << <u64>W) - 1
  const start = min((i + 7) & ~7, to)
  for (; i < start; i++, o += 4) {
    const u = fieldAt(p, i, W, mask)
    if (check && <u32>(u - unitLow) > unitSpan) return i
    store<i32>(o, base + g * u)
  }
  const bases = i32x4.splat(base), steps = i32x4.splat(g), lows = i32x4.splat(unitLow), spans = i32x4.splat(unitSpan)
  const end = loadLimit(p, to, W)
  let q = p + <usize>(i >>> 3) * W
  if (literal) {
    // A literal width (one function per width, below): the shuffle masks and multipliers are
    // constants, which V8 compiles to a bare byte shuffle (see unpack-simd.ts).
    const h = (4 * W) >>> 3
    for (; i + 8 <= to && q + h + 16 <= end; i += 8, q += W, o += 32) {
      const u0 = quad(q, 0, h, W), u1 = quad(q, 1, h, W)
      if (check && !unitsFit(u0, u1, lows, spans)) break
      v128.store(o, scale(u0, bases, steps, unit))
      v128.store(o, scale(u1, bases, steps, unit), 16)
    }
  } else if (W == 8) {
    // Bytes (keyword ordinals of up to 256 terms): 16 units a load, checked in u8 lanes as below in u16.
    const lows8 = i8x16.splat(<i8>unitLow), spans8 = i8x16.splat(<i8>unitSpan)
    for (; i + 16 <= to; i += 16, q += 16, o += 64) {
      const x = v128.load(q)
      if (check && v128.any_true(i8x16.sub_sat_u(i8x16.sub(x, lows8), spans8))) break
      const low = i16x8.extend_low_i8x16_u(x), high = i16x8.extend_high_i8x16_u(x)
      v128.store(o, scale(i32x4.extend_low_i16x8_u(low), bases, steps, unit))
      v128.store(o, scale(i32x4.extend_high_i16x8_u(low), bases, steps, unit), 16)
      v128.store(o, scale(i32x4.extend_low_i16x8_u(high), bases, steps, unit), 32)
      v128.store(o, scale(i32x4.extend_high_i16x8_u(high), bases, steps, unit), 48)
    }
  } else if (W == 32) {
    for (; i + 8 <= to; i += 8, q += 32, o += 32) {
      const u0 = wholeUnits(q, 0, 32), u1 = wholeUnits(q, 1, 32)
      if (check && !unitsFit(u0, u1, lows, spans)) break
      v128.store(o, scale(u0, bases, steps, unit))
      v128.store(o, scale(u1, bases, steps, unit), 16)
    }
  } else if (window16(W)) {
    // Eight fields from one 16-byte load, in u16 lanes, widened to two u32x4.
    prepareUnpack16(W)
    const masks = unpack16Mask(), multipliers = unpack16Multiplier()
    const shift = 16 - W
    // The range check in u16 lanes (units and bounds are below 2^16): u - low wraps past span when
    // u < low, and a saturating subtract of span leaves a nonzero lane exactly where u - low > span.
    const lows16 = i16x8.splat(<i16>unitLow), spans16 = i16x8.splat(<i16>unitSpan)
    for (; i + 8 <= to && q + 16 <= end; i += 8, q += W, o += 32) {
      const u = fields8(q, masks, multipliers, shift)
      if (check && v128.any_true(i16x8.sub_sat_u(i16x8.sub(u, lows16), spans16))) break
      const u0 = i32x4.extend_low_i16x8_u(u), u1 = i32x4.extend_high_i16x8_u(u)
      v128.store(o, scale(u0, bases, steps, unit))
      v128.store(o, scale(u1, bases, steps, unit), 16)
    }
  } else if (simdWidth(W)) {
    prepareUnpack(W)
    const mask0 = unpackMask(0), mask1 = unpackMask(1)
    const multiplier0 = unpackMultiplier(0), multiplier1 = unpackMultiplier(1)
    const shift = 32 - W
    const h = (4 * W) >>> 3
    for (; i + 8 <= to && q + h + 16 <= end; i += 8, q += W, o += 32) {
      const u0 = fields4(q, mask0, multiplier0, shift), u1 = fields4(q + h, mask1, multiplier1, shift)
      if (check && !unitsFit(u0, u1, lows, spans)) break
      v128.store(o, scale(u0, bases, steps, unit))
      v128.store(o, scale(u1, bases, steps, unit), 16)
    }
  }
  for (; i < to; i++, o += 4) {
    const u = fieldAt(p, i, W, mask)
    if (check && <u32>(u - unitLow) > unitSpan) return i
    store<i32>(o, base + g * u)
  }
  return to
}

/** packedRun with its two flags as literals, so each of the four loops is compiled on its own. */
function packedInt32(p: usize, from: u32, to: u32, W: u32, base: i32, g: i32, o: usize, check: bool): u32 {
  if (g == 1 && W != 8 && simdWidth(W) && W != 32) return unitInt32(p, from, to, W, base, o, check)
  if (check) return g == 1 ? packedRun(p, from, to, W, base, 1, o, true, true) : packedRun(p, from, to, W, base, g, o, true, false)
  return g == 1 ? packedRun(p, from, to, W, base, 1, o, false, true) : packedRun(p, from, to, W, base, g, o, false, false)
}

/** n copies of value at o (4 bytes each). */
function fillInt32(o: usize, value: i32, n: u32): void {
  const lanes = i32x4.splat(value)
  const end = o + (<usize>n << 2)
  for (; o + 16 <= end; o += 16) v128.store(o, lanes)
  for (; o < end; o += 4) store<i32>(o, value)
}

/**
 * Values [start, end) (one chunk of the int32 decode) to out as int32 when every block
 * the chunk touches fits (blockFits) and no ordinal reaches the limit. Returns false
 * otherwise, having written at most values that lie before the first bad one.
 */
export function int32Chunk(records: usize, data: usize, start: u32, end: u32, ordinals: bool, limit: u32, out: usize): bool {
  for (let block = start >>> BLOCK_SHIFT; block <= (end - 1) >>> BLOCK_SHIFT; block++) {
    if (blockFits(records + <usize>block * RECORD_BYTES, data, ordinals, limit) == NO) return false
  }
  if (!chunkTablesValid(records, data, start, end)) return false
  let o = out
  for (let index = start; index < end;) {
    const record = records + <usize>(index >>> BLOCK_SHIFT) * RECORD_BYTES
    const from = index & (BLOCK_VALUES - 1)
    const take = min(end - index, BLOCK_VALUES - from)
    const base = <i32>recordBase(record)
    const kind = recordKind(record)
    const fields = data + recordDataOffset(record)
    if (kind == KIND_CONSTANT) fillInt32(o, base, take)
    else if (kind == KIND_TABLE) {
      const entries = <u32>recordAux(record)
      tableEntriesInt32(fields, entries)
      tableTyped(fields, from, from + take, entries, recordWidth(record), o, true)
    } else {
      const check = blockFits(record, data, ordinals, limit) == CHECK // sets unitLow, unitSpan
      if (packedInt32(fields, from, from + take, recordWidth(record), base, <i32>recordAux(record), o, check) != from + take) return false
    }
    index += take
    o += <usize>take << 2
  }
  return true
}

// g = 1 (the common case) at every width with a 4-byte-window unpack but 8 and 32 (their own
// loops above): one function per width, so that its masks are constants (a width passed at run
// time builds them lane by lane). Doubles take unpack-simd.ts's simdRun per width instead
// (widths-double.ts): this loop shape ran them slower, simdRun's precounted, paired groups faster.
function unit1(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 1, base, 1, o, true, true, true) : packedRun(p, from, to, 1, base, 1, o, false, true, true) }
function unit2(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 2, base, 1, o, true, true, true) : packedRun(p, from, to, 2, base, 1, o, false, true, true) }
function unit3(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 3, base, 1, o, true, true, true) : packedRun(p, from, to, 3, base, 1, o, false, true, true) }
function unit4(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 4, base, 1, o, true, true, true) : packedRun(p, from, to, 4, base, 1, o, false, true, true) }
function unit5(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 5, base, 1, o, true, true, true) : packedRun(p, from, to, 5, base, 1, o, false, true, true) }
function unit6(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 6, base, 1, o, true, true, true) : packedRun(p, from, to, 6, base, 1, o, false, true, true) }
function unit7(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 7, base, 1, o, true, true, true) : packedRun(p, from, to, 7, base, 1, o, false, true, true) }
function unit9(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 9, base, 1, o, true, true, true) : packedRun(p, from, to, 9, base, 1, o, false, true, true) }
function unit10(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 10, base, 1, o, true, true, true) : packedRun(p, from, to, 10, base, 1, o, false, true, true) }
function unit11(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 11, base, 1, o, true, true, true) : packedRun(p, from, to, 11, base, 1, o, false, true, true) }
function unit12(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 12, base, 1, o, true, true, true) : packedRun(p, from, to, 12, base, 1, o, false, true, true) }
function unit13(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 13, base, 1, o, true, true, true) : packedRun(p, from, to, 13, base, 1, o, false, true, true) }
function unit14(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 14, base, 1, o, true, true, true) : packedRun(p, from, to, 14, base, 1, o, false, true, true) }
function unit15(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 15, base, 1, o, true, true, true) : packedRun(p, from, to, 15, base, 1, o, false, true, true) }
function unit16(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 16, base, 1, o, true, true, true) : packedRun(p, from, to, 16, base, 1, o, false, true, true) }
function unit17(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 17, base, 1, o, true, true, true) : packedRun(p, from, to, 17, base, 1, o, false, true, true) }
function unit18(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 18, base, 1, o, true, true, true) : packedRun(p, from, to, 18, base, 1, o, false, true, true) }
function unit19(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 19, base, 1, o, true, true, true) : packedRun(p, from, to, 19, base, 1, o, false, true, true) }
function unit20(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 20, base, 1, o, true, true, true) : packedRun(p, from, to, 20, base, 1, o, false, true, true) }
function unit21(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 21, base, 1, o, true, true, true) : packedRun(p, from, to, 21, base, 1, o, false, true, true) }
function unit22(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 22, base, 1, o, true, true, true) : packedRun(p, from, to, 22, base, 1, o, false, true, true) }
function unit23(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 23, base, 1, o, true, true, true) : packedRun(p, from, to, 23, base, 1, o, false, true, true) }
function unit24(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 24, base, 1, o, true, true, true) : packedRun(p, from, to, 24, base, 1, o, false, true, true) }
function unit25(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 25, base, 1, o, true, true, true) : packedRun(p, from, to, 25, base, 1, o, false, true, true) }
function unit26(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 26, base, 1, o, true, true, true) : packedRun(p, from, to, 26, base, 1, o, false, true, true) }
function unit28(p: usize, from: u32, to: u32, base: i32, o: usize, check: bool): u32 { return check ? packedRun(p, from, to, 28, base, 1, o, true, true, true) : packedRun(p, from, to, 28, base, 1, o, false, true, true) }

/** packedInt32 for g = 1 by width. */
function unitInt32(p: usize, from: u32, to: u32, W: u32, base: i32, o: usize, check: bool): u32 {
  switch (W) {
    case 1: return unit1(p, from, to, base, o, check)
    case 2: return unit2(p, from, to, base, o, check)
    case 3: return unit3(p, from, to, base, o, check)
    case 4: return unit4(p, from, to, base, o, check)
    case 5: return unit5(p, from, to, base, o, check)
    case 6: return unit6(p, from, to, base, o, check)
    case 7: return unit7(p, from, to, base, o, check)
    case 9: return unit9(p, from, to, base, o, check)
    case 10: return unit10(p, from, to, base, o, check)
    case 11: return unit11(p, from, to, base, o, check)
    case 12: return unit12(p, from, to, base, o, check)
    case 13: return unit13(p, from, to, base, o, check)
    case 14: return unit14(p, from, to, base, o, check)
    case 15: return unit15(p, from, to, base, o, check)
    case 16: return unit16(p, from, to, base, o, check)
    case 17: return unit17(p, from, to, base, o, check)
    case 18: return unit18(p, from, to, base, o, check)
    case 19: return unit19(p, from, to, base, o, check)
    case 20: return unit20(p, from, to, base, o, check)
    case 21: return unit21(p, from, to, base, o, check)
    case 22: return unit22(p, from, to, base, o, check)
    case 23: return unit23(p, from, to, base, o, check)
    case 24: return unit24(p, from, to, base, o, check)
    case 25: return unit25(p, from, to, base, o, check)
    case 26: return unit26(p, from, to, base, o, check)
    case 28: return unit28(p, from, to, base, o, check)
  }
  return packedRun(p, from, to, W, base, 1, o, check, true)
}
