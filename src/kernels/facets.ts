/**
 * facetCounts and topTerms. Dense and optional columns count in the countValues
 * kernel; multi columns count each document once per distinct term in the
 * countDistinct kernel (offsets and values walked together), or, over every
 * document or many of them, count their values marked first of their term in
 * their document.
 */
import { shown } from '../read/file-input.js'
import type { ColumnsBackend } from '../backend/backend.js'
import { selectionBits, wordsFor } from '../backend/bits.js'
import { checkWritable } from '../backend/destinations.js'
import type { BitsetMemory } from '../backend/query-kernels.js'
import type { Column, FirstValues } from '../read/column.js'
import { expectType, filterOf } from './common.js'
import type { DocSet } from './doc-set.js'
import { releaseSelection, selectValues } from './layout.js'
import { BoundedHeap } from './top-k.js'

/** One of topTerms' results. */
export interface TermCount {
  term: string
  ordinal: number
  count: number
}

/**
 * A multi facet selects the values of its documents when at least 1 in this many documents are
 * selected; fewer are walked alone. With WebAssembly, where the two paths crossed (docs/query.md),
 * format 1 and format 2 (whose windows cost more to decode one at a time). TypeScript's walk is
 * slower down to far sparser sets, but the selection first marks every document's first values
 * (once, reading every value): below 1 in 500, the walk reads only what the set needs.
 */
const SELECT_VALUES_FROM = { wasm: 50, wasmCascade: 100, ts: 500 }

/**
 * Repeats are listed when at most 1 value in REPEAT_LIST_FROM is one: a facet over every document
 * then counts every value as a single-valued column does and takes the repeats back. Beyond 1 in
 * REPEAT_BITS_FROM the list outweighs the first values' bits, which are kept too, for selections.
 */
const REPEAT_LIST_FROM = 32
const REPEAT_BITS_FROM = 64

/**
 * The multi column's first values (see Column.firstValues), marked on first use: the bits, and,
 * when few values repeat a term of their document, the repeats' positions and ordinals (a facet
 * then counts every value and takes the repeats back; the bits are given back unless the list is
 * the larger of the two). `backend` is the column's own (Column
 * passes it), which holds the kept bits. The walk that marks them counts every document's terms:
 * into `counts` when given (the first facet over every document needs no other pass).
 */
function firstValues(column: Column, backend: ColumnsBackend, limit: number, counts: Uint32Array | null): FirstValues {
  if (column.firstValues !== null) {
    if (counts !== null) countKept(column, backend, column.firstValues, 0, column.totalValueCount, null, counts)
    return column.firstValues
  }
  const total = column.totalValueCount
  const bits = backend.query.allocateBitset(Math.max(1, wordsFor(total)))
  // Room for the repeats the list form keeps; more, and the bits are kept instead.
  const room = Math.floor(total / REPEAT_LIST_FROM)
  const positions = new Uint32Array(room), ordinals = new Uint32Array(room)
  let repeatCount: number
  try {
    repeatCount = backend.query.markFirstValues(column.offsets!, column.values, column.maxDoc, bits, counts ?? new Uint32Array(limit), positions, ordinals)
  } catch (error) {
    bits.release()
    throw error
  }
  if (repeatCount > room) return (column.firstValues = { bits, repeats: null })
  const repeats = { positions: positions.slice(0, repeatCount), ordinals: ordinals.slice(0, repeatCount) }
  if (repeatCount > Math.floor(total / REPEAT_BITS_FROM)) return (column.firstValues = { bits, repeats })
  bits.release()
  return (column.firstValues = { bits: null, repeats })
}

/**
 * Counts of values [first, end) that are the first of their term in their document, from the
 * kept first values: each value counted less the listed repeats (every value, or a selection
 * with no bits kept), or the values the kept bits select. With `selection` (bit i: value
 * first + i), only those it selects: the kept bits are ANDed into it (by the kernel when both
 * start at value 0; else read shifted).
 */
function countKept(
  column: Column, backend: ColumnsBackend, kept: FirstValues, first: number, end: number, selection: BitsetMemory | null, counts: Uint32Array,
): void {
  const repeats = selection === null || kept.bits === null ? kept.repeats : null
  if (selection === null) {
    backend.query.countValues(column.values, first, end - first, repeats === null ? kept.bits : null, first, counts)
  } else {
    if (kept.bits !== null) {
      if (first === 0) backend.query.combineBits(selection, kept.bits, 'and')
      else {
        const words = selection.words, bits = kept.bits.words, n = end - first
        for (let word = 0; 32 * word < n; word++) words[word] &= selectionBits(bits, first + 32 * word, Math.min(32, n - 32 * word))
      }
    }
    backend.query.countValues(column.values, first, end - first, selection, 0, counts)
  }
  if (repeats === null) return
  const words = selection === null ? null : selection.words
  // Positions ascend: from the first at or after `first`.
  let index = 0, high = repeats.positions.length
  while (index < high) {
    const middle = (index + high) >>> 1
    if (repeats.positions[middle] < first) index = middle + 1
    else high = middle
  }
  for (; index < repeats.positions.length && repeats.positions[index] < end; index++) {
    const bit = repeats.positions[index] - first
    if (words === null || ((words[bit >>> 5] >>> (bit & 31)) & 1) !== 0) counts[repeats.ordinals[index]]--
  }
}

/** Whether a multi facet over `selected` of `documents` documents selects their values (else it walks them: countDistinct). */
export function selectsValues(column: Column, backend: ColumnsBackend, selected: number, documents: number): boolean {
  const from = backend.name === 'ts' ? SELECT_VALUES_FROM.ts : column.values.cascade === null ? SELECT_VALUES_FROM.wasm : SELECT_VALUES_FROM.wasmCascade
  return selected * from >= documents
}

/**
 * countKept for a pool worker's values [first, end) (its documents, every one of them, or those
 * `selection` selects: bit i, value first + i), from the column's first values, marked by one
 * walk of the whole column on first use as a reader's own facets mark them.
 */
export function countFirstValuesIn(
  column: Column, backend: ColumnsBackend, first: number, end: number, selection: BitsetMemory | null, counts: Uint32Array,
): void {
  countKept(column, backend, firstValues(column, backend, counts.length, null), first, end, selection, counts)
}

/** Whether two views share bytes of one buffer. */
function overlaps(a: ArrayBufferView, b: ArrayBufferView): boolean {
  return a.buffer === b.buffer && a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength
}

/** Documents per ordinal (keyword) or per value (bool: [false, true]); see Column.facetCounts. */
export function facetCounts(column: Column, backend: ColumnsBackend, docs?: DocSet | null, counts?: Uint32Array): Uint32Array {
  expectType(column, 'facetCounts', column.type === 'keyword' || column.type === 'bool', 'keyword/bool')
  const limit = column.type === 'bool' ? 2 : column.dictionary!.termCount
  const filter = filterOf(column, backend, docs)
  if (counts === undefined) counts = new Uint32Array(limit)
  else if (!(counts instanceof Uint32Array) || counts.length !== limit) {
    throw new RangeError(`field "${column.name}": counts must be a Uint32Array of length ${limit}`)
  } else {
    checkWritable(counts, column.name, 'facetCounts\' counts')
    // Counts over the selection's own words zeroed part of it before it was read (TypeScript; WebAssembly refuses them above).
    if (filter !== null && overlaps(counts, filter.words)) throw new RangeError(`field "${column.name}": facetCounts' counts overlaps the words of the DocSet it counts`)
    counts.fill(0)
  }
  if (column.layout === 'multi') {
    // Every document: count the values that are the first of their term in their document, marked
    // by one walk the first time and kept (a value bitset, or a list of the few repeats) while the
    // reader is open.
    if (filter === null) {
      firstValues(column, backend, limit, counts)
      return counts
    }
    // Many selected documents: their values as a selection (a step per selected document), and
    // those of them first of their term counted as a single-valued column's are. Few: walked alone.
    if (selectsValues(column, backend, filter.count(), column.maxDoc)) {
      const first = firstValues(column, backend, limit, null)
      const selected = selectValues(column, backend, filter)
      try {
        countKept(column, backend, first, 0, column.totalValueCount, selected.selection!, counts)
      } finally {
        releaseSelection(selected)
      }
      return counts
    }
    backend.query.countDistinct(column.offsets!, column.values, 0, column.maxDoc, filter.memory, counts)
    return counts
  }
  const selected = selectValues(column, backend, filter)
  try {
    backend.query.countValues(column.values, 0, column.totalValueCount, selected.selection, 0, counts)
  } finally {
    releaseSelection(selected)
  }
  return counts
}

/** The k terms with the most documents: count descending, ties by ordinal, zero counts omitted. */
export function topTerms(column: Column, backend: ColumnsBackend, k: number, docs?: DocSet | null): TermCount[] {
  expectType(column, 'topTerms', column.type === 'keyword', 'keyword')
  if (typeof k !== 'number' || !(k >= 0) || !Number.isInteger(k)) throw new RangeError(`field "${column.name}": k must be a non-negative integer, got ${shown(k)}`)
  const counts = facetCounts(column, backend, docs)
  return Array.from(topOrdinals(counts, k), (ordinal) => ({ term: column.term(ordinal), ordinal, count: counts[ordinal] }))
}

/** The k ordinals of the largest counts, best first: ties by ordinal, zero counts omitted. */
export function topOrdinals(counts: Uint32Array, k: number): Float64Array {
  // Keyed so that the heap's "better" is a larger count, then a smaller ordinal.
  const heap = new BoundedHeap(Math.min(k, counts.length), 'descending')
  for (let ordinal = 0; ordinal < counts.length; ordinal++) {
    if (counts[ordinal] !== 0) heap.offer(counts[ordinal], 0, ordinal)
  }
  return heap.drain()
}
