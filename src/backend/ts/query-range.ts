/**
 * matchRange for the TS backend: blocks are rejected or accepted whole from
 * their records; otherwise [lo, hi] becomes a range of u (packed units or table
 * indexes) and the inner loop is one unsigned compare per value.
 */
import type { SequenceView } from '../backend.js'
import type { BitsetMemory } from '../query-kernels.js'
import { BLOCK_VALUES, BlockKind } from '../../format/constants.js'
import { compareInt64 } from '../../format/int64.js'
import { decodeRaw } from './decode.js'
import { byteRange, plainBytesBelow } from '../../cascade/region-sequence.js'
import { matchMemberBytes } from './query-ordinals.js'
import { lowMask, orBits, orSelection, popcount, selectionBits } from '../bits.js'
import {
  block, ceilUnits, decoded, floorUnits, forEachBlock, halfStart, halvesOf, loadBlock, lowestBit, offsetFromBase, tableEntries,
  tableIndexError, unitAt,
} from './query-scan.js'

let loLow = 0, loHigh = 0, hiLow = 0, hiHigh = 0
let runMatched = 0

/** See QueryKernels.matchRange. */
export function matchRange(
  sequence: SequenceView, first: number, count: number, bounds: Int32Array,
  selection: BitsetMemory | null, selectionStart: number, out: BitsetMemory, outStart: number,
): number {
  loLow = bounds[0]; loHigh = bounds[1]; hiLow = bounds[2]; hiHigh = bounds[3]
  if (compareInt64(loLow, loHigh, hiLow, hiHigh) > 0) return 0
  const found = matchDecodedBytes(sequence, first, count, bounds, selection, out.words, outStart)
  if (found >= 0) return found
  runMatched = 0
  forEachBlock(sequence, first, count, outStart - selectionStart, selection, selectionStart, out.words, addBlockMatches)
  return runMatched
}

/**
 * A decoded view of 8-bit fields over base 0 (format 2's dictionary codes decoded once,
 * decoded-codes.ts), every value wanted and out bits from a word's start: one loop over the
 * whole range with no block steps (one value: four bytes a word; the rest, and a range, through
 * a table of the byte values it holds). -1: not such a case.
 */
function matchDecodedBytes(
  sequence: SequenceView, first: number, count: number, bounds: Int32Array, selection: BitsetMemory | null, out: Int32Array, outStart: number,
): number {
  const view = plainBytesBelow(sequence, 256)
  if (view === null || selection !== null || (outStart & 31) !== 0) return -1
  const [lo, hi] = byteRange(bounds)
  if (lo > hi) return 0
  const whole = lo === hi ? count & ~31 : 0
  const matched = whole === 0 ? 0 : matchByteWords(view.bufferWords, view.dataStartInBuffer + first, whole, lo, out, outStart >>> 5)
  for (let value = 0; value < 256; value++) inRangeTable[value] = value >= lo && value <= hi ? 1 : 0
  return matched + matchMemberBytes(view.bytes, view.dataStart + first + whole, count - whole, inRangeTable, null, 0, out, outStart + whole)
}

/** 1 for the byte values a range holds (matchDecodedBytes). */
const inRangeTable = new Uint8Array(256)

/**
 * The bytes [at, at + count) of the buffer under `words` (count a multiple of 32) equal to `value`,
 * a bit each into out from word `outWord`, four a word (two words shifted together where `at`
 * is not on a word): a byte is found zero in word ^ (value × 0x01010101) without carries between
 * bytes (the high bit of ((x & 0x7f…) + 0x7f…) | x is set for each nonzero byte).
 */
function matchByteWords(words: Int32Array, at: number, count: number, value: number, out: Int32Array, outWord: number): number {
  const spread = Math.imul(value, 0x01010101), shift = 8 * (at & 3)
  let matched = 0, word = at >>> 2
  for (let position = 0; position < count; position += 32, outWord++) {
    let hits = 0
    for (let quarter = 0; quarter < 8; quarter++, word++) {
      const x = (shift === 0 ? words[word] : (words[word] >>> shift) | (words[word + 1] << (32 - shift))) ^ spread
      const zero = ~((((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x)) & 0x80808080
      hits |= (((zero >>> 7) & 1) | ((zero >>> 14) & 2) | ((zero >>> 21) & 4) | ((zero >>> 28) & 8)) << (4 * quarter)
    }
    if (hits !== 0) {
      out[outWord] |= hits
      matched += popcount(hits)
    }
  }
  return matched
}

/** matchBlock with the out bit at a fixed distance (outShift) from the selection bit; its count goes to runMatched. */
function addBlockMatches(
  sequence: SequenceView, blockIndex: number, from: number, to: number, outShift: number,
  selection: Int32Array | null, selectionBit: number, out: Int32Array,
): void {
  runMatched += matchBlock(sequence, blockIndex, from, to, selection, selectionBit, out, selectionBit + outShift)
}

/** Copies the selected positions [from, to) into out (a block accepted whole). */
function acceptAll(selection: Int32Array | null, selectionBit: number, from: number, to: number, out: Int32Array, outBit: number): number {
  return orSelection(selection, selectionBit, out, outBit, to - from)
}

function inRange(low: number, high: number): boolean {
  return compareInt64(low, high, loLow, loHigh) >= 0 && compareInt64(low, high, hiLow, hiHigh) <= 0
}

function matchBlock(
  sequence: SequenceView, blockIndex: number, from: number, to: number,
  selection: Int32Array | null, selectionBit: number, out: Int32Array, outBit: number,
): number {
  loadBlock(sequence, blockIndex)
  if (block.kind === BlockKind.constant) {
    return inRange(block.baseLow, block.baseHigh) ? acceptAll(selection, selectionBit, from, to, out, outBit) : 0
  }
  let unitLo = 0, unitHi = 0
  if (block.kind === BlockKind.table) {
    // Entries ascend, so the matching ones are a run [unitLo, unitHi] of indexes.
    const entries = block.entries
    unitLo = 0
    while (unitLo < entries && compareInt64(tableEntries[2 * unitLo], tableEntries[2 * unitLo + 1], loLow, loHigh) < 0) unitLo++
    unitHi = entries - 1
    while (unitHi >= 0 && compareInt64(tableEntries[2 * unitHi], tableEntries[2 * unitHi + 1], hiLow, hiHigh) > 0) unitHi--
    if (unitLo > unitHi) return 0
    if (unitLo === 0 && unitHi === entries - 1) return acceptAll(selection, selectionBit, from, to, out, outBit)
    return matchUnits(sequence, blockIndex, from, to, selection, selectionBit, out, outBit, unitLo, unitHi, entries)
  }
  if (block.packedFast) {
    const loOffset = offsetFromBase(loLow, loHigh, block.baseLow, block.baseHigh)
    const hiOffset = offsetFromBase(hiLow, hiHigh, block.baseLow, block.baseHigh)
    if (hiOffset < 0 || loOffset > block.span) return 0
    unitLo = loOffset <= 0 ? 0 : ceilUnits(loOffset, block.divisor)
    unitHi = hiOffset >= block.span ? block.maxUnit : floorUnits(hiOffset, block.divisor)
    if (unitLo > unitHi) return 0
    if (unitLo === 0 && unitHi === block.maxUnit) return acceptAll(selection, selectionBit, from, to, out, outBit)
    return matchUnits(sequence, blockIndex, from, to, selection, selectionBit, out, outBit, unitLo, unitHi, -1)
  }
  decodeRaw(sequence, blockIndex * BLOCK_VALUES + from, to - from, decoded, 0)
  let matched = 0
  for (let position = from; position < to; position += 32) {
    let bits = selectionBits(selection, selectionBit + position - from, Math.min(32, to - position))
    let hits = 0
    while (bits !== 0) {
      const bit = lowestBit(bits)
      bits &= bits - 1
      const at = 2 * (position + bit - from)
      if (inRange(decoded[at], decoded[at + 1])) hits |= 1 << bit
    }
    orBits(out, outBit + position - from, hits)
    matched += popcount(hits)
  }
  return matched
}

/** u in [unitLo, unitHi] as one unsigned compare; entries ≥ 0 checks table indexes. */
function matchUnits(
  sequence: SequenceView, blockIndex: number, from: number, to: number,
  selection: Int32Array | null, selectionBit: number, out: Int32Array, outBit: number,
  unitLo: number, unitHi: number, entries: number,
): number {
  const words = sequence.bufferWords
  const width = block.width, mask = block.mask, wordBase = block.wordBase, bitOffset = block.bitOffset
  const spanWidth = unitHi - unitLo
  if (selection === null && entries < 0 && width < 32 && (outBit & 31) === 0) return matchAllUnits(sequence, words, from, to, out, outBit, unitLo, spanWidth)
  let matched = 0
  for (let position = from; position < to; position += 32) {
    const n = Math.min(32, to - position)
    let bits = selectionBits(selection, selectionBit + position - from, n)
    if (bits === 0) continue
    let hits = 0
    if (bits === lowMask(n) && entries < 0) {
      let bit = position * width + bitOffset
      if (width < 32) {
        // Units and bounds below 2^31 (kept int32 for V8): in range ⇔ d ≥ 0 and span - d ≥ 0, tested on the sign bit without a branch.
        const lo32 = unitLo | 0, span32 = spanWidth | 0
        for (let at = 0; at < n; at++, bit += width) {
          const word = wordBase + (bit >>> 5), shift = bit & 31
          const d = ((((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask) - lo32) | 0
          hits |= (((d | (span32 - d)) >>> 31) ^ 1) << at
        }
      } else {
        for (let at = 0; at < n; at++, bit += width) {
          const word = wordBase + (bit >>> 5), shift = bit & 31
          const unit = (words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))
          if (((unit - unitLo) >>> 0) <= spanWidth) hits |= 1 << at
        }
      }
    } else {
      while (bits !== 0) {
        const bit = lowestBit(bits)
        bits &= bits - 1
        const unit = unitAt(words, position + bit)
        if (entries >= 0 && unit >= entries) tableIndexError(sequence, blockIndex, unit, entries)
        if (((unit - unitLo) >>> 0) <= spanWidth) hits |= 1 << bit
      }
    }
    orBits(out, outBit + position - from, hits)
    matched += popcount(hits)
  }
  return matched
}

/** Every value of a packed block (w < 32) into word-aligned output: one int32 loop, whole hit words OR-ed in. */
function matchAllUnits(
  sequence: SequenceView, words: Int32Array, from: number, to: number, out: Int32Array, outBit: number, unitLo: number, spanWidth: number,
): number {
  const width = block.width, mask = block.mask, wordBase = block.wordBase
  const lo32 = unitLo | 0, span32 = spanWidth | 0
  const half = halfStart(sequence), halves = halvesOf(sequence)
  // Byte fields (keyword ordinals of at most 256 terms): read as they are too.
  const bytes = sequence.bytes, byteStart = width === 8 ? block.byteStart : -1
  let matched = 0
  let bit = from * width + block.bitOffset
  let outWord = outBit >>> 5
  if (byteStart >= 0 && spanWidth === 0) {
    // One value of byte fields: four bytes a word compared at once.
    const whole = (to - from) & ~31
    matched = matchByteWords(words, 4 * wordBase + block.bitOffset / 8 + from, whole, lo32, out, outWord)
    from += whole
    outWord += whole >>> 5
  }
  for (let position = from; position < to; position += 32, outWord++) {
    const n = Math.min(32, to - position)
    let hits = 0
    // 16-bit fields: read as they are.
    for (let at = 0; half >= 0 && at < n; at++) {
      const d = (halves[half + position + at] - lo32) | 0
      hits |= (((d | (span32 - d)) >>> 31) ^ 1) << at
    }
    for (let at = 0, b = byteStart + position; byteStart >= 0 && at < n; at++, b++) {
      const d = (bytes[b] - lo32) | 0
      hits |= (((d | (span32 - d)) >>> 31) ^ 1) << at
    }
    // Units and bounds below 2^31 (int32 for V8): in range ⇔ d ≥ 0 and span - d ≥ 0, read off the sign bit.
    for (let at = 0; half < 0 && byteStart < 0 && at < n; at++, bit += width) {
      const word = wordBase + (bit >>> 5), shift = bit & 31
      const d = ((((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask) - lo32) | 0
      hits |= (((d | (span32 - d)) >>> 31) ^ 1) << at
    }
    if (hits !== 0) {
      out[outWord] |= hits
      matched += popcount(hits)
    }
  }
  return matched
}
