/**
 * Pure-TypeScript block decoding with int32-only arithmetic: bits are read from
 * an aligned copy of the block's data, two words at a time, without branches on
 * the bit offset; 64-bit values are assembled as (low, high) words.
 */
import type { SequenceView } from '../backend.js'
import { BLOCK_SHIFT, BLOCK_VALUES, BlockKind } from '../../format/constants.js'
import { CorruptIndexException } from '../../format/errors.js'
import { int64Result, multiplyInt64, readInt32 } from '../../format/int64.js'
import { decodeRawCascade, getRawCascade } from '../../cascade/reader/decode-ts.js'

const TWO_POW_MINUS_32 = 2 ** -32
const tableWords = new Int32Array(2 * 256)

function tableIndexError(sequence: SequenceView, block: number, index: number, entries: number): never {
  throw new CorruptIndexException(
    sequence.fileName,
    `${sequence.label}: block ${block} has table index ${index}, beyond its ${entries} entries`,
  )
}

/**
 * Decodes values [from, to) of one block into destination at value position out.
 * Bit fields are read in place from the file's buffer as aligned words: `word`
 * counts from the aligned word holding the block's first byte and `bit` starts
 * at that byte's offset within it, so a field is (words[w] >>> s) | (words[w + 1] << (32 - s)),
 * written as << 1 << (31 - s) so that s = 0 needs no branch.
 */
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
  const words = sequence.bufferWords
  let start = sequence.dataStartInBuffer + records[record + 1]
  if (kind === BlockKind.table) {
    const entries = records[record + 4]
    const bytes = sequence.bytes
    const entriesStart = sequence.dataStart + records[record + 1]
    for (let entry = 0; entry < 2 * entries; entry++) tableWords[entry] = readInt32(bytes, entriesStart + 4 * entry)
    start += 8 * entries
    const wordBase = start >>> 2 // buffers stay below 2^32 bytes (the engine limit for one ArrayBuffer here)
    const mask = -1 >>> (32 - width)
    for (let index = from, bit = from * width + (start & 3) * 8; index < to; index++, bit += width, d += 2) {
      const word = wordBase + (bit >>> 5), shift = bit & 31
      const entry = ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask
      if (entry >= entries) tableIndexError(sequence, block, entry, entries)
      destination[d] = tableWords[2 * entry]
      destination[d + 1] = tableWords[2 * entry + 1]
    }
    return
  }
  const wordBase = start >>> 2 // buffers stay below 2^32 bytes (the engine limit for one ArrayBuffer here)
  const firstBit = from * width + (start & 3) * 8
  const divisorLow = records[record + 4], divisorHigh = records[record + 5]
  const unitDivisor = divisorLow === 1 && divisorHigh === 0
  // A carry into the high word happened iff the 32-bit sum is below the base as unsigned.
  const baseFlipped = baseLow ^ 0x80000000
  if (width <= 32) {
    const mask = -1 >>> (32 - width)
    if (unitDivisor && (baseLow >>> 0) + mask <= 0xffffffff) {
      // No unit can carry into the high word: the common case, branch-free and
      // unrolled by four.
      let index = from, bit = firstBit
      for (; index + 4 <= to; index += 4, d += 8) {
        let word = wordBase + (bit >>> 5), shift = bit & 31
        const value0 = baseLow + (((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask)
        bit += width
        word = wordBase + (bit >>> 5); shift = bit & 31
        const value1 = baseLow + (((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask)
        bit += width
        word = wordBase + (bit >>> 5); shift = bit & 31
        const value2 = baseLow + (((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask)
        bit += width
        word = wordBase + (bit >>> 5); shift = bit & 31
        const value3 = baseLow + (((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask)
        bit += width
        destination[d] = value0
        destination[d + 1] = baseHigh
        destination[d + 2] = value1
        destination[d + 3] = baseHigh
        destination[d + 4] = value2
        destination[d + 5] = baseHigh
        destination[d + 6] = value3
        destination[d + 7] = baseHigh
      }
      for (; index < to; index++, bit += width, d += 2) {
        const word = wordBase + (bit >>> 5), shift = bit & 31
        destination[d] = baseLow + (((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask)
        destination[d + 1] = baseHigh
      }
      return
    }
    if (divisorHigh === 0 && (divisorLow >>> 0) * mask <= 0xffffffff) {
      // g × u fits 32 bits (g = 1 with a base near 2^32, or small multiples such as
      // milliseconds in seconds): Math.imul, then an add with a carry test.
      const divisor = divisorLow
      let index = from, bit = firstBit
      for (; index + 4 <= to; index += 4, d += 8) {
        let word = wordBase + (bit >>> 5), shift = bit & 31
        const low0 = (baseLow + Math.imul(divisor, ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask)) | 0
        bit += width
        word = wordBase + (bit >>> 5); shift = bit & 31
        const low1 = (baseLow + Math.imul(divisor, ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask)) | 0
        bit += width
        word = wordBase + (bit >>> 5); shift = bit & 31
        const low2 = (baseLow + Math.imul(divisor, ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask)) | 0
        bit += width
        word = wordBase + (bit >>> 5); shift = bit & 31
        const low3 = (baseLow + Math.imul(divisor, ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask)) | 0
        bit += width
        destination[d] = low0
        destination[d + 1] = baseHigh + ((low0 ^ 0x80000000) < baseFlipped ? 1 : 0)
        destination[d + 2] = low1
        destination[d + 3] = baseHigh + ((low1 ^ 0x80000000) < baseFlipped ? 1 : 0)
        destination[d + 4] = low2
        destination[d + 5] = baseHigh + ((low2 ^ 0x80000000) < baseFlipped ? 1 : 0)
        destination[d + 6] = low3
        destination[d + 7] = baseHigh + ((low3 ^ 0x80000000) < baseFlipped ? 1 : 0)
      }
      for (; index < to; index++, bit += width, d += 2) {
        const word = wordBase + (bit >>> 5), shift = bit & 31
        const low = (baseLow + Math.imul(divisor, ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask)) | 0
        destination[d] = low
        destination[d + 1] = baseHigh + ((low ^ 0x80000000) < baseFlipped ? 1 : 0)
      }
      return
    }
    // Units times a divisor below 2^32 with products below 2^53: the product's low word is
    // Math.imul, its high word the exact double scaled by 2^-32 (no division).
    if (divisorHigh === 0 && (divisorLow >>> 0) * mask < 2 ** 53) {
      const divisor = divisorLow >>> 0
      let index = from, bit = firstBit
      for (; index + 2 <= to; index += 2, d += 4) {
        let word = wordBase + (bit >>> 5), shift = bit & 31
        const unit0 = (((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask) >>> 0
        bit += width
        word = wordBase + (bit >>> 5); shift = bit & 31
        const unit1 = (((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask) >>> 0
        bit += width
        const low0 = (baseLow + Math.imul(divisor, unit0)) | 0
        const low1 = (baseLow + Math.imul(divisor, unit1)) | 0
        destination[d] = low0
        destination[d + 1] = baseHigh + ((divisor * unit0 * TWO_POW_MINUS_32) | 0) + ((low0 ^ 0x80000000) < baseFlipped ? 1 : 0)
        destination[d + 2] = low1
        destination[d + 3] = baseHigh + ((divisor * unit1 * TWO_POW_MINUS_32) | 0) + ((low1 ^ 0x80000000) < baseFlipped ? 1 : 0)
      }
      for (; index < to; index++, bit += width, d += 2) {
        const word = wordBase + (bit >>> 5), shift = bit & 31
        const unit = (((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask) >>> 0
        const low = (baseLow + Math.imul(divisor, unit)) | 0
        destination[d] = low
        destination[d + 1] = baseHigh + ((divisor * unit * TWO_POW_MINUS_32) | 0) + ((low ^ 0x80000000) < baseFlipped ? 1 : 0)
      }
      return
    }
    for (let index = from, bit = firstBit; index < to; index++, bit += width, d += 2) {
      const word = wordBase + (bit >>> 5), shift = bit & 31
      const unit = ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask
      multiplyInt64(unit, 0, divisorLow, divisorHigh)
      const low = (baseLow + int64Result[0]) | 0
      destination[d] = low
      destination[d + 1] = baseHigh + int64Result[1] + ((low ^ 0x80000000) < baseFlipped ? 1 : 0)
    }
    return
  }
  if (width === 64 && unitDivisor && (start & 3) === 0) {
    // Whole words (a decoded chunk's scratch, raw fallback values): base 0 copies them, else each adds the base.
    const at = wordBase + 2 * from
    if (baseLow === 0 && baseHigh === 0) {
      destination.set(words.subarray(at, at + 2 * (to - from)), d)
      return
    }
    for (let w = at, end = at + 2 * (to - from); w < end; w += 2, d += 2) {
      const low = (baseLow + words[w]) | 0
      destination[d] = low
      destination[d + 1] = baseHigh + words[w + 1] + ((low ^ 0x80000000) < baseFlipped ? 1 : 0)
    }
    return
  }
  const highMask = -1 >>> (64 - width)
  for (let index = from, bit = firstBit; index < to; index++, bit += width, d += 2) {
    const word = wordBase + (bit >>> 5), shift = bit & 31
    let unitLow = (words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))
    let unitHigh = ((words[word + 1] >>> shift) | ((words[word + 2] << 1) << (31 - shift))) & highMask
    if (!unitDivisor) {
      multiplyInt64(unitLow, unitHigh, divisorLow, divisorHigh)
      unitLow = int64Result[0]
      unitHigh = int64Result[1]
    }
    const low = (baseLow + unitLow) | 0
    destination[d] = low
    destination[d + 1] = baseHigh + unitHigh + ((low ^ 0x80000000) < baseFlipped ? 1 : 0)
  }
}

/** Decodes raw values [first, first + count) of a sequence (v1, or any v2 form) into destination words. */
export function decodeRaw(sequence: SequenceView, first: number, count: number, destination: Int32Array, destinationIndex: number): void {
  if (sequence.cascade !== null) return decodeRawCascade(sequence, first, count, destination, destinationIndex)
  decodeRawV1(sequence, first, count, destination, destinationIndex)
}

/** Decodes raw values [first, first + count) of a sequence of v1's block kinds into destination words. */
export function decodeRawV1(sequence: SequenceView, first: number, count: number, destination: Int32Array, destinationIndex: number): void {
  const end = first + count
  let index = first
  let out = destinationIndex
  while (index < end) {
    const block = index >>> BLOCK_SHIFT
    const blockStart = block * BLOCK_VALUES
    const stop = Math.min(end, blockStart + BLOCK_VALUES)
    decodeBlock(sequence, block, index - blockStart, stop - blockStart, destination, out)
    out += stop - index
    index = stop
  }
}


/** One raw value of a sequence (v1, or any v2 form), into int64Result. */
export function getRaw(sequence: SequenceView, index: number): void {
  if (sequence.cascade !== null) return getRawCascade(sequence, index)
  getRawV1(sequence, index)
}

/** One raw value of v1's block kinds, into int64Result: one record read and one or two aligned word loads. */
export function getRawV1(sequence: SequenceView, index: number): void {
  const words = sequence.bufferWords
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
  let start = sequence.dataStartInBuffer + records[record + 1]
  if (kind === BlockKind.table) {
    const entries = records[record + 4]
    const bytes = sequence.bytes
    const entriesStart = sequence.dataStart + records[record + 1]
    start += 8 * entries
    const bit = position * width + (start & 3) * 8
    const word = (start >>> 2) + (bit >>> 5), shift = bit & 31
    const entry = ((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & (-1 >>> (32 - width))
    if (entry >= entries) tableIndexError(sequence, block, entry, entries)
    int64Result[0] = readInt32(bytes, entriesStart + 8 * entry)
    int64Result[1] = readInt32(bytes, entriesStart + 8 * entry + 4)
    return
  }
  // As in decodeBlock: aligned word loads from the buffer, the field's bit offset counted from an aligned word.
  const bit = position * width + (start & 3) * 8
  const word = (start >>> 2) + (bit >>> 5), shift = bit & 31
  let unitLow = (words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))
  let unitHigh = 0
  if (width <= 32) unitLow &= -1 >>> (32 - width)
  else unitHigh = ((words[word + 1] >>> shift) | ((words[word + 2] << 1) << (31 - shift))) & (-1 >>> (64 - width))
  if (records[record + 4] !== 1 || records[record + 5] !== 0) {
    multiplyInt64(unitLow, unitHigh, records[record + 4], records[record + 5])
    unitLow = int64Result[0]
    unitHigh = int64Result[1]
  }
  const low = (baseLow + unitLow) | 0
  int64Result[0] = low
  int64Result[1] = baseHigh + unitHigh + ((low ^ 0x80000000) < (baseLow ^ 0x80000000) ? 1 : 0)
}
