/**
 * facetCounts and topTerms. Dense and optional columns count in the countValues
 * kernel; multi columns count each document once per distinct term, from
 * ordinals decoded in windows (never a backend call per document).
 */
import type { ColumnsBackend } from '../backend/backend.js'
import { CorruptIndexException } from '../format/errors.js'
import { int64Result, int64ToBigInt } from '../format/int64.js'
import type { Column } from '../read/column.js'
import { expectType, filterOf } from './common.js'
import type { DocSet } from './doc-set.js'
import { chunkOffsets, DOCUMENT_CHUNK, loadOffsets, releaseSelection, selectValues } from './layout.js'
import { BoundedHeap } from './top-k.js'

const WINDOW = 16384
let ordinals = new Int32Array(WINDOW)

/** One of topTerms' results. */
export interface TermCount {
  term: string
  ordinal: number
  count: number
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
    countDistinct(column, backend, filter === null ? null : filter.words, 0, column.maxDoc, counts)
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

/**
 * Multi: per selected document of [from, to) (documents: DocSet words, null for all), each distinct
 * value once (runs of 1 or 2 need no dedupe array). The worker pool calls it per document range.
 */
export function countDistinct(
  column: Column, backend: ColumnsBackend, documents: Int32Array | null, from: number, to: number, counts: Uint32Array,
): void {
  const limit = counts.length
  const sequence = column.values
  let stamps: Int32Array | null = null
  let windowStart = 0, windowEnd = 0
  // Locals, not module bindings, in the per-document loop.
  const runs = chunkOffsets
  let values = ordinals
  for (let start = from; start < to; start += DOCUMENT_CHUNK) {
    const count = Math.min(DOCUMENT_CHUNK, to - start)
    loadOffsets(backend, column.offsets!, start, count)
    for (let index = 0; index < count; index++) {
      const document = start + index
      if (documents !== null && ((documents[document >>> 5] >>> (document & 31)) & 1) === 0) continue
      const runStart = runs[index], runEnd = runs[index + 1]
      if (runEnd === runStart) continue
      if (runStart < windowStart || runEnd > windowEnd) {
        windowStart = runStart
        windowEnd = Math.min(sequence.count, Math.max(runEnd, runStart + WINDOW))
        if (values.length < windowEnd - windowStart) ordinals = values = new Int32Array(windowEnd - windowStart)
        const bad = backend.decodeInt32(sequence, windowStart, windowEnd - windowStart, limit, values, 0)
        if (bad >= 0) {
          backend.getRaw(sequence, windowStart + bad)
          throw new CorruptIndexException(
            sequence.fileName,
            `${sequence.label}: value ${windowStart + bad} is ${int64ToBigInt(int64Result[0], int64Result[1])}, not in [0, ${limit})`,
          )
        }
      }
      const at = runStart - windowStart, length = runEnd - runStart
      const firstValue = values[at]
      counts[firstValue]++
      if (length === 1) continue
      if (length === 2) {
        if (values[at + 1] !== firstValue) counts[values[at + 1]]++
        continue
      }
      stamps ??= new Int32Array(limit)
      const stamp = document + 1
      stamps[firstValue] = stamp
      for (let value = at + 1; value < at + length; value++) {
        const ordinal = values[value]
        if (stamps[ordinal] === stamp) continue
        stamps[ordinal] = stamp
        counts[ordinal]++
      }
    }
  }
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
