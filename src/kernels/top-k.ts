/**
 * topK: document ids by value through a bounded heap (dense and optional:
 * blocks in bound order, see top-k-blocks; multi: each document's smallest or
 * largest value, decoded in chunks).
 */
import type { ColumnsBackend } from '../backend/backend.js'
import { BLOCK_VALUES } from '../format/constants.js'
import { compareInt64, int64ToBigInt } from '../format/int64.js'
import type { Column } from '../read/column.js'
import { expectType, filterOf } from './common.js'
import type { DocSet } from './doc-set.js'
import { chunkOffsets, DOCUMENT_CHUNK, loadOffsets } from './layout.js'
import { topKFromBlocks } from './top-k-blocks.js'
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

  /** Whether a value could enter: the heap has room, or it beats or ties the worst kept (a tie may win on id). */
  mayEnterOrTie(low: number, high: number): boolean {
    if (this.size < this.capacity) return true
    if (this.capacity === 0) return false
    return this.sign * compareInt64(low, high, this.lows[0], this.highs[0]) <= 0
  }

  /** Offers a value (low, high words) of id. */
  offer(low: number, high: number, id: number): void {
    if (this.size < this.capacity) {
      let at = this.size++
      while (at > 0) {
        const parent = (at - 1) >>> 1
        if (this.worse(low, high, id, parent) <= 0) break
        this.place(at, this.lows[parent], this.highs[parent], this.ids[parent])
        at = parent
      }
      this.place(at, low, high, id)
      return
    }
    if (this.capacity === 0 || this.worse(low, high, id, 0) >= 0) return
    this.siftDown(low, high, id)
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

const CHUNK = 4096
let raw = new Int32Array(2 * CHUNK)

/** Whether a raw SortableBits value is a NaN (outside [-Infinity, +Infinity]). */
export function isNaNRaw(low: number, high: number): boolean {
  return compareInt64(low, high, infinities[0], infinities[1]) < 0 || compareInt64(low, high, infinities[2], infinities[3]) > 0
}

/**
 * Documents by value; see Column.topK. Multi: each document's extreme over its run, offsets and values
 * decoded in chunks. NaN sorts last in both orders (as NULLS LAST): documents whose values are all NaN
 * follow the others in id order; a multi document with other values is ranked by them.
 */
export function topK(column: Column, backend: ColumnsBackend, k: number, order: SortOrder, docs?: DocSet | null): Uint32Array {
  expectType(column, 'topK', column.type !== 'geo_point', 'integral/date/fractional/bool/keyword')
  if (!(k >= 0) || k !== Math.floor(k)) throw new RangeError(`field "${column.name}": k must be a non-negative integer, got ${k}`)
  if (order !== 'ascending' && order !== 'descending') throw new RangeError(`field "${column.name}": order must be "ascending" or "descending"`)
  const filter = filterOf(column, backend, docs)
  const heap = new BoundedHeap(Math.min(k, column.documentsWithValue), order)
  const documents = filter === null ? null : filter.words
  const selected = (document: number): boolean => documents === null || ((documents[document >>> 5] >>> (document & 31)) & 1) === 1
  const sequence = column.values
  const skipNaN = mayHoldNaN(column)
  if (column.layout !== 'multi') {
    topKFromBlocks(column, backend, heap, order === 'ascending', documents, skipNaN)
    return withNaNLast(column, backend, heap, k, filter)
  }
  const sign = order === 'ascending' ? 1 : -1
  for (let start = 0; start < column.maxDoc; start += DOCUMENT_CHUNK) {
    const count = Math.min(DOCUMENT_CHUNK, column.maxDoc - start)
    loadOffsets(backend, column.offsets!, start, count)
    const first = chunkOffsets[0], values = chunkOffsets[count] - first
    if (values === 0) continue
    if (raw.length < 2 * values) raw = new Int32Array(2 * Math.max(values, BLOCK_VALUES))
    backend.decodeRaw(sequence, first, values, raw, 0)
    for (let index = 0; index < count; index++) {
      const runStart = chunkOffsets[index] - first, runEnd = chunkOffsets[index + 1] - first
      if (runEnd === runStart || !selected(start + index)) continue
      let best = -1
      for (let at = runStart; at < runEnd; at++) {
        if (skipNaN && isNaNRaw(raw[2 * at], raw[2 * at + 1])) continue
        if (best < 0 || sign * compareInt64(raw[2 * at], raw[2 * at + 1], raw[2 * best], raw[2 * best + 1]) < 0) best = at
      }
      if (best >= 0) heap.offer(raw[2 * best], raw[2 * best + 1], start + index)
    }
  }
  return withNaNLast(column, backend, heap, k, filter)
}

/** The heap's ids, then (NaN values having been skipped) documents with only NaN values in id order, up to k. */
function withNaNLast(column: Column, backend: ColumnsBackend, heap: BoundedHeap, k: number, filter: DocSet | null): Uint32Array {
  const ranked = heap.drain()
  if (!mayHoldNaN(column) || ranked.length >= Math.min(k, column.documentsWithValue)) return Uint32Array.from(ranked)
  const withValue = rangeFilter(column, backend, { raw: -(2n ** 63n) }, { raw: 2n ** 63n - 1n }, filter)
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
