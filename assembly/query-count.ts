// countValues: counts[raw] += 1 per selected value (keyword ordinals, bools).
//
// Counts accumulate in an area of `lanes` sub-arrays of `stride` u32 each;
// position j of a block goes to sub-array j & 3 (with 4 lanes), so runs of one
// value do not wait on their own previous increment. A packed block whose
// bound base + g (2^W - 1) is below stride counts without per-value checks;
// values ≥ n then land in [n, stride) and are caught once per block. With at
// most 256 values, whole blocks of bytes count adjacent pairs instead (half the
// increments; see countPairs) when `pairs` names a 2^16-u32 table.
import {
  BLOCK_BUFFER, BLOCK_SHIFT, BLOCK_VALUES, KIND_CONSTANT, KIND_TABLE, OK, recordAux, recordBase, recordDataOffset,
  recordKind, recordWidth, tableIndexError,
} from './common'
import { decodeBlock } from './decode'
import {
  SEL_WORDS, TABLE_COUNTS, U_BUFFER, blockRecord, blockTake, bump, countTableBlock, firstSelected, loadSelection,
  blockValues, largestU16, largestU8, mergeLanes, packedBound, packedFits, selectedCount, selectionAll, unpackU32, valueRangeError,
  valuesStatus,
} from './query-common'

/** First selected position j of the block whose raw value is outside [0, n), from the raw values in BLOCK_BUFFER. */
function firstBadRaw(from: u32, take: u32, n: u32): u32 {
  const chunks = (take + 31) >>> 5
  for (let c: u32 = 0; c < chunks; c++) {
    let word = load<u32>(SEL_WORDS + (<usize>c << 2))
    while (word != 0) {
      const j = (c << 5) + ctz(word)
      word &= word - 1
      if (<u64>load<i64>(BLOCK_BUFFER + (<usize>j << 3)) >= <u64>n) return from + j
    }
  }
  return from
}

/** Any value of the block checked one at a time: raw values decoded, each tested against n. */
function countRaw(record: usize, data: usize, block: u32, from: u32, take: u32, area: usize, n: u32): i32 {
  const values = blockValues(record, data, block, from, take)
  if (values == 0) return valuesStatus
  const chunks = (take + 31) >>> 5
  for (let c: u32 = 0; c < chunks; c++) {
    let word = load<u32>(SEL_WORDS + (<usize>c << 2))
    while (word != 0) {
      const j = (c << 5) + ctz(word)
      word &= word - 1
      const raw = load<i64>(values + (<usize>j << 3))
      if (<u64>raw >= <u64>n) return valueRangeError((block << BLOCK_SHIFT) + from + j, raw)
      bump(area + (<usize>raw << 2), 1)
    }
  }
  return OK
}

/** A table block with some entry outside [0, n): selected values one at a time, index and value checked. */
function countTableChecked(p: usize, block: u32, from: u32, take: u32, entries: u32, area: usize, n: u32): i32 {
  const chunks = (take + 31) >>> 5
  for (let c: u32 = 0; c < chunks; c++) {
    let word = load<u32>(SEL_WORDS + (<usize>c << 2))
    while (word != 0) {
      const j = from + (c << 5) + ctz(word)
      word &= word - 1
      const e = load<u32>(U_BUFFER + (<usize>j << 2))
      if (e >= entries) return tableIndexError(block, e, entries)
      const raw = load<i64>(p + (<usize>e << 3))
      if (<u64>raw >= <u64>n) return valueRangeError((block << BLOCK_SHIFT) + j, raw)
      bump(area + (<usize>raw << 2), 1)
    }
  }
  return OK
}

/** Field j of the source: a byte or u16 of the packed data itself (W = 8, 16), else a u32 of U_BUFFER. */
// @ts-ignore: decorator
@inline function unitAt(source: usize, j: u32, W: u32): u32 {
  if (W == 8) return load<u8>(source + <usize>j)
  if (W == 16) return load<u16>(source + (<usize>j << 1))
  return load<u32>(source + (<usize>j << 2))
}

// Partly selected words: their selected units are first packed together (a swizzle per 8
// positions, from a table of the set bits' lanes per byte of the word), then counted over the
// lanes. Visiting set bits one by one instead mispredicts the loop's end about once a word.
/** Per byte mask m: the lanes of m's set bits, in order (8 bytes for u8 units, 16 for u16's byte pairs). */
const PACK8: usize = memory.data(256 * 8, 16)
const PACK16: usize = memory.data(256 * 16, 16)
/** Per 4-bit mask: the byte quads of its set u32 lanes. */
const PACK32: usize = memory.data(16 * 16, 16)
/** The packed units of a block (up to 1,024 u32, and a store's overhang). */
const PACKED: usize = memory.data(4 * (1024 + 8), 16)
/** Built on first use; instances sharing one memory (the worker pool) write the same bytes. */
let packTables = false

function preparePackTables(): void {
  for (let m: u32 = 0; m < 256; m++) {
    for (let i: u32 = 0, k: u32 = 0; i < 8; i++) {
      if (((m >>> i) & 1) == 0) continue
      store<u8>(PACK8 + (m << 3) + k, <u8>i)
      store<u16>(PACK16 + (m << 4) + (k << 1), <u16>((2 * i) | (2 * i + 1) << 8))
      if (m < 16) store<u32>(PACK32 + (m << 4) + (k << 2), (4 * i) * 0x0101_0101 + 0x0302_0100)
      k++
    }
  }
  packTables = true
}

/** The selected units of the 32 positions from j (selection `word`) appended at PACKED + n units; returns n after. */
// @ts-ignore: decorator
@inline function packUnits(source: usize, j: u32, word: u32, n: u32, W: u32): u32 {
  if (W == 32) {
    for (let b: u32 = 0; b < 32; b += 4) {
      const m = (word >>> b) & 15
      v128.store(PACKED + (<usize>n << 2), i8x16.swizzle(v128.load(source + (<usize>(j + b) << 2)), v128.load(PACK32 + (<usize>m << 4))))
      n += popcnt(m)
    }
    return n
  }
  for (let b: u32 = 0; b < 32; b += 8) {
    const m = (word >>> b) & 0xFF
    if (W == 8) {
      v128.store64_lane(PACKED + n, i8x16.swizzle(v128.load64_zero(source + <usize>(j + b)), v128.load64_zero(PACK8 + (<usize>m << 3))), 0)
    } else {
      v128.store(PACKED + (<usize>n << 1), i8x16.swizzle(v128.load(source + (<usize>(j + b) << 1)), v128.load(PACK16 + (<usize>m << 4))))
    }
    n += popcnt(m)
  }
  return n
}

/**
 * Selected u's counted at lane + (base + g·u) × 4, positions j of a fully
 * selected chunk spread over the 4 lanes (lanes = 1: all four are lane 0).
 */
// @ts-ignore: decorator
@inline function countUnits(source: usize, from: u32, take: u32, area: usize, stride: u32, lanes: u32, base: u32, g: u32, W: u32): void {
  const chunks = (take + 31) >>> 5
  const a0 = area + (<usize>base << 2)
  const step: usize = lanes == 4 ? <usize>stride << 2 : 0
  const a1 = a0 + step, a2 = a1 + step, a3 = a2 + step
  if (!packTables) preparePackTables()
  let n: u32 = 0
  for (let c: u32 = 0; c < chunks; c++) {
    let word = load<u32>(SEL_WORDS + (<usize>c << 2))
    const at = from + (c << 5)
    if (word == 0xFFFF_FFFF) {
      for (let j = at; j < at + 32; j += 4) {
        bump(a0 + (<usize>(unitAt(source, j, W) * g) << 2), 1)
        bump(a1 + (<usize>(unitAt(source, j + 1, W) * g) << 2), 1)
        bump(a2 + (<usize>(unitAt(source, j + 2, W) * g) << 2), 1)
        bump(a3 + (<usize>(unitAt(source, j + 3, W) * g) << 2), 1)
      }
      continue
    }
    if (word == 0) continue
    // Whole words packed (the loads stay inside the block's positions); a last part word bit by bit.
    if (c << 5 < (take & ~31)) {
      n = packUnits(source, at, word, n, W)
      continue
    }
    while (word != 0) {
      const j = at + ctz(word)
      word &= word - 1
      bump(a0 + (<usize>(unitAt(source, j, W) * g) << 2), 1)
    }
  }
  if (n == 0) return
  if (W == 8) countPacked8(n, a0, step, g)
  else if (W == 16) countPacked16(n, a0, step, g)
  else countPacked32(n, a0, step, g)
}

function countPacked8(n: u32, a0: usize, step: usize, g: u32): void { countPackedUnits(n, a0, step, g, 8) }
function countPacked16(n: u32, a0: usize, step: usize, g: u32): void { countPackedUnits(n, a0, step, g, 16) }
function countPacked32(n: u32, a0: usize, step: usize, g: u32): void { countPackedUnits(n, a0, step, g, 32) }

/** The n units at PACKED counted at lane + u·g × 4, over four lanes `step` bytes apart (0: one). */
// @ts-ignore: decorator
@inline function countPackedUnits(n: u32, a0: usize, step: usize, g: u32, W: u32): void {
  const a1 = a0 + step, a2 = a1 + step, a3 = a2 + step
  let i: u32 = 0
  for (; i + 4 <= n; i += 4) {
    bump(a0 + (<usize>(unitAt(PACKED, i, W) * g) << 2), 1)
    bump(a1 + (<usize>(unitAt(PACKED, i + 1, W) * g) << 2), 1)
    bump(a2 + (<usize>(unitAt(PACKED, i + 2, W) * g) << 2), 1)
    bump(a3 + (<usize>(unitAt(PACKED, i + 3, W) * g) << 2), 1)
  }
  for (; i < n; i++) bump(a0 + (<usize>(unitAt(PACKED, i, W) * g) << 2), 1)
}

/** A packed block's selected values counted without checks (its bound is below stride): bytes and u16 in place, else unpacked. */
function countPacked(p: usize, from: u32, take: u32, W: u32, area: usize, stride: u32, lanes: u32, base: u32, g: u32): void {
  // g = 1 (ordinals, bools) gets its own loops: without the multiply the increments run faster.
  if (W == 8) {
    if (g == 1) countUnits(p, from, take, area, stride, lanes, base, 1, 8)
    else countUnits(p, from, take, area, stride, lanes, base, g, 8)
  } else if (W == 16) {
    if (g == 1) countUnits(p, from, take, area, stride, lanes, base, 1, 16)
    else countUnits(p, from, take, area, stride, lanes, base, g, 16)
  } else {
    unpackU32(p, from, from + take, W)
    if (g == 1) countUnits(U_BUFFER, from, take, area, stride, lanes, base, 1, 32)
    else countUnits(U_BUFFER, from, take, area, stride, lanes, base, g, 32)
  }
}

/** The largest of fields [from, from + take) of width 8 or 16 at p, read in place (64 bytes a step, then 16). */
function largestField(p: usize, from: u32, take: u32, W: u32): u32 {
  const size: u32 = W >>> 3, at = p + <usize>(from * size), bytes = take * size
  let most = i8x16.splat(0), j: u32 = 0, largest: u32
  if (W == 8) {
    for (; j + 64 <= bytes; j += 64) {
      const q = at + j
      most = i8x16.max_u(most, i8x16.max_u(i8x16.max_u(v128.load(q), v128.load(q, 16)), i8x16.max_u(v128.load(q, 32), v128.load(q, 48))))
    }
    for (; j + 16 <= bytes; j += 16) most = i8x16.max_u(most, v128.load(at + j))
    largest = largestU8(most)
  } else {
    for (; j + 16 <= bytes; j += 16) most = i16x8.max_u(most, v128.load(at + j))
    largest = largestU16(most)
  }
  for (; j < bytes; j += size) largest = max(largest, W == 8 ? <u32>load<u8>(at + j) : <u32>load<u16>(at + j))
  return largest
}

/** largestField, or `largest` where the caller knows a bound on every field (a decoded view's extremes; -1: not known). */
@inline function mostField(p: usize, from: u32, take: u32, W: u32, largest: i32): u32 {
  return largest >= 0 ? <u32>largest : largestField(p, from, take, W)
}

/**
 * A whole block of bytes (W = 8, g = 1) whose values base + u are all below
 * n ≤ 256, counted two at a time: the u16 of two adjacent bytes plus
 * base·257 is the pair (v0, v1) itself, one increment per pair in a 2^16
 * table folded into the counts at the end. Half the read-modify-writes.
 */
export function countPairs(p: usize, offset: u32, pairs: usize): void {
  for (let q = p; q < p + 1024; q += 8) {
    bump(pairs + (<usize>(<u32>load<u16>(q) + offset) << 2), 1)
    bump(pairs + (<usize>(<u32>load<u16>(q, 2) + offset) << 2), 1)
    bump(pairs + (<usize>(<u32>load<u16>(q, 4) + offset) << 2), 1)
    bump(pairs + (<usize>(<u32>load<u16>(q, 6) + offset) << 2), 1)
  }
}

/** Adds pair counts into area: entry (v1 << 8 | v0) counts once for v0 and once for v1. */
export function foldPairs(pairs: usize, area: usize, n: u32): void {
  const columns = (n + 3) & ~3
  for (let high: u32 = 0; high < n; high++) {
    const row = pairs + (<usize>high << 10)
    let sums = i32x4.splat(0)
    for (let low: u32 = 0; low < columns; low += 4) {
      const counts = v128.load(row + (<usize>low << 2))
      sums = i32x4.add(sums, counts)
      const at = area + (<usize>low << 2)
      v128.store(at, i32x4.add(v128.load(at), counts))
    }
    const total = i32x4.extract_lane(sums, 0) + i32x4.extract_lane(sums, 1) + i32x4.extract_lane(sums, 2) + i32x4.extract_lane(sums, 3)
    bump(area + (<usize>high << 2), total)
  }
}

/**
 * counts over the run [first, first + count) into `lanes` (1 or 4) sub-arrays
 * of `stride` u32 at area (zeroed here; stride ≥ n), merged into the first at
 * the end; pairs: 0, or a table of 2^16 u32 for pair counting (n ≤ 256);
 * largest: a bound on every field of 8 or 16 bits, known to the caller (-1: each
 * block's fields are read for theirs). Status 0, 1 (table index) or 4 (value outside [0, n)).
 */
export function queryCountValues(
  records: usize, data: usize, first: u32, count: u32, sel: usize, selStart: u32,
  area: usize, n: u32, stride: u32, lanes: u32, pairs: usize, largest: i32,
): i32 {
  memory.fill(area, 0, <usize>lanes * stride << 2)
  let pairsUsed = false
  const end = first + count
  for (let index = first, take: u32 = 0; index < end; index += take) {
    take = blockTake(index, end)
    if (loadSelection(sel, selStart + (index - first), take) == 0) continue
    const block = index >>> BLOCK_SHIFT, from = index & (BLOCK_VALUES - 1), record = blockRecord(records, block)
    const kind = recordKind(record)
    const base = recordBase(record)
    if (kind == KIND_CONSTANT) {
      if (<u64>base >= <u64>n) return valueRangeError((block << BLOCK_SHIFT) + firstSelected(from, take), base)
      bump(area + (<usize>base << 2), selectedCount(take))
      continue
    }
    const W = recordWidth(record)
    const p = data + recordDataOffset(record)
    const aux = recordAux(record)
    if (kind == KIND_TABLE) {
      const entries = <u32>aux
      let entriesValid = true
      for (let e: u32 = 0; e < entries; e++) if (<u64>load<i64>(p + (<usize>e << 3)) >= <u64>n) entriesValid = false
      if (!entriesValid) {
        // Value order: the first selected value with a bad index or a bad entry is reported, as in the TS kernel.
        unpackU32(p + (<usize>entries << 3), from, from + take, W)
        const status = countTableChecked(p, block, from, take, entries, area, n)
        if (status != OK) return status
        continue
      }
      const status = countTableBlock(p, block, from, take, W, entries)
      if (status != OK) return status
      for (let e: u32 = 0; e < entries; e++) {
        const k = load<u32>(TABLE_COUNTS + (<usize>e << 2))
        if (k != 0) bump(area + (<usize>load<i64>(p + (<usize>e << 3)) << 2), k)
      }
      continue
    }
    const g = <u64>aux
    if (pairs != 0 && W == 8 && g == 1 && selectionAll && base >= 0 && <u64>base + mostField(p, 0, BLOCK_VALUES, 8, largest) < <u64>n) {
      if (!pairsUsed) memory.fill(pairs, 0, 65536 << 2)
      pairsUsed = true
      countPairs(p, <u32>base * 257, pairs)
      continue
    }
    let bound: i64 = -1
    if (W <= 32 && base >= 0 && packedFits(base, g, W)) {
      bound = packedBound(base, g, W)
      // A decoded view keeps each field at 8 or 16 bits whatever the values span (src/cascade/decoded-codes.ts):
      // there the block's largest field bounds it, not its width.
      if (bound >= <i64>stride && (W == 8 || W == 16)) bound = base + <i64>g * <i64>mostField(p, from, take, W, largest)
    }
    if (bound >= 0 && bound < <i64>stride) {
      countPacked(p, from, take, W, area, stride, lanes, <u32>base, <u32>g)
      if (<u32>bound >= n) {
        let stray: u32 = 0
        for (let lane: u32 = 0; lane < lanes; lane++) {
          const row = area + (<usize>(lane * stride) << 2)
          for (let v = n; v <= <u32>bound; v++) stray |= load<u32>(row + (<usize>v << 2))
        }
        if (stray != 0) {
          decodeBlock(record, data, block, from, from + take, BLOCK_BUFFER)
          const j = firstBadRaw(from, take, n)
          return valueRangeError((block << BLOCK_SHIFT) + j, load<i64>(BLOCK_BUFFER + (<usize>(j - from) << 3)))
        }
      }
      continue
    }
    const status = countRaw(record, data, block, from, take, area, n)
    if (status != OK) return status
  }
  if (pairsUsed) foldPairs(pairs, area, n)
  if (lanes == 4) mergeLanes(area, n, <usize>stride << 2)
  return OK
}
