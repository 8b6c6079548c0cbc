// Term filters of many scattered terms over v1 blocks (format 1, and format 2's
// codes decoded once): each selected ordinal looked up in a byte per term
// (1: one of the terms), in one pass, where a pass per run of terms would walk
// the values once a run.
//
// Byte fields (blocks of at most 256 terms' ordinals, the common facet column)
// are looked up 16 at a time: the block's 256 possible ordinals (base + u) as
// a bit table of two vectors, indexed by each byte's low nibble, one bit per
// high nibble. Other blocks are decoded and their values looked up one by one.
// Any value outside [0, k) fails the call (-1): the caller then filters the
// decoding way, which names it (bits set before then are matches either way).
import { BLOCK_SHIFT, BLOCK_VALUES, KIND_PACKED, recordAux, recordBase, recordDataOffset, recordKind, recordWidth } from './common'
import { SEL_WORDS, blockRecord, blockTake, blockValues, loadSelection, orBits } from './query-common'

/** Bit tables of the loaded base: byte lo of the first vector has bit h set when ordinal base + (h << 4 | lo) is a member (h < 8); the second vector, h ≥ 8. */
const NIBBLE_TABLES: usize = memory.data(32, 16)
/** 1 << (h & 7) for each lane's high nibble h. */
const HIGH_BITS: usize = memory.data<u8>([1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128], 16)

/** The base NIBBLE_TABLES were made for (i64.MIN_VALUE: none yet this call). */
let tablesBase: i64 = i64.MIN_VALUE

/** NIBBLE_TABLES for the ordinals base + u, u < 256 (those from k on are no member). */
function makeTables(members: usize, k: u32, base: u32): void {
  v128.store(NIBBLE_TABLES, i64x2.splat(0))
  v128.store(NIBBLE_TABLES, i64x2.splat(0), 16)
  const last = min<u32>(255, k - 1 - base)
  for (let u: u32 = 0; u <= last; u++) {
    if (load<u8>(members + base + u) == 0) continue
    const at = NIBBLE_TABLES + (<usize>(u >>> 7) << 4) + (u & 15)
    store<u8>(at, <u32>load<u8>(at) | (<u32>1 << ((u >>> 4) & 7)))
  }
}

/** Member bits of 16 byte fields. */
// @ts-ignore: decorator
@inline function memberBits16(u: v128, low: v128, high: v128, bits: v128): u32 {
  const nibble = v128.and(u, i8x16.splat(15))
  // Lanes with the top bit set (high nibble ≥ 8) take the second table.
  const row = v128.bitselect(i8x16.swizzle(high, nibble), i8x16.swizzle(low, nibble), i8x16.lt_s(u, i8x16.splat(0)))
  const bit = i8x16.swizzle(bits, i8x16.shr_u(u, 4))
  return ~i8x16.bitmask(i8x16.eq(v128.and(row, bit), i8x16.splat(0))) & 0xFFFF
}

/**
 * Byte fields at p, positions [from, from + take) of a block of base `base` (0 ≤ base < k): the
 * selected members' bits into out from `bit`. How many matched, or -1 at a value ≥ k.
 */
function matchBytes(p: usize, from: u32, take: u32, base: u32, members: usize, k: u32, out: usize, bit: u32): i32 {
  if (<i64>base != tablesBase) {
    makeTables(members, k, base)
    tablesBase = base
  }
  const low = v128.load(NIBBLE_TABLES), high = v128.load(NIBBLE_TABLES, 16), bits = v128.load(HIGH_BITS)
  // u ≤ k - 1 - base: no check when every byte is.
  const largest = k - 1 - base
  const checked = largest < 255
  const limit = i8x16.splat(<i8>min<u32>(largest, 255))
  let matched: u32 = 0
  const chunks = (take + 31) >>> 5
  for (let c: u32 = 0; c < chunks; c++) {
    const word = load<u32>(SEL_WORDS + (<usize>c << 2))
    if (word == 0) continue
    const position = from + (c << 5)
    let mask: u32 = 0
    if (position + 32 <= from + take) {
      const u0 = v128.load(p + position), u1 = v128.load(p + position, 16)
      if (checked && (i8x16.bitmask(i8x16.gt_u(u0, limit)) | i8x16.bitmask(i8x16.gt_u(u1, limit))) != 0) return -1
      mask = (memberBits16(u0, low, high, bits) | (memberBits16(u1, low, high, bits) << 16)) & word
    } else {
      const n = from + take - position
      for (let j: u32 = 0; j < n; j++) {
        const u = <u32>load<u8>(p + position + j)
        if (u > largest) return -1
        mask |= <u32>load<u8>(members + base + u) << j
      }
      mask &= word
    }
    orBits(out, bit + (c << 5), mask)
    matched += popcnt(mask)
  }
  return matched
}

/** Decoded values of any block (positions [from, from + take)) looked up one by one: as matchBytes. */
function matchValues(values: usize, take: u32, members: usize, k: u32, out: usize, bit: u32): i32 {
  let matched: u32 = 0
  const chunks = (take + 31) >>> 5
  for (let c: u32 = 0; c < chunks; c++) {
    const word = load<u32>(SEL_WORDS + (<usize>c << 2))
    if (word == 0) continue
    const at = values + (<usize>(c << 5) << 3), n = min<u32>(32, take - (c << 5))
    let mask: u32 = 0
    for (let j: u32 = 0; j < n; j++) {
      const value = load<u64>(at + (<usize>j << 3))
      if (value >= <u64>k) return -1
      mask |= <u32>load<u8>(members + <usize>value) << j
    }
    mask &= word
    orBits(out, bit + (c << 5), mask)
    matched += popcnt(mask)
  }
  return matched
}

/**
 * Bits outStart + i of the bitset at out for the selected values first + i of a v1 sequence
 * whose member byte (members[value], k of them) is 1. How many matched, or -1: a value not in
 * [0, k), or a block that fails to decode.
 */
export function queryMatchOrdinals(
  records: usize, data: usize, first: u32, count: u32, members: usize, k: u32, sel: usize, selStart: u32, out: usize, outStart: u32,
): i32 {
  tablesBase = i64.MIN_VALUE
  let matched: u32 = 0
  const end = first + count
  for (let index = first, take: u32 = 0; index < end; index += take) {
    take = blockTake(index, end)
    if (loadSelection(sel, selStart + (index - first), take) == 0) continue
    const block = index >>> BLOCK_SHIFT, from = index & (BLOCK_VALUES - 1), record = blockRecord(records, block)
    const bit = outStart + (index - first)
    const base = recordBase(record)
    let found: i32
    if (recordKind(record) == KIND_PACKED && recordWidth(record) == 8 && recordAux(record) == 1 && base >= 0 && base < <i64>k) {
      found = matchBytes(data + recordDataOffset(record), from, take, <u32>base, members, k, out, bit)
    } else {
      const values = blockValues(record, data, block, from, take)
      if (values == 0) return -1
      found = matchValues(values, take, members, k, out, bit)
    }
    if (found < 0) return -1
    matched += <u32>found
  }
  return <i32>matched
}
