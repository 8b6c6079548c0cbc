// Shared pieces of the query kernels (query-*.ts): the per-block selection
// words, an unpack of packed fields (and table indexes) into u32, the block
// bound test that makes u-space reasoning exact, and 128-bit arithmetic.
//
// A kernel walks its run block by block (blockTake). For each block it first
// extracts the selection bits of the block's positions as 32-bit chunk words
// (SEL_WORDS), so a block with nothing selected costs 32 loads and is skipped,
// and the inner loops see one aligned word per 32 positions whatever
// selectionStart is.
import {
  BLOCK_BUFFER, BLOCK_VALUES, KIND_PACKED, OK, RECORD_BYTES, SCRATCH, recordAux, recordBase, recordDataOffset, recordKind, recordWidth,
  tableIndexError,
} from './common'
import { decodeBlock } from './decode'

/** Query statuses beyond common.ts: a counted value outside [0, n) (scratch: u32 value index, i64 raw at +8). */
export const VALUE_RANGE_ERROR: i32 = 4

/** u32 fields of one block by block position, with room for a 32-value chunk read past the last position. */
export const U_BUFFER: usize = memory.data(4 * (1024 + 64), 16)
/** Selection bits of the block's positions, one u32 per 32 positions from the run's first position in the block. */
export const SEL_WORDS: usize = memory.data(4 * 36, 16)
/** Per-index counts of a table block (≤ 256 entries). */
export const TABLE_COUNTS: usize = memory.data(4 * 256, 16)
/** Swizzle masks and multipliers of the u32 unpack (see unpackU32). */
const UNPACK_VECTORS: usize = memory.data(64, 16)
/** Swizzle mask and multipliers of the u16 unpack (see fields8). */
const UNPACK16_VECTORS: usize = memory.data(32, 16)

/** The status of the last blockValues that failed. */
export let valuesStatus: i32 = OK

/**
 * Where the raw values [from, from + take) of a block lie: in place when its fields are the values
 * themselves (a frame of width 64, base 0, divisor 1: the chunks format 2's queries decode into,
 * src/cascade/query-adapter.ts), so no copy; else decoded to BLOCK_BUFFER. 0 when the decode
 * fails (its status in valuesStatus).
 */
export function blockValues(record: usize, data: usize, block: u32, from: u32, take: u32): usize {
  if (recordKind(record) == KIND_PACKED && recordWidth(record) == 64 && recordBase(record) == 0 && recordAux(record) == 1) {
    return data + recordDataOffset(record) + (<usize>from << 3)
  }
  const status = decodeBlock(record, data, block, from, from + take, BLOCK_BUFFER)
  if (status == OK) return BLOCK_BUFFER
  valuesStatus = status
  return 0
}

/** Set by loadSelection: the run covers a whole block and selects all of it. */
export let selectionAll = false

/**
 * Fills SEL_WORDS for `take` positions whose selection bits start at bit `bit`
 * of the words at sel (sel = 0: all selected); returns the or of the words.
 * Reads up to 4 bytes past the last selection word (bitsets carry slack).
 */
export function loadSelection(sel: usize, bit: u32, take: u32): u32 {
  if (sel == 0 && take == 1024) {
    // Every value of a whole block (the common dense case): 8 vector stores.
    const ones = i32x4.splat(-1)
    for (let at: usize = 0; at < 128; at += 16) v128.store(SEL_WORDS + at, ones)
    selectionAll = true
    return 0xFFFF_FFFF
  }
  const chunks = (take + 31) >>> 5
  let any: u32 = 0, every: u32 = 0xFFFF_FFFF
  for (let c: u32 = 0; c < chunks; c++) {
    let word: u32 = 0xFFFF_FFFF
    if (sel != 0) {
      const at = bit + (c << 5)
      word = <u32>(load<u64>(sel + (<usize>(at >>> 5) << 2)) >>> <u64>(at & 31))
    }
    const left = take - (c << 5)
    if (left < 32) word &= (<u32>1 << left) - 1
    store<u32>(SEL_WORDS + (<usize>c << 2), word)
    any |= word
    every &= word
  }
  selectionAll = take == 1024 && every == 0xFFFF_FFFF
  return any
}

/**
 * Values of the block holding sequence index `index` from there on, up to `end`.
 * A kernel's walk is `for (index = first; index < end; index += take)` with
 * `take = blockTake(index, end)`: its cursor stays in locals (a walker keeping
 * it in module globals measured slower on histogram and aggregate).
 */
// @ts-ignore: decorator
@inline export function blockTake(index: u32, end: u32): u32 {
  return min(end - index, BLOCK_VALUES - (index & (BLOCK_VALUES - 1)))
}

/** The record of block number `block`. */
// @ts-ignore: decorator
@inline export function blockRecord(records: usize, block: u32): usize {
  return records + <usize>block * RECORD_BYTES
}

/** The largest of a vector's 16 u8 lanes: halves against halves, four times. */
export function largestU8(most: v128): u32 {
  most = i8x16.max_u(most, i8x16.shuffle(most, most, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7))
  most = i8x16.max_u(most, i8x16.shuffle(most, most, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3))
  most = i8x16.max_u(most, i8x16.shuffle(most, most, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1))
  most = i8x16.max_u(most, i8x16.shuffle(most, most, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0))
  return <u32>i8x16.extract_lane_u(most, 0)
}

/** The largest of a vector's 8 u16 lanes. */
export function largestU16(most: v128): u32 {
  most = i16x8.max_u(most, i8x16.shuffle(most, most, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7))
  most = i16x8.max_u(most, i8x16.shuffle(most, most, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3))
  most = i16x8.max_u(most, i8x16.shuffle(most, most, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1))
  return <u32>i16x8.extract_lane_u(most, 0)
}

/** Adds k to the u32 counter at slot. */
// @ts-ignore: decorator
@inline export function bump(slot: usize, k: u32): void {
  store<u32>(slot, load<u32>(slot) + k)
}

/** Set bits of SEL_WORDS for `take` positions. */
export function selectedCount(take: u32): u32 {
  const chunks = (take + 31) >>> 5
  let k: u32 = 0
  for (let c: u32 = 0; c < chunks; c++) k += popcnt(load<u32>(SEL_WORDS + (<usize>c << 2)))
  return k
}

/** Block position of the first selected value (SEL_WORDS not all zero). */
export function firstSelected(from: u32, take: u32): u32 {
  const chunks = (take + 31) >>> 5
  for (let c: u32 = 0; c < chunks; c++) {
    const word = load<u32>(SEL_WORDS + (<usize>c << 2))
    if (word != 0) return from + (c << 5) + ctz(word)
  }
  return from
}

/**
 * Ors the 32 bits of mask into the bitset at out from bit `bit`, as 4-byte
 * read-modify-writes: consecutive chunks then touch each word with accesses of
 * one size and address, which store-to-load forwarding handles (overlapping
 * 8-byte ones stalled every chunk). The match kernels call it for
 * every chunk, an empty mask too: whether 32 values hold a match is the data's,
 * and a branch on it mispredicts on selective filters.
 */
// @ts-ignore: decorator
@inline export function orBits(out: usize, bit: u32, mask: u32): void {
  const at = out + (<usize>(bit >>> 5) << 2)
  const shift = bit & 31
  store<u32>(at, load<u32>(at) | (mask << shift))
  if (shift != 0) store<u32>(at, load<u32>(at, 4) | (mask >>> (32 - shift)), 4)
}

/**
 * Whether every field of a packed block decodes without wrapping:
 * base + g (2^W - 1) ≤ 2^63 - 1. Then v = base + g·u in true arithmetic, so
 * bounds translate into u space exactly and sums split into n·base + g·Σu.
 */
export function packedFits(base: i64, g: u64, W: u32): bool {
  const umax: u64 = W == 64 ? <u64>-1 : (<u64>1 << <u64>W) - 1
  if (g > <u64>-1 / umax) return false
  return g * umax <= <u64>0x7FFF_FFFF_FFFF_FFFF - <u64>base
}

/** base + g (2^W - 1) for a block that packedFits. */
export function packedBound(base: i64, g: u64, W: u32): i64 {
  const umax: u64 = W == 64 ? <u64>-1 : (<u64>1 << <u64>W) - 1
  return base + <i64>(g * umax)
}

/** The smallest u with base + g·u ≥ value (0 when value ≤ base), as u64. */
export function uAtLeast(value: i64, base: i64, g: u64): u64 {
  if (value <= base) return 0
  const d = <u64>(value - base) // true difference < 2^64
  const q = d / g
  return d % g != 0 ? q + 1 : q
}

/** The largest u with base + g·u ≤ value; value ≥ base. */
export function uAtMost(value: i64, base: i64, g: u64): u64 {
  return <u64>(value - base) / g
}

/** Whether fields of width W fit 4-byte windows, so they unpack four at a time (W ≤ 26, 28, 32). */
// @ts-ignore: decorator
@inline export function simdWidth(W: u32): bool {
  return W <= 26 || W == 28 || W == 32
}

/**
 * Stores the per-field constants of width W (as unpack-simd.ts, built at run
 * time): swizzle masks of fields 0..3 and 4..7 at UNPACK_VECTORS + 0 and 16,
 * multipliers moving each field's top bit to bit 31 at + 32 and 48.
 */
export function prepareUnpack(W: u32): void {
  const h = (4 * W) >>> 3
  for (let f: u32 = 0; f < 8; f++) {
    const bit = f * W
    const b = (bit >>> 3) - (f >= 4 ? h : 0)
    const lane = UNPACK_VECTORS + (f >= 4 ? 16 : 0) + ((f & 3) << 2)
    store<u32>(lane, b | ((b + 1) << 8) | ((b + 2) << 16) | ((b + 3) << 24))
    store<u32>(lane, <u32>1 << (32 - W - (bit & 7)), 32)
  }
}

/** The constants prepareUnpack stored: masks of fields 0..3 / 4..7, then their multipliers. */
// @ts-ignore: decorator
@inline export function unpackMask(k: u32): v128 { return v128.load(UNPACK_VECTORS + (<usize>k << 4)) }
// @ts-ignore: decorator
@inline export function unpackMultiplier(k: u32): v128 { return v128.load(UNPACK_VECTORS + (<usize>k << 4), 32) }

/** Four fields as u32x4 from the 16 bytes at q (group start, or group start + h for fields 4..7). */
// @ts-ignore: decorator
@inline export function fields4(q: usize, mask: v128, multiplier: v128, shift: i32): v128 {
  return i32x4.shr_u(i32x4.mul(i8x16.swizzle(v128.load(q), mask), multiplier), shift)
}

/**
 * Whether every field of width W plus its bit shift fits a 2-byte window
 * (W ≤ 10, 12, 16): then a whole group of 8 fields unpacks from one 16-byte
 * load into u16 lanes, with 16-bit multiplies (cheaper than 32-bit ones).
 */
export function window16(W: u32): bool {
  if (W > 16) return false
  for (let f: u32 = 0; f < 8; f++) if (((f * W) & 7) + W > 16) return false
  return true
}

/** Stores the 2-byte window swizzle mask and the per-field multipliers 2^(16 - W - shift) of width W. */
export function prepareUnpack16(W: u32): void {
  for (let f: u32 = 0; f < 8; f++) {
    const bit = f * W
    const b = bit >>> 3
    store<u16>(UNPACK16_VECTORS + (<usize>f << 1), <u16>(b | ((b + 1) << 8)))
    store<u16>(UNPACK16_VECTORS + (<usize>f << 1), <u16>(<u32>1 << (16 - W - (bit & 7))), 16)
  }
}

// @ts-ignore: decorator
@inline export function unpack16Mask(): v128 { return v128.load(UNPACK16_VECTORS) }
// @ts-ignore: decorator
@inline export function unpack16Multiplier(): v128 { return v128.load(UNPACK16_VECTORS, 16) }

/** The 8 fields of the group at q as u16x8 (widths where window16 holds; shift = 16 - W). */
// @ts-ignore: decorator
@inline export function fields8(q: usize, mask: v128, multiplier: v128, shift: i32): v128 {
  return i16x8.shr_u(i16x8.mul(i8x16.swizzle(v128.load(q), mask), multiplier), shift)
}

/** First byte a 16-byte group load may not reach: the run's fields end plus the 8 bytes after them (data or padding). */
// @ts-ignore: decorator
@inline export function loadLimit(p: usize, to: u32, W: u32): usize {
  return p + ((<usize>to * W + 7) >>> 3) + 8
}

/**
 * Fields [from, to) of width W ≤ 32 at p to U_BUFFER[from, to) as u32. SIMD
 * widths go four at a time; groups whose 16-byte loads could pass loadLimit,
 * and the other widths, go one field at a time.
 */
export function unpackU32(p: usize, from: u32, to: u32, W: u32): void {
  const mask: u64 = (<u64>1 << <u64>W) - 1
  let i = from
  if (simdWidth(W)) {
    const start = min((from + 7) & ~7, to)
    for (; i < start; i++) store<u32>(U_BUFFER + (<usize>i << 2), <u32>fieldAt(p, i, W, mask))
    prepareUnpack(W)
    const mask0 = unpackMask(0), mask1 = unpackMask(1)
    const mult0 = unpackMultiplier(0), mult1 = unpackMultiplier(1)
    const shift = 32 - W
    const h = (4 * W) >>> 3
    const limit = loadLimit(p, to, W)
    let q = p + <usize>(i >>> 3) * W
    let o = U_BUFFER + (<usize>i << 2)
    for (; i + 8 <= to && q + h + 16 <= limit; i += 8, q += W, o += 32) {
      v128.store(o, fields4(q, mask0, mult0, shift))
      v128.store(o, fields4(q + h, mask1, mult1, shift), 16)
    }
  }
  for (; i < to; i++) store<u32>(U_BUFFER + (<usize>i << 2), <u32>fieldAt(p, i, W, mask))
}

/** Field i of width W ≤ 32: one unaligned 8-byte load (W + shift ≤ 39 bits). */
// @ts-ignore: decorator
@inline function fieldAt(p: usize, i: u32, W: u32, mask: u64): u64 {
  const bit = i * W
  return (load<u64>(p + (bit >>> 3)) >>> <u64>(bit & 7)) & mask
}

/**
 * Bits of the 32 u32 at a (U_BUFFER positions) with u - lo ≤ span (unsigned:
 * lo ≤ u ≤ lo + span): eight compares narrowed to bytes, two bitmasks.
 */
// @ts-ignore: decorator
@inline export function rangeMask32(a: usize, lo: v128, span: v128): u32 {
  const c0 = i32x4.le_u(i32x4.sub(v128.load(a), lo), span)
  const c1 = i32x4.le_u(i32x4.sub(v128.load(a, 16), lo), span)
  const c2 = i32x4.le_u(i32x4.sub(v128.load(a, 32), lo), span)
  const c3 = i32x4.le_u(i32x4.sub(v128.load(a, 48), lo), span)
  const c4 = i32x4.le_u(i32x4.sub(v128.load(a, 64), lo), span)
  const c5 = i32x4.le_u(i32x4.sub(v128.load(a, 80), lo), span)
  const c6 = i32x4.le_u(i32x4.sub(v128.load(a, 96), lo), span)
  const c7 = i32x4.le_u(i32x4.sub(v128.load(a, 112), lo), span)
  return maskOf8(c0, c1, c2, c3, c4, c5, c6, c7)
}

/** The 32 lanes of eight i32x4 compare results (all ones or zero) as bits: narrowed to bytes, two bitmasks. */
// @ts-ignore: decorator
@inline export function maskOf8(c0: v128, c1: v128, c2: v128, c3: v128, c4: v128, c5: v128, c6: v128, c7: v128): u32 {
  const low = i8x16.narrow_i16x8_s(i16x8.narrow_i32x4_s(c0, c1), i16x8.narrow_i32x4_s(c2, c3))
  const high = i8x16.narrow_i16x8_s(i16x8.narrow_i32x4_s(c4, c5), i16x8.narrow_i32x4_s(c6, c7))
  return <u32>i8x16.bitmask(low) | (<u32>i8x16.bitmask(high) << 16)
}

/**
 * Counts the selected table indexes of block `block` (entries at p, W-bit
 * indexes after them) into TABLE_COUNTS (2^W entries, zeroed here), through
 * U_BUFFER. Status 0, or 1 for the first selected index ≥ entries.
 */
export function countTableBlock(p: usize, block: u32, from: u32, take: u32, W: u32, entries: u32): i32 {
  unpackU32(p + (<usize>entries << 3), from, from + take, W)
  const size: u32 = <u32>1 << W
  memory.fill(TABLE_COUNTS, 0, <usize>size << 2)
  const chunks = (take + 31) >>> 5
  for (let c: u32 = 0; c < chunks; c++) {
    let word = load<u32>(SEL_WORDS + (<usize>c << 2))
    const at = from + (c << 5)
    while (word != 0) {
      const j = at + ctz(word)
      word &= word - 1
      const e = load<u32>(U_BUFFER + (<usize>j << 2))
      bump(TABLE_COUNTS + (<usize>e << 2), 1)
    }
  }
  if (entries == size) return OK
  let bad: u32 = 0
  for (let e = entries; e < size; e++) bad |= load<u32>(TABLE_COUNTS + (<usize>e << 2))
  if (bad == 0) return OK
  for (let c: u32 = 0; c < chunks; c++) {
    let word = load<u32>(SEL_WORDS + (<usize>c << 2))
    const at = from + (c << 5)
    while (word != 0) {
      const j = at + ctz(word)
      word &= word - 1
      const e = load<u32>(U_BUFFER + (<usize>j << 2))
      if (e >= entries) return tableIndexError(block, e, entries)
    }
  }
  return OK
}

/** First index of the ascending i64 array at p (n entries: table entries, histogram edges) with entry > value; n when none. */
export function upperBound(p: usize, n: u32, value: i64): u32 {
  let low: u32 = 0, high = n
  while (low < high) {
    const middle = (low + high) >>> 1
    if (load<i64>(p + (<usize>middle << 3)) <= value) low = middle + 1
    else high = middle
  }
  return low
}

/** Status 4: the value at sequence index `index` is `raw`, outside [0, n). */
export function valueRangeError(index: u32, raw: i64): i32 {
  store<u32>(SCRATCH, index)
  store<i64>(SCRATCH, raw, 8)
  return VALUE_RANGE_ERROR
}

// 128-bit arithmetic for exact sums: a two-word accumulator and a wide product.
let sumLow: u64 = 0
let sumHigh: u64 = 0

/** Loads the 128-bit sum from (and stores it to) two u64 at `at`. */
export function loadSum(at: usize): void {
  sumLow = load<u64>(at)
  sumHigh = load<u64>(at, 8)
}

export function storeSum(at: usize): void {
  store<u64>(at, sumLow)
  store<u64>(at, sumHigh, 8)
}
let productLow: u64 = 0
let productHigh: u64 = 0

/** productLow/High = a × b (unsigned 64 × 64 → 128). */
function multiplyWide(a: u64, b: u64): void {
  const a0 = a & 0xFFFF_FFFF, a1 = a >>> 32, b0 = b & 0xFFFF_FFFF, b1 = b >>> 32
  const p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1
  const middle = (p00 >>> 32) + (p01 & 0xFFFF_FFFF) + (p10 & 0xFFFF_FFFF)
  productLow = (p00 & 0xFFFF_FFFF) | (middle << 32)
  productHigh = p11 + (p01 >>> 32) + (p10 >>> 32) + (middle >>> 32)
}

/** sum += (low, high) as 128-bit two's complement. */
// @ts-ignore: decorator
@inline function add128(low: u64, high: u64): void {
  const next = sumLow + low
  sumHigh += high + <u64>(next < low)
  sumLow = next
}

/** sum += value (sign-extended). */
export function addSigned(value: i64): void {
  add128(<u64>value, value < 0 ? <u64>-1 : 0)
}

/** sum += a × b, a unsigned. */
export function addUnsignedProduct(a: u64, b: u64): void {
  multiplyWide(a, b)
  add128(productLow, productHigh)
}

/** sum += value × k (value signed, k unsigned): the unsigned product less k·2^64 when value < 0. */
export function addSignedTimes(value: i64, k: u64): void {
  multiplyWide(<u64>value, k)
  add128(productLow, value < 0 ? productHigh - k : productHigh)
}

/** Adds lanes 1-3 of a four-lane count area (rows of `row` bytes) into lane 0, for the n values. */
export function mergeLanes(area: usize, n: u32, row: usize): void {
  for (let v: u32 = 0; v < n; v++) {
    const at = area + (<usize>v << 2)
    store<u32>(at, load<u32>(at) + load<u32>(at + row) + load<u32>(at + 2 * row) + load<u32>(at + 3 * row))
  }
}
