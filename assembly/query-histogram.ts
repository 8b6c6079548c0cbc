// histogram: counts[b] += 1 per selected value in [edge b, edge b + 1).
//
// Counts accumulate at area[upperBound(edges, v)]: slot 0 collects values
// below the first edge and slot E those at or after the last, so the buckets
// are slots 1..E-1 and no value needs a range test. A block whose whole span
// (constant; packed [base, bound]) falls in
// one slot adds its selected count at once. Otherwise the edges inside the
// span become thresholds in u space (u ≥ t ⇔ v ≥ edge): a few are counted
// with SIMD compares per threshold; more, where the fields span at most 2^13
// values, by counting each u and summing between thresholds (any number of
// edges); else by a branch-free search per value among the block's own. Many
// edges over values within 2^13 of each other count each value in that range
// for the whole call (query-histogram-range.ts).
import {
  BLOCK_SHIFT, BLOCK_VALUES, KIND_CONSTANT, KIND_TABLE, OK, recordAux, recordBase, recordDataOffset,
  recordKind, recordWidth,
} from './common'
import {
  SEL_WORDS, TABLE_COUNTS, U_BUFFER, blockRecord, blockTake, blockValues, bump, countTableBlock, loadSelection, packedBound,
  packedFits, valuesStatus, rangeMask32, selectedCount, selectionAll, uAtLeast, unpackU32, upperBound, largestU8, largestU16,
} from './query-common'
import { U_COUNT_BITS, U_COUNTS, countInRange, inRange, rangeFlush, rangeStart, takeCounts } from './query-histogram-range'

/** Thresholds in u space of the edges inside one packed block's span. */
const THRESHOLDS_CAPACITY: u32 = 1024
const THRESHOLDS: usize = memory.data(8 * 1024, 16)
/** Few enough thresholds to count with one SIMD pass each. */
const FEW_THRESHOLDS: u32 = 8

/** Selected u's at or above threshold t (u32 compare; t ≥ 2^32 matches nothing). */
function countAtLeast(from: u32, take: u32, t: u64): u32 {
  if (t > 0xFFFF_FFFF) return 0
  const lo = i32x4.splat(<u32>t)
  const span = i32x4.splat(0xFFFF_FFFF - <u32>t)
  const chunks = (take + 31) >>> 5
  let k: u32 = 0
  for (let c: u32 = 0; c < chunks; c++) {
    const word = load<u32>(SEL_WORDS + (<usize>c << 2))
    if (word == 0) continue
    k += popcnt(rangeMask32(U_BUFFER + (<usize>(from + (c << 5)) << 2), lo, span) & word)
  }
  return k
}

/**
 * Selected u's of U_BUFFER into slots slot0 + (thresholds ≤ u), m thresholds, the fields in
 * [low, low + span). Returns false (nothing counted) when the block needs the caller's general
 * path: more than a few thresholds over a span wider than 2^U_COUNT_BITS.
 */
function countBetween(from: u32, take: u32, m: u32, slot0: usize, low: u32, span: u64): bool {
  if (m <= FEW_THRESHOLDS) {
    // above = values with at least j thresholds below them; the slot j gets above(j) - above(j + 1).
    let above = selectedCount(take)
    for (let j: u32 = 0; j < m; j++) {
      const next = countAtLeast(from, take, load<u64>(THRESHOLDS + (<usize>j << 3)))
      bump(slot0 + (<usize>j << 2), above - next)
      above = next
    }
    bump(slot0 + (<usize>m << 2), above)
    return true
  }
  if (span > <u64>(1 << U_COUNT_BITS)) return false
  // Many thresholds: count each u, then sum the counts between thresholds (no search per value,
  // whose branches mispredict).
  const counts = countEachU(from, take, low, <u32>span)
  // Thresholds inside the span are below its end; the last slot runs to it.
  store<u64>(THRESHOLDS + (<usize>m << 3), <u64>low + span)
  let u: u32 = low
  for (let k: u32 = 0; k <= m; k++) {
    const threshold = <u32>load<u64>(THRESHOLDS + (<usize>k << 3))
    let sum: u32 = 0
    for (; u < threshold; u++) sum += load<u32>(counts + (<usize>u << 2))
    bump(slot0 + (<usize>k << 2), sum)
  }
  return true
}

/**
 * More edges than THRESHOLDS holds over a block of fields narrow enough to count (W ≤ U_COUNT_BITS,
 * unpacked to U_BUFFER): each u counted, then the counts below each edge's threshold, worked out as
 * the walk reaches it, added to that edge's slot (edges s0 .. s1 - 1 lie in the block's span).
 */
function countByEdges(from: u32, take: u32, W: u32, edges: usize, s0: u32, s1: u32, base: i64, g: u64, area: usize): void {
  const span: u32 = 1 << W
  const counts = countEachU(from, take, 0, span)
  let u: u32 = 0
  for (let k = s0; k <= s1; k++) {
    const t = k < s1 ? <u32>min(uAtLeast(load<i64>(edges + (<usize>k << 3)), base, g), <u64>span) : span
    let sum: u32 = 0
    for (; u < t; u++) sum += load<u32>(counts + (<usize>u << 2))
    bump(area + (<usize>k << 2), sum)
  }
}

/** The selected u's of U_BUFFER[from, from + take), all in [low, low + values), counted into U_COUNTS; returns U_COUNTS less low (indexed by u). */
function countEachU(from: u32, take: u32, low: u32, values: u32): usize {
  takeCounts(values)
  memory.fill(U_COUNTS, 0, <usize>values << 2)
  const counts = U_COUNTS - (<usize>low << 2)
  const chunks = (take + 31) >>> 5
  for (let c: u32 = 0; c < chunks; c++) {
    let word = load<u32>(SEL_WORDS + (<usize>c << 2))
    if (word == 0xFFFF_FFFF) {
      // A whole chunk selected (no filter, or a range of documents): no bit scan, whose exit branch mispredicts.
      for (let at = U_BUFFER + (<usize>(from + (c << 5)) << 2), end = at + 128; at < end; at += 4) bump(counts + (<usize>load<u32>(at) << 2), 1)
      continue
    }
    while (word != 0) {
      const j = from + (c << 5) + ctz(word)
      word &= word - 1
      bump(counts + (<usize>load<u32>(U_BUFFER + (<usize>j << 2)) << 2), 1)
    }
  }
  return counts
}

/** The least and largest field of a block (bufferExtremes, fieldExtremes), and the thresholds cutThresholds left out above the largest. */
let fieldLow: u32 = 0
let fieldHigh: u32 = 0
let dropped: u32 = 0

/**
 * The least and largest of U_BUFFER[from, from + take) to fieldLow and fieldHigh. A block's span
 * over-reaches its fields (a dictionary's decoded copy is 16 bits wide whatever its blocks hold),
 * and every edge inside the span costs a pass or a search per value: cutThresholds then keeps
 * the edges inside the fields.
 */
function bufferExtremes(from: u32, take: u32): void {
  let least = i32x4.splat(-1), most = i32x4.splat(0)
  const start = U_BUFFER + (<usize>from << 2), end = start + (<usize>take << 2)
  let at = start
  for (; at + 16 <= end; at += 16) {
    const u = v128.load(at)
    least = i32x4.min_u(least, u)
    most = i32x4.max_u(most, u)
  }
  let low = min(min(<u32>i32x4.extract_lane(least, 0), <u32>i32x4.extract_lane(least, 1)), min(<u32>i32x4.extract_lane(least, 2), <u32>i32x4.extract_lane(least, 3)))
  let high = max(max(<u32>i32x4.extract_lane(most, 0), <u32>i32x4.extract_lane(most, 1)), max(<u32>i32x4.extract_lane(most, 2), <u32>i32x4.extract_lane(most, 3)))
  for (; at < end; at += 4) {
    low = min(low, load<u32>(at))
    high = max(high, load<u32>(at))
  }
  fieldLow = low
  fieldHigh = high
}

/** fieldLow and fieldHigh of a whole block's 1,024 fields of W = 8 or 16 bits at p, read in place. */
function fieldExtremes(p: usize, W: u32): void {
  if (W == 8) {
    let least = i8x16.splat(-1), most = i8x16.splat(0)
    for (let at = p, end = p + BLOCK_VALUES; at < end; at += 16) {
      const u = v128.load(at)
      least = i8x16.min_u(least, u)
      most = i8x16.max_u(most, u)
    }
    fieldLow = 255 - largestU8(v128.not(least))
    fieldHigh = largestU8(most)
  } else {
    let least = i16x8.splat(-1), most = i16x8.splat(0)
    for (let at = p, end = p + 2 * BLOCK_VALUES; at < end; at += 16) {
      const u = v128.load(at)
      least = i16x8.min_u(least, u)
      most = i16x8.max_u(most, u)
    }
    fieldLow = 0xFFFF - largestU16(v128.not(least))
    fieldHigh = largestU16(most)
  }
}

/**
 * The m thresholds cut to those inside (fieldLow, fieldHigh]: those at or below the least field
 * (every value is past them; their count is returned) and those above the largest (no value
 * reaches them; their count in `dropped`) leave, the rest move to the front.
 */
function cutThresholds(m: u32): u32 {
  let below: u32 = 0, kept: u32 = 0
  for (let i: u32 = 0; i < m; i++) {
    const t = load<u64>(THRESHOLDS + (<usize>i << 3))
    if (t <= <u64>fieldLow) below++
    else if (t <= <u64>fieldHigh) {
      store<u64>(THRESHOLDS + (<usize>kept << 3), t)
      kept++
    }
  }
  dropped = m - below - kept
  return below
}

/**
 * countBetween's few-thresholds way over a whole block's fields of W = 8 or 16 bits read in place,
 * every value selected, the m thresholds (1 ≤ m ≤ FEW_THRESHOLDS) inside the fields: no unpack to u32
 * and a quarter or half of the vector work a pass.
 */
function countFieldsAtLeast(p: usize, W: u32, m: u32, slot0: usize): void {
  let above: u32 = BLOCK_VALUES
  for (let j: u32 = 0; j < m; j++) {
    // Below 2^W: cutThresholds kept those at most the largest field.
    const t = <u32>load<u64>(THRESHOLDS + (<usize>j << 3))
    let next: u32 = 0
    if (W == 8) {
      // Lanes count down by one per field at or above t: 64 vectors, so no lane passes 64.
      const limit = i8x16.splat(<i8>t)
      let tally = i8x16.splat(0)
      for (let at = p, end = p + BLOCK_VALUES; at < end; at += 16) tally = i8x16.add(tally, i8x16.ge_u(v128.load(at), limit))
      next = <u32>-i32x4.extract_lane(sumLanes(i16x8.extadd_pairwise_i8x16_s(tally)), 0)
    } else {
      const limit = i16x8.splat(<i16>t)
      let tally = i16x8.splat(0)
      for (let at = p, end = p + 2 * BLOCK_VALUES; at < end; at += 16) tally = i16x8.add(tally, i16x8.ge_u(v128.load(at), limit))
      next = <u32>-i32x4.extract_lane(sumLanes(tally), 0)
    }
    bump(slot0 + (<usize>j << 2), above - next)
    above = next
  }
  bump(slot0 + (<usize>m << 2), above)
}

/** The sum of a vector's eight i16 lanes in lane 0 of the i32 result. */
// @ts-ignore: decorator
@inline function sumLanes(x: v128): v128 {
  const pairs = i32x4.extadd_pairwise_i16x8_s(x)
  const halves = i32x4.add(pairs, i8x16.shuffle(pairs, pairs, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7))
  return i32x4.add(halves, i8x16.shuffle(halves, halves, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3))
}

/**
 * A block with at most take / 2^SPARSE_SHIFT values selected (a cross-filtered view) reads
 * only those fields, each placed by a binary search over the thresholds: unpacking the
 * block and the passes of countBetween cost more than the few values they serve.
 */
const SPARSE_SHIFT: u32 = 4

/** Selected u's of a packed block read one by one from p into slots slot0 + (thresholds ≤ u), m thresholds. */
function countSparse(p: usize, from: u32, take: u32, m: u32, slot0: usize, W: u32): void {
  const mask: u64 = (<u64>1 << <u64>W) - 1
  const chunks = (take + 31) >>> 5
  for (let c: u32 = 0; c < chunks; c++) {
    let word = load<u32>(SEL_WORDS + (<usize>c << 2))
    while (word != 0) {
      const bit = (from + (c << 5) + ctz(word)) * W
      word &= word - 1
      const u = (load<u64>(p + (bit >>> 3)) >>> <u64>(bit & 7)) & mask
      // Branch-free search (m ≥ 1): the thresholds ≤ u, without a mispredicted branch per step.
      let at = THRESHOLDS
      for (let n = m; n > 1; n -= n >>> 1) {
        const middle = at + (<usize>(n >>> 1) << 3)
        at = load<u64>(middle) <= u ? middle : at
      }
      bump(slot0 + (((at - THRESHOLDS) >>> 1) + (load<u64>(at) <= u ? 4 : 0)), 1)
    }
  }
}

/**
 * Raw values [0, take) at `values`, every one selected, into their slots: the edges inside the
 * values' least and largest, when at most FEW_THRESHOLDS, each counted by compares (two values a
 * vector). false (nothing counted) otherwise: a search per value then, whose branches mispredict
 * and whose counts wait on each other where values share a slot.
 */
function countRawValues(values: usize, take: u32, edges: usize, edgeCount: u32, area: usize): bool {
  if (selectedCount(take) != take) return false
  const pairs = take >>> 1
  let least = i64x2.splat(i64.MAX_VALUE), largest = i64x2.splat(i64.MIN_VALUE)
  for (let j: u32 = 0; j < pairs; j++) {
    const v = v128.load(values + (<usize>j << 4))
    least = v128.bitselect(v, least, i64x2.lt_s(v, least))
    largest = v128.bitselect(v, largest, i64x2.gt_s(v, largest))
  }
  let low = min(i64x2.extract_lane(least, 0), i64x2.extract_lane(least, 1))
  let high = max(i64x2.extract_lane(largest, 0), i64x2.extract_lane(largest, 1))
  if (take & 1) {
    const last = load<i64>(values + (<usize>(take - 1) << 3))
    low = min(low, last)
    high = max(high, last)
  }
  // Every value has s0 edges at or below it; the edges s0 .. s1 - 1 lie in (low, high].
  const s0 = upperBound(edges, edgeCount, low), s1 = upperBound(edges, edgeCount, high)
  if (s1 - s0 > FEW_THRESHOLDS) return false
  let above = take
  for (let e = s0; e < s1; e++) {
    const edge = i64x2.splat(load<i64>(edges + (<usize>e << 3)))
    // Lanes count down by one per value at or above the edge.
    let tally = i64x2.splat(0)
    for (let j: u32 = 0; j < pairs; j++) tally = i64x2.add(tally, i64x2.ge_s(v128.load(values + (<usize>j << 4)), edge))
    let next = <u32>-(i64x2.extract_lane(tally, 0) + i64x2.extract_lane(tally, 1))
    if ((take & 1) && load<i64>(values + (<usize>(take - 1) << 3)) >= load<i64>(edges + (<usize>e << 3))) next++
    bump(area + (<usize>e << 2), above - next)
    above = next
  }
  bump(area + (<usize>s1 << 2), above)
  return true
}

/**
 * Slot counts of the selected values of [first, first + count) into area
 * (edgeCount + 1 u32, zeroed here) for the i64 edges at `edges`. Status 0 or 1.
 */
export function queryHistogram(
  records: usize, data: usize, first: u32, count: u32, sel: usize, selStart: u32,
  edges: usize, edgeCount: u32, area: usize,
): i32 {
  memory.fill(area, 0, <usize>(edgeCount + 1) << 2)
  if (count == 0) return OK
  rangeStart(records, first, count, edges, edgeCount, area)
  const end = first + count
  for (let index = first, take: u32 = 0; index < end; index += take) {
    take = blockTake(index, end)
    if (loadSelection(sel, selStart + (index - first), take) == 0) continue
    const block = index >>> BLOCK_SHIFT, from = index & (BLOCK_VALUES - 1), record = blockRecord(records, block)
    const kind = recordKind(record)
    const base = recordBase(record)
    if (kind == KIND_CONSTANT) {
      bump(area + (<usize>upperBound(edges, edgeCount, base) << 2), selectedCount(take))
      continue
    }
    const W = recordWidth(record)
    const p = data + recordDataOffset(record)
    const aux = recordAux(record)
    if (kind == KIND_TABLE) {
      // Indexes are read even when every entry falls in one slot: a bad one raises, as in the TS kernel.
      const entries = <u32>aux
      const status = countTableBlock(p, block, from, take, W, entries)
      if (status != OK) return status
      for (let e: u32 = 0; e < entries; e++) {
        const k = load<u32>(TABLE_COUNTS + (<usize>e << 2))
        if (k != 0) bump(area + (<usize>upperBound(edges, edgeCount, load<i64>(p + (<usize>e << 3))) << 2), k)
      }
      continue
    }
    const g = <u64>aux
    if (packedFits(base, g, W)) {
      const s0 = upperBound(edges, edgeCount, base)
      const s1 = upperBound(edges, edgeCount, packedBound(base, g, W))
      if (s0 == s1) {
        bump(area + (<usize>s0 << 2), selectedCount(take))
        continue
      }
      // Whole blocks of byte or 16-bit fields, all selected (a dictionary's decoded copy), are read in place.
      const inPlace = (W == 8 || W == 16) && take == BLOCK_VALUES && selectionAll
      // Many edges among values close together: counted in the range (query-histogram-range.ts). Decided by the
      // edges between the block's own least and largest fields (its span over-reaches), which the paths below reuse.
      let prepared = false
      if (s1 - s0 > FEW_THRESHOLDS && W <= 32 && inRange(base) && selectedCount(take) > take >>> SPARSE_SHIFT) {
        if (inPlace) fieldExtremes(p, W)
        else {
          unpackU32(p, from, from + take, W)
          bufferExtremes(from, take)
        }
        prepared = true
        const inside = upperBound(edges, edgeCount, base + <i64>(g * <u64>fieldHigh)) - upperBound(edges, edgeCount, base + <i64>(g * <u64>fieldLow))
        if (inside > FEW_THRESHOLDS) {
          if (inPlace) unpackU32(p, from, from + take, W)
          if (countInRange(from, take, base, g, fieldHigh)) continue
        }
      }
      let m = s1 - s0
      if (W <= 32 && m < THRESHOLDS_CAPACITY) {
        for (let i: u32 = 0; i < m; i++) {
          const edge = load<i64>(edges + (<usize>(s0 + i) << 3))
          store<u64>(THRESHOLDS + (<usize>i << 3), uAtLeast(edge, base, g))
        }
        if (selectedCount(take) <= take >>> SPARSE_SHIFT) {
          countSparse(p, from, take, m, area + (<usize>s0 << 2), W)
          continue
        }
        if (inPlace) {
          if (!prepared) fieldExtremes(p, W)
        } else if (!prepared) {
          unpackU32(p, from, from + take, W)
          if (m > 1) bufferExtremes(from, take)
        }
        let slot0 = area + (<usize>s0 << 2), low: u32 = 0, span: u64 = <u64>1 << <u64>W
        if (inPlace || m > 1) {
          // Only the thresholds inside the block's own fields count.
          const skipped = cutThresholds(m)
          slot0 += <usize>skipped << 2
          m -= skipped + dropped
          if (m == 0) {
            bump(slot0, selectedCount(take))
            continue
          }
          low = fieldLow
          span = <u64>(fieldHigh - fieldLow) + 1
        }
        if (inPlace) {
          if (m <= FEW_THRESHOLDS) {
            countFieldsAtLeast(p, W, m, slot0)
            continue
          }
          unpackU32(p, from, from + take, W)
        }
        if (m > FEW_THRESHOLDS && countInRange(from, take, base, g, fieldHigh)) continue
        if (countBetween(from, take, m, slot0, low, span)) continue
        // Many thresholds over a wide span: a branch-free search per value among the block's own
        // thresholds, where a search over every edge mispredicts at each step.
        countSparse(p, from, take, m, slot0, W)
        continue
      }
      if (W <= U_COUNT_BITS) {
        unpackU32(p, from, from + take, W)
        countByEdges(from, take, W, edges, s0, s1, base, g, area)
        continue
      }
    }
    const values = blockValues(record, data, block, from, take)
    if (values == 0) return valuesStatus
    if (countRawValues(values, take, edges, edgeCount, area)) continue
    const chunks = (take + 31) >>> 5
    for (let c: u32 = 0; c < chunks; c++) {
      let word = load<u32>(SEL_WORDS + (<usize>c << 2))
      while (word != 0) {
        const j = (c << 5) + ctz(word)
        word &= word - 1
        bump(area + (<usize>upperBound(edges, edgeCount, load<i64>(values + (<usize>j << 3))) << 2), 1)
      }
    }
  }
  rangeFlush()
  return OK
}
