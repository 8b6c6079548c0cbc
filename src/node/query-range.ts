/**
 * The query kernels over one document RANGE [from, to) of a column, for the
 * worker pool: each worker answers its own range and the pool merges. Built on
 * the backend's query seam (first/count/selectionStart) exactly as src/kernels
 * builds the whole-column queries, so results add up to theirs: counts are
 * per value and ranges do not overlap. `from` is a multiple of 1,024 and `to`
 * is one too or maxDoc, so a range owns whole words of every document bitset
 * and workers writing one shared result bitset never touch the same word.
 */
import type { ColumnsBackend, SequenceView } from '../backend/backend.js'
import { createAggregateState, type AggregateState, type BitsetMemory } from '../backend/query-kernels.js'
import { orBits, popcount, selectionBits, wordsFor } from '../backend/bits.js'
import { CorruptIndexException } from '../format/errors.js'
import { int64Result, int64ToBigInt } from '../format/int64.js'
import { expectType } from '../kernels/common.js'
import { anyBitInRange, compressBits, depositBits, documentStarts } from '../kernels/layout.js'
import type { NaturalValue } from '../kernels/natural-units.js'
import { aggregateValues, histogramOfValues } from '../kernels/aggregations.js'
import { countFirstValuesIn, selectsValues } from '../kernels/facets.js'
import type { Column } from '../read/column.js'

/** Documents [from, to) of a column. */
export interface DocumentRange {
  from: number
  to: number
}

/** Raw inclusive [lo, hi] pairs a filter ORs together. */
export type RawRanges = [bigint, bigint][]

/** A kernel selection: memory, the bit that selects the range's first value, and whether to release it. */
interface Selection {
  memory: BitsetMemory | null
  start: number
  temporary: boolean
}

const NO_SELECTION: Selection = { memory: null, start: 0, temporary: false }

/** Plain words as kernel memory: the TS kernels read and write them in place (here: shared memory, zero-copy). */
function inPlace(words: Int32Array): BitsetMemory {
  return { words, address: 0, wordCount: words.length, release() {} }
}

function release(selection: Selection): void {
  if (selection.temporary) selection.memory!.release()
}

/** Whether the backend's kernels can use shared words as they are (WebAssembly needs them in its linear memory). */
function usesWordsInPlace(backend: ColumnsBackend): boolean {
  return backend.name === 'ts'
}

/** Values [start, end) of the documents in the range. */
export function valueRange(column: Column, backend: ColumnsBackend, range: DocumentRange): [number, number] {
  if (column.layout === 'dense') return [range.from, range.to]
  const edge = (document: number): number => {
    if (document === column.maxDoc) return column.totalValueCount
    if (column.presence !== null) return column.presence.ranks[document / 64]
    backend.getRaw(column.offsets!, document)
    return int64Result[0] >>> 0
  }
  return [edge(range.from), edge(range.to)]
}

/** The range's documents of `filter` as a selection of the range's values (bit `start` selects value `first`). */
function selectValues(
  column: Column, backend: ColumnsBackend, filter: Int32Array | null, range: DocumentRange, first: number, end: number,
): Selection {
  if (filter === null) return NO_SELECTION
  const { from, to } = range
  if (column.layout === 'dense') {
    if (usesWordsInPlace(backend)) return { memory: inPlace(filter), start: from, temporary: false }
    const memory = backend.query.allocateBitset(Math.max(1, wordsFor(to - from)))
    memory.words.set(filter.subarray(from >>> 5, wordsFor(to)))
    return { memory, start: 0, temporary: true }
  }
  const memory = backend.query.allocateBitset(Math.max(1, wordsFor(end - first)))
  if (column.layout === 'optional') {
    const out = memory.words
    const presence = column.presence!.words
    let position = 0
    for (let word = from >>> 5, words = wordsFor(to); word < words; word++) {
      const present = presence[word]
      if (present === 0) continue
      const chosen = filter[word] & present
      if (chosen !== 0) orBits(out, position, present === -1 ? chosen : compressBits(chosen, present))
      position += popcount(present)
    }
    return { memory, start: 0, temporary: true }
  }
  // Multi: the kernel sets the selected documents' values, through the range's starts bitsets.
  const docs = rangeWords(backend, filter, range, true)
  try {
    const { starts, nonempty } = documentStarts(column, backend, from, to, first, end)
    backend.query.matchAny(starts, nonempty, end - first, to - from, docs, null, memory)
  } catch (error) {
    memory.release()
    throw error
  } finally {
    docs.release()
  }
  return { memory, start: 0, temporary: true }
}

/**
 * The range's words of a document bitset as kernel memory: in place (TS), or WebAssembly memory
 * holding a copy of them (`copyIn`; else the kernel is to write every word).
 */
function rangeWords(backend: ColumnsBackend, words: Int32Array, range: DocumentRange, copyIn: boolean): BitsetMemory {
  const own = words.subarray(range.from >>> 5, wordsFor(range.to))
  if (usesWordsInPlace(backend)) return inPlace(own)
  const memory = backend.query.allocateBitset(Math.max(1, own.length))
  if (copyIn) memory.words.set(own)
  return memory
}

/** Multi: countDistinct over the range, the filter's words of the range in place (TS) or copied into WebAssembly's memory. */
function countDistinctInRange(column: Column, backend: ColumnsBackend, filter: Int32Array | null, range: DocumentRange, counts: Uint32Array): void {
  const words = filter === null ? null : filter.subarray(range.from >>> 5, wordsFor(range.to))
  let docs: BitsetMemory | null = null
  if (words !== null) {
    docs = usesWordsInPlace(backend) ? inPlace(words) : backend.query.allocateBitset(words.length)
    if (docs.words !== words) docs.words.set(words)
  }
  try {
    backend.query.countDistinct(column.offsets!, column.values, range.from, range.to, docs, counts)
  } finally {
    docs?.release()
  }
}

/** Documents of the range the filter selects (ranges start at a multiple of 32; bits past maxDoc are clear). */
function selectedIn(filter: Int32Array, range: DocumentRange): number {
  let count = 0
  for (let word = range.from >>> 5, end = wordsFor(range.to); word < end; word++) count += popcount(filter[word])
  return count
}

/** facetCounts of the range's documents (keyword: per ordinal; bool: [false, true]). */
export function facetCountsInRange(column: Column, backend: ColumnsBackend, filter: Int32Array | null, range: DocumentRange): Uint32Array {
  expectType(column, 'facetCounts', column.type === 'keyword' || column.type === 'bool', 'keyword/bool')
  const counts = new Uint32Array(column.type === 'bool' ? 2 : column.dictionary!.termCount)
  if (column.layout === 'multi') {
    // Every document of the range: its values first of their term in their document, kept by the
    // column (a walk of every document the first time, then a count), as a reader's own facet does.
    if (filter === null) {
      const [first, end] = valueRange(column, backend, range)
      countFirstValuesIn(column, backend, first, end, null, counts)
    } else if (selectsValues(column, backend, selectedIn(filter, range), range.to - range.from)) {
      // Many selected: their values selected, and those first of their term counted (as a reader's own facet).
      const [first, end] = valueRange(column, backend, range)
      const selection = selectValues(column, backend, filter, range, first, end)
      try {
        countFirstValuesIn(column, backend, first, end, selection.memory!, counts)
      } finally {
        release(selection)
      }
    } else countDistinctInRange(column, backend, filter, range, counts)
    return counts
  }
  const [first, end] = valueRange(column, backend, range)
  const selection = selectValues(column, backend, filter, range, first, end)
  try {
    backend.query.countValues(column.values, first, end - first, selection.memory, selection.start, counts)
  } finally {
    release(selection)
  }
  return counts
}

const bounds = new Int32Array(4)

function setBounds(lo: bigint, hi: bigint): Int32Array {
  bounds[0] = Number(BigInt.asIntN(32, lo)); bounds[1] = Number(BigInt.asIntN(32, lo >> 32n))
  bounds[2] = Number(BigInt.asIntN(32, hi)); bounds[3] = Number(BigInt.asIntN(32, hi >> 32n))
  return bounds
}

function matchRanges(
  backend: ColumnsBackend, sequence: SequenceView, first: number, count: number, ranges: RawRanges,
  selection: Selection, out: BitsetMemory, outStart: number,
): void {
  for (const [lo, hi] of ranges) {
    if (lo <= hi) backend.query.matchRange(sequence, first, count, setBounds(lo, hi), selection.memory, selection.start, out, outStart)
  }
}

/**
 * Sets in `out` (the whole shared result bitset, its range still clear) the
 * range's documents with a value in `ranges` (and, for geo, whose same value's
 * second coordinate is in second.ranges).
 */
export function filterInRange(
  column: Column, backend: ColumnsBackend, filter: Int32Array | null, range: DocumentRange, out: Int32Array,
  ranges: RawRanges, second: { sequence: SequenceView; ranges: RawRanges } | null,
): void {
  const { from, to } = range
  const [first, end] = valueRange(column, backend, range)
  const count = end - first
  const temporaries: BitsetMemory[] = []
  let selection = selectValues(column, backend, filter, range, first, end)
  const owned = selection
  try {
    const valueWords = Math.max(1, wordsFor(count))
    if (second !== null) {
      const matched = backend.query.allocateBitset(valueWords)
      temporaries.push(matched)
      matchRanges(backend, column.values, first, count, ranges, selection, matched, 0)
      selection = { memory: matched, start: 0, temporary: false }
      ranges = second.ranges
    }
    const sequence = second === null ? column.values : second.sequence
    if (column.layout === 'dense') {
      if (usesWordsInPlace(backend)) {
        matchRanges(backend, sequence, first, count, ranges, selection, inPlace(out), from)
        return
      }
      const local = backend.query.allocateBitset(valueWords)
      temporaries.push(local)
      matchRanges(backend, sequence, first, count, ranges, selection, local, 0)
      out.set(local.words.subarray(0, wordsFor(to - from)), from >>> 5)
      return
    }
    const matches = backend.query.allocateBitset(valueWords)
    temporaries.push(matches)
    matchRanges(backend, sequence, first, count, ranges, selection, matches, 0)
    valuesToDocuments(column, backend, matches, range, first, end, out)
  } finally {
    release(owned)
    for (const temporary of temporaries) temporary.release()
  }
}

const ORDINAL_CHUNK = 4096
const ordinalScratch = new Int32Array(ORDINAL_CHUNK)

/**
 * termFilter for several runs of terms over the range (as src/kernels/filters.ts's
 * memberFilter): the backend's membership kernel, or ordinals decoded in chunks (chunks
 * without a selected value skipped), each looked up in a membership table.
 */
export function memberFilterInRange(
  column: Column, backend: ColumnsBackend, filter: Int32Array | null, range: DocumentRange, out: Int32Array, ordinals: readonly number[],
): void {
  const termCount = column.dictionary!.termCount
  const member = new Uint8Array(termCount)
  for (const ordinal of ordinals) member[ordinal] = 1
  const [first, end] = valueRange(column, backend, range)
  const selection = selectValues(column, backend, filter, range, first, end)
  const matches = backend.query.allocateBitset(Math.max(1, wordsFor(end - first)))
  try {
    const sequence = column.values
    // One kernel pass where the backend has one (-1: a value it cannot vouch for, found again below).
    // Format 2: the codes decoded once, where they are the ordinals.
    const plain = backend.query.plainSequence?.(sequence) ?? sequence
    const found = plain.cascade === null
      ? backend.query.matchOrdinals(plain, first, end - first, member, selection.memory, selection.start, matches, 0) : -1
    for (let start = first; found < 0 && start < end; start += ORDINAL_CHUNK) {
      const count = Math.min(ORDINAL_CHUNK, end - start)
      const selectionWords = selection.memory === null ? null : selection.memory.words
      const selectionBit = selection.start + (start - first)
      if (selectionWords !== null && !anyBitInRange(selectionWords, selectionBit, selectionBit + count)) continue
      const bad = backend.decodeInt32(sequence, start, count, termCount, ordinalScratch, 0)
      if (bad >= 0) {
        backend.getRaw(sequence, start + bad)
        throw new CorruptIndexException(sequence.fileName, `${sequence.label}: value ${start + bad} is ${int64ToBigInt(int64Result[0], int64Result[1])}, not in [0, ${termCount})`)
      }
      const matchWords = matches.words
      for (let index = 0; index < count; index++) {
        const bit = selectionBit + index
        if (selectionWords !== null && ((selectionWords[bit >>> 5] >>> (bit & 31)) & 1) === 0) continue
        if (member[ordinalScratch[index]] === 1) {
          const position = start - first + index
          matchWords[position >>> 5] |= 1 << (position & 31)
        }
      }
    }
    // Dense: value positions are the range's documents, and the range starts on a word.
    if (column.layout === 'dense') out.set(matches.words.subarray(0, wordsFor(range.to - range.from)), range.from >>> 5)
    else valuesToDocuments(column, backend, matches, range, first, end, out)
  } finally {
    release(selection)
    matches.release()
  }
}

/** Documents of the range with a matching value (bit v - first of matches is value v). */
function valuesToDocuments(
  column: Column, backend: ColumnsBackend, matches: BitsetMemory, range: DocumentRange, first: number, end: number, out: Int32Array,
): void {
  const { from, to } = range
  if (column.layout === 'optional') {
    const presence = column.presence!.words, matched = matches.words
    let position = 0
    for (let word = from >>> 5, words = wordsFor(to); word < words; word++) {
      const present = presence[word]
      if (present === 0) continue
      const n = popcount(present)
      const bits = selectionBits(matched, position, n)
      if (bits !== 0) out[word] = present === -1 ? bits : depositBits(bits, present)
      position += n
    }
    return
  }
  // Multi: the kernel writes every word of the range (the range owns them), through its starts bitsets.
  const { starts, nonempty } = documentStarts(column, backend, from, to, first, end)
  const own = rangeWords(backend, out, range, false)
  try {
    backend.query.matchAny(starts, nonempty, end - first, to - from, null, matches, own)
    if (own.words.buffer !== out.buffer) out.set(own.words.subarray(0, wordsFor(to - from)), from >>> 5)
  } finally {
    own.release()
  }
}

/** The aggregate state (count, min, max, sums) of the range's selected values. */
export function aggregateInRange(column: Column, backend: ColumnsBackend, filter: Int32Array | null, range: DocumentRange): AggregateState {
  expectType(column, 'aggregate', column.type !== 'geo_point', 'integral/date/fractional/bool/keyword')
  const state = createAggregateState()
  const [first, end] = valueRange(column, backend, range)
  const selection = selectValues(column, backend, filter, range, first, end)
  try {
    aggregateValues(column, backend, first, end - first, selection.memory, selection.start, state)
  } finally {
    release(selection)
  }
  return state
}

/** Values of the range's selected documents per bucket [edges[b], edges[b + 1]), natural units. */
export function histogramInRange(
  column: Column, backend: ColumnsBackend, filter: Int32Array | null, range: DocumentRange, edges: readonly NaturalValue[],
): Uint32Array {
  const type = column.type
  expectType(column, 'histogram', type === 'integral' || type === 'date' || type === 'fractional', 'integral/date/fractional')
  if (!Array.isArray(edges)) throw new TypeError(`field "${column.name}": histogram edges must be an array`)
  const [first, end] = valueRange(column, backend, range)
  const selection = selectValues(column, backend, filter, range, first, end)
  try {
    return histogramOfValues(column, backend, edges, first, end - first, selection.memory, selection.start)
  } finally {
    release(selection)
  }
}
