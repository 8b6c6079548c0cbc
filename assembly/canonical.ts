// The full check's block test: decode each block and recompute the record a
// flush would write for its values, exactly as chooseBlock does in
// src/write/block-encoder.ts (docs/format.md §6.2):
//   1. all values equal → constant (width 0, base = the value, aux 0);
//   2. packed: base = min, g = gcd of (v - min) as u64, width = bits((max - min) / g);
//   3. table instead iff 2 ≤ k ≤ 256 distinct values, bits(max - min) > 8 and
//      8k + ceil(n · bits(k - 1) / 8) < ceil(n · width / 8).
import {
  BLOCK_BUFFER, BLOCK_SHIFT, BLOCK_VALUES, KIND_CONSTANT, KIND_PACKED, KIND_TABLE, OK, RECORD_BYTES, SCRATCH,
  bitsOf, recordAux, recordBase, recordKind, recordWidth, unitsOf,
} from './common'
import { decodeBlock } from './decode'

// Open-addressing set of up to 257 distinct values (load ≤ 1/4), emptied by a
// generation stamp per block rather than by clearing 12 KiB.
const SET_SLOTS: u32 = 1024
const SET_KEYS: usize = memory.data(8 * 1024, 16)
const SET_STAMPS: usize = memory.data(4 * 1024, 16)
let stamp: u32 = 0

/** Distinct values among the n at values, or limit + 1 as soon as there are more than limit. */
function countDistinct(values: usize, n: u32, limit: u32): u32 {
  stamp++
  if (stamp == 0) {
    // 2^32 blocks later the stamps wrap: old slots would look current.
    memory.fill(SET_STAMPS, 0, <usize>SET_SLOTS << 2)
    stamp = 1
  }
  let distinct: u32 = 0
  let previous: i64 = 0
  for (let j: u32 = 0; j < n; j++) {
    const v = load<i64>(values + (<usize>j << 3))
    // Runs of one value (common in sorted or low-cardinality data) skip the hash.
    if (j != 0 && v == previous) continue
    previous = v
    let slot = <u32>((<u64>v * 0x9E3779B97F4A7C15) >>> 54)
    while (true) {
      const stampAt = SET_STAMPS + (<usize>slot << 2)
      if (load<u32>(stampAt) != stamp) {
        if (distinct == limit) return limit + 1
        store<u32>(stampAt, stamp)
        store<i64>(SET_KEYS + (<usize>slot << 3), v)
        distinct++
        break
      }
      if (load<i64>(SET_KEYS + (<usize>slot << 3)) == v) break
      slot = (slot + 1) & (SET_SLOTS - 1)
    }
  }
  return distinct
}

function gcd(a: u64, b: u64): u64 {
  while (b != 0) {
    const rest = a % b
    a = b
    b = rest
  }
  return a
}

/**
 * gcd of the n differences v - min (u64, wrapping), given range = max - min ≠ 0,
 * itself one of them. Divisibility by the running g = o · 2^t (o odd) is tested
 * without a division: d is a multiple iff rotr(d · o⁻¹ mod 2^64, t) ≤ (2^64 - 1) / g
 * (Hacker's Delight 10-17), so only a difference that lowers g costs a gcd.
 */
function gcdOfDifferences(values: usize, n: u32, min: i64, range: u64): u64 {
  let g = range
  let shift = ctz<u64>(g)
  let inverse = oddInverse(g >> shift)
  let limit = <u64>-1 / g
  for (let j: u32 = 0; j < n; j++) {
    const d = <u64>(load<i64>(values + (<usize>j << 3)) - min)
    if (rotr<u64>(d * inverse, shift) <= limit) continue
    g = gcd(g, d)
    if (g == 1) break
    shift = ctz<u64>(g)
    inverse = oddInverse(g >> shift)
    limit = <u64>-1 / g
  }
  return g
}

/** o⁻¹ mod 2^64 for odd o by Newton's iteration (each step doubles the correct bits: 3 → 96). */
function oddInverse(o: u64): u64 {
  let x = o // o · o ≡ 1 (mod 8)
  x *= 2 - o * x
  x *= 2 - o * x
  x *= 2 - o * x
  x *= 2 - o * x
  x *= 2 - o * x
  return x
}

/** Table bytes for k entries over n values: 8k + ceil(n · bits(k - 1) / 8). */
// @ts-ignore: decorator
@inline function tableBytes(k: u32, n: u32): u32 {
  return 8 * k + ((n * bitsOf(<u64>(k - 1)) + 7) >> 3)
}

/**
 * The canonical record of the n values at values into SCRATCH (u32 kind, u32
 * width, i64 base, i64 aux) and the block's signed min and max into minMax.
 */
function canonicalRecord(values: usize, n: u32, minMax: usize): void {
  let min = load<i64>(values)
  let max = min
  for (let j: u32 = 1; j < n; j++) {
    const v = load<i64>(values + (<usize>j << 3))
    min = v < min ? v : min
    max = v > max ? v : max
  }
  store<i64>(minMax, min)
  store<i64>(minMax, max, 8)
  store<i64>(SCRATCH, min, 8)
  if (min == max) {
    store<u32>(SCRATCH, KIND_CONSTANT)
    store<u32>(SCRATCH, 0, 4)
    store<i64>(SCRATCH, 0, 16)
    return
  }
  const range = <u64>(max - min)
  const rangeBits = bitsOf(range)
  const g = gcdOfDifferences(values, n, min, range)
  const width = g == 1 ? rangeBits : bitsOf(range / g)
  if (rangeBits > 8) {
    // Tables only shrink as k falls (tableBytes grows with k): find the largest k
    // whose table still beats the packed form, then count distinct values up to it.
    const packedBytes = (n * width + 7) >> 3
    if (tableBytes(2, n) < packedBytes) {
      let low: u32 = 2 // tableBytes(low) < packedBytes
      let high: u32 = 257 // tableBytes(high) ≥ packedBytes, or beyond the 256 entries
      if (tableBytes(256, n) < packedBytes) low = 256
      while (high - low > 1) {
        const middle = (low + high) >> 1
        if (tableBytes(middle, n) < packedBytes) low = middle
        else high = middle
      }
      const k = countDistinct(values, n, low)
      if (k <= low) { // k ≥ 2: min ≠ max
        store<u32>(SCRATCH, KIND_TABLE)
        store<u32>(SCRATCH, bitsOf(<u64>(k - 1)), 4)
        store<i64>(SCRATCH, <i64>k, 16)
        return
      }
    }
  }
  store<u32>(SCRATCH, KIND_PACKED)
  store<u32>(SCRATCH, width, 4)
  store<i64>(SCRATCH, <i64>g, 16)
}

/** The block's signed min and max, from canonicalRecord. */
const BLOCK_MIN_MAX: usize = memory.data(16, 16)

/**
 * Checks every block of a sequence against its canonical record. Returns -1 when
 * all are canonical, else the first non-canonical block with the canonical
 * record in SCRATCH; -2 on a table index error (SCRATCH as for status 1).
 * The signed min and max of the values scanned go to out and out + 8.
 */
export function checkCanonical(records: usize, data: usize, count: u32, out: usize): i32 {
  let sequenceMin = i64.MAX_VALUE
  let sequenceMax = i64.MIN_VALUE
  let result: i32 = -1
  const blocks = unitsOf(count, BLOCK_SHIFT)
  for (let block: u32 = 0; block < blocks; block++) {
    const n = min(count - (block << BLOCK_SHIFT), BLOCK_VALUES)
    const record = records + <usize>block * RECORD_BYTES
    if (decodeBlock(record, data, block, 0, n, BLOCK_BUFFER) != OK) {
      result = -2
      break
    }
    canonicalRecord(BLOCK_BUFFER, n, BLOCK_MIN_MAX)
    const blockMin = load<i64>(BLOCK_MIN_MAX)
    const blockMax = load<i64>(BLOCK_MIN_MAX, 8)
    sequenceMin = blockMin < sequenceMin ? blockMin : sequenceMin
    sequenceMax = blockMax > sequenceMax ? blockMax : sequenceMax
    if (recordKind(record) != load<u32>(SCRATCH) || recordWidth(record) != load<u32>(SCRATCH, 4)
      || recordBase(record) != load<i64>(SCRATCH, 8) || recordAux(record) != load<i64>(SCRATCH, 16)) {
      result = <i32>block
      break
    }
  }
  store<i64>(out, sequenceMin)
  store<i64>(out, sequenceMax, 8)
  return result
}
