/**
 * Linear blocks (kind 7): a line through the first and last value plus packed
 * residuals. With d = last - first over n values, the slope aux = s =
 * floor(1024 d / (n - 1)) and value j = base + floor(j s / 1024) + field j,
 * fields in width bits; base = first + the smallest residual. Sequential data
 * (row ids, evenly spaced dates, running offsets) needs only its jitter's bits.
 */
import { bitsOf, bytesFor, type FieldWriter, fieldAt, POW2, smallField, unpackFields } from '../bits.js'
import type { BlockAnalysis } from '../block-analysis.js'
import type { BlockView } from '../block-view.js'
import { Kind } from '../constants.js'
import { putPair } from './pairs.js'
import type { BlockRecord } from './record.js'

const residuals = new Float64Array(1024)
/** The slope as q + f / 1024 with 0 ≤ f < 1024, so j × slope is exact in doubles. */
let slopeWhole = 0, slopeFraction = 0, smallest = 0, width = 0

/** floor(j × s / 1024) for s = 1024 q + f. */
function lineAt(j: number, q: number, f: number): number {
  // j < 1,024 and f < 1,024: j f < 2^20, an int32.
  return j * q + ((j * f) >>> 10)
}

function fit(a: BlockAnalysis): void {
  const n = a.n, u = a.u, span = n - 1
  const d = u[n - 1] - u[0]
  let q = Math.floor(d / span), rest = d - q * span
  while (rest < 0) { q--; rest += span }
  while (rest >= span) { q++; rest -= span }
  slopeWhole = q
  slopeFraction = Math.floor((1024 * rest) / span)
  let low = Infinity, high = -Infinity
  for (let j = 0; j < n; j++) {
    const residual = u[j] - u[0] - lineAt(j, q, slopeFraction)
    residuals[j] = residual
    if (residual < low) low = residual
    if (residual > high) high = residual
  }
  smallest = low
  width = bitsOf(high - low)
}

/** Data bytes of the linear form (n ≥ 2). */
export function linearSize(a: BlockAnalysis): number {
  fit(a)
  return bytesFor(a.n * width)
}

/** Writes the linear form. */
export function writeLinear(a: BlockAnalysis, writer: FieldWriter, record: BlockRecord): void {
  fit(a)
  record.set(Kind.linear, width, 0, a.minLow, a.minHigh, 0)
  record.setBase(a.minLow, a.minHigh, a.u[0] + smallest)
  // aux = 1024 q + f as an i64: q × 2^10 split across the words.
  const qHigh = Math.floor(slopeWhole / 4194304), qLow = slopeWhole - qHigh * 4194304
  record.words[2] = (qLow * 1024 + slopeFraction) | 0
  record.words[3] = qHigh | 0
  for (let j = 0; j < a.n; j++) writer.write(residuals[j] - smallest, width)
}

/** The slope's whole and fractional parts from the record's aux words. */
function slopeOf(view: BlockView): void {
  const auxLow = view.records[view.record + 4]
  slopeFraction = auxLow & 1023
  slopeWhole = view.records[view.record + 5] * 4194304 + (auxLow >>> 10)
}

/** Offset from the base of value j of the linear block whose record is word r of records (data at byte `data`): line plus residual. */
export function linearOffset(words: Int32Array, records: Int32Array, r: number, data: number, _n: number, j: number): number {
  const auxLow = records[r + 4]
  return lineAt(j, records[r + 5] * 4194304 + (auxLow >>> 10), auxLow & 1023) + fieldAt(words, data, j, (records[r] >>> 8) & 0xff)
}

const residuals2 = new Float64Array(1024)

/**
 * Values [from, to) as (low, high) pairs into destination from word d: line + residual. When every offset
 * lies in [0, 2^32 - base's low word) (the line runs between 0 and its last point), one add per value.
 */
export function linearPairs(view: BlockView, from: number, to: number, destination: Int32Array, d: number): void {
  slopeOf(view)
  const q = slopeWhole, f = slopeFraction, baseLow = view.baseLow, baseHigh = view.baseHigh
  const last = (view.n - 1) * q + (((view.n - 1) * f) >> 10)
  const low = Math.min(0, last), high = Math.max(0, last) + POW2[view.width] - 1
  const lowWord = (baseLow >>> 0) + low >= 0 && (baseLow >>> 0) + high < 2 ** 32
  if (lowWord && view.width <= 31) {
    // Residuals read in the loop that uses them, not unpacked to an array first.
    const words = view.words, wordBase = view.data >>> 2, mask = (1 << view.width) - 1, width = view.width
    for (let j = from, bit = from * width + (view.data & 3) * 8; j < to; j++, d += 2, bit += width) {
      destination[d] = (baseLow + j * q + ((j * f) >> 10) + smallField(words, wordBase, bit, mask)) | 0
      destination[d + 1] = baseHigh
    }
    return
  }
  unpackFields(view.words, view.data, from, to - from, view.width, residuals2, 0)
  if (lowWord) {
    for (let j = from; j < to; j++, d += 2) {
      destination[d] = (baseLow + j * q + ((j * f) >> 10) + residuals2[j - from]) | 0
      destination[d + 1] = baseHigh
    }
    return
  }
  for (let j = from; j < to; j++, d += 2) putPair(baseLow, baseHigh, j * q + ((j * f) >> 10) + residuals2[j - from], destination, d)
}
