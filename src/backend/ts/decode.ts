/**
 * Pure-TypeScript block decoding with int32-only arithmetic: bits are read from
 * an aligned copy of the block's data, two words at a time, without branches on
 * the bit offset; 64-bit values are assembled as (low, high) words.
 */
import type { SequenceView } from '../backend.js'
import { BLOCK_SHIFT, BLOCK_VALUES, BlockKind } from '../../format/constants.js'
import { CorruptIndexException } from '../../format/errors.js'
import { int64Result, multiplyInt64, readInt32 } from '../../format/int64.js'

const TWO_POW_32 = 4294967296
// A block's data is at most 8 × 1,024 bytes (packed, width 64) or 8 × 256 + 1,024 (table).
const scratchWords = new Int32Array(2 * BLOCK_VALUES + 8)
const scratchBytes = new Uint8Array(scratchWords.buffer)
const tableWords = new Int32Array(2 * 256)

/** Copies a block's data (plus the look-ahead words the unpacker reads) into aligned scratch. */
function loadBlockData(sequence: SequenceView, start: number, length: number): void {
  const bytes = sequence.bytes
  // The 8 padding bytes after the last block keep this read inside the sequence's data.
  scratchBytes.set(bytes.subarray(start, start + length + 8))
}

function tableIndexError(sequence: SequenceView, block: number, index: number, entries: number): never {
  throw new CorruptIndexException(
    sequence.fileName,
    `${sequence.label}: block ${block} has table index ${index}, beyond its ${entries} entries`,
  )
}

/** Decodes values [from, to) of one block into destination at value position out. */
function decodeBlock(sequence: SequenceView, block: number, from: number, to: number, destination: Int32Array, out: number): void {
  const records = sequence.records
  const record = 6 * block
  const kind = records[record] & 0xff
  const width = records[record] >>> 8
  const baseLow = records[record + 2], baseHigh = records[record + 3]
  let d = 2 * out
  if (kind === BlockKind.constant) {
    for (let index = from; index < to; index++, d += 2) {
      destination[d] = baseLow
      destination[d + 1] = baseHigh
    }
    return
  }
  const blockValues = Math.min(BLOCK_VALUES, sequence.count - block * BLOCK_VALUES)
  const dataStart = sequence.dataStart + records[record + 1]
  if (kind === BlockKind.table) {
    const entries = records[record + 4]
    const bytes = sequence.bytes
    for (let entry = 0; entry < 2 * entries; entry++) tableWords[entry] = readInt32(bytes, dataStart + 4 * entry)
    loadBlockData(sequence, dataStart + 8 * entries, Math.ceil((blockValues * width) / 8))
    const mask = width === 0 ? 0 : -1 >>> (32 - width)
    for (let index = from, bit = from * width; index < to; index++, bit += width, d += 2) {
      const word = bit >>> 5, shift = bit & 31
      const entry = ((scratchWords[word] >>> shift) | ((scratchWords[word + 1] << 1) << (31 - shift))) & mask
      if (entry >= entries) tableIndexError(sequence, block, entry, entries)
      destination[d] = tableWords[2 * entry]
      destination[d + 1] = tableWords[2 * entry + 1]
    }
    return
  }
  loadBlockData(sequence, dataStart, Math.ceil((blockValues * width) / 8))
  const divisorLow = records[record + 4], divisorHigh = records[record + 5]
  const baseLowUnsigned = baseLow >>> 0
  if (width <= 32) {
    const mask = -1 >>> (32 - width)
    if (divisorLow === 1 && divisorHigh === 0) {
      for (let index = from, bit = from * width; index < to; index++, bit += width, d += 2) {
        const word = bit >>> 5, shift = bit & 31
        const unit = (((scratchWords[word] >>> shift) | ((scratchWords[word + 1] << 1) << (31 - shift))) & mask) >>> 0
        const low = baseLowUnsigned + unit
        destination[d] = low
        destination[d + 1] = low > 0xffffffff ? baseHigh + 1 : baseHigh
      }
      return
    }
    const divisor = (divisorHigh >>> 0) * TWO_POW_32 + (divisorLow >>> 0)
    if (divisor * mask < 2 ** 53 && divisorHigh >= 0) {
      // g × u is exact in a double: split it into words and add the base.
      for (let index = from, bit = from * width; index < to; index++, bit += width, d += 2) {
        const word = bit >>> 5, shift = bit & 31
        const unit = (((scratchWords[word] >>> shift) | ((scratchWords[word + 1] << 1) << (31 - shift))) & mask) >>> 0
        const product = divisor * unit
        const productHigh = Math.floor(product / TWO_POW_32)
        const low = baseLowUnsigned + (product - productHigh * TWO_POW_32)
        destination[d] = low
        destination[d + 1] = baseHigh + productHigh + (low > 0xffffffff ? 1 : 0)
      }
      return
    }
    for (let index = from, bit = from * width; index < to; index++, bit += width, d += 2) {
      const word = bit >>> 5, shift = bit & 31
      const unit = ((scratchWords[word] >>> shift) | ((scratchWords[word + 1] << 1) << (31 - shift))) & mask
      multiplyInt64(unit, 0, divisorLow, divisorHigh)
      const low = baseLowUnsigned + (int64Result[0] >>> 0)
      destination[d] = low
      destination[d + 1] = baseHigh + int64Result[1] + (low > 0xffffffff ? 1 : 0)
    }
    return
  }
  const highMask = -1 >>> (64 - width)
  for (let index = from, bit = from * width; index < to; index++, bit += width, d += 2) {
    const word = bit >>> 5, shift = bit & 31
    const unitLow = (scratchWords[word] >>> shift) | ((scratchWords[word + 1] << 1) << (31 - shift))
    const unitHigh = ((scratchWords[word + 1] >>> shift) | ((scratchWords[word + 2] << 1) << (31 - shift))) & highMask
    multiplyInt64(unitLow, unitHigh, divisorLow, divisorHigh)
    const low = baseLowUnsigned + (int64Result[0] >>> 0)
    destination[d] = low
    destination[d + 1] = baseHigh + int64Result[1] + (low > 0xffffffff ? 1 : 0)
  }
}

/** Decodes raw values [first, first + count) of a sequence into destination words. */
export function decodeRaw(sequence: SequenceView, first: number, count: number, destination: Int32Array, destinationIndex: number): void {
  const end = first + count
  let index = first
  let out = destinationIndex
  while (index < end) {
    const block = index >>> BLOCK_SHIFT
    const blockStart = block << BLOCK_SHIFT
    const stop = Math.min(end, blockStart + BLOCK_VALUES)
    decodeBlock(sequence, block, index - blockStart, stop - blockStart, destination, out)
    out += stop - index
    index = stop
  }
}

/** Reads `width` bits (≤ 32) at stream bit `bit` of the data starting at byte `start`. */
function readBits(bytes: Uint8Array, start: number, bit: number, width: number): number {
  const at = start + (bit >>> 3)
  const shift = bit & 7
  const low = bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)
  const value = (low >>> shift) | ((bytes[at + 4] << 1) << (31 - shift))
  return (value & (-1 >>> (32 - width))) >>> 0
}

/** One raw value, into int64Result: one record read and one or two unaligned loads. */
export function getRaw(sequence: SequenceView, index: number): void {
  const records = sequence.records
  const block = index >>> BLOCK_SHIFT
  const record = 6 * block
  const kind = records[record] & 0xff
  const baseLow = records[record + 2], baseHigh = records[record + 3]
  if (kind === BlockKind.constant) {
    int64Result[0] = baseLow
    int64Result[1] = baseHigh
    return
  }
  const width = records[record] >>> 8
  const position = index & (BLOCK_VALUES - 1)
  const bytes = sequence.bytes
  const dataStart = sequence.dataStart + records[record + 1]
  if (kind === BlockKind.table) {
    const entries = records[record + 4]
    const entry = readBits(bytes, dataStart + 8 * entries, position * width, width)
    if (entry >= entries) tableIndexError(sequence, block, entry, entries)
    int64Result[0] = readInt32(bytes, dataStart + 8 * entry)
    int64Result[1] = readInt32(bytes, dataStart + 8 * entry + 4)
    return
  }
  const bit = position * width
  let unitLow: number, unitHigh: number
  if (width <= 32) {
    unitLow = readBits(bytes, dataStart, bit, width)
    unitHigh = 0
  } else {
    unitLow = readBits(bytes, dataStart, bit, 32)
    unitHigh = readBits(bytes, dataStart, bit + 32, width - 32)
  }
  multiplyInt64(unitLow, unitHigh, records[record + 4], records[record + 5])
  const low = (baseLow >>> 0) + (int64Result[0] >>> 0)
  int64Result[1] = baseHigh + int64Result[1] + (low > 0xffffffff ? 1 : 0)
  int64Result[0] = low
}
