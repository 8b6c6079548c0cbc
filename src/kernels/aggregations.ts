/**
 * aggregate and histogram over the values of the selected documents (multi:
 * every value counts), with results in natural units.
 */
import type { ColumnsBackend } from '../backend/backend.js'
import { popcount, selectionBits, wordsFor } from '../backend/bits.js'
import { createAggregateState, type AggregateState, type BitsetMemory } from '../backend/query-kernels.js'
import { MAX_INT64, MIN_INT64, bigIntToInt64, float64ToSortable, int64Result, int64ToBigInt, sortableToFloat64 } from '../format/int64.js'
import type { Column } from '../read/column.js'
import { expectType, filterOf } from './common.js'
import type { DocSet } from './doc-set.js'
import { releaseSelection, selectValues } from './layout.js'
import { rawEdges, type NaturalValue } from './natural-units.js'

/**
 * What aggregate returns: count of values; min/max/sum exact (number when safe, else bigint),
 * doubles for fractional. NaN is treated like a missing value (as SQL treats NULL): not in count,
 * min, max or sum; fractional columns say how many NaN values were selected in nanCount.
 */
export interface Aggregate {
  count: number
  min: number | bigint | null
  max: number | bigint | null
  sum: number | bigint
  /** Fractional columns only: selected values that are NaN (left out of the others). */
  nanCount?: number
}

/** Raw SortableBits of -Infinity and +Infinity as [low, high] words: every NaN lies outside this range. */
export const infinities = new Int32Array(4)
float64ToSortable(-Infinity)
infinities[0] = int64Result[0]; infinities[1] = int64Result[1]
float64ToSortable(Infinity)
infinities[2] = int64Result[0]; infinities[3] = int64Result[1]
export const NEGATIVE_INFINITY_RAW = int64ToBigInt(infinities[0], infinities[1])
export const POSITIVE_INFINITY_RAW = int64ToBigInt(infinities[2], infinities[3])

/** Whether a fractional column may hold NaN: its raw minimum or maximum lies beyond an infinity. */
export function mayHoldNaN(column: Column): boolean {
  return column.type === 'fractional' && (column.minRaw < NEGATIVE_INFINITY_RAW || column.maxRaw > POSITIVE_INFINITY_RAW)
}

/**
 * The aggregate kernel over values [first, first + count), with NaN left out of a fractional
 * column's state and counted in state.numbers[2]: the non-NaN values are selected first (one
 * range pass), only for columns whose min/max show a NaN.
 */
export function aggregateValues(
  column: Column, backend: ColumnsBackend, first: number, count: number,
  selection: BitsetMemory | null, selectionStart: number, state: AggregateState,
): void {
  if (count === 0) return
  if (!mayHoldNaN(column)) {
    backend.query.aggregate(column.values, first, count, column.type === 'fractional' ? 'sortable' : 'integer', selection, selectionStart, state)
    return
  }
  const numbers = backend.query.allocateBitset(wordsFor(count))
  try {
    const matched = backend.query.matchRange(column.values, first, count, infinities, selection, selectionStart, numbers, 0)
    backend.query.aggregate(column.values, first, count, 'sortable', numbers, 0, state)
    state.numbers[2] += selectedCount(selection, selectionStart, count) - matched
  } finally {
    numbers.release()
  }
}

function selectedCount(selection: BitsetMemory | null, start: number, count: number): number {
  if (selection === null) return count
  const words = selection.words
  let total = 0
  for (let done = 0; done < count; done += 32) total += popcount(selectionBits(words, start + done, Math.min(32, count - done)))
  return total
}

function exact(value: bigint): number | bigint {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value
}

/** Count, min, max and sum of the selected documents' values; see Column.aggregate. */
export function aggregate(column: Column, backend: ColumnsBackend, docs?: DocSet | null): Aggregate {
  expectType(column, 'aggregate', column.type !== 'geo_point', 'integral/date/fractional/bool/keyword')
  const filter = filterOf(column, backend, docs)
  const doubles = column.type === 'fractional'
  const state = createAggregateState()
  // Nothing selected: no value to read (a format 2 decimal sum decodes before it selects).
  if (filter === null || !filter.isEmpty()) {
    const selected = selectValues(column, backend, filter)
    try {
      aggregateValues(column, backend, 0, column.totalValueCount, selected.selection, 0, state)
    } finally {
      releaseSelection(selected)
    }
  }
  const count = state.numbers[0]
  const words = state.words
  if (doubles) {
    const nanCount = state.numbers[2]
    if (count === 0) return { count, min: null, max: null, sum: 0, nanCount }
    return { count, min: sortableToFloat64(words[0], words[1]), max: sortableToFloat64(words[2], words[3]), sum: state.numbers[1], nanCount }
  }
  if (count === 0) return { count, min: null, max: null, sum: 0 }
  const sum = (BigInt.asIntN(64, int64ToBigInt(words[6], words[7])) << 64n) | BigInt.asUintN(64, int64ToBigInt(words[4], words[5]))
  return {
    count,
    min: exact(int64ToBigInt(words[0], words[1])),
    max: exact(int64ToBigInt(words[2], words[3])),
    sum: exact(sum),
  }
}

/** Values per bucket [edges[b], edges[b + 1]) in natural units; see Column.histogram. */
export function histogram(column: Column, backend: ColumnsBackend, edges: readonly NaturalValue[], docs?: DocSet | null): Uint32Array {
  const type = column.type
  expectType(column, 'histogram', type === 'integral' || type === 'date' || type === 'fractional', 'integral/date/fractional')
  if (!Array.isArray(edges)) throw new TypeError(`field "${column.name}": histogram edges must be an array`)
  const filter = filterOf(column, backend, docs)
  const selected = selectValues(column, backend, filter)
  try {
    return histogramOfValues(column, backend, edges, 0, column.totalValueCount, selected.selection, 0)
  } finally {
    releaseSelection(selected)
  }
}

/**
 * Buckets [edges[b], edges[b + 1]) of values [first, first + count) selected by `selection` (bit
 * selectionStart + j for value first + j; null: all), natural units; the pool's ranges call it too.
 */
export function histogramOfValues(
  column: Column, backend: ColumnsBackend, edges: readonly NaturalValue[], first: number, count: number,
  selection: BitsetMemory | null, selectionStart: number,
): Uint32Array {
  const { raw, bucketOf, openBucket } = rawEdges(column.name, column.type, edges)
  const counts = new Uint32Array(edges.length - 1)
  if (raw.length >= 2) {
    const rawCounts = new Uint32Array(raw.length - 1)
    backend.query.histogram(column.values, first, count, edgeWords(raw), selection, selectionStart, rawCounts)
    for (let bucket = 0; bucket < rawCounts.length; bucket++) counts[bucketOf[bucket]] += rawCounts[bucket]
  }
  // An open last bucket holds the values equal to the largest i64 too (only a column whose maximum it is
  // has any): the selected values less those below it.
  if (openBucket >= 0 && column.maxRaw === MAX_INT64) {
    const below = new Uint32Array(1)
    backend.query.histogram(column.values, first, count, edgeWords([MIN_INT64, MAX_INT64]), selection, selectionStart, below)
    counts[openBucket] += selectedCount(selection, selectionStart, count) - below[0]
  }
  return counts
}

/** Raw edges as the histogram kernels take them: two int32 words each. */
function edgeWords(raw: readonly bigint[]): Int32Array {
  const words = new Int32Array(2 * raw.length)
  raw.forEach((edge, index) => {
    bigIntToInt64(edge)
    words[2 * index] = int64Result[0]
    words[2 * index + 1] = int64Result[1]
  })
  return words
}
