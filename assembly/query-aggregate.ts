// aggregate: count, min, max and sum of the selected values.
//
// Integer mode sums exactly in 128 bits. A block whose fields cannot wrap
// (packedFits) adds k·base + g·Σu with Σu of its selected u32 fields summed by
// SIMD into i64 lanes, and takes min/max from the smallest and largest u; a
// table block counts its indexes and adds count × entry; a constant block
// adds k × base. Sortable mode converts each raw value to a double and adds in
// value order (as the TS backend does), so sums agree bit for bit.
//
// State (scratch, 48 bytes): f64 count, f64 sum, i64 min, i64 max, u64 sumLow, u64 sumHigh.
import {
  BLOCK_SHIFT, BLOCK_VALUES, KIND_CONSTANT, KIND_TABLE, OK, SCRATCH, recordAux, recordBase,
  recordDataOffset, recordKind, recordWidth, tableIndexError,
} from './common'
import {
  SEL_WORDS, TABLE_COUNTS, U_BUFFER, addSigned, addSignedTimes, addUnsignedProduct, blockRecord, blockTake, blockValues,
  countTableBlock, fields4, fields8, loadLimit, loadSelection, loadSum, packedFits, prepareUnpack, prepareUnpack16,
  selectedCount, simdWidth, storeSum, unpack16Mask, unpack16Multiplier, unpackMask, unpackMultiplier, unpackU32,
  valuesStatus, window16,
} from './query-common'

let seen: u64 = 0
let smallest: i64 = 0
let largest: i64 = 0
let sortableSum: f64 = 0
let uSum: u64 = 0
let uMin: u32 = 0xFFFF_FFFF
let uMax: u32 = 0

/** Counts k values whose least is low and greatest high. */
// @ts-ignore: decorator
@inline function extend(low: i64, high: i64, k: u64): void {
  if (seen == 0 || low < smallest) smallest = low
  if (seen == 0 || high > largest) largest = high
  seen += k
}

/** The selected u's of U_BUFFER[at, at + 32) (word: which), one at a time, into the scalar totals. */
// @ts-ignore: decorator
@inline function addSelectedU(at: u32, word: u32): void {
  while (word != 0) {
    const u = load<u32>(U_BUFFER + (<usize>(at + ctz(word)) << 2))
    word &= word - 1
    uSum += u
    uMin = min(uMin, u)
    uMax = max(uMax, u)
  }
}

/**
 * uSum, uMin, uMax over the selected u's of a packed block (width W ≤ 32).
 * SIMD widths: fully selected 32-value chunks on group boundaries unpack into
 * registers; sums gather in i32 lanes while they cannot overflow (W ≤ 24: at
 * most 256 values a lane per block), else widen to i64 lanes per vector.
 * Other chunks unpack to U_BUFFER and add one value at a time.
 */
function sumPacked(p: usize, from: u32, take: u32, W: u32): void {
  const to = from + take
  uSum = 0
  uMin = 0xFFFF_FFFF
  uMax = 0
  const chunks = (take + 31) >>> 5
  if (!simdWidth(W)) {
    unpackU32(p, from, to, W)
    for (let c: u32 = 0; c < chunks; c++) addSelectedU(from + (c << 5), load<u32>(SEL_WORDS + (<usize>c << 2)))
    return
  }
  if (window16(W)) {
    sumPacked16(p, from, take, W)
    return
  }
  prepareUnpack(W)
  const mask0 = unpackMask(0), mask1 = unpackMask(1)
  const mult0 = unpackMultiplier(0), mult1 = unpackMultiplier(1)
  const shift = 32 - W
  const h: usize = (4 * W) >>> 3
  const limit = loadLimit(p, to, W)
  const narrow = W <= 24
  let sums32 = i32x4.splat(0)
  let sums64 = i64x2.splat(0)
  let least = i32x4.splat(-1)
  let most = i32x4.splat(0)
  for (let c: u32 = 0; c < chunks; c++) {
    const word = load<u32>(SEL_WORDS + (<usize>c << 2))
    if (word == 0) continue
    const position = from + (c << 5)
    let q = p + <usize>(position >>> 3) * W
    if (word == 0xFFFF_FFFF && (position & 7) == 0 && q + 3 * W + h + 16 <= limit) {
      for (let g = 0; g < 4; g++, q += W) {
        const a = fields4(q, mask0, mult0, shift)
        const b = fields4(q + h, mask1, mult1, shift)
        least = i32x4.min_u(least, i32x4.min_u(a, b))
        most = i32x4.max_u(most, i32x4.max_u(a, b))
        if (narrow) {
          sums32 = i32x4.add(sums32, i32x4.add(a, b))
        } else {
          sums64 = i64x2.add(sums64, i64x2.add(i64x2.extend_low_i32x4_u(a), i64x2.extend_high_i32x4_u(a)))
          sums64 = i64x2.add(sums64, i64x2.add(i64x2.extend_low_i32x4_u(b), i64x2.extend_high_i32x4_u(b)))
        }
      }
      continue
    }
    unpackU32(p, position, min(position + 32, to), W)
    addSelectedU(position, word)
  }
  sums64 = i64x2.add(sums64, i64x2.add(i64x2.extend_low_i32x4_u(sums32), i64x2.extend_high_i32x4_u(sums32)))
  uSum += <u64>i64x2.extract_lane(sums64, 0) + <u64>i64x2.extract_lane(sums64, 1)
  uMin = min(uMin, min(min(<u32>i32x4.extract_lane(least, 0), <u32>i32x4.extract_lane(least, 1)),
    min(<u32>i32x4.extract_lane(least, 2), <u32>i32x4.extract_lane(least, 3))))
  uMax = max(uMax, max(max(<u32>i32x4.extract_lane(most, 0), <u32>i32x4.extract_lane(most, 1)),
    max(<u32>i32x4.extract_lane(most, 2), <u32>i32x4.extract_lane(most, 3))))
}

/**
 * sumPacked for widths whose fields fit 2-byte windows: a group of 8 is one
 * load, swizzle, 16-bit multiply and shift; min/max in u16 lanes; sums by
 * pairwise widening into i32 lanes (≤ 256 values of < 2^16 a lane per block).
 */
function sumPacked16(p: usize, from: u32, take: u32, W: u32): void {
  const to = from + take
  prepareUnpack16(W)
  const mask = unpack16Mask(), multiplier = unpack16Multiplier()
  const shift = 16 - W
  const limit = loadLimit(p, to, W)
  let sums = i32x4.splat(0)
  let least = i16x8.splat(-1)
  let most = i16x8.splat(0)
  const chunks = (take + 31) >>> 5
  for (let c: u32 = 0; c < chunks; c++) {
    const word = load<u32>(SEL_WORDS + (<usize>c << 2))
    if (word == 0) continue
    const position = from + (c << 5)
    let q = p + <usize>(position >>> 3) * W
    if (word == 0xFFFF_FFFF && (position & 7) == 0 && q + 3 * W + 16 <= limit) {
      for (let g = 0; g < 4; g++, q += W) {
        const v = fields8(q, mask, multiplier, shift)
        least = i16x8.min_u(least, v)
        most = i16x8.max_u(most, v)
        sums = i32x4.add(sums, i32x4.extadd_pairwise_i16x8_u(v))
      }
      continue
    }
    unpackU32(p, position, min(position + 32, to), W)
    addSelectedU(position, word)
  }
  uSum += <u64><u32>i32x4.extract_lane(sums, 0) + <u64><u32>i32x4.extract_lane(sums, 1)
    + <u64><u32>i32x4.extract_lane(sums, 2) + <u64><u32>i32x4.extract_lane(sums, 3)
  // Fold the 8 u16 lanes: halves against halves, three times.
  least = i16x8.min_u(least, i8x16.shuffle(least, least, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7))
  least = i16x8.min_u(least, i8x16.shuffle(least, least, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3))
  least = i16x8.min_u(least, i8x16.shuffle(least, least, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1))
  most = i16x8.max_u(most, i8x16.shuffle(most, most, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7))
  most = i16x8.max_u(most, i8x16.shuffle(most, most, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3))
  most = i16x8.max_u(most, i8x16.shuffle(most, most, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1))
  uMin = min(uMin, <u32>i16x8.extract_lane_u(least, 0))
  uMax = max(uMax, <u32>i16x8.extract_lane_u(most, 0))
}

/**
 * Selected raw values at `values` (the block's from position on) into the totals. Integers gather
 * in i64 locals, the low and the high 32 bits of each apart (at most 1,024 values: neither sum can
 * overflow), and join the 128-bit sum once a block; doubles add one at a time in value order.
 */
function addRaw(values: usize, take: u32, sortable: bool): void {
  const chunks = (take + 31) >>> 5
  if (sortable) {
    for (let c: u32 = 0; c < chunks; c++) {
      let word = load<u32>(SEL_WORDS + (<usize>c << 2))
      while (word != 0) {
        const raw = load<i64>(values + (<usize>((c << 5) + ctz(word)) << 3))
        word &= word - 1
        extend(raw, raw, 1)
        sortableSum += reinterpret<f64>(raw ^ ((raw >> 63) & 0x7FFF_FFFF_FFFF_FFFF))
      }
    }
    return
  }
  let lows: i64 = 0, highs: i64 = 0, least = i64.MAX_VALUE, most = i64.MIN_VALUE, k: u64 = 0
  // Whole chunks two values a vector (i64 lanes: sums of words, least and greatest by compare and select).
  const words = i64x2.splat(0xFFFF_FFFF)
  let lowLanes = i64x2.splat(0), highLanes = i64x2.splat(0), leastLanes = i64x2.splat(i64.MAX_VALUE), mostLanes = i64x2.splat(i64.MIN_VALUE)
  for (let c: u32 = 0; c < chunks; c++) {
    let word = load<u32>(SEL_WORDS + (<usize>c << 2))
    const at = values + (<usize>(c << 5) << 3)
    if (word == 0xFFFF_FFFF) {
      for (let j: usize = 0; j < 256; j += 16) {
        const v = v128.load(at + j)
        lowLanes = i64x2.add(lowLanes, v128.and(v, words))
        highLanes = i64x2.add(highLanes, i64x2.shr_s(v, 32))
        leastLanes = v128.bitselect(v, leastLanes, i64x2.lt_s(v, leastLanes))
        mostLanes = v128.bitselect(v, mostLanes, i64x2.gt_s(v, mostLanes))
      }
      k += 32
      continue
    }
    k += popcnt(word)
    while (word != 0) {
      const raw = load<i64>(at + (<usize>ctz(word) << 3))
      word &= word - 1
      lows += raw & 0xFFFF_FFFF
      highs += raw >> 32
      least = min(least, raw)
      most = max(most, raw)
    }
  }
  if (k == 0) return
  lows += i64x2.extract_lane(lowLanes, 0) + i64x2.extract_lane(lowLanes, 1)
  highs += i64x2.extract_lane(highLanes, 0) + i64x2.extract_lane(highLanes, 1)
  least = min(least, min(i64x2.extract_lane(leastLanes, 0), i64x2.extract_lane(leastLanes, 1)))
  most = max(most, max(i64x2.extract_lane(mostLanes, 0), i64x2.extract_lane(mostLanes, 1)))
  extend(least, most, k)
  addSigned(lows)
  addSignedTimes(highs, <u64>1 << 32)
}

/** A table block's selected values as doubles in value order (indexes in U_BUFFER; a bad selected one raises). */
function addTableSortable(p: usize, block: u32, from: u32, take: u32, entries: u32): i32 {
  const chunks = (take + 31) >>> 5
  for (let c: u32 = 0; c < chunks; c++) {
    let word = load<u32>(SEL_WORDS + (<usize>c << 2))
    while (word != 0) {
      const e = load<u32>(U_BUFFER + (<usize>(from + (c << 5) + ctz(word)) << 2))
      word &= word - 1
      if (e >= entries) return tableIndexError(block, e, entries)
      const raw = load<i64>(p + (<usize>e << 3))
      extend(raw, raw, 1)
      sortableSum += reinterpret<f64>(raw ^ ((raw >> 63) & 0x7FFF_FFFF_FFFF_FFFF))
    }
  }
  return OK
}

/**
 * Adds the selected values of [first, first + count) to the state in scratch
 * (mode 0: integers, 1: SortableBits doubles). Status 0 or 1 (table index);
 * on error the state in scratch is left as it was.
 */
export function queryAggregate(records: usize, data: usize, first: u32, count: u32, mode: i32, sel: usize, selStart: u32): i32 {
  const sortable = mode == 1
  seen = <u64>load<f64>(SCRATCH)
  sortableSum = load<f64>(SCRATCH, 8)
  smallest = load<i64>(SCRATCH, 16)
  largest = load<i64>(SCRATCH, 24)
  loadSum(SCRATCH + 32)
  const end = first + count
  for (let index = first, take: u32 = 0; index < end; index += take) {
    take = blockTake(index, end)
    if (loadSelection(sel, selStart + (index - first), take) == 0) continue
    const block = index >>> BLOCK_SHIFT, from = index & (BLOCK_VALUES - 1), record = blockRecord(records, block)
    const kind = recordKind(record)
    const base = recordBase(record)
    if (kind == KIND_CONSTANT) {
      const k = selectedCount(take)
      extend(base, base, k)
      if (sortable) {
        const value = reinterpret<f64>(base ^ ((base >> 63) & 0x7FFF_FFFF_FFFF_FFFF))
        for (let i: u32 = 0; i < k; i++) sortableSum += value
      } else {
        addSignedTimes(base, k)
      }
      continue
    }
    const W = recordWidth(record)
    const p = data + recordDataOffset(record)
    const aux = recordAux(record)
    if (sortable && kind == KIND_TABLE) {
      const entries = <u32>aux
      unpackU32(p + (<usize>entries << 3), from, from + take, W)
      const status = addTableSortable(p, block, from, take, entries)
      if (status != OK) return status
      continue
    }
    if (kind == KIND_TABLE) {
      const entries = <u32>aux
      const status = countTableBlock(p, block, from, take, W, entries)
      if (status != OK) return status
      for (let e: u32 = 0; e < entries; e++) {
        const k = load<u32>(TABLE_COUNTS + (<usize>e << 2))
        if (k == 0) continue
        const value = load<i64>(p + (<usize>e << 3))
        extend(value, value, k)
        addSignedTimes(value, k)
      }
      continue
    }
    if (!sortable && W <= 32 && packedFits(base, <u64>aux, W)) {
      sumPacked(p, from, take, W)
      const k = selectedCount(take)
      extend(base + aux * <i64>uMin, base + aux * <i64>uMax, k)
      addSignedTimes(base, k)
      addUnsignedProduct(<u64>aux, uSum)
      continue
    }
    const values = blockValues(record, data, block, from, take)
    if (values == 0) return valuesStatus
    addRaw(values, take, sortable)
  }
  store<f64>(SCRATCH, <f64>seen)
  store<f64>(SCRATCH, sortableSum, 8)
  store<i64>(SCRATCH, smallest, 16)
  store<i64>(SCRATCH, largest, 24)
  storeSum(SCRATCH + 32)
  return OK
}
