/**
 * facetCounts and topTerms. Dense and optional columns count in the countValues
 * kernel; multi columns count each document once per distinct term in the
 * countDistinct kernel (offsets and values walked together), or, over every
 * document or many of them, count their values marked first of their term in
 * their document.
 */
import type { ColumnsBackend } from '../backend/backend.js'
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

/** Repeats are kept as a list when at most 1 value in this many is one; else the first values' bits are kept. */
const REPEAT_LIST_FROM = 64

/**
 * The multi column's first values (see Column.firstValues), marked on first use: the bits, or,
 * when few values repeat a term of their document, the repeats' positions and ordinals (a facet
 * then counts every value and takes the repeats back). `backend` is the column's own (Column
 * passes it), which holds the kept bits. The walk that marks them counts every document's terms:
 * into `counts` when given (the first facet over every document needs no other pass).
 */
function firstValues(column: Column, backend: ColumnsBackend, limit: number, counts: Uint32Array | null): FirstValues {
  if (column.firstValues !== null) {
    if (counts !== null) countFirstValues(column, backend, column.firstValues, counts)
    return column.firstValues
  }
  const total = column.totalValueCount
  const bits = backend.query.allocateBitset(Math.max(1, (total + 31) >>> 5))
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
  bits.release()
  return (column.firstValues = { bits: null, repeats: { positions: positions.slice(0, repeatCount), ordinals: ordinals.slice(0, repeatCount) } })
}

/** Every document's counts from kept first values: each value counted, less the repeats, or the first values' bits counted. */
function countFirstValues(column: Column, backend: ColumnsBackend, first: FirstValues, counts: Uint32Array): void {
  backend.query.countValues(column.values, 0, column.totalValueCount, first.bits, 0, counts)
  takeRepeats(first, null, counts)
}

/** Takes back the repeats (those selected, with a value selection) counted with every value. */
function takeRepeats(first: FirstValues, selection: BitsetMemory | null, counts: Uint32Array): void {
  const repeats = first.repeats
  if (repeats === null) return
  const words = selection === null ? null : selection.words
  for (let index = 0; index < repeats.positions.length; index++) {
    const position = repeats.positions[index]
    if (words === null || ((words[position >>> 5] >>> (position & 31)) & 1) !== 0) counts[repeats.ordinals[index]]--
  }
}

/** Whether a multi facet over `selected` of `documents` documents selects their values (else it walks them: countDistinct). */
export function selectsValues(column: Column, backend: ColumnsBackend, selected: number, documents: number): boolean {
  const from = backend.name === 'ts' ? SELECT_VALUES_FROM.ts : column.values.cascade === null ? SELECT_VALUES_FROM.wasm : SELECT_VALUES_FROM.wasmCascade
  return selected * from >= documents
}

/**
 * Counts of values [first, end) that are the first of their term in their document (a pool
 * worker's documents over every one of them), from the column's kept first values: marked by
 * one walk of the whole column on first use, as a reader's own facets mark them.
 */
export function countFirstValuesIn(column: Column, backend: ColumnsBackend, first: number, end: number, counts: Uint32Array): void {
  const kept = firstValues(column, backend, counts.length, null)
  backend.query.countValues(column.values, first, end - first, kept.bits, first, counts)
  const repeats = kept.repeats
  if (repeats === null) return
  for (let index = firstRepeatAtOrAfter(repeats.positions, first); index < repeats.positions.length && repeats.positions[index] < end; index++) {
    counts[repeats.ordinals[index]]--
  }
}

/**
 * As countFirstValuesIn, of the values `selection` selects (bit i: value first + i, bits of
 * values that are not first of their term cleared here).
 */
export function countSelectedFirstValuesIn(
  column: Column, backend: ColumnsBackend, first: number, end: number, selection: BitsetMemory, counts: Uint32Array,
): void {
  const kept = firstValues(column, backend, counts.length, null)
  if (kept.bits !== null) {
    // The kept bits from value `first` on, shifted to bit 0: views made now (marking may have grown memory).
    const words = selection.words, bits = kept.bits.words, shift = first & 31, base = first >>> 5
    for (let word = 0; word < (end - first + 31) >>> 5; word++) {
      const next = base + word + 1 < bits.length ? bits[base + word + 1] : 0
      words[word] &= shift === 0 ? bits[base + word] : (bits[base + word] >>> shift) | (next << (32 - shift))
    }
  }
  backend.query.countValues(column.values, first, end - first, selection, 0, counts)
  const repeats = kept.repeats
  if (repeats === null) return
  const words = selection.words
  for (let index = firstRepeatAtOrAfter(repeats.positions, first); index < repeats.positions.length && repeats.positions[index] < end; index++) {
    const bit = repeats.positions[index] - first
    if (((words[bit >>> 5] >>> (bit & 31)) & 1) !== 0) counts[repeats.ordinals[index]]--
  }
}

/** The index of the first position at or after `first` (positions ascend). */
function firstRepeatAtOrAfter(positions: Uint32Array, first: number): number {
  let low = 0, high = positions.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (positions[middle] < first) low = middle + 1
    else high = middle
  }
  return low
}

/** Documents per ordinal (keyword) or per value (bool: [false, true]); see Column.facetCounts. */
export function facetCounts(column: Column, backend: ColumnsBackend, docs?: DocSet | null, counts?: Uint32Array): Uint32Array {
  expectType(column, 'facetCounts', column.type === 'keyword' || column.type === 'bool', 'keyword/bool')
  const limit = column.type === 'bool' ? 2 : column.dictionary!.termCount
  const filter = filterOf(column, backend, docs)
  if (counts === undefined) counts = new Uint32Array(limit)
  else if (!(counts instanceof Uint32Array) || counts.length !== limit) {
    throw new RangeError(`field "${column.name}": counts must be a Uint32Array of length ${limit}`)
  } else counts.fill(0)
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
        if (first.bits !== null) backend.query.combineBits(selected.selection!, first.bits, 'and')
        backend.query.countValues(column.values, 0, column.totalValueCount, selected.selection, 0, counts)
        takeRepeats(first, selected.selection, counts)
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
  if (!(k >= 0) || k !== Math.floor(k)) throw new RangeError(`field "${column.name}": k must be a non-negative integer, got ${k}`)
  const counts = facetCounts(column, backend, docs)
  // Keyed so that the heap's "better" is a larger count, then a smaller ordinal.
  const heap = new BoundedHeap(Math.min(k, counts.length), 'descending')
  for (let ordinal = 0; ordinal < counts.length; ordinal++) {
    if (counts[ordinal] !== 0) heap.offer(counts[ordinal], 0, ordinal)
  }
  return Array.from(heap.drain(), (ordinal) => ({ term: column.term(ordinal), ordinal, count: counts[ordinal] }))
}
