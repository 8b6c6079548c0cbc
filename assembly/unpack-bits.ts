// Packed blocks of width 1 (Node build) through value rows: such a block holds two values,
// so each value is one of two 64-bit patterns (i64 base and base + g, wrapping; or the exact
// doubles base and base + g), chosen by its bit. Each byte of fields names a row of a table
// holding its 8 values (256 rows of 64 bytes): a byte becomes 8 values with 4 loads and 4
// stores and no arithmetic, where the SIMD unpack (unpack-simd.ts) spends shuffles and a
// multiply on every 4 fields (faster than a table of units plus base for i64, and than the
// SIMD unpack for doubles).
//
// The rows serve one pair at a time and are built (16 KiB of stores) once ROWS_AFTER blocks
// in a row had that pair, as in a column of bools or flags (base 0 and g = 1 throughout).
// i64 blocks with g = 1 all use the pair 0, 1 (units), adding base unless it is 0: with a
// base changing at every block, 5.0 against 5.1 before the rows. Other blocks whose pair
// the rows do not hold take the SIMD unpack, which uses no table: doubles 3.95 → 4.1 with a
// pair changing at every block. (A table of bit masks for those blocks, beside the rows,
// filled L1 with them: blocks alternating between the two ran at 2.8.)

import { fieldRun } from './unpack'
import { MULTIPLY, MULTIPLY_HIGH, UNIT, simdRun } from './unpack-simd'

/** Row b: the 8 bits of b, lowest first, as rowsZero (0) or rowsOne (1); all zero, the rows of 0 and 0, until the first build. */
const VALUE_ROWS: usize = memory.data(256 * 64, 16)
let rowsZero: i64 = 0, rowsOne: i64 = 0
/** The latest blocks' pair and how many blocks in a row had it. */
let runZero: i64 = 0, runOne: i64 = 0
let runBlocks: u32 = 0
const ROWS_AFTER: u32 = 4
/** Two bits' values, lowest first, for each of the 4 patterns of two bits (lane 0 the lower bit). */
const BIT_PAIRS: usize = memory.data(64, 16)

/**
 * Whether rowsRun serves the pair zero/one: the rows hold it, or this block is the
 * ROWS_AFTER-th in a row to have it and the rows are built for it now.
 */
export function valueRows(zero: i64, one: i64): bool {
  if (zero == rowsZero && one == rowsOne) return true
  if (zero != runZero || one != runOne) {
    runZero = zero
    runOne = one
    runBlocks = 0
  }
  if (++runBlocks < ROWS_AFTER) return false
  store<i64>(BIT_PAIRS, zero)
  store<i64>(BIT_PAIRS, zero, 8)
  store<i64>(BIT_PAIRS, one, 16)
  store<i64>(BIT_PAIRS, zero, 24)
  store<i64>(BIT_PAIRS, zero, 32)
  store<i64>(BIT_PAIRS, one, 40)
  store<i64>(BIT_PAIRS, one, 48)
  store<i64>(BIT_PAIRS, one, 56)
  for (let b: usize = 0; b < 256; b++) {
    const row = VALUE_ROWS + (b << 6)
    v128.store(row, v128.load(BIT_PAIRS + ((b & 3) << 4)))
    v128.store(row, v128.load(BIT_PAIRS + (((b >> 2) & 3) << 4)), 16)
    v128.store(row, v128.load(BIT_PAIRS + (((b >> 4) & 3) << 4)), 32)
    v128.store(row, v128.load(BIT_PAIRS + ((b >> 6) << 4)), 48)
  }
  rowsZero = zero
  rowsOne = one
  return true
}

/** Values [from, to) as zero or one by their bits at p (one value a field), to out. */
// @ts-ignore: decorator
@inline function selectFields(p: usize, from: u32, to: u32, zero: i64, one: i64, out: usize): void {
  for (let i = from, o = out; i < to; i++, o += 8) {
    const bit = <i64>((load<u8>(p + (i >>> 3)) >>> (i & 7)) & 1)
    store<i64>(o, zero ^ (-bit & (zero ^ one)))
  }
}

/** rowsRun's loop, the rows' values plus base (add) or as they are. */
// @ts-ignore: decorator
@inline function rowsLoop(p: usize, from: u32, to: u32, out: usize, base: i64, add: bool): void {
  let i = min((from + 7) & ~7, to)
  const zero = add ? rowsZero + base : rowsZero, one = add ? rowsOne + base : rowsOne
  selectFields(p, from, i, zero, one, out)
  let o = out + (<usize>(i - from) << 3)
  const bases = i64x2.splat(base)
  for (; i + 8 <= to; i += 8, o += 64) {
    const row = VALUE_ROWS + (<usize>load<u8>(p + (i >>> 3)) << 6)
    v128.store(o, add ? i64x2.add(v128.load(row), bases) : v128.load(row))
    v128.store(o, add ? i64x2.add(v128.load(row, 16), bases) : v128.load(row, 16), 16)
    v128.store(o, add ? i64x2.add(v128.load(row, 32), bases) : v128.load(row, 32), 32)
    v128.store(o, add ? i64x2.add(v128.load(row, 48), bases) : v128.load(row, 48), 48)
  }
  selectFields(p, i, to, zero, one, o)
}

/** Values [from, to) of a packed block of width 1 at p as the pair the rows hold (valueRows said so) to out. */
export function rowsRun(p: usize, from: u32, to: u32, out: usize): void {
  rowsLoop(p, from, to, out, 0, false)
}

/** Values [from, to) of a packed block of width 1 at p as base plus the rows' values (units 0 and 1) to out. */
function rowsPlusRun(p: usize, from: u32, to: u32, base: i64, out: usize): void {
  rowsLoop(p, from, to, out, base, true)
}

/**
 * Values [from, to) of a packed block of width 1 with g = 1 at p as i64 to out (widths.ts):
 * through rows of the units 0 and 1, plus base unless it is 0, so that blocks of any base
 * share one table (bools, base 0, copy the rows as they are).
 */
export function unitBits(p: usize, from: u32, to: u32, base: i64, out: usize): void {
  if (!valueRows(0, 1)) simdRun(p, from, to, base, 1, out, 1, UNIT)
  else if (base == 0) rowsRun(p, from, to, out)
  else rowsPlusRun(p, from, to, base, out)
}

/** Values [from, to) of a packed block of width 1 (any g) at p as i64 to out (widths.ts). */
export function scaledBits(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (valueRows(base, base + g)) rowsRun(p, from, to, out)
  else if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 1, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 1, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 1) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
