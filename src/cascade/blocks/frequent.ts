/**
 * Frequent blocks (kind 5): base = the most frequent value t (ties: the
 * smallest), aux = the smallest exception x0, width = xw; the e other values
 * are exceptions. Data: their divisor gx as an i64 when that saves bytes
 * (param flag 1 << 11), their positions (list or bitmap, param flag 1 << 10
 * for the list), then their values (x - x0) / gx in xw bits. param bits 0-9 = e.
 */
import { bitsOf, bytesFor, type FieldWriter, fieldAt, gcd } from '../bits.js'
import type { BlockAnalysis } from '../block-analysis.js'
import { type BlockView, recordAuxMinusBase } from '../block-view.js'
import { EXCEPTION_GCD_FLAG, Kind, POSITIONS_LIST_FLAG } from '../constants.js'
import { exceptionRank, forEachExceptionAsRead, positionsAsList, positionsSize, writePositions } from './positions.js'
import { fillPairs, putPair } from './pairs.js'
import type { BlockRecord } from './record.js'

interface Exceptions {
  e: number
  /** Smallest exception offset, their span, and the divisor (1 unless it is stored). */
  low: number
  divisor: number
  width: number
  useDivisor: boolean
}

const exceptions: Exceptions = { e: 0, low: 0, divisor: 1, width: 0, useDivisor: false }
const positions = new Int32Array(1024)

function describe(a: BlockAnalysis): Exceptions {
  const k = a.distinctCount, top = a.top
  const low = a.distinct[top === 0 ? 1 : 0], high = a.distinct[top === k - 1 ? k - 2 : k - 1]
  let divisor = 0
  for (let entry = 0; entry < k && divisor !== 1; entry++) {
    if (entry !== top && a.distinct[entry] !== low) divisor = gcd(divisor, a.distinct[entry] - low)
  }
  const e = a.n - a.counts[top]
  const plain = bitsOf(high - low)
  const divided = divisor >= 2 ? bitsOf((high - low) / divisor) : plain
  exceptions.e = e
  exceptions.low = low
  exceptions.useDivisor = divisor >= 2 && 8 + bytesFor(e * divided) < bytesFor(e * plain)
  exceptions.divisor = exceptions.useDivisor ? divisor : 1
  exceptions.width = exceptions.useDivisor ? divided : plain
  return exceptions
}

/** Data bytes of the frequent form (k ≥ 2). */
export function frequentSize(a: BlockAnalysis): number {
  const x = describe(a)
  return (x.useDivisor ? 8 : 0) + positionsSize(x.e, a.n, a.positionWidth) + bytesFor(x.e * x.width)
}

/** Writes the frequent form. */
export function writeFrequent(a: BlockAnalysis, writer: FieldWriter, record: BlockRecord): void {
  const x = describe(a)
  const topOffset = a.distinct[a.top]
  const list = positionsAsList(x.e, a.n, a.positionWidth)
  record.set(Kind.frequent, x.width, x.e | (list ? POSITIONS_LIST_FLAG : 0) | (x.useDivisor ? EXCEPTION_GCD_FLAG : 0), a.minLow, a.minHigh, 0)
  record.setBase(a.minLow, a.minHigh, topOffset)
  record.setAuxSum(a.minLow, a.minHigh, x.low)
  if (x.useDivisor) writer.int64(x.divisor >>> 0, Math.floor(x.divisor / 4294967296))
  let e = 0
  for (let index = 0; index < a.n; index++) if (a.u[index] !== topOffset) positions[e++] = index
  writePositions(positions, e, a.n, a.positionWidth, writer)
  writer.seek(writer.offset)
  for (let rank = 0; rank < e; rank++) writer.write((a.u[positions[rank]] - x.low) / x.divisor, x.width)
}

// The layout of the block being read, set by layout() (no object per read).
let divisor = 1, positionsAt = 0, valuesAt = 0, list = false, e = 0, positionWidth = 0

/** The exceptions' divisor: the i64 at the data's start when the block stores one, else 1. */
function exceptionDivisor(words: Int32Array, data: number, stored: boolean): number {
  return stored ? fieldAt(words, data, 0, 32) + fieldAt(words, data + 4, 0, 32) * 4294967296 : 1
}

function layout(view: BlockView): void {
  e = view.param & 1023
  list = (view.param & POSITIONS_LIST_FLAG) !== 0
  const hasDivisor = (view.param & EXCEPTION_GCD_FLAG) !== 0
  positionWidth = bitsOf(view.n - 1)
  positionsAt = view.data + (hasDivisor ? 8 : 0)
  divisor = exceptionDivisor(view.words, view.data, hasDivisor)
  valuesAt = positionsAt + positionsSize(e, view.n, positionWidth)
}

/**
 * Offset from the base (the top value) of value j of the frequent block whose record is word r of
 * records (data at byte `data`, n values): 0, or its exception's.
 */
export function frequentOffset(words: Int32Array, records: Int32Array, r: number, data: number, n: number, j: number): number {
  const head = records[r], param = head >>> 16, e = param & 1023, pw = 32 - Math.clz32(n - 1)
  const hasDivisor = (param & EXCEPTION_GCD_FLAG) !== 0, positions = data + (hasDivisor ? 8 : 0)
  const rank = exceptionRank(words, positions, (param & POSITIONS_LIST_FLAG) !== 0, e, pw, j)
  if (rank < 0) return 0
  return recordAuxMinusBase(records, r) + exceptionDivisor(words, data, hasDivisor) * fieldAt(words, positions + positionsSize(e, n, pw), rank, (head >>> 8) & 0xff)
}

/** Values [from, to) as (low, high) pairs into destination from word d: the top value everywhere, then the exceptions. */
export function frequentPairs(view: BlockView, from: number, to: number, destination: Int32Array, d: number): void {
  layout(view)
  const baseLow = view.baseLow, baseHigh = view.baseHigh
  fillPairs(baseLow, baseHigh, destination, d, to - from)
  const low = recordAuxMinusBase(view.records, view.record), step = divisor, values = valuesAt, words = view.words, width = view.width
  // (A list that does not increase, corrupt, is searched position by position, as single reads search it.)
  forEachExceptionAsRead(words, positionsAt, list, e, view.n, positionWidth, from, to, (position, rank) => {
    putPair(baseLow, baseHigh, low + step * fieldAt(words, values, rank, width), destination, d + 2 * (position - from))
  })
}
