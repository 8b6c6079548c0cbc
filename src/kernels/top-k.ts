/**
 * topK: document ids by value through a bounded heap (dense and optional:
 * blocks in bound order, see top-k-blocks, a sequence dictionary's candidates
 * first, see top-k-dictionary; multi: the best values drawn the same way, then
 * their documents, each once).
 */
import { shown } from '../read/file-input.js'
import type { ColumnsBackend, SequenceView } from '../backend/backend.js'
import { compareInt64, int64Result, int64ToBigInt, MAX_INT64, MIN_INT64 } from '../format/int64.js'
import type { Column } from '../read/column.js'
import { expectType, filterOf } from './common.js'
import type { DocSet } from './doc-set.js'
import { chunkOffsets, DOCUMENT_CHUNK, loadOffsets, releaseSelection, selectValues } from './layout.js'
import { topKFromBlocks } from './top-k-blocks.js'
import { dictionaryCandidates } from './top-k-dictionary.js'
import { infinities, mayHoldNaN, NEGATIVE_INFINITY_RAW, POSITIVE_INFINITY_RAW } from './aggregations.js'
import { rangeFilter } from './filters.js'

/** Which end topK takes: smallest values first, or largest. */
export type SortOrder = 'ascending' | 'descending'

/** The k best (value, id) pairs seen: ties by id ascending; the root is the worst kept. */
export class BoundedHeap {
  private readonly lows: Int32Array
  private readonly highs: Int32Array
  private readonly ids: Float64Array
  private size = 0
  private readonly sign: number

  constructor(readonly capacity: number, order: SortOrder) {
    this.lows = new Int32Array(capacity)
    this.highs = new Int32Array(capacity)
    this.ids = new Float64Array(capacity)
    this.sign = order === 'ascending' ? 1 : -1
  }

  /** Positive when entry a ranks after entry b. */
  private worse(aLow: number, aHigh: number, aId: number, b: number): number {
    const byValue = this.sign * compareInt64(aLow, aHigh, this.lows[b], this.highs[b])
    return byValue !== 0 ? byValue : aId - this.ids[b]
  }

  private place(at: number, low: number, high: number, id: number): void {
    this.lows[at] = low
    this.highs[at] = high
    this.ids[at] = id
  }

  /** Entries held. */
  get length(): number {
    return this.size
  }

  /** Whether the heap holds capacity entries. */
  full(): boolean {
    return this.size === this.capacity
  }

  /** Whether a value equal to `bound` could still enter (beat or tie the worst kept). */
  mayTie(bound: bigint): boolean {
    if (this.capacity === 0) return false
    const worst = int64ToBigInt(this.lows[0], this.highs[0])
    return this.sign > 0 ? bound <= worst : bound >= worst
  }

  /**
   * Whether the heap is full and its worst kept value is `bound` with an id below `firstId`: then
   * no value bounded by `bound` at an id from `firstId` on can enter (a tie wins on a smaller id).
   */
  closedFrom(bound: bigint, firstId: number): boolean {
    return this.full() && this.capacity > 0 && int64ToBigInt(this.lows[0], this.highs[0]) === bound && this.ids[0] < firstId
  }

  /** The worst kept value's low word (the heap is not empty). */
  get worstLow(): number {
    return this.lows[0]
  }

  /** The worst kept value's high word (the heap is not empty). */
  get worstHigh(): number {
    return this.highs[0]
  }

  /** Whether a value could enter: the heap has room, or it beats or ties the worst kept (a tie may win on id). */
  mayEnterOrTie(low: number, high: number): boolean {
    if (this.size < this.capacity) return true
    if (this.capacity === 0) return false
    return this.sign * compareInt64(low, high, this.lows[0], this.highs[0]) <= 0
  }

  /** Offers a value (low, high words) of id; whether it was kept. */
  offer(low: number, high: number, id: number): boolean {
    if (this.size < this.capacity) {
      let at = this.size++
      while (at > 0) {
        const parent = (at - 1) >>> 1
        if (this.worse(low, high, id, parent) <= 0) break
        this.place(at, this.lows[parent], this.highs[parent], this.ids[parent])
        at = parent
      }
      this.place(at, low, high, id)
      return true
    }
    if (this.capacity === 0 || this.worse(low, high, id, 0) >= 0) return false
    this.siftDown(low, high, id)
    return true
  }

  private siftDown(low: number, high: number, id: number): void {
    let at = 0
    for (;;) {
      let child = 2 * at + 1
      if (child >= this.size) break
      if (child + 1 < this.size && this.worse(this.lows[child + 1], this.highs[child + 1], this.ids[child + 1], child) > 0) child++
      if (this.worse(low, high, id, child) >= 0) break
      this.place(at, this.lows[child], this.highs[child], this.ids[child])
      at = child
    }
    this.place(at, low, high, id)
  }

  /** The ids kept, best first; empties the heap. */
  drain(): Float64Array {
    const out = new Float64Array(this.size)
    for (let at = this.size - 1; at >= 0; at--) {
      out[at] = this.ids[0]
      const last = --this.size
      if (last > 0) this.siftDown(this.lows[last], this.highs[last], this.ids[last])
    }
    return out
  }
}

/** Whether a raw SortableBits value is a NaN (outside [-Infinity, +Infinity]). */
export function isNaNRaw(low: number, high: number): boolean {
  return compareInt64(low, high, infinities[0], infinities[1]) < 0 || compareInt64(low, high, infinities[2], infinities[3]) > 0
}

/**
 * Documents by value; see Column.topK. Multi: each document ranked by its best value (see topKMulti).
 * NaN sorts last in both orders (as NULLS LAST): documents whose values are all NaN follow the others
 * in id order; a multi document with other values is ranked by them.
 */
export function topK(column: Column, backend: ColumnsBackend, k: number, order: SortOrder, docs?: DocSet | null): Uint32Array {
  expectType(column, 'topK', column.type !== 'geo_point', 'integral/date/fractional/bool/keyword')
  if (typeof k !== 'number' || !(k >= 0) || !Number.isInteger(k)) throw new RangeError(`field "${column.name}": k must be a non-negative integer, got ${shown(k)}`)
  if (order !== 'ascending' && order !== 'descending') throw new RangeError(`field "${column.name}": order must be "ascending" or "descending"`)
  const filter = filterOf(column, backend, docs)
  // Nothing selected: the walks below would read every block to find it out.
  if (filter !== null && filter.isEmpty()) return new Uint32Array(0)
  const skipNaN = mayHoldNaN(column)
  if (column.layout === 'multi') return withNaNLast(column, backend, topKMulti(column, backend, k, order, filter, skipNaN), k, filter)
  const heap = new BoundedHeap(Math.min(k, column.documentsWithValue), order)
  const optional = column.layout === 'optional' ? column : null
  // A dense sequence dictionary: only the values that can rank are read (its decoded codes, where they
  // hold the values, bound each block as v1's records do).
  const plain = plainValues(column, backend)
  const candidates = optional === null && plain === column.values ? dictionaryCandidates(column.values, backend, k, order === 'ascending', filter?.memory ?? null, skipNaN) : null
  try {
    topKFromBlocks(plain, optional, backend, heap, order === 'ascending', candidates?.selection ?? filter?.memory ?? null, skipNaN, candidates?.end)
  } finally {
    candidates?.selection.release()
  }
  return withNaNLast(column, backend, heap.drain(), k, filter)
}

/** The column's values as blocks decode fastest: format 2 dictionary codes decoded once where they hold the values. */
function plainValues(column: Column, backend: ColumnsBackend): SequenceView {
  return backend.query.plainSequence?.(column.values) ?? column.values
}

/**
 * A multi column's k best documents, best first: the best values of the selected documents (values
 * selected by selectValues), ranked over the values as a dense column's are, so that a document first
 * met at a value is met at its best one, and equal values meet in document order. The k first
 * distinct documents among them answer; when the values drawn hold fewer, twice as many are drawn.
 */
function topKMulti(column: Column, backend: ColumnsBackend, k: number, order: SortOrder, filter: DocSet | null, skipNaN: boolean): Float64Array {
  const total = column.totalValueCount
  const selected = selectValues(column, backend, filter)
  try {
    const plain = plainValues(column, backend)
    // No more than the documents with values (the selected ones) can answer: for a k that reaches
    // them, draws of fewer than every value would only be drawn again, larger.
    const reachable = Math.min(column.documentsWithValue, filter === null ? Infinity : filter.count())
    for (let capacity = k >= reachable ? total : Math.min(k, total); ; capacity = Math.min(2 * capacity, total)) {
      const heap = new BoundedHeap(capacity, order)
      const candidates = plain === column.values ? dictionaryCandidates(column.values, backend, capacity, order === 'ascending', selected.selection, skipNaN) : null
      try {
        const chosen = candidates?.selection ?? selected.selection
        topKFromBlocks(plain, null, backend, heap, order === 'ascending', chosen, skipNaN, candidates?.end)
      } finally {
        candidates?.selection.release()
      }
      const values = heap.drain()
      const documents = distinctDocuments(column, backend, values, k)
      // Every value that could enter was drawn (fewer than capacity), or k documents were found.
      if (documents.length === k || values.length < capacity || capacity === total) return documents
    }
  } finally {
    releaseSelection(selected)
  }
}

/** The documents of `values` (value indices) in their order, each once, up to k of them. */
function distinctDocuments(column: Column, backend: ColumnsBackend, values: Float64Array, k: number): Float64Array {
  const documents = documentsOfValues(column, backend, values)
  const seen = new Set<number>()
  const out = new Float64Array(Math.min(k, values.length))
  let size = 0
  for (let index = 0; index < values.length && size < out.length; index++) {
    const document = documents[index]
    if (seen.has(document)) continue
    seen.add(document)
    out[size++] = document
  }
  return out.subarray(0, size)
}

/**
 * The document holding each value index: the indices in ascending order walk the offsets a chunk of
 * documents at a time, and a chunk is decoded only when it holds one of them (its end offset tells).
 */
function documentsOfValues(column: Column, backend: ColumnsBackend, values: Float64Array): Float64Array {
  const order = Array.from(values.keys()).sort((a, b) => values[a] - values[b])
  const documents = new Float64Array(values.length)
  let next = 0
  for (let start = 0; start < column.maxDoc && next < order.length; start += DOCUMENT_CHUNK) {
    const count = Math.min(DOCUMENT_CHUNK, column.maxDoc - start)
    backend.getRaw(column.offsets!, start + count)
    if (values[order[next]] >= int64Result[0] >>> 0) continue
    loadOffsets(backend, column.offsets!, start, count)
    // The last document whose run starts at or below the value: documents before it with none end there too.
    let document = 0
    for (; next < order.length && values[order[next]] < chunkOffsets[count]; next++) {
      const value = values[order[next]]
      while (chunkOffsets[document + 1] <= value) document++
      documents[order[next]] = start + document
    }
  }
  return documents
}

/** The ranked ids, then (NaN values having been skipped) documents with only NaN values in id order, up to k. */
function withNaNLast(column: Column, backend: ColumnsBackend, ranked: Float64Array, k: number, filter: DocSet | null): Uint32Array {
  if (!mayHoldNaN(column) || ranked.length >= Math.min(k, column.documentsWithValue)) return Uint32Array.from(ranked)
  const withValue = rangeFilter(column, backend, { raw: MIN_INT64 }, { raw: MAX_INT64 }, filter)
  const withNumber = rangeFilter(column, backend, { raw: NEGATIVE_INFINITY_RAW }, { raw: POSITIVE_INFINITY_RAW }, filter)
  try {
    withValue.andNot(withNumber)
    const result = new Uint32Array(Math.min(k, ranked.length + withValue.count()))
    result.set(ranked)
    let next = ranked.length
    for (const document of withValue) {
      if (next === result.length) break
      result[next++] = document
    }
    return result
  } finally {
    withValue.release()
    withNumber.release()
  }
}
