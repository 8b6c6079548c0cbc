/**
 * The query half of the backend seam: kernels that answer facet, filter and
 * aggregation questions from a value sequence's blocks without materialising
 * values. Both backends implement it with identical results (and identical
 * error messages); src/kernels maps documents to values (layouts) around it.
 *
 * Conventions shared by every kernel:
 * - A kernel reads the values [first, first + count) of one sequence.
 * - `selection` chooses values: bit (selectionStart + i) of its words selects
 *   value first + i (bit b of a bitset is bit b & 31 of word b >> 5). null
 *   selects every value. A dense column passes its DocSet as it is, with
 *   selectionStart = first (the value index is the document).
 * - Raw values are signed i64 given as [low, high] int32 word pairs; comparisons
 *   are signed (fractional/geo raw values are SortableBits, so raw order is
 *   double order with -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN).
 * - Block records bound whole blocks (constant: one value; packed: [base,
 *   base + g (2^w - 1)]; table: first and last entries exact), so kernels skip
 *   or accept whole blocks and translate bounds into the packed u space.
 * - A table index out of range raises the same CorruptIndexException as a read.
 */
import type { SequenceView } from './backend.js'
import { compareInt64 } from '../format/int64.js'

/** Words of a bitset that kernels read and write in place (WebAssembly: in linear memory, no copy per call). */
export interface BitsetMemory {
  /** The words; a getter: with WebAssembly, re-read it after anything that may grow memory (an open, an allocation). */
  readonly words: Int32Array
  /** Byte address of word 0 in the backend's memory (16-aligned; 0 for the TS backend). */
  readonly address: number
  readonly wordCount: number
  /** Gives the memory back (WebAssembly); the words must not be used afterwards. Idempotent. */
  release(): void
}

/**
 * Running totals of `aggregate`, carried across calls (several runs, chunks).
 * integers: words = [minLow, minHigh, maxLow, maxHigh, sum0, sum1, sum2, sum3]
 * (sum: 128-bit two's complement, little-endian words, exact for any 2^32 i64 values);
 * doubles ('sortable' mode): min/max are raw SortableBits, sum is the double sum in
 * value order (sequential addition, so both backends agree bit for bit).
 */
export interface AggregateState {
  /** [count, sumDouble, nanCount]; count of the selected values seen so far (nanCount: kept by the callers that leave NaN out). */
  readonly numbers: Float64Array
  /** min, max raw and the 128-bit integer sum (see above). Meaningless while count is 0. */
  readonly words: Int32Array
}

/** How aggregate treats raw values: integers (sum exact in 128 bits) or SortableBits doubles (sum in double). */
export type AggregateMode = 'integer' | 'sortable'

/** A fresh, empty aggregate state; its double sum starts at -0, IEEE's additive identity (+0 would turn a sum of -0s into +0). */
export function createAggregateState(): AggregateState {
  const numbers = new Float64Array(3)
  numbers[1] = -0
  return { numbers, words: new Int32Array(8) }
}

const TWO_POW_32 = 4294967296

/** Adds the signed i64 (low, high) × 2^(32 shift) (shift 0 or 1) to the 128-bit sum in words[4..7]. */
export function addToSum(words: Int32Array, low: number, high: number, shift: number): void {
  let at = 4 + shift
  let total = (words[at] >>> 0) + (low >>> 0)
  words[at++] = total | 0
  let carry = total >= TWO_POW_32 ? 1 : 0
  total = (words[at] >>> 0) + (high >>> 0) + carry
  words[at++] = total | 0
  carry = total >= TWO_POW_32 ? 1 : 0
  const extension = high < 0 ? 0xffffffff : 0
  for (; at < 8; at++) {
    total = (words[at] >>> 0) + extension + carry
    words[at] = total | 0
    carry = total >= TWO_POW_32 ? 1 : 0
  }
}

/** Adds Σ low words (unsigned) and Σ high words (signed) of values, each summed apart exactly in a double, to the 128-bit sum. */
export function addSplitSums(words: Int32Array, lows: number, highs: number): void {
  const lowsHigh = Math.floor(lows / TWO_POW_32)
  addToSum(words, lows - lowsHigh * TWO_POW_32, lowsHigh, 0)
  const highsHigh = Math.floor(highs / TWO_POW_32)
  addToSum(words, highs - highsHigh * TWO_POW_32, highsHigh, 1)
}

/** Folds a smallest and a largest candidate into min/max (before the count grows: count 0 seeds both). */
export function foldExtremes(state: AggregateState, minLow: number, minHigh: number, maxLow: number, maxHigh: number): void {
  const words = state.words
  const seed = state.numbers[0] === 0
  if (seed || compareInt64(minLow, minHigh, words[0], words[1]) < 0) { words[0] = minLow; words[1] = minHigh }
  if (seed || compareInt64(maxLow, maxHigh, words[2], words[3]) > 0) { words[2] = maxLow; words[3] = maxHigh }
}

/** In-place operations of combineBits: target = target & other, target | other, target & ~other. */
export type BitsetOperation = 'and' | 'or' | 'andNot'

/** Kernels each backend provides for queries (see the conventions above). */
export interface QueryKernels {
  /** A zeroed bitset of wordCount int32 words in the backend's memory. */
  allocateBitset(wordCount: number): BitsetMemory
  /** Set bits of the whole bitset. */
  countBits(bitset: BitsetMemory): number
  /** target = target op other, word by word (both of target's wordCount, from this backend). */
  combineBits(target: BitsetMemory, other: BitsetMemory, operation: BitsetOperation): void
  /**
   * counts[raw] += 1 for each selected value (ordinals, bools). A raw value outside
   * [0, counts.length) raises CorruptIndexException(fileName,
   * `${label}: value ${valueIndex} is ${raw}, not in [0, ${counts.length})`), counts left partly updated.
   */
  countValues(
    sequence: SequenceView, first: number, count: number,
    selection: BitsetMemory | null, selectionStart: number, counts: Uint32Array,
  ): void
  /**
   * Format 2, optional (the WebAssembly backend): countValues over a cascade of any form, each
   * block decoded and counted inside the kernel. False, with counts untouched, when a value is
   * out of range or a read fails, or the sequence is not a cascade (blocks of v1's kinds alone):
   * the caller then counts the way that words the error.
   */
  countDecoded?(
    sequence: SequenceView, first: number, count: number,
    selection: BitsetMemory | null, selectionStart: number, counts: Uint32Array,
  ): boolean
  /**
   * Format 2, optional (the WebAssembly backend): sets bit (outStart + i) of out for each selected
   * code first + i of a sequence dictionary's codes whose member byte (members[code], one per
   * entry) is 1, and returns how many matched; -1 when a code is not below members.length or a
   * read fails (bits may be set already, all of them matches): the caller then filters the way
   * that words the error.
   */
  matchMembers?(
    codes: SequenceView, first: number, count: number, members: Uint8Array,
    selection: BitsetMemory | null, selectionStart: number, out: BitsetMemory, outStart: number,
  ): number
  /**
   * Format 2, optional (the WebAssembly backend): as matchMembers, for the codes in [lo, hi]
   * (0 ≤ lo ≤ hi < k), k the dictionary's entry count.
   */
  matchCodeSpan?(
    codes: SequenceView, first: number, count: number, k: number, lo: number, hi: number,
    selection: BitsetMemory | null, selectionStart: number, out: BitsetMemory, outStart: number,
  ): number
  /**
   * Sets bit (outStart + i) of out for each selected value first + i of a sequence v1's kernels
   * read (cascade null) whose member byte (members[value], one per ordinal) is 1, and returns how
   * many matched; -1 when a value is not below members.length or (WebAssembly) a block fails to
   * decode (bits may be set already, all of them matches): the caller then filters the way that
   * words the error.
   */
  matchOrdinals(
    sequence: SequenceView, first: number, count: number, members: Uint8Array,
    selection: BitsetMemory | null, selectionStart: number, out: BitsetMemory, outStart: number,
  ): number
  /**
   * Sets bit (outStart + i) of out for each selected value first + i with
   * lo ≤ raw ≤ hi, bounds = [loLow, loHigh, hiLow, hiHigh]; other bits are left as
   * they are. Returns how many values matched.
   */
  matchRange(
    sequence: SequenceView, first: number, count: number, bounds: Int32Array,
    selection: BitsetMemory | null, selectionStart: number, out: BitsetMemory, outStart: number,
  ): number
  /**
   * Optional (format 2's adapter): as matchRange for a value in any of several disjoint
   * ranges, bounds = 4 words a range, in one pass where the encoding allows (a sequence
   * dictionary's codes looked up in its matching entries).
   */
  matchRanges?(
    sequence: SequenceView, first: number, count: number, bounds: Int32Array,
    selection: BitsetMemory | null, selectionStart: number, out: BitsetMemory, outStart: number,
  ): number
  /** Adds the selected values to state (count, min, max, sum; see AggregateState). */
  aggregate(
    sequence: SequenceView, first: number, count: number, mode: AggregateMode,
    selection: BitsetMemory | null, selectionStart: number, state: AggregateState,
  ): void
  /**
   * counts[b] += 1 for each selected value with edge b ≤ raw < edge b + 1, where
   * edges = raw i64 [low, high] pairs, strictly increasing, and counts.length =
   * edges.length / 2 - 1. Values below the first edge or at/after the last are not counted.
   */
  histogram(
    sequence: SequenceView, first: number, count: number, edges: Int32Array,
    selection: BitsetMemory | null, selectionStart: number, counts: Uint32Array,
  ): void
  /**
   * Format 2, optional (the WebAssembly backend): as histogram, over a stretch of run blocks of a
   * form-0 sequence (every block in [first, first + count) a run block). False when it cannot say
   * (a block whose run starts do not ascend): counts are then left as they were.
   */
  histogramRuns?(
    sequence: SequenceView, first: number, count: number, edges: Int32Array,
    selection: BitsetMemory | null, selectionStart: number, counts: Uint32Array,
  ): boolean
  /**
   * Format 2, optional (the WebAssembly backend): an integer aggregate, as aggregate, over a
   * stretch of run blocks of a form-0 sequence. False when it cannot say (a block that is not a
   * run block, or whose run starts do not ascend): the state is then left as it was.
   */
  aggregateRuns?(
    sequence: SequenceView, first: number, count: number, selection: BitsetMemory | null, selectionStart: number, state: AggregateState,
  ): boolean
  /**
   * Multi layout, documents [from, to) (from a multiple of 32): document d holds values
   * [offsets[d], offsets[d + 1]) of `values`, and bit d - from of docs selects it (null: all).
   * counts[o] += 1 for each selected document holding ordinal o, once however often it holds it.
   * An ordinal outside [0, counts.length) raises countValues' CorruptIndexException.
   */
  countDistinct(
    offsets: SequenceView, values: SequenceView, from: number, to: number, docs: BitsetMemory | null, counts: Uint32Array,
  ): void
  /**
   * Multi layout, documents [from, to) (from a multiple of 32): the two bitsets matchAny reads,
   * both zeroed, counted from the range's first document and first value f = offsets[from]: bit
   * d - from of nonempty for each document d with a value, bit offsets[d] - f of starts for each
   * of them and bit offsets[to] - f (starts has room for it). Decodes the offsets alone.
   */
  markDocumentStarts(offsets: SequenceView, values: SequenceView, from: number, to: number, starts: BitsetMemory, nonempty: BitsetMemory): void
  /**
   * Multi layout, documents [0, docCount) of `valueCount` values, mapped through markDocumentStarts'
   * bitsets (a range's count every bit from the range's first document and value). With a value
   * bitset `test` (bit v: value v matches), sets bit d of out for each document selected by docs
   * (null: all) with a matching value and clears the others (every word of out for the documents
   * is written; out may be docs). With test null, the selected documents' values instead: every
   * word of out (a value bitset) written, bit v set iff a selected document holds value v.
   */
  matchAny(
    starts: BitsetMemory, nonempty: BitsetMemory, valueCount: number, docCount: number, docs: BitsetMemory | null,
    test: BitsetMemory | null, out: BitsetMemory,
  ): void
  /**
   * countDistinct's walk over documents [0, to), none left out, marking as it counts: adds
   * countDistinct's counts to `counts` (its length is the ordinal limit n; an ordinal outside
   * [0, n) raises countDistinct's error at the same value), sets bit v of out (a value bitset,
   * zeroed) for each value that is the first of its ordinal in its document, so that countValues
   * over those bits gives the same counts, and lists the other values (repeats) in order, their
   * value indexes in positions and ordinals in ordinals, as many as those have room for.
   * Returns the number of repeats.
   */
  markFirstValues(
    offsets: SequenceView, values: SequenceView, to: number, out: BitsetMemory, counts: Uint32Array,
    positions: Uint32Array, ordinals: Uint32Array,
  ): number
  /**
   * A sequence to decode a column's values from for a question: a format 2 dictionary's codes
   * decoded once where they hold the values (src/cascade/decoded-codes.ts), else the sequence.
   */
  plainSequence?(values: SequenceView): SequenceView
}
