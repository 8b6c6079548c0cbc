// matchRange: sets the output bit of each selected value with lo ≤ raw ≤ hi.
//
// Whole blocks are decided from their records where possible: a constant
// block, a packed block whose bound lies inside or outside [lo, hi], a table
// whose sorted entries all match. Otherwise the bounds move into the block's
// u space (packed u's, or table indexes: sorted entries make the matching
// indexes one range), the fields are unpacked to u32 and compared 32 at a
// time with SIMD into a bit mask that is anded with the selection.
import {
  BLOCK_SHIFT, BLOCK_VALUES, KIND_CONSTANT, KIND_TABLE, OK, SCRATCH, recordAux, recordBase,
  recordDataOffset, recordKind, recordWidth, tableIndexError,
} from './common'
import {
  SEL_WORDS, U_BUFFER, blockRecord, blockTake, blockValues, fields4, fields8, loadLimit, loadSelection, maskOf8, orBits,
  packedBound, packedFits, prepareUnpack, prepareUnpack16, rangeMask32, selectionAll, simdWidth, uAtLeast, uAtMost, unpack16Mask,
  unpack16Multiplier, unpackMask, unpackMultiplier, unpackU32, upperBound, valuesStatus, window16,
} from './query-common'
import { queryMatchBytes } from './cascade/query-decoded-bytes'

let matched: u32 = 0

/** Every selected position of the block matches. */
function acceptSelected(take: u32, out: usize, bit: u32): void {
  const chunks = (take + 31) >>> 5
  for (let c: u32 = 0; c < chunks; c++) {
    const word = load<u32>(SEL_WORDS + (<usize>c << 2))
    if (word == 0) continue
    orBits(out, bit + (c << 5), word)
    matched += popcnt(word)
  }
}

/**
 * Selected u's of U_BUFFER[from, from + take) in [ulo, uhi]. With entries > 0
 * (a table that does not use every index) selected indexes ≥ entries are
 * errors: returns the block position of the first, or 0xFFFFFFFF.
 */
function matchU32(from: u32, take: u32, ulo: u32, uhi: u32, entries: u32, out: usize, bit: u32): u32 {
  const chunks = (take + 31) >>> 5
  const lo = i32x4.splat(ulo)
  const span = i32x4.splat(uhi - ulo)
  const zero = i32x4.splat(0)
  const valid = i32x4.splat(entries - 1)
  for (let c: u32 = 0; c < chunks; c++) {
    const word = load<u32>(SEL_WORDS + (<usize>c << 2))
    if (word == 0) continue
    const at = U_BUFFER + (<usize>(from + (c << 5)) << 2)
    if (entries != 0) {
      const bad = ~rangeMask32(at, zero, valid) & word
      if (bad != 0) return from + (c << 5) + ctz(bad)
    }
    const mask = rangeMask32(at, lo, span) & word
    orBits(out, bit + (c << 5), mask)
    matched += popcnt(mask)
  }
  return 0xFFFF_FFFF
}

/** lo ≤ u ≤ lo + span per lane, as all-ones lanes. */
// @ts-ignore: decorator
@inline function inside(u: v128, lo: v128, span: v128): v128 {
  return i32x4.le_u(i32x4.sub(u, lo), span)
}

/** lo ≤ u ≤ lo + span per u16 lane. */
// @ts-ignore: decorator
@inline function inside16(u: v128, lo: v128, span: v128): v128 {
  return i16x8.le_u(i16x8.sub(u, lo), span)
}

/**
 * matchPacked for widths whose fields fit 2-byte windows: a 32-value chunk
 * is 4 groups, each one load, swizzle, 16-bit multiply and shift, compared
 * 8 lanes at a time.
 */
function matchPacked16(p: usize, from: u32, take: u32, W: u32, ulo: u32, uhi: u32, out: usize, bit: u32, extra: usize): void {
  const to = from + take
  prepareUnpack16(W)
  const mask = unpack16Mask(), multiplier = unpack16Multiplier()
  const shift = 16 - W
  const limit = loadLimit(p, to, W) + extra
  const lo16 = i16x8.splat(<i16>ulo), span16 = i16x8.splat(<i16>(uhi - ulo))
  const lo8 = i8x16.splat(<i8>ulo), span8 = i8x16.splat(<i8>(uhi - ulo))
  const lo = i32x4.splat(ulo), span = i32x4.splat(uhi - ulo)
  const chunks = (take + 31) >>> 5
  for (let c: u32 = 0; c < chunks; c++) {
    const word = load<u32>(SEL_WORDS + (<usize>c << 2))
    if (word == 0) continue
    const position = from + (c << 5)
    const q = p + <usize>(position >>> 3) * W
    let bits: u32
    if (W == 8 && position + 32 <= to) {
      // Bytes (keyword ordinals): 16 fields per compare, no unpacking.
      const low = i8x16.le_u(i8x16.sub(v128.load(p + position), lo8), span8)
      const high = i8x16.le_u(i8x16.sub(v128.load(p + position, 16), lo8), span8)
      bits = (<u32>i8x16.bitmask(low) | (<u32>i8x16.bitmask(high) << 16)) & word
    } else if (W == 16 && position + 32 <= to) {
      // u16 fields (decoded codes of up to 65,536 entries): 8 per compare, no unpacking.
      const at = p + (<usize>position << 1)
      const low = i8x16.narrow_i16x8_s(inside16(v128.load(at), lo16, span16), inside16(v128.load(at, 16), lo16, span16))
      const high = i8x16.narrow_i16x8_s(inside16(v128.load(at, 32), lo16, span16), inside16(v128.load(at, 48), lo16, span16))
      bits = (<u32>i8x16.bitmask(low) | (<u32>i8x16.bitmask(high) << 16)) & word
    } else if ((position & 7) == 0 && position + 32 <= to && q + 3 * W + 16 <= limit) {
      const q1 = q + W, q2 = q1 + W, q3 = q2 + W
      const low = i8x16.narrow_i16x8_s(
        inside16(fields8(q, mask, multiplier, shift), lo16, span16), inside16(fields8(q1, mask, multiplier, shift), lo16, span16))
      const high = i8x16.narrow_i16x8_s(
        inside16(fields8(q2, mask, multiplier, shift), lo16, span16), inside16(fields8(q3, mask, multiplier, shift), lo16, span16))
      bits = (<u32>i8x16.bitmask(low) | (<u32>i8x16.bitmask(high) << 16)) & word
    } else {
      unpackU32(p, position, min(position + 32, to), W)
      bits = rangeMask32(U_BUFFER + (<usize>position << 2), lo, span) & word
    }
    orBits(out, bit + (c << 5), bits)
    matched += popcnt(bits)
  }
}

/**
 * A packed block of a SIMD width: each 32-value chunk starting on a group
 * boundary is unpacked and compared in registers (no round trip through
 * U_BUFFER); other chunks (a partial last one, loads near the data's end,
 * a run starting inside a group) unpack to U_BUFFER first.
 */
function matchPacked(p: usize, from: u32, take: u32, W: u32, ulo: u32, uhi: u32, out: usize, bit: u32, extra: usize): void {
  const to = from + take
  prepareUnpack(W)
  const mask0 = unpackMask(0), mask1 = unpackMask(1)
  const mult0 = unpackMultiplier(0), mult1 = unpackMultiplier(1)
  const shift = 32 - W
  const h: usize = (4 * W) >>> 3
  const limit = loadLimit(p, to, W) + extra
  const lo = i32x4.splat(ulo)
  const span = i32x4.splat(uhi - ulo)
  const chunks = (take + 31) >>> 5
  for (let c: u32 = 0; c < chunks; c++) {
    const word = load<u32>(SEL_WORDS + (<usize>c << 2))
    if (word == 0) continue
    const position = from + (c << 5)
    const q = p + <usize>(position >>> 3) * W
    let mask: u32
    if ((position & 7) == 0 && position + 32 <= to && q + 3 * W + h + 16 <= limit) {
      const q1 = q + W, q2 = q1 + W, q3 = q2 + W
      mask = maskOf8(
        inside(fields4(q, mask0, mult0, shift), lo, span), inside(fields4(q + h, mask1, mult1, shift), lo, span),
        inside(fields4(q1, mask0, mult0, shift), lo, span), inside(fields4(q1 + h, mask1, mult1, shift), lo, span),
        inside(fields4(q2, mask0, mult0, shift), lo, span), inside(fields4(q2 + h, mask1, mult1, shift), lo, span),
        inside(fields4(q3, mask0, mult0, shift), lo, span), inside(fields4(q3 + h, mask1, mult1, shift), lo, span),
      ) & word
    } else {
      unpackU32(p, position, min(position + 32, to), W)
      mask = rangeMask32(U_BUFFER + (<usize>position << 2), lo, span) & word
    }
    orBits(out, bit + (c << 5), mask)
    matched += popcnt(mask)
  }
}

/**
 * Selected fields of a packed stream (p, width W ≤ 32, positions [from, from + take) of its
 * block, selection in SEL_WORDS) with ulo ≤ u ≤ uhi: their bits set in out from `bit`, counted
 * in `matched`; `extra` bytes after the fields may be read (more vector loads then stay in
 * registers).
 */
function matchFields(p: usize, from: u32, take: u32, W: u32, ulo: u32, uhi: u32, out: usize, bit: u32, extra: usize): void {
  if (window16(W)) matchPacked16(p, from, take, W, ulo, uhi, out, bit, extra)
  else if (simdWidth(W)) matchPacked(p, from, take, W, ulo, uhi, out, bit, extra)
  else {
    unpackU32(p, from, from + take, W)
    matchU32(from, take, ulo, uhi, 0, out, bit)
  }
}

/** matchFields for other kernels (a patched block's low fields): how many matched. */
export function matchPackedFields(p: usize, from: u32, take: u32, W: u32, ulo: u32, uhi: u32, out: usize, bit: u32, extra: usize): u32 {
  matched = 0
  matchFields(p, from, take, W, ulo, uhi, out, bit, extra)
  return matched
}

/** Raw values compared one by one (packed blocks whose u's do not fit u32 or might wrap). */
function matchRaw(record: usize, data: usize, block: u32, from: u32, take: u32, lo: i64, hi: i64, out: usize, bit: u32): i32 {
  const values = blockValues(record, data, block, from, take)
  if (values == 0) return valuesStatus
  // lo ≤ raw ≤ hi as one unsigned compare (lo ≤ hi here); no branch on the data, which it would mispredict.
  const span = <u64>(hi - lo)
  const low = i64x2.splat(lo), top = i64x2.splat(i64.MIN_VALUE), limit = i64x2.splat(<i64>span ^ i64.MIN_VALUE)
  const chunks = (take + 31) >>> 5
  for (let c: u32 = 0; c < chunks; c++) {
    const word = load<u32>(SEL_WORDS + (<usize>c << 2))
    if (word == 0) continue
    const at = values + (<usize>(c << 5) << 3), n = min<u32>(32, take - (c << 5))
    let mask: u32 = 0
    if (n == 32) {
      // Two values a vector: raw - lo ≤ span unsigned, as a signed compare with both sides' top bit flipped.
      for (let j: u32 = 0; j < 32; j += 2) {
        const x = v128.xor(i64x2.sub(v128.load(at + (<usize>j << 3)), low), top)
        mask |= <u32>i64x2.bitmask(i64x2.le_s(x, limit)) << j
      }
    } else {
      for (let j: u32 = 0; j < n; j++) mask |= <u32>(<u64>(load<i64>(at + (<usize>j << 3)) - lo) <= span) << j
    }
    mask &= word
    orBits(out, bit + (c << 5), mask)
    matched += popcnt(mask)
  }
  return OK
}

/** First index of the sorted table entries at p with entry ≥ value (entries when none). */
function lowerBound(p: usize, entries: u32, value: i64): u32 {
  let low: u32 = 0, high = entries
  while (low < high) {
    const middle = (low + high) >>> 1
    if (load<i64>(p + (<usize>middle << 3)) < value) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * Bits outStart + i of the bitset at out for the selected values first + i in
 * [lo, hi] (i64 at scratch+0 and scratch+8). Status 0 with the match count
 * (u32) at scratch+0, or 1 (table index).
 */
export function queryMatchRange(
  records: usize, data: usize, first: u32, count: u32, sel: usize, selStart: u32, out: usize, outStart: u32,
): i32 {
  const lo = load<i64>(SCRATCH)
  const hi = load<i64>(SCRATCH, 8)
  matched = 0
  // lo > hi: nothing to walk.
  const end = lo <= hi ? first + count : first
  for (let index = first, take: u32 = 0; index < end; index += take) {
    take = blockTake(index, end)
    if (loadSelection(sel, selStart + (index - first), take) == 0) continue
    const block = index >>> BLOCK_SHIFT, from = index & (BLOCK_VALUES - 1), record = blockRecord(records, block)
    const bit = outStart + (index - first)
    const kind = recordKind(record)
    const base = recordBase(record)
    if (kind == KIND_CONSTANT) {
      if (base >= lo && base <= hi) acceptSelected(take, out, bit)
      continue
    }
    const W = recordWidth(record)
    const p = data + recordDataOffset(record)
    const aux = recordAux(record)
    if (kind == KIND_TABLE) {
      const entries = <u32>aux
      const ulo = lowerBound(p, entries, lo)
      const uhi = upperBound(p, entries, hi)
      if (ulo >= uhi) continue
      if (ulo == 0 && uhi == entries) {
        acceptSelected(take, out, bit)
        continue
      }
      unpackU32(p + (<usize>entries << 3), from, from + take, W)
      const bad = matchU32(from, take, ulo, uhi - 1, entries == (<u32>1 << W) ? 0 : entries, out, bit)
      if (bad != 0xFFFF_FFFF) return tableIndexError(block, load<u32>(U_BUFFER + (<usize>bad << 2)), entries)
      continue
    }
    const g = <u64>aux
    if (packedFits(base, g, W)) {
      const bound = packedBound(base, g, W)
      if (hi < base || lo > bound) continue
      if (lo <= base && hi >= bound) {
        acceptSelected(take, out, bit)
        continue
      }
      if (W <= 32) {
        const umax: u64 = (<u64>1 << <u64>W) - 1
        const ulo = uAtLeast(lo, base, g)
        const uhi = min(uAtMost(hi, base, g), umax)
        if (ulo > uhi) continue
        if (W == 8 && selectionAll && (bit & 31) == 0) {
          // A whole block of bytes (keyword ordinals), every value wanted: 64 fields to two out words.
          matched += queryMatchBytes(p, take, <u32>ulo, <u32>uhi, out + (<usize>(bit >>> 5) << 2))
          continue
        }
        matchFields(p, from, take, W, <u32>ulo, <u32>uhi, out, bit, 0)
        continue
      }
    }
    const status = matchRaw(record, data, block, from, take, lo, hi, out, bit)
    if (status != OK) return status
  }
  store<u32>(SCRATCH, matched)
  return OK
}
