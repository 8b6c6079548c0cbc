/**
 * The full check behind `verify`: every block must be in the form a flush would
 * choose (the backend's checkCanonical kernel), and every value must be one a
 * flush could write, so a file that passes is exactly what a flush of its
 * documents writes.
 */
import type { ColumnsBackend, SequenceView } from '../backend/backend.js'
import { BLOCK_KIND_NAMES } from '../format/constants.js'
import { CorruptIndexException } from '../format/errors.js'
import { int64Result, int64ToBigInt, sortableToFloat64 } from '../format/int64.js'
import { decodeUtf8Strict } from '../format/utf8.js'
import type { Column } from './column.js'
import { notABool, ordinalOutOfRange, outsideDegrees } from './read-values.js'
import { canonicalCheckSync, dictionaryCheckSync } from '../cascade/reader/canonical-loader.js'
import type { SequenceDomain } from '../cascade/reader/parse.js'

const minMax = new Int32Array(4)
const canonical = new Int32Array(6)
const CHUNK = 65536
const chunkInt32 = new Int32Array(CHUNK)
const chunkFloat64 = new Float64Array(CHUNK)

function describeRecord(kind: number, width: number, baseLow: number, baseHigh: number, auxLow: number, auxHigh: number): string {
  return `${BLOCK_KIND_NAMES[kind] ?? kind} width ${width} base ${int64ToBigInt(baseLow, baseHigh)} aux ${int64ToBigInt(auxLow, auxHigh)}`
}

/** Every block canonical, else CorruptIndexException; leaves the sequence's min/max raw in minMax. */
function checkSequence(sequence: SequenceView, backend: ColumnsBackend, format: 1 | 2, domain: SequenceDomain): void {
  if (format === 2) {
    const check = canonicalCheckSync()
    if (typeof check === 'string') throw new Error(`${sequence.fileName}: ${check}`)
    return check(sequence, backend, domain, minMax)
  }
  const block = backend.checkCanonical(sequence, minMax, canonical)
  if (block < 0) return
  const records = sequence.records, at = 6 * block
  throw new CorruptIndexException(sequence.fileName, `${sequence.label}: block ${block} is not in canonical form: stored ${
    describeRecord(records[at] & 0xff, records[at] >>> 8, records[at + 2], records[at + 3], records[at + 4], records[at + 5])}, a flush writes ${
    describeRecord(canonical[0], canonical[1], canonical[2], canonical[3], canonical[4], canonical[5])}`)
}

/** Position of the first double of the sequence outside [-bound, bound] (NaN included), or -1. */
function firstOutOfRange(sequence: SequenceView, backend: ColumnsBackend, bound: number): number {
  for (let first = 0; first < sequence.count; first += CHUNK) {
    const count = Math.min(CHUNK, sequence.count - first)
    backend.decodeFloat64(sequence, first, count, 'sortable', chunkFloat64, 0)
    for (let index = 0; index < count; index++) {
      const value = chunkFloat64[index]
      if (!(value >= -bound && value <= bound)) return first + index
    }
  }
  return -1
}

/** Runs the full check on one column; throws CorruptIndexException naming the file and field. */
export function fullCheck(column: Column, fileName: string, backend: ColumnsBackend, format: 1 | 2 = 1): void {
  const fail = (detail: string): never => {
    throw new CorruptIndexException(fileName, `field "${column.name}": ${detail}`)
  }
  const domain: SequenceDomain = column.type === 'fractional' || column.type === 'geo_point' ? 'double' : 'integer'
  if (column.offsets !== null) checkSequence(column.offsets, backend, format, 'integer')
  const values = column.values
  checkSequence(values, backend, format, domain)
  const [minLow, minHigh, maxLow, maxHigh] = minMax
  const dictionary = column.dictionary
  const used = dictionary === null ? null : new Uint8Array(dictionary.termCount)
  if (used !== null || column.type === 'bool') {
    // Ordinals below termCount (and marked used), bools in {0, 1}: both are "ordinals below a limit".
    const limit = used === null ? 2 : used.length
    for (let first = 0; first < values.count; first += CHUNK) {
      const count = Math.min(CHUNK, values.count - first)
      const bad = backend.decodeInt32(values, first, count, limit, chunkInt32, 0)
      if (bad >= 0) {
        backend.getRaw(values, first + bad)
        if (used === null) fail(notABool(first + bad, int64Result[0], int64Result[1]))
        fail(ordinalOutOfRange(first + bad, int64Result[0], int64Result[1], limit))
      }
      if (used !== null) for (let index = 0; index < count; index++) used[chunkInt32[index]] = 1
    }
  }
  if (column.longitudes !== null) {
    // Sortable order keeps NaN outside [-Inf, Inf], so min and max tell whether any latitude is out of range.
    if (!(sortableToFloat64(minLow, minHigh) >= -90 && sortableToFloat64(maxLow, maxHigh) <= 90)) {
      const bad = firstOutOfRange(values, backend, 90)
      backend.getRaw(values, bad)
      fail(outsideDegrees(bad, 'latitude', sortableToFloat64(int64Result[0], int64Result[1]), 90))
    }
    checkSequence(column.longitudes, backend, format, domain)
    if (!(sortableToFloat64(minMax[0], minMax[1]) >= -180 && sortableToFloat64(minMax[2], minMax[3]) <= 180)) {
      const bad = firstOutOfRange(column.longitudes, backend, 180)
      backend.getRaw(column.longitudes, bad)
      fail(outsideDegrees(bad, 'longitude', sortableToFloat64(int64Result[0], int64Result[1]), 180))
    }
  }
  const minRaw = int64ToBigInt(minLow, minHigh), maxRaw = int64ToBigInt(maxLow, maxHigh)
  if (minRaw !== column.minRaw) fail(`minRaw is ${column.minRaw}, but the smallest value is ${minRaw}`)
  if (maxRaw !== column.maxRaw) fail(`maxRaw is ${column.maxRaw}, but the largest value is ${maxRaw}`)
  if (dictionary !== null && used !== null) {
    for (let ordinal = 0; ordinal < used.length; ordinal++) {
      if (decodeUtf8Strict(dictionary.termBytes(ordinal)) === null) fail(`term ${ordinal} is not valid UTF-8`)
      if (used[ordinal] === 0) fail(`term ${ordinal} is used by no value (the dictionary holds only used terms)`)
    }
    // Format 2: the dictionary's form and bytes are what a flush of these terms writes.
    if (format === 2) {
      const check = dictionaryCheckSync()
      if (typeof check === 'string') throw new Error(`${fileName}: ${check}`)
      check(dictionary, values.file.bytes, fileName, column.name)
    }
  }
}
