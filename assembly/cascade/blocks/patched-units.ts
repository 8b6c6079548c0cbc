// A whole patched block as u32 values in U_BUFFER, for the query kernels that
// count or match codes (query-decoded.ts): the low fields unpacked four at a
// time, each patch's high part added in place, then base + g × u by vectors.
// Only where every value the record allows fits a u32 (codes of sequence
// dictionaries, small integers), and only for positions a valid file writes:
// a list that does not strictly increase below n answers false, and the caller
// then takes the decoding path, which gives what reads give.
import { bitsOf, recordAux, recordBase, recordWidth } from '../../common'
import { U_BUFFER, fields8, loadLimit, prepareUnpack16, unpack16Mask, unpack16Multiplier, unpackU32 } from '../../query-common'
import { BLOCK_ENTRIES, COUNT_MASK, FORM_BLOCKS, KIND_PATCHED, LIST_FLAG, blocksData, blocksRecords, bytesOf, field, nodeCount, recordParam } from '../common'
import { positionsBytes } from './positions'
import { FIELD_WIDTHS, fieldWidths } from '../widths'
import { window16Mask, window16Multipliers } from '../../unpack-simd'

/**
 * For each byte b of a bitmap, 8 swizzle indexes: lane i takes the rank of bit i among b's set bits
 * below it (bit i set), or 0x80 (a zero lane). Filled on first use.
 */
const EXPAND: usize = memory.data(8 * 256, 16)
let expandReady = false

/** The EXPAND table (8 swizzle indexes per bitmap byte), filled on first use. */
export function expandTable(): usize {
  if (!expandReady) prepareExpand()
  return EXPAND
}

function prepareExpand(): void {
  for (let b: u32 = 0; b < 256; b++) {
    for (let i: u32 = 0; i < 8; i++) {
      store<u8>(EXPAND + (<usize>b << 3) + i, ((b >>> i) & 1) != 0 ? <u8>popcnt<u32>(b & ((1 << i) - 1)) : 0x80)
    }
  }
  expandReady = true
}

/** Fields [0, e) of hw ≤ 8 bits at highs to bytes in BLOCK_ENTRIES, then 32 zero bytes. */
export function stageHighs(highs: usize, e: u32, hw: u32): void {
  fieldBytes(highs, e, hw, BLOCK_ENTRIES, loadLimit(highs, e, hw))
  // A swizzle near the last rank loads 8 bytes from it: they are zero.
  v128.store(BLOCK_ENTRIES + e, i8x16.splat(0))
  v128.store(BLOCK_ENTRIES + e, i8x16.splat(0), 16)
}

/**
 * Fields [0, count) of width w ≤ 8 at p to bytes at out: 16 a step from u16 lanes (fields8), up to
 * 15 bytes past them written too. `limit`: the first byte a step's 16-byte loads may not reach (at
 * least loadLimit's: the fields' end and the 8 bytes after them, data or padding).
 */
export function fieldBytes(p: usize, count: u32, w: u32, out: usize, limit: usize): void {
  fieldLanes(p, count, w, out, limit, false)
}

/** Fields [0, count) of width w ≤ 8 at p to u16 at out: 8 a step (fields8), up to 7 u16 past them written too; `limit` as fieldBytes'. */
export function fieldHalves(p: usize, count: u32, w: u32, out: usize, limit: usize): void {
  fieldLanes(p, count, w, out, limit, true)
}

/** A copy of a run's last fields (at most 16 bytes), with room after them for their steps' loads. */
const TAIL: usize = memory.data(48, 16)

/** fieldBytes (halves false) or fieldHalves (true). */
function fieldLanes(p: usize, count: u32, w: u32, out: usize, limit: usize, halves: bool): void {
  if (w == 0) {
    memory.fill(out, 0, halves ? <usize>count << 1 : <usize>count)
    return
  }
  const i = laneSteps(p, count, w, out, limit, halves)
  if (i < count) {
    // The steps stop less than 16 bytes before the fields' end (by count, or by a limit at least
    // loadLimit's): those bytes, copied where loads may pass them, take steps too.
    const q = p + ((<usize>i * w) >>> 3), rest = ((count - i) * w + 7) >>> 3
    store<u64>(TAIL, load<u64>(q))
    if (rest > 8) store<u64>(TAIL, load<u64>(q + 8), 8)
    const left = count - i
    laneSteps(TAIL, halves ? (left + 7) & ~7 : (left + 15) & ~15, w, halves ? out + (<usize>i << 1) : out + i, TAIL + 48, halves)
  }
}

/** Steps of 16 fields (8 for halves) of width w (1..8) while loads stay below limit: per width in Node's build, generic in browsers'; returns the fields written. */
function laneSteps(p: usize, count: u32, w: u32, out: usize, limit: usize, halves: bool): u32 {
  if (FIELD_WIDTHS) return fieldWidths(p, count, out, limit, w, halves)
  prepareUnpack16(w)
  const mask = unpack16Mask(), multiplier = unpack16Multiplier(), shift = 16 - <i32>w
  let i: u32 = 0
  if (halves) {
    for (let q = p; i + 8 <= count && q + 16 <= limit; i += 8, q += <usize>w) v128.store(out + (<usize>i << 1), fields8(q, mask, multiplier, shift))
  } else {
    for (let q = p; i + 16 <= count && q + <usize>w + 16 <= limit; i += 16, q += <usize>(2 * w)) {
      v128.store(out + i, i8x16.narrow_i16x8_u(fields8(q, mask, multiplier, shift), fields8(q + w, mask, multiplier, shift)))
    }
  }
  return i
}

/**
 * fieldLanes' vector steps for a literal width W (1..8): its masks and multipliers are then
 * constants, which spares V8 an instruction per swizzle (widths.ts has an instance per width).
 * Returns the fields written.
 */
// @ts-ignore: decorator
@inline export function fieldSteps(p: usize, count: u32, out: usize, limit: usize, W: u32, halves: bool): u32 {
  const mask = window16Mask(W), multiplier = window16Multipliers(W)
  let i: u32 = 0
  if (halves) {
    for (let q = p; i + 8 <= count && q + 16 <= limit; i += 8, q += <usize>W) v128.store(out + (<usize>i << 1), fields8(q, mask, multiplier, 16 - W))
  } else {
    for (let q = p; i + 16 <= count && q + <usize>W + 16 <= limit; i += 16, q += <usize>(2 * W)) {
      v128.store(out + i, i8x16.narrow_i16x8_u(fields8(q, mask, multiplier, 16 - W), fields8(q + W, mask, multiplier, 16 - W)))
    }
  }
  return i
}

/**
 * Adds the staged high parts (stageHighs) to U_BUFFER by the bitmap of n bits (a multiple of 8,
 * with exactly e set): for each bitmap byte, its next high parts spread to its set positions by
 * one swizzle, widened to u32 and shifted by lw. No branch per patch.
 */
function addStagedHighs(positions: usize, n: u32, lw: u32): void {
  if (!expandReady) prepareExpand()
  let rank: u32 = 0
  for (let at: u32 = 0; at < n; at += 8) {
    const b = <u32>load<u8>(positions + (<usize>at >>> 3))
    const spread = i8x16.swizzle(v128.load64_zero(BLOCK_ENTRIES + rank), v128.load64_zero(EXPAND + (<usize>b << 3)))
    const halves = i16x8.extend_low_i8x16_u(spread)
    const o = U_BUFFER + (<usize>at << 2)
    v128.store(o, i32x4.add(v128.load(o), i32x4.shl(i32x4.extend_low_i16x8_u(halves), lw)))
    v128.store(o, i32x4.add(v128.load(o, 16), i32x4.shl(i32x4.extend_high_i16x8_u(halves), lw)), 16)
    rank += popcnt<u32>(b)
  }
}

/** Set bits of the bitmap's n bits (the bits past n in its last word are not its). */
export function bitmapCount(positions: usize, n: u32): u32 {
  let count: u32 = 0
  for (let at: u32 = 0; at < n; at += 64) {
    let bits = load<u64>(positions + (<usize>at >>> 3))
    if (n - at < 64) bits &= (<u64>1 << <u64>(n - at)) - 1
    count += <u32>popcnt<u64>(bits)
  }
  return count
}

/**
 * Whether every value base + g × u with u of `bits` bits fits a u32 (base ≥ 0, g ≥ 1): the
 * record's bound, base + g (2^bits - 1), below 2^32 (g < 2^32 keeps the product exact).
 */
export function unitsFit(base: i64, g: i64, bits: u32): bool {
  if (bits > 32 || base < 0 || base > 0xFFFF_FFFF || g < 1 || g > 0xFFFF_FFFF) return false
  return <u64>base + <u64>g * ((<u64>1 << <u64>bits) - 1) <= 0xFFFF_FFFF
}

/**
 * Values [0, n) of the patched block (record, data at p) to U_BUFFER as u32; false (U_BUFFER
 * then means nothing) when a value could pass 2^32 - 1 or the positions are not a valid file's.
 */
export function patchedUnits(record: usize, p: usize, n: u32): bool {
  const param = recordParam(record), e = param & COUNT_MASK, list = (param & LIST_FLAG) != 0
  const lw = recordWidth(record), hw: u32 = load<u8>(p), pw = bitsOf(<u64>(n - 1))
  const base = recordBase(record), g = recordAux(record)
  if (!unitsFit(base, g, lw + hw)) return false
  const lows = p + 1, positions = lows + bytesOf(n, lw), highs = positions + positionsBytes(list, e, n, pw)
  // A bitmap with exactly e bits and high parts of at most 8 bits (codes mostly): by bytes.
  if (!list && hw <= 8 && (n & 7) == 0 && bitmapCount(positions, n) == e) {
    stageHighs(highs, e, hw)
    unpackU32(lows, 0, n, lw)
    addStagedHighs(positions, n, lw)
  } else if (list) {
    unpackU32(lows, 0, n, lw)
    let previous: i32 = -1
    for (let rank: u32 = 0; rank < e; rank++) {
      const j = <u32>field(positions, rank, pw)
      if (<i32>j <= previous || j >= n) return false
      previous = <i32>j
      const o = U_BUFFER + (<usize>j << 2)
      store<u32>(o, load<u32>(o) + (<u32>field(highs, rank, hw) << lw))
    }
  } else {
    unpackU32(lows, 0, n, lw)
    // Bits past the e-th name no patch; the last word's bits past n are not the bitmap's.
    let rank: u32 = 0
    for (let at: u32 = 0; at < n && rank < e; at += 64) {
      let bits = load<u64>(positions + (<usize>at >>> 3))
      if (n - at < 64) bits &= (<u64>1 << <u64>(n - at)) - 1
      for (; bits != 0 && rank < e; rank++) {
        const o = U_BUFFER + (<usize>(at + <u32>ctz<u64>(bits)) << 2)
        bits &= bits - 1
        store<u32>(o, load<u32>(o) + (<u32>field(highs, rank, hw) << lw))
      }
    }
  }
  if (base != 0 || g != 1) {
    const b = i32x4.splat(<i32>base), m = i32x4.splat(<i32>g)
    for (let o = U_BUFFER; o < U_BUFFER + (<usize>n << 2); o += 16) v128.store(o, i32x4.add(b, i32x4.mul(v128.load(o), m)))
  }
  return true
}

/** The largest of the first n (a multiple of 16) u32 of U_BUFFER. */
export function largestUnit(n: u32): u32 {
  let most = i32x4.splat(0)
  for (let o = U_BUFFER; o < U_BUFFER + (<usize>n << 2); o += 64) {
    most = i32x4.max_u(most, i32x4.max_u(v128.load(o), v128.load(o, 16)))
    most = i32x4.max_u(most, i32x4.max_u(v128.load(o, 32), v128.load(o, 48)))
  }
  most = i32x4.max_u(most, v128.shuffle<u32>(most, most, 2, 3, 0, 1))
  most = i32x4.max_u(most, v128.shuffle<u32>(most, most, 1, 0, 1, 0))
  return i32x4.extract_lane(most, 0)
}

/**
 * Whether block index / 1,024 of the node is a whole patched block whose values, put in U_BUFFER
 * as u32, all lie below n: then kernels use them with no check (patchedUnits).
 */
export function wholePatched(node: usize, index: u32, n: u32): bool {
  if (<u32>load<u8>(node) != FORM_BLOCKS || nodeCount(node) - index < 1024) return false
  const record = blocksRecords(node) + <usize>(index >>> 10) * 24
  if (<u32>load<u8>(record) != KIND_PATCHED) return false
  return patchedUnits(record, blocksData(node) + <usize>load<u32>(record, 4), 1024) && largestUnit(1024) < n
}
