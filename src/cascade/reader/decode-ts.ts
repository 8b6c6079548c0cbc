/**
 * The TypeScript backend's reads of v2 sequences (SequenceView.cascade): one
 * value (into int64Result) and runs of values (into int32 word pairs). Blocks
 * of v1's kinds go through v1's decoders; v2's kinds through their modules,
 * as offsets from the record's base; the sequence forms through their children.
 */
import type { BlocksCascade, DecimalCascade, DictionaryCascade, RunNumbers, RunsCascade, SequenceView } from '../../backend/backend.js'
import { decodeRawV1, getRawV1 } from '../../backend/ts/decode.js'
import { BLOCK_SHIFT, BLOCK_VALUES } from '../../format/constants.js'
import { CorruptIndexException } from '../../format/errors.js'
import { addOffset, float64ToSortable, int64Result, int64ToBigInt, readInt32, readUint32, sortableToFloat64Into } from '../../format/int64.js'
import { fieldAt } from '../bits.js'
import { checkpointRun } from '../block-layouts.js'
import { type BlockView, createBlockView, type OffsetRead, recordAux } from '../block-view.js'
import { Kind } from '../constants.js'
import { dictionaryOffset, dictionaryPairs } from '../blocks/dictionary.js'
import { frequentOffset, frequentPairs } from '../blocks/frequent.js'
import { linearOffset, linearPairs } from '../blocks/linear.js'
import { patchedGather, patchedOffset, patchedPairs } from '../blocks/patched.js'
import { runsOffset, runsPairs } from '../blocks/runs.js'
import { POWERS_OF_TEN } from '../powers-of-ten.js'

const TWO_POW_32 = 4294967296
const view: BlockView = createBlockView()

/** Points the shared block view at block `block` of a blocks sequence. */
function openBlock(sequence: SequenceView, block: number): number {
  const records = sequence.records, record = 6 * block
  view.words = sequence.bufferWords
  view.data = sequence.dataStartInBuffer + records[record + 1]
  view.n = Math.min(BLOCK_VALUES, sequence.count - block * BLOCK_VALUES)
  view.width = (records[record] >>> 8) & 0xff
  view.param = records[record] >>> 16
  view.baseLow = records[record + 2]; view.baseHigh = records[record + 3]
  view.records = records; view.record = record
  view.label = sequence.label
  view.fileName = sequence.fileName
  view.block = block
  return records[record] & 0xff
}

/** Each v2 kind's single read by kind code (v1's kinds 0-2 never come here: their slots are fillers). */
const OFFSET_READS: OffsetRead[] = [linearOffset, linearOffset, linearOffset, dictionaryOffset, runsOffset, frequentOffset, patchedOffset, linearOffset]

/** Offset from its base of value `index` of a blocks sequence, in block r / 6 of a v2 kind; NaN where the read must throw. */
function offsetAt(sequence: SequenceView, kind: number, r: number, index: number): number {
  const records = sequence.records, j = index & (BLOCK_VALUES - 1)
  return OFFSET_READS[kind](sequence.bufferWords, records, r, sequence.dataStartInBuffer + records[r + 1], Math.min(BLOCK_VALUES, sequence.count - (index - j)), j)
}

/** Values [from, to) of the open block (a v2 kind) as (low, high) pairs into destination from word d. */
function pairsOf(kind: number, from: number, to: number, destination: Int32Array, d: number): void {
  switch (kind) {
    case Kind.dictionary: return dictionaryPairs(view, from, to, destination, d)
    case Kind.runs: return runsPairs(view, from, to, destination, d)
    case Kind.frequent: return frequentPairs(view, from, to, destination, d)
    case Kind.patched: return patchedPairs(view, from, to, destination, d)
    default: return linearPairs(view, from, to, destination, d)
  }
}

/** Value `index` of a blocks sequence (any kinds) into int64Result. */
function blocksGet(sequence: SequenceView, index: number): void {
  const records = sequence.records, r = 6 * (index >>> BLOCK_SHIFT), kind = records[r] & 0xff
  if (kind <= Kind.frame) return getRawV1(sequence, index)
  const offset = offsetAt(sequence, kind, r, index)
  // NaN: a dictionary block's index beyond its entries, which the block's read of the value names (throws).
  if (offset !== offset) pairsOf(openBlock(sequence, index >>> BLOCK_SHIFT), index & (BLOCK_VALUES - 1), (index & (BLOCK_VALUES - 1)) + 1, codes, 0)
  addOffset(records[r + 2], records[r + 3], offset, int64Result, 0)
}

/** Values [first, first + count) of a blocks sequence into destination words from value out. */
function blocksDecode(sequence: SequenceView, first: number, count: number, destination: Int32Array, out: number): void {
  const end = first + count
  for (let index = first; index < end;) {
    const block = index >>> BLOCK_SHIFT, blockStart = block * BLOCK_VALUES
    const stop = Math.min(end, blockStart + BLOCK_VALUES)
    const kind = openBlock(sequence, block)
    if (kind <= Kind.frame) decodeRawV1(sequence, index, stop - index, destination, out)
    else {
      pairsOf(kind, index - blockStart, stop - blockStart, destination, 2 * out)
    }
    out += stop - index
    index = stop
  }
}

/** A code (low and high words, unsigned) not below the entries: named whole, high word and all. */
function codeError(sequence: SequenceView, index: number, low: number, high: number, entries: number): never {
  const code = BigInt.asUintN(64, int64ToBigInt(low, high))
  throw new CorruptIndexException(sequence.fileName, `${sequence.label}: value ${index} has dictionary code ${code}, beyond its ${entries} entries`)
}

function dictionaryGet(sequence: SequenceView, cascade: DictionaryCascade, index: number): void {
  blocksGet(cascade.codes, index)
  const code = int64Result[0] >>> 0, entries = cascade.entries.count
  if (int64Result[1] !== 0 || code >= entries) codeError(sequence, index, code, int64Result[1], entries)
  if (cascade.entryWords !== null) {
    int64Result[0] = cascade.entryWords[2 * code]
    int64Result[1] = cascade.entryWords[2 * code + 1]
  } else {
    blocksGet(cascade.entries, code)
  }
}

const codes = new Int32Array(2 * BLOCK_VALUES)

function dictionaryDecode(sequence: SequenceView, cascade: DictionaryCascade, first: number, count: number, destination: Int32Array, out: number): void {
  const entries = cascade.entries.count, entryWords = cascade.entryWords
  // A code block at a time: patched blocks of small codes map theirs as they read them.
  for (let done = 0, chunk = 0; done < count; done += chunk) {
    const index = first + done, blockStart = index - (index & (BLOCK_VALUES - 1))
    chunk = Math.min(count - done, blockStart + BLOCK_VALUES - index)
    if (entryWords !== null && openBlock(cascade.codes, index >>> BLOCK_SHIFT) === Kind.patched &&
      patchedGather(view, index - blockStart, index - blockStart + chunk, entryWords, entries, destination, 2 * (out + done))) continue
    blocksDecode(cascade.codes, first + done, chunk, codes, 0)
    if (entryWords !== null) {
      for (let at = 0, c = 0, d = 2 * (out + done); at < chunk; at++, c += 2, d += 2) {
        // An int32 code (not >>> 0, which makes a key V8 reads slowly): negative means ≥ 2^31.
        const code = codes[c]
        if (codes[c + 1] !== 0 || code < 0 || code >= entries) codeError(sequence, first + done + at, code, codes[c + 1], entries)
        destination[d] = entryWords[2 * code]
        destination[d + 1] = entryWords[2 * code + 1]
      }
      continue
    }
    for (let at = 0; at < chunk; at++) {
      const code = codes[2 * at] >>> 0
      if (codes[2 * at + 1] !== 0 || code >= entries) codeError(sequence, first + done + at, code, codes[2 * at + 1], entries)
      const d = 2 * (out + done + at)
      blocksGet(cascade.entries, code)
      destination[d] = int64Result[0]
      destination[d + 1] = int64Result[1]
    }
  }
}

/** Start of run `run` (a u32; corrupt starts are refused at open). */
function runStart(cascade: RunsCascade, run: number): number {
  return blocksNumber(cascade.starts, run)
}

/**
 * The run holding value `index`: the checkpoint's block, then a binary search of its runs, their
 * starts read from the sequence or, where given, from the numbers single reads keep (runNumberAt).
 */
function runOf(sequence: SequenceView, cascade: RunsCascade, index: number, starts: Uint32Array | null = null): number {
  const block = index >>> BLOCK_SHIFT
  let lo = checkpointRun(sequence, cascade, block), hi = checkpointRun(sequence, cascade, block + 1)
  while (lo < hi) {
    const middle = (lo + hi + 1) >>> 1
    if ((starts === null ? runStart(cascade, middle) : starts[middle]) <= index) lo = middle
    else hi = middle - 1
  }
  return lo
}

/** Runs a sequence may have for single reads to keep them as numbers (12 bytes a run: at most 12 MiB). */
const RUN_NUMBERS_MAX_RUNS = 1 << 20
/** A sequence with more runs keeps none: single reads search its starts. */
const NO_RUN_NUMBERS: RunNumbers = { filled: new Uint8Array(0), starts: new Uint32Array(0), values: new Float64Array(0) }
const runWords = new Int32Array(2 * BLOCK_VALUES)

/**
 * Room for the runs of a runs sequence as numbers, made on its first single read; each block's
 * runs are filled by the first read in the block (runNumberAt), so no read decodes them all. Starts
 * and checkpoints were checked at open.
 */
function runNumbersOf(cascade: RunsCascade): RunNumbers {
  const numbers = cascade.runCount > RUN_NUMBERS_MAX_RUNS ? NO_RUN_NUMBERS : {
    filled: new Uint8Array(Math.ceil(cascade.count / BLOCK_VALUES)), starts: new Uint32Array(cascade.runCount), values: new Float64Array(cascade.runCount),
  }
  cascade.runNumbers = numbers
  return numbers
}

/**
 * Fills block `block`'s runs of the numbers: starts, and values exact (NaN beyond 2^53, as
 * blocksNumber gives them); false where one of them cannot be decoded (a corrupt file).
 */
function fillBlock(sequence: SequenceView, cascade: RunsCascade, numbers: RunNumbers, block: number): boolean {
  const lo = checkpointRun(sequence, cascade, block), hi = checkpointRun(sequence, cascade, block + 1)
  try {
    for (let first = lo; first <= hi; first += BLOCK_VALUES) {
      const n = Math.min(BLOCK_VALUES, hi + 1 - first)
      decodeRawCascade(cascade.starts, first, n, runWords, 0)
      for (let index = 0; index < n; index++) numbers.starts[first + index] = runWords[2 * index]
      decodeRawCascade(cascade.values, first, n, runWords, 0)
      for (let index = 0; index < n; index++) numbers.values[first + index] = exactNumber(runWords[2 * index], runWords[2 * index + 1])
    }
  } catch {
    return false
  }
  numbers.filled[block] = 1
  return true
}

/**
 * Value `index` of a runs sequence as an exact number, found among its block's runs as numbers (each
 * probe was a block's read). NaN where the block's runs cannot be decoded (a corrupt value block):
 * the caller's read then meets the error, as before.
 */
function runNumberAt(sequence: SequenceView, cascade: RunsCascade, numbers: RunNumbers, index: number): number {
  const block = index >>> BLOCK_SHIFT
  if (numbers.filled[block] === 0 && !fillBlock(sequence, cascade, numbers, block)) return NaN
  return numbers.values[runOf(sequence, cascade, index, numbers.starts)]
}

function runsDecode(sequence: SequenceView, cascade: RunsCascade, first: number, count: number, destination: Int32Array, out: number): void {
  let run = runOf(sequence, cascade, first)
  for (let index = first; index < first + count; run++) {
    const end = Math.min(first + count, run + 1 < cascade.runCount ? runStart(cascade, run + 1) : cascade.count)
    blocksGet(cascade.values, run)
    const low = int64Result[0], high = int64Result[1]
    for (let d = 2 * (out + index - first); index < end; index++, d += 2) {
      destination[d] = low
      destination[d + 1] = high
    }
  }
}

/** The exception rank of value `index`, or -1 (binary search of the positions). */
function exceptionOf(sequence: SequenceView, cascade: DecimalCascade, index: number): number {
  let lo = 0, hi = cascade.exceptionCount - 1
  while (lo <= hi) {
    const middle = (lo + hi) >>> 1
    const position = readUint32(sequence.bytes, cascade.positionsStart + 4 * middle)
    if (position === index) return middle
    if (position < index) lo = middle + 1
    else hi = middle - 1
  }
  return -1
}

/** The rank of a decimal sequence's first exception at a position ≥ first (binary search). */
function firstException(sequence: SequenceView, cascade: DecimalCascade, first: number): number {
  let lo = 0, hi = cascade.exceptionCount
  while (lo < hi) {
    const middle = (lo + hi) >>> 1
    if (readUint32(sequence.bytes, cascade.positionsStart + 4 * middle) < first) lo = middle + 1
    else hi = middle
  }
  return lo
}

/** SortableBits of n / 10^e for the i64 n in int64Result, back into int64Result. */
function decimalToRaw(exponent: number): void {
  const n = int64Result[1] * TWO_POW_32 + (int64Result[0] >>> 0)
  float64ToSortable(n / POWERS_OF_TEN[exponent])
}

// The bits of a double, read through an aliasing view (little-endian, as every supported platform is).
const doubleBits = new Float64Array(1)
const doubleWords = new Int32Array(doubleBits.buffer)

function decimalGet(sequence: SequenceView, cascade: DecimalCascade, index: number): void {
  const rank = exceptionOf(sequence, cascade, index)
  if (rank >= 0) {
    int64Result[0] = readInt32(sequence.bytes, cascade.exceptionsStart + 8 * rank)
    int64Result[1] = readInt32(sequence.bytes, cascade.exceptionsStart + 8 * rank + 4)
    return
  }
  getRawCascade(cascade.integers, index)
  decimalToRaw(cascade.exponent)
}

function decimalDecode(sequence: SequenceView, cascade: DecimalCascade, first: number, count: number, destination: Int32Array, out: number): void {
  decodeRawCascade(cascade.integers, first, count, destination, out)
  const scale = POWERS_OF_TEN[cascade.exponent]
  const byte = destination.byteOffset + 8 * out
  if ((byte & 7) === 0) {
    // Each pair becomes its double in place (n's double: one rounding, as the i64 conversion; then / 10^e),
    // then SortableBits: negative doubles flip all but the sign bit.
    const doubles = new Float64Array(destination.buffer, byte, count)
    for (let at = 0, d = 2 * out; at < count; at++, d += 2) doubles[at] = (destination[d + 1] * TWO_POW_32 + (destination[d] >>> 0)) / scale
    for (let d = 2 * out, end = 2 * (out + count); d < end; d += 2) {
      const high = destination[d + 1]
      if (high < 0) {
        destination[d] = ~destination[d]
        destination[d + 1] = high ^ 0x7fffffff
      }
    }
  } else {
    for (let d = 2 * out, end = 2 * (out + count); d < end; d += 2) {
      doubleBits[0] = (destination[d + 1] * TWO_POW_32 + (destination[d] >>> 0)) / scale
      const low = doubleWords[0], high = doubleWords[1]
      destination[d] = high < 0 ? ~low : low
      destination[d + 1] = high < 0 ? high ^ 0x7fffffff : high
    }
  }
  // The exceptions in [first, first + count): the first position ≥ first, then in order.
  for (let rank = firstException(sequence, cascade, first); rank < cascade.exceptionCount; rank++) {
    const position = readUint32(sequence.bytes, cascade.positionsStart + 4 * rank)
    if (position >= first + count) break
    const d = 2 * (out + position - first)
    destination[d] = readInt32(sequence.bytes, cascade.exceptionsStart + 8 * rank)
    destination[d + 1] = readInt32(sequence.bytes, cascade.exceptionsStart + 8 * rank + 4)
  }
}

/** The i64 of words (low, high) as an exact number, NaN beyond 2^53. */
function exactNumber(low: number, high: number): number {
  const value = high * TWO_POW_32 + (low >>> 0)
  return Number.isSafeInteger(value) ? value : NaN
}

/** Value `index` of a blocks sequence as an exact number; NaN beyond 2^53 (or where the read must throw: getRaw then throws). */
function blocksNumber(sequence: SequenceView, index: number): number {
  const records = sequence.records, r = 6 * (index >>> BLOCK_SHIFT), head = records[r], kind = head & 0xff
  const baseLow = records[r + 2], baseHigh = records[r + 3]
  const base = baseHigh * TWO_POW_32 + (baseLow >>> 0)
  let offset: number
  if (kind < Kind.dictionary) {
    // v1's kinds: a constant, or a packed field (≤ 53 bits) times g while that is exact; tables,
    // wider fields and offsets past 2^53 go through v1's 64-bit read.
    const width = head >>> 8
    if (kind === Kind.constant) offset = 0
    else if (kind === Kind.frame && width <= 53) offset = recordAux(records, r) * fieldAt(sequence.bufferWords, sequence.dataStartInBuffer + records[r + 1], index & (BLOCK_VALUES - 1), width)
    else offset = Infinity
    if (!(offset <= Number.MAX_SAFE_INTEGER)) {
      getRawV1(sequence, index)
      return exactNumber(int64Result[0], int64Result[1])
    }
  } else {
    offset = offsetAt(sequence, kind, r, index)
  }
  // Both terms integers below 2^53: a sum that is a safe integer is exact. A base beyond 2^53 (its
  // double inexact) is added in 64 bits. A NaN offset (a read that must throw) gives NaN.
  if (Number.isSafeInteger(base)) {
    const value = base + offset
    return Number.isSafeInteger(value) ? value : NaN
  }
  if (offset !== offset) return NaN
  addOffset(baseLow, baseHigh, offset, int64Result, 0)
  return exactNumber(int64Result[0], int64Result[1])
}

/** A sequence dictionary's codes [first, first + count) as (low, high) words into destination from word 0. */
export function decodeDictionaryCodes(cascade: DictionaryCascade, first: number, count: number, destination: Int32Array): void {
  blocksDecode(cascade.codes, first, count, destination, 0)
}

/**
 * Value `index` of an integer sequence (v1 blocks, or any v2 form) as an exact number, NaN beyond
 * 2^53 or where the read must throw (the caller's getRaw then throws the error): the TypeScript
 * backend's getNumber. Blocks, dictionaries and runs go without int64Result between levels.
 */
export function getNumberCascade(sequence: SequenceView, index: number): number {
  const cascade = sequence.cascade
  if (cascade !== null && cascade.form !== 3) {
    if (cascade.form === 0) return blocksNumber(cascade.blocks, index)
    if (cascade.form === 2) {
      const numbers = cascade.runNumbers ?? runNumbersOf(cascade)
      if (numbers !== NO_RUN_NUMBERS) return runNumberAt(sequence, cascade, numbers, index)
      return blocksNumber(cascade.values, runOf(sequence, cascade, index))
    }
    const code = blocksNumber(cascade.codes, index), entryWords = cascade.entryWords
    if (!(code >= 0 && code < cascade.entries.count)) return NaN
    if (entryWords === null) return blocksNumber(cascade.entries, code)
    return exactNumber(entryWords[2 * code], entryWords[2 * code + 1])
  }
  getRawCascade(sequence, index)
  return exactNumber(int64Result[0], int64Result[1])
}

/** Value `index` of a v2 sequence (any form, or v1 blocks) into int64Result. */
export function getRawCascade(sequence: SequenceView, index: number): void {
  const cascade = sequence.cascade
  if (cascade === null) return getRawV1(sequence, index)
  switch (cascade.form) {
    case 0: return blocksGet((cascade as BlocksCascade).blocks, index)
    case 1: return dictionaryGet(sequence, cascade, index)
    case 2: return blocksGet(cascade.values, runOf(sequence, cascade, index))
    case 3: return decimalGet(sequence, cascade, index)
  }
}

/** Values [first, first + count) of a v2 sequence (any form, or v1 blocks) into destination words from value out. */
export function decodeRawCascade(sequence: SequenceView, first: number, count: number, destination: Int32Array, out: number): void {
  const cascade = sequence.cascade
  if (cascade === null) return decodeRawV1(sequence, first, count, destination, out)
  switch (cascade.form) {
    case 0: return blocksDecode(cascade.blocks, first, count, destination, out)
    case 1: return dictionaryDecode(sequence, cascade, first, count, destination, out)
    case 2: return runsDecode(sequence, cascade, first, count, destination, out)
    case 3: return decimalDecode(sequence, cascade, first, count, destination, out)
  }
}

const integers = new Int32Array(2 * BLOCK_VALUES)

/**
 * Values [first, first + count) of a decimal sequence (form 3) as doubles into destination from
 * index at: each n / 10^e straight from its integer (no SortableBits between), the exceptions'
 * raw values converted, as decimalDecode's words would give.
 */
export function decimalDoubles(sequence: SequenceView, first: number, count: number, destination: Float64Array, at: number): void {
  const cascade = sequence.cascade as DecimalCascade
  const scale = POWERS_OF_TEN[cascade.exponent]
  for (let done = 0; done < count; done += BLOCK_VALUES) {
    const chunk = Math.min(BLOCK_VALUES, count - done)
    decodeRawCascade(cascade.integers, first + done, chunk, integers, 0)
    for (let index = 0, w = 0, o = at + done; index < chunk; index++, w += 2, o++) destination[o] = (integers[w + 1] * TWO_POW_32 + (integers[w] >>> 0)) / scale
  }
  for (let rank = firstException(sequence, cascade, first); rank < cascade.exceptionCount; rank++) {
    const position = readUint32(sequence.bytes, cascade.positionsStart + 4 * rank)
    if (position >= first + count) break
    sortableToFloat64Into(readInt32(sequence.bytes, cascade.exceptionsStart + 8 * rank), readInt32(sequence.bytes, cascade.exceptionsStart + 8 * rank + 4), destination, at + position - first)
  }
}
