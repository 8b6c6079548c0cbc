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
  BLOCK_BUFFER, BLOCK_SHIFT, BLOCK_VALUES, KIND_CONSTANT, KIND_TABLE, OK, RECORD_BYTES, SCRATCH,
  recordAux, recordBase, recordDataOffset, recordKind, recordWidth, tableIndexError,
} from './common'
import { decodeBlock } from './decode'
import {
  SEL_WORDS, TABLE_COUNTS, U_BUFFER, addSigned, addSignedTimes, addUnsignedProduct, countTableIndexes, loadSelection,
  loadSum, packedFits, selectedCount, storeSum, unpackU32,
} from './query-common'

let seen: u64 = 0
let smallest: i64 = 0
let largest: i64 = 0
let sortableSum: f64 = 0
let uSum: u64 = 0
let uMin: u32 = 0
let uMax: u32 = 0

/** Counts k values whose least is low and greatest high. */
// @ts-ignore: decorator
@inline function extend(low: i64, high: i64, k: u64): void {
  if (seen == 0 || low < smallest) smallest = low
  if (seen == 0 || high > largest) largest = high
  seen += k
}

/** uSum, uMin, uMax over the selected u's of U_BUFFER (full chunks by SIMD). */
function sumU32(from: u32, take: u32): void {
  const chunks = (take + 31) >>> 5
  let sums = i64x2.splat(0)
  let least = i32x4.splat(-1)
  let most = i32x4.splat(0)
  let sum: u64 = 0
  let low: u32 = 0xFFFF_FFFF, high: u32 = 0
  for (let c: u32 = 0; c < chunks; c++) {
    let word = load<u32>(SEL_WORDS + (<usize>c << 2))
    const at = from + (c << 5)
    if (word == 0xFFFF_FFFF) {
      let u = U_BUFFER + (<usize>at << 2)
      const end = u + 128
      for (; u < end; u += 32) {
        const a = v128.load(u)
        const b = v128.load(u, 16)
        least = i32x4.min_u(least, i32x4.min_u(a, b))
        most = i32x4.max_u(most, i32x4.max_u(a, b))
        sums = i64x2.add(sums, i64x2.add(i64x2.extend_low_i32x4_u(a), i64x2.extend_high_i32x4_u(a)))
        sums = i64x2.add(sums, i64x2.add(i64x2.extend_low_i32x4_u(b), i64x2.extend_high_i32x4_u(b)))
      }
      continue
    }
    while (word != 0) {
      const j = at + ctz(word)
      word &= word - 1
      const u = load<u32>(U_BUFFER + (<usize>j << 2))
      sum += u
      low = min(low, u)
      high = max(high, u)
    }
  }
  sum += <u64>i64x2.extract_lane(sums, 0) + <u64>i64x2.extract_lane(sums, 1)
  low = min(low, min(min(i32x4.extract_lane(least, 0) as u32, i32x4.extract_lane(least, 1) as u32),
    min(i32x4.extract_lane(least, 2) as u32, i32x4.extract_lane(least, 3) as u32)))
  high = max(high, max(max(i32x4.extract_lane(most, 0) as u32, i32x4.extract_lane(most, 1) as u32),
    max(i32x4.extract_lane(most, 2) as u32, i32x4.extract_lane(most, 3) as u32)))
  uSum = sum
  uMin = low
  uMax = high
}

/** Selected raw values of BLOCK_BUFFER (decoded from position `from`), one at a time. */
function addRaw(take: u32, sortable: bool): void {
  const chunks = (take + 31) >>> 5
  for (let c: u32 = 0; c < chunks; c++) {
    let word = load<u32>(SEL_WORDS + (<usize>c << 2))
    while (word != 0) {
      const j = (c << 5) + ctz(word)
      word &= word - 1
      const raw = load<i64>(BLOCK_BUFFER + (<usize>j << 3))
      extend(raw, raw, 1)
      if (sortable) sortableSum += reinterpret<f64>(raw ^ ((raw >> 63) & 0x7FFF_FFFF_FFFF_FFFF))
      else addSigned(raw)
    }
  }
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
  let index = first
  while (index < end) {
    const block = index >>> BLOCK_SHIFT
    const from = index & (BLOCK_VALUES - 1)
    const take = min(end - index, BLOCK_VALUES - from)
    const bit = selStart + (index - first)
    index += take
    if (loadSelection(sel, bit, take) == 0) continue
    const record = records + <usize>block * RECORD_BYTES
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
    if (!sortable && kind == KIND_TABLE) {
      const entries = <u32>aux
      unpackU32(p + (<usize>entries << 3), from, from + take, W)
      const bad = countTableIndexes(from, take, W, entries)
      if (bad != 0xFFFF_FFFF) return tableIndexError(block, load<u32>(U_BUFFER + (<usize>bad << 2)), entries)
      for (let e: u32 = 0; e < entries; e++) {
        const k = load<u32>(TABLE_COUNTS + (<usize>e << 2))
        if (k == 0) continue
        const value = load<i64>(p + (<usize>e << 3))
        extend(value, value, k)
        addSignedTimes(value, k)
      }
      continue
    }
    if (!sortable && kind != KIND_TABLE && W <= 32 && packedFits(base, <u64>aux, W)) {
      unpackU32(p, from, from + take, W)
      sumU32(from, take)
      const k = selectedCount(take)
      extend(base + aux * <i64>uMin, base + aux * <i64>uMax, k)
      addSignedTimes(base, k)
      addUnsignedProduct(<u64>aux, uSum)
      continue
    }
    const status = decodeBlock(record, data, block, from, from + take, BLOCK_BUFFER)
    if (status != OK) return status
    addRaw(take, sortable)
  }
  store<f64>(SCRATCH, <f64>seen)
  store<f64>(SCRATCH, sortableSum, 8)
  store<i64>(SCRATCH, smallest, 16)
  store<i64>(SCRATCH, largest, 24)
  storeSum(SCRATCH + 32)
  return OK
}
