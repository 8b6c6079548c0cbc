/**
 * What every block encoder needs to size itself exactly, computed once per
 * block: the minimum and range, the offsets u = v - min (doubles: exact, since
 * v2 gives the other kinds only ranges below 2^51), their divisor, the sorted
 * distinct offsets with their counts, the runs and the most frequent value.
 */
import { BLOCK_VALUES } from '../format/constants.js'
import { NARROW_RANGE_LIMIT } from './constants.js'
import { bitsOf, gcd } from './bits.js'

const TWO_POW_32 = 4294967296

/** One block's statistics; the module keeps one instance and refills it per block. */
export interface BlockAnalysis {
  /** Values in the block (1..1,024). */
  n: number
  minLow: number
  minHigh: number
  maxLow: number
  maxHigh: number
  /** Whether the range is below 2^51 (every kind applies); else only frame and constant. */
  narrow: boolean
  /** max - min (narrow blocks only). */
  range: number
  /** u[j] = value j - min (narrow blocks only). */
  u: Float64Array
  /** gcd of the offsets (0 for a constant block), and bits(range / divisor). */
  divisor: number
  width: number
  /** Distinct offsets ascending, their counts, and how many. */
  distinct: Float64Array
  counts: Int32Array
  distinctCount: number
  /** Runs of equal adjacent values. */
  runCount: number
  /** Index into distinct of the most frequent value (ties: the smallest). */
  top: number
  /** bits(n - 1): width of a position in the block. */
  positionWidth: number
}

const sorted = new Float64Array(BLOCK_VALUES)

/** A fresh analysis with scratch arrays for a full block. */
export function createAnalysis(): BlockAnalysis {
  return {
    n: 0, minLow: 0, minHigh: 0, maxLow: 0, maxHigh: 0, narrow: true, range: 0,
    u: new Float64Array(BLOCK_VALUES), divisor: 0, width: 0,
    distinct: new Float64Array(BLOCK_VALUES), counts: new Int32Array(BLOCK_VALUES), distinctCount: 0,
    runCount: 0, top: 0, positionWidth: 0,
  }
}

/** Signed i64 order of (high, low) words. */
function less(aLow: number, aHigh: number, bLow: number, bHigh: number): boolean {
  return aHigh < bHigh || (aHigh === bHigh && (aLow >>> 0) < (bLow >>> 0))
}

/** Analyses values [first, first + n) of words (interleaved low, high) into a. */
export function analyseBlock(words: Int32Array, first: number, n: number, a: BlockAnalysis): void {
  a.n = n
  a.positionWidth = bitsOf(n - 1)
  let minLow = words[2 * first], minHigh = words[2 * first + 1]
  let maxLow = minLow, maxHigh = minHigh
  for (let index = first + 1; index < first + n; index++) {
    const low = words[2 * index], high = words[2 * index + 1]
    if (less(low, high, minLow, minHigh)) { minLow = low; minHigh = high }
    if (less(maxLow, maxHigh, low, high)) { maxLow = low; maxHigh = high }
  }
  a.minLow = minLow; a.minHigh = minHigh; a.maxLow = maxLow; a.maxHigh = maxHigh
  const rangeLow = (maxLow >>> 0) - (minLow >>> 0)
  const rangeHigh = maxHigh - minHigh - (rangeLow < 0 ? 1 : 0)
  // rangeHigh as a signed int32 of the unsigned difference: wide when its unsigned value is ≥ 2^20.
  a.narrow = rangeHigh >= 0 && rangeHigh < NARROW_RANGE_LIMIT / TWO_POW_32
  if (!a.narrow) return
  a.range = rangeHigh * TWO_POW_32 + (rangeLow >>> 0)
  const u = a.u
  let divisor = 0
  for (let index = 0; index < n; index++) {
    const low = words[2 * (first + index)], high = words[2 * (first + index) + 1]
    const differenceLow = (low >>> 0) - (minLow >>> 0)
    const offset = (high - minHigh - (differenceLow < 0 ? 1 : 0)) * TWO_POW_32 + (differenceLow >>> 0)
    u[index] = offset
    if (offset !== 0 && divisor !== 1) divisor = divisor === 0 ? offset : gcd(divisor, offset)
  }
  a.divisor = divisor
  a.width = divisor === 0 ? 0 : bitsOf(a.range / divisor)
  let runs = 1
  for (let index = 1; index < n; index++) if (u[index] !== u[index - 1]) runs++
  a.runCount = runs
  const k = divisor !== 0 && a.range / divisor < COUNTED_UNITS ? countUnits(a) : sortOffsets(a)
  let top = 0
  for (let entry = 1; entry < k; entry++) if (a.counts[entry] > a.counts[top]) top = entry
  a.distinctCount = k
  a.top = top
}

/** Units below this are counted in a table (no sort of the block); wider ones are sorted. */
const COUNTED_UNITS = 1 << 16
const unitCounts = new Int32Array(COUNTED_UNITS)
const unitStamps = new Int32Array(COUNTED_UNITS)
let stamp = 0

/** Distinct offsets and counts by counting units u / g, then sorting the distinct units only. */
function countUnits(a: BlockAnalysis): number {
  stamp++
  const u = a.u, g = a.divisor, distinct = a.distinct
  let k = 0
  for (let index = 0; index < a.n; index++) {
    const unit = g === 1 ? u[index] : u[index] / g
    if (unitStamps[unit] !== stamp) {
      unitStamps[unit] = stamp
      unitCounts[unit] = 0
      distinct[k++] = unit
    }
    unitCounts[unit]++
  }
  const units = distinct.subarray(0, k)
  units.sort()
  for (let entry = 0; entry < k; entry++) {
    a.counts[entry] = unitCounts[units[entry]]
    units[entry] *= g
  }
  return k
}

/** Distinct offsets and counts by sorting the block's offsets. */
function sortOffsets(a: BlockAnalysis): number {
  const n = a.n
  const view = sorted.subarray(0, n)
  view.set(a.u.subarray(0, n))
  view.sort()
  let k = 0
  for (let index = 0; index < n; index++) {
    if (index === 0 || view[index] !== view[index - 1]) {
      a.distinct[k] = view[index]
      a.counts[k] = 1
      k++
    } else {
      a.counts[k - 1]++
    }
  }
  return k
}
