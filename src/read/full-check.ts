/**
 * The full check behind `verify`: every value is read, and every block must be
 * in the form a flush would choose, so a file that passes is exactly what a
 * flush of its documents writes.
 */
import type { ColumnsBackend, SequenceView } from '../backend/backend.js'
import { BLOCK_KIND_NAMES, BLOCK_VALUES } from '../format/constants.js'
import { CorruptIndexException } from '../format/errors.js'
import { compareInt64, int64ToBigInt, sortableToFloat64 } from '../format/int64.js'
import { decodeUtf8Strict } from '../format/utf8.js'
import { type BlockChoice, chooseBlock } from '../write/block-encoder.js'
import type { Column } from './column.js'

const blockValues = new Int32Array(2 * BLOCK_VALUES)
const canonical: BlockChoice = {
  kind: 0, width: 0, baseLow: 0, baseHigh: 0, maxLow: 0, maxHigh: 0, auxLow: 0, auxHigh: 0, dataLength: 0, tableEntryCount: 0,
}

/** Called with each decoded block of a sequence: words of `count` values, value index of the first. */
type BlockVisitor = (words: Int32Array, count: number, firstValue: number) => void

function describeRecord(kind: number, width: number, baseLow: number, baseHigh: number, auxLow: number, auxHigh: number): string {
  return `${BLOCK_KIND_NAMES[kind] ?? kind} width ${width} base ${int64ToBigInt(baseLow, baseHigh)} aux ${int64ToBigInt(auxLow, auxHigh)}`
}

/** Decodes every block, checks it against the canonical choice and hands the values to visit. */
function checkSequence(sequence: SequenceView, backend: ColumnsBackend, visit: BlockVisitor | null): void {
  const records = sequence.records
  for (let block = 0; block < sequence.blockCount; block++) {
    const first = block * BLOCK_VALUES
    const count = Math.min(BLOCK_VALUES, sequence.count - first)
    backend.decodeRaw(sequence, first, count, blockValues, 0)
    chooseBlock(blockValues, 0, count, canonical)
    const at = 6 * block
    const kind = records[at] & 0xff, width = records[at] >>> 8
    if (kind !== canonical.kind || width !== canonical.width || records[at + 2] !== canonical.baseLow
      || records[at + 3] !== canonical.baseHigh || records[at + 4] !== canonical.auxLow || records[at + 5] !== canonical.auxHigh) {
      throw new CorruptIndexException(sequence.fileName, `${sequence.label}: block ${block} is not in canonical form: stored ${
        describeRecord(kind, width, records[at + 2], records[at + 3], records[at + 4], records[at + 5])}, a flush writes ${
        describeRecord(canonical.kind, canonical.width, canonical.baseLow, canonical.baseHigh, canonical.auxLow, canonical.auxHigh)}`)
    }
    if (visit !== null) visit(blockValues, count, first)
  }
}

/** Runs the full check on one column; throws CorruptIndexException naming the file and field. */
export function fullCheck(column: Column, fileName: string, backend: ColumnsBackend): void {
  const field = `field "${column.name}"`
  const fail = (detail: string): never => {
    throw new CorruptIndexException(fileName, `${field}: ${detail}`)
  }
  if (column.offsets !== null) checkSequence(column.offsets, backend, null)
  let minLow = 0, minHigh = 0, maxLow = 0, maxHigh = 0
  let seen = false
  const dictionary = column.dictionary
  const used = dictionary === null ? null : new Uint8Array(dictionary.termCount)
  const isGeo = column.type === 'geo_point'
  checkSequence(column.values, backend, (words, count, firstValue) => {
    for (let index = 0; index < count; index++) {
      const low = words[2 * index], high = words[2 * index + 1]
      if (!seen || compareInt64(low, high, minLow, minHigh) < 0) { minLow = low; minHigh = high }
      if (!seen || compareInt64(low, high, maxLow, maxHigh) > 0) { maxLow = low; maxHigh = high }
      seen = true
      if (used !== null) {
        if (high !== 0 || low >>> 0 >= used.length) fail(`value ${firstValue + index} has ordinal ${int64ToBigInt(low, high)}, not in [0, ${used.length}, the term ordinals)`)
        used[low >>> 0] = 1
      } else if (isGeo) {
        const latitude = sortableToFloat64(low, high)
        if (!(latitude >= -90 && latitude <= 90)) fail(`value ${firstValue + index} has latitude ${latitude}, outside [-90, 90]`)
      } else if (column.type === 'bool' && (high !== 0 || (low !== 0 && low !== 1))) {
        fail(`value ${firstValue + index} is ${int64ToBigInt(low, high)}, not a bool (0 or 1)`)
      }
    }
  })
  if (column.longitudes !== null) {
    checkSequence(column.longitudes, backend, (words, count, firstValue) => {
      for (let index = 0; index < count; index++) {
        const longitude = sortableToFloat64(words[2 * index], words[2 * index + 1])
        if (!(longitude >= -180 && longitude <= 180)) fail(`value ${firstValue + index} has longitude ${longitude}, outside [-180, 180]`)
      }
    })
  }
  const minRaw = int64ToBigInt(minLow, minHigh), maxRaw = int64ToBigInt(maxLow, maxHigh)
  if (minRaw !== column.minRaw) fail(`minRaw is ${column.minRaw}, but the smallest value is ${minRaw}`)
  if (maxRaw !== column.maxRaw) fail(`maxRaw is ${column.maxRaw}, but the largest value is ${maxRaw}`)
  if (dictionary !== null && used !== null) {
    for (let ordinal = 0; ordinal < used.length; ordinal++) {
      if (decodeUtf8Strict(dictionary.termBytes(ordinal)) === null) fail(`term ${ordinal} is not valid UTF-8`)
      if (used[ordinal] === 0) fail(`term ${ordinal} is used by no value (the dictionary holds only used terms)`)
    }
  }
}
