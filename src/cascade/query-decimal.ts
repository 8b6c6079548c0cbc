/**
 * Range filters and histograms over a decimal sequence (format 2, form 3: value = n / 10^e, or a
 * raw exception at listed positions) in the integers' own space. n / 10^e never decreases
 * as n grows (one rounding of n, one correctly rounded division, SortableBits keep the
 * order), so a range of values is one range of integers: its ends are found from the
 * doubles and checked exactly, and the integers' sequence is filtered by it (its blocks
 * bounded by their records, runs a run at a time). Each exception's position is then
 * set or left as its own raw value says. Histogram edges become integer edges the same way.
 */
import type { DecimalCascade, SequenceView } from '../backend/backend.js'
import type { BitsetMemory } from '../backend/query-kernels.js'
import { compareInt64, float64ToSortable, int64Result, readInt32, readUint32, sortableToFloat64 } from '../format/int64.js'
import { POWERS_OF_TEN } from './powers-of-ten.js'

const TWO_POW_32 = 4294967296
/** Integers whose n / 10^e is computed here: exact doubles. */
const LARGEST = Number.MAX_SAFE_INTEGER

/** The raw SortableBits of n / scale (n a double: an exact integer, or ±2^63 as int64's ends convert), compared with (low, high). */
function compareAt(n: number, scale: number, low: number, high: number): number {
  float64ToSortable(n / scale)
  return compareInt64(int64Result[0], int64Result[1], low, high)
}

/**
 * The least integer n whose value is at or above the raw value (low, high) (`above`: above it):
 * a number within ±(2^53 - 1), 'min' (every integer, down to int64's least), 'none' (no integer),
 * or null where it lies beyond ±(2^53 - 1) but not at an end (the caller decodes).
 */
function leastFrom(low: number, high: number, scale: number, above: boolean): number | 'min' | 'none' | null {
  const reaches = (n: number) => (above ? compareAt(n, scale, low, high) > 0 : compareAt(n, scale, low, high) >= 0)
  if (reaches(-LARGEST)) return reaches(-(2 ** 63)) ? 'min' : null
  if (!reaches(LARGEST)) return reaches(2 ** 63) ? null : 'none'
  // Now -LARGEST fails and LARGEST reaches: the product's rounding puts the answer a step or two away.
  const bound = sortableToFloat64(low, high)
  // (+ 0: a candidate of -0 is the integer 0, whose value is +0.)
  let n = Math.min(LARGEST, Math.max(-LARGEST + 1, Math.ceil(bound * scale))) + 0
  if (n !== n) return null
  for (let step = 0; step < 8 && reaches(n - 1); step++) n--
  for (let step = 0; step < 8 && !reaches(n); step++) n++
  return reaches(n) && !reaches(n - 1) ? n : null
}

/** An integer's words, appended. */
function push(out: number[], n: number): void {
  const highWord = Math.floor(n / TWO_POW_32)
  out.push((n - highWord * TWO_POW_32) | 0, highWord | 0)
}

/**
 * Integer bounds (4 words a range, inclusive) for the value ranges `bounds` (raw SortableBits, 4
 * words a range), empty ranges left out; null where an end is not found exactly.
 */
export function integerBounds(bounds: Int32Array, exponent: number): Int32Array | null {
  const scale = POWERS_OF_TEN[exponent], out: number[] = []
  for (let at = 0; at < bounds.length; at += 4) {
    const lo = leastFrom(bounds[at], bounds[at + 1], scale, false)
    const pastHi = leastFrom(bounds[at + 2], bounds[at + 3], scale, true)
    if (lo === null || pastHi === null) return null
    if (lo === 'none' || pastHi === 'min' || (typeof lo === 'number' && typeof pastHi === 'number' && lo > pastHi - 1)) continue
    if (lo === 'min') out.push(0, -0x80000000)
    else push(out, lo)
    if (pastHi === 'none') out.push(-1, 0x7fffffff)
    else push(out, pastHi - 1)
  }
  return Int32Array.from(out)
}

/** The rank of the first exception at or after position `first`. */
function firstException(bytes: Uint8Array, cascade: DecimalCascade, first: number): number {
  let rank = 0
  for (let lo = 0, hi = cascade.exceptionCount; lo < hi;) {
    const middle = (lo + hi) >>> 1
    if (readUint32(bytes, cascade.positionsStart + 4 * middle) < first) lo = rank = middle + 1
    else hi = middle
  }
  return rank
}

/** The bucket b with edge b ≤ (low, high) < edge b + 1 (edges: raw, 2 words each, ascending), or -1. */
function bucketOf(edges: Int32Array, low: number, high: number): number {
  // Edges at or below the value: a binary search (edges may repeat: integer edges of close values).
  let lo = 0, hi = edges.length >>> 1
  while (lo < hi) {
    const middle = (lo + hi) >>> 1
    if (compareInt64(edges[2 * middle], edges[2 * middle + 1], low, high) <= 0) lo = middle + 1
    else hi = middle
  }
  return lo >= 1 && lo < edges.length >>> 1 ? lo - 1 : -1
}

/**
 * histogram of a decimal sequence: each edge (raw SortableBits, 2 words) becomes the least integer
 * whose value is at or above it (so a bucket of values is a bucket of integers), the integers are
 * counted into `counts` by those edges (`countIntegers`, adding as histogram does), then each
 * selected exception in [first, first + count) moves from its integer's bucket to its own raw
 * value's. false, nothing counted, where an edge is not found exactly or lies above every
 * integer's value (the caller decodes). `integerAt(i)` reads integer i into int64Result.
 */
export function histogramDecimal(
  sequence: SequenceView, cascade: DecimalCascade, first: number, count: number, edges: Int32Array,
  selection: BitsetMemory | null, selectionStart: number, counts: Uint32Array,
  countIntegers: (integerEdges: Int32Array) => void, integerAt: (index: number) => void,
): boolean {
  const scale = POWERS_OF_TEN[cascade.exponent], integerEdges = new Int32Array(edges.length)
  for (let at = 0; at < edges.length; at += 2) {
    const n = leastFrom(edges[at], edges[at + 1], scale, false)
    // 'none': no int64 stands above every integer, as the bucket below this edge needs.
    if (n === null || n === 'none') return false
    if (n === 'min') integerEdges.set([0, -0x80000000], at)
    else {
      const highWord = Math.floor(n / TWO_POW_32)
      integerEdges.set([(n - highWord * TWO_POW_32) | 0, highWord | 0], at)
    }
  }
  // Each selected exception and its own bucket, read before the integers are counted (which may grow WebAssembly memory).
  const bytes = sequence.file.bytes, end = first + count
  const positions: number[] = [], buckets: number[] = []
  for (let rank = firstException(bytes, cascade, first); rank < cascade.exceptionCount; rank++) {
    const position = readUint32(bytes, cascade.positionsStart + 4 * rank)
    if (position >= end) break
    const bit = selectionStart + position - first
    if (selection !== null && ((selection.words[bit >>> 5] >>> (bit & 31)) & 1) === 0) continue
    positions.push(position)
    buckets.push(bucketOf(edges, readInt32(bytes, cascade.exceptionsStart + 8 * rank), readInt32(bytes, cascade.exceptionsStart + 8 * rank + 4)))
  }
  countIntegers(integerEdges)
  for (let index = 0; index < positions.length; index++) {
    integerAt(positions[index])
    const counted = bucketOf(integerEdges, int64Result[0], int64Result[1])
    if (counted >= 0) counts[counted]--
    if (buckets[index] >= 0) counts[buckets[index]]++
  }
  return true
}

/** Whether the raw value (low, high) lies in any of the ranges (4 words a range, inclusive). */
function inRanges(ranges: Int32Array, low: number, high: number): boolean {
  for (let at = 0; at < ranges.length; at += 4) {
    if (compareInt64(low, high, ranges[at], ranges[at + 1]) >= 0 && compareInt64(low, high, ranges[at + 2], ranges[at + 3]) <= 0) return true
  }
  return false
}

/**
 * matchRange(s) of a decimal sequence: `matchIntegers(ranges)` filters the integers by integer
 * ranges (setting bits as matchRange does, returning how many), then each selected exception in
 * [first, first + count) takes its own answer; how many matched. `integerAt(i)` reads integer i into
 * int64Result. null when the ranges cannot be put in integers (the caller decodes).
 */
export function matchDecimal(
  sequence: SequenceView, cascade: DecimalCascade, first: number, count: number, bounds: Int32Array,
  selection: BitsetMemory | null, selectionStart: number, out: BitsetMemory, outStart: number,
  matchIntegers: (ranges: Int32Array) => number, integerAt: (index: number) => void,
): number | null {
  const ranges = integerBounds(bounds, cascade.exponent)
  if (ranges === null) return null
  // The exceptions in range that are selected, and their bits before the integers are matched.
  // The file as it lies now (a view made at open is stale once WebAssembly memory grows).
  const bytes = sequence.file.bytes, end = first + count
  const positions: number[] = [], before: number[] = []
  let rank = firstException(bytes, cascade, first)
  // Each exception's answer read now: the integers' match may grow WebAssembly memory, which the file's bytes live in.
  const matches: boolean[] = []
  for (; rank < cascade.exceptionCount; rank++) {
    const position = readUint32(bytes, cascade.positionsStart + 4 * rank)
    if (position >= end) break
    const bit = selectionStart + position - first
    if (selection !== null && ((selection.words[bit >>> 5] >>> (bit & 31)) & 1) === 0) continue
    const at = outStart + position - first
    positions.push(position)
    matches.push(inRanges(bounds, readInt32(bytes, cascade.exceptionsStart + 8 * rank), readInt32(bytes, cascade.exceptionsStart + 8 * rank + 4)))
    before.push((out.words[at >>> 5] >>> (at & 31)) & 1)
  }
  let found = ranges.length === 0 ? 0 : matchIntegers(ranges)
  for (let index = 0; index < positions.length; index++) {
    const position = positions[index], matched = matches[index]
    integerAt(position)
    const counted = inRanges(ranges, int64Result[0], int64Result[1])
    found += (matched ? 1 : 0) - (counted ? 1 : 0)
    // Words read after the integers' match: it may have grown WebAssembly memory.
    const at = outStart + position - first, words = out.words
    if (before[index] === 1 || matched) words[at >>> 5] |= 1 << (at & 31)
    else words[at >>> 5] &= ~(1 << (at & 31))
  }
  return found
}
