// The exact-double decode's fast path (Node build; the browser's widths stub answers
// false): a chunk whose blocks are all constant or packed, with every value provably
// within ±(2^53 - 1) from the record alone, is computed as base + g u in doubles in
// one pass, straight to the output (tables: typed-table.ts; packed widths but 8, 16
// and 32: widths-double.ts). Exact: u, g, base and g u are
// integers below 2^53 (span ≤ 2^53 is part of the proof), so the multiply and the add
// round nothing. Anything else goes through the checked path (typed.ts).
import {
  BLOCK_SHIFT, BLOCK_VALUES, KIND_CONSTANT, KIND_PACKED, KIND_TABLE, RECORD_BYTES, TWO_52, TWO_52_HIGH, recordAux, recordBase,
  recordDataOffset, recordKind, recordWidth, int32Doubles, unitDoubles,
} from './common'
import { fill } from './decode'
import { unpackDouble } from './widths-double'
import { wholeUnits } from './unpack-simd'
import { TYPED_ENTRIES, chunkTablesValid, tableTyped } from './typed-table'

const MAX_SAFE: i64 = 0x1F_FFFF_FFFF_FFFF
/** Wider fields go to the checked path (their 2^W - 1 units could not stay within a span of 2^53). */
const MAX_WIDTH: u32 = 52

/**
 * Whether every value of the block is within ±(2^53 - 1): from its record alone (with a span
 * of at most 2^53) for a packed block, from its entries for a table.
 */
function blockExact(record: usize, data: usize): bool {
  const kind = recordKind(record)
  const base = recordBase(record)
  if (kind == KIND_TABLE) {
    const p = data + recordDataOffset(record)
    for (let j: u32 = 0, entries = <u32>recordAux(record); j < entries; j++) {
      const entry = load<i64>(p + (<usize>j << 3))
      if (entry < -MAX_SAFE || entry > MAX_SAFE) return false
    }
    return true
  }
  if (base < -MAX_SAFE || base > MAX_SAFE) return false
  if (kind == KIND_CONSTANT) return true
  if (kind != KIND_PACKED) return false
  const W = recordWidth(record)
  const g = <u64>recordAux(record)
  if (W > MAX_WIDTH || g > <u64>MAX_SAFE) return false
  const units = (<u64>1 << <u64>W) - 1
  // span = g (2^W - 1) ≤ 2^53, checked without overflow.
  if (units != 0 && g > (<u64>MAX_SAFE + 1) / units) return false
  return base + <i64>(g * units) <= MAX_SAFE
}

/**
 * Four u32 units as doubles to o: base + g u (exact, see the header). When every value is an
 * int32 (int32: g = 1), base + u in i32 lanes (lanes holds base), each pair converted by one
 * instruction (unpack-simd.ts says why). With g = 1 (unit), each unit beside lanes (the high
 * word of 2^52) makes the bits of 2^52 + u, and bases holds base - 2^52. Otherwise lanes
 * convert as signed (one instruction; x64 has no unsigned conversion, V8 emulates it): units
 * of width 32 have their top bit flipped (u - 2^31), and bases holds the 2^31 g it removes.
 */
// @ts-ignore: decorator
@inline function storeScaled(o: usize, units: v128, bases: v128, steps: v128, int32: bool, unit: bool, flip: bool, tops: v128, lanes: v128): void {
  if (int32) {
    const values = i32x4.add(units, lanes)
    v128.store(o, f64x2.convert_low_i32x4_s(values))
    v128.store(o, f64x2.convert_low_i32x4_s(i32x4.shuffle(values, values, 2, 3, 2, 3)), 16)
    return
  }
  if (unit) {
    v128.store(o, f64x2.add(i32x4.shuffle(units, lanes, 0, 4, 1, 5), bases))
    v128.store(o, f64x2.add(i32x4.shuffle(units, lanes, 2, 6, 3, 7), bases), 16)
    return
  }
  const u = flip ? v128.xor(units, tops) : units
  const high = i32x4.shuffle(u, u, 2, 3, 2, 3)
  const low = f64x2.convert_low_i32x4_s(u)
  const top = f64x2.convert_low_i32x4_s(high)
  v128.store(o, f64x2.add(f64x2.mul(low, steps), bases))
  v128.store(o, f64x2.add(f64x2.mul(top, steps), bases), 16)
}

/**
 * Field i of width W ≤ 32 as a double (one unaligned 8-byte load), converted as signed
 * (exact: the unit is below 2^32; x64 has no unsigned conversion, V8 emulates it).
 */
// @ts-ignore: decorator
@inline function unitAt(p: usize, i: u32, W: u32, mask: u64): f64 {
  const bit = <u64>i * W
  return <f64><i64>((load<u64>(p + <usize>(bit >>> 3)) >>> (bit & 7)) & mask)
}

/** Fields [i, to) of a packed block at p as base + g u doubles to o (int32, unit: g = 1; flip: W = 32; see storeScaled). */
// @ts-ignore: decorator
@inline function packedRun(p: usize, i: u32, to: u32, W: u32, base: f64, g: f64, o: usize, int32: bool, unit: bool, flip: bool): void {
  const mask: u64 = (<u64>1 << <u64>W) - 1
  const start = min((i + 7) & ~7, to)
  for (; i < start; i++, o += 8) store<f64>(o, base + g * unitAt(p, i, W, mask))
  // Flipped lanes hold u - 2^31: their base is base + 2^31 g (exact: it lies between the block's bounds).
  // Unit lanes are 2^52 + u: their base is base - 2^52 (exact: the caller checked base ≥ -2^52).
  const bases = f64x2.splat(unit ? base - TWO_52 : flip ? base + g * 2147483648 : base), steps = f64x2.splat(g)
  // 2^31 per lane, built from W (= 32 here) so that V8 keeps it in a register instead of rebuilding a constant.
  // The i32 lanes' constant: base (int32), or 2^52's high word (unit).
  const tops = i32x4.splat(<i32>(W << 26)), lanes = i32x4.splat(int32 ? <i32>base : TWO_52_HIGH)
  let q = p + <usize>(i >>> 3) * W
  // Whole words, halves and bytes (wholeUnits), a loop each: one loop branching on W per group ran 5% slower.
  if (W == 32) {
    for (; i + 8 <= to; i += 8, q += 32, o += 64) {
      storeScaled(o, wholeUnits(q, 0, 32), bases, steps, int32, unit, flip, tops, lanes)
      storeScaled(o + 32, wholeUnits(q, 1, 32), bases, steps, int32, unit, flip, tops, lanes)
    }
  } else if (W == 16) {
    for (; i + 8 <= to; i += 8, q += 16, o += 64) {
      storeScaled(o, wholeUnits(q, 0, 16), bases, steps, int32, unit, flip, tops, lanes)
      storeScaled(o + 32, wholeUnits(q, 1, 16), bases, steps, int32, unit, flip, tops, lanes)
    }
  } else if (W == 8) {
    // Bytes: all 8 from one load (two wholeUnits loads ran 4% slower here).
    for (; i + 8 <= to; i += 8, q += 8, o += 64) {
      const u = v128.load8x8_u(q)
      storeScaled(o, i32x4.extend_low_i16x8_u(u), bases, steps, int32, unit, flip, tops, lanes)
      storeScaled(o + 32, i32x4.extend_high_i16x8_u(u), bases, steps, int32, unit, flip, tops, lanes)
    }
  }
  for (; i < to; i++, o += 8) store<f64>(o, base + g * unitAt(p, i, W, mask))
}

/**
 * packedRun with its flags as literals (each of the three loops compiled on its own) for
 * widths 8, 16 and 32; every other width has a function of its own (widths-double.ts).
 */
function packedFloat64(record: usize, data: usize, from: u32, to: u32, o: usize): void {
  const W = recordWidth(record)
  const p = data + recordDataOffset(record)
  if (W != 8 && W != 16 && W != 32) {
    unpackDouble(p, from, to, recordBase(record), <i64>recordAux(record), o, W)
    return
  }
  const exactBase = recordBase(record), exactG = <i64>recordAux(record)
  const base = <f64>exactBase, g = <f64>exactG
  if (int32Doubles(exactBase, exactG, W)) packedRun(p, from, to, W, base, 1, o, true, false, false)
  else if (unitDoubles(exactBase, exactG)) packedRun(p, from, to, W, base, 1, o, false, true, false)
  else if (W != 32) packedRun(p, from, to, W, base, g, o, false, false, false)
  else packedRun(p, from, to, W, base, g, o, false, false, true)
}

/**
 * Values [start, end) (one chunk of the exact-double decode) to out as doubles when every
 * block the chunk touches is exact (blockExact); returns false, writing nothing, otherwise.
 */
export function float64Chunk(records: usize, data: usize, start: u32, end: u32, out: usize): bool {
  for (let block = start >>> BLOCK_SHIFT; block <= (end - 1) >>> BLOCK_SHIFT; block++) {
    if (!blockExact(records + <usize>block * RECORD_BYTES, data)) return false
  }
  if (!chunkTablesValid(records, data, start, end)) return false
  let o = out
  for (let index = start; index < end;) {
    const record = records + <usize>(index >>> BLOCK_SHIFT) * RECORD_BYTES
    const from = index & (BLOCK_VALUES - 1)
    const take = min(end - index, BLOCK_VALUES - from)
    const base = <f64>recordBase(record)
    const kind = recordKind(record)
    const fields = data + recordDataOffset(record)
    if (kind == KIND_CONSTANT) fill(o, reinterpret<i64>(base), take)
    else if (kind == KIND_TABLE) {
      const entries = <u32>recordAux(record)
      for (let j: u32 = 0; j < entries; j++) store<f64>(TYPED_ENTRIES + (<usize>j << 3), <f64>load<i64>(fields + (<usize>j << 3)))
      tableTyped(fields, from, from + take, entries, recordWidth(record), o, false)
    } else packedFloat64(record, data, from, from + take, o)
    index += take
    o += <usize>take << 3
  }
  return true
}
