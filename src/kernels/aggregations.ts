/**
 * aggregate and histogram over the values of the selected documents (multi:
 * every value counts), with results in natural units.
 */
import type { ColumnsBackend } from '../backend/backend.js'
import { createAggregateState } from '../backend/query-kernels.js'
import { bigIntToInt64, int64Result, int64ToBigInt, sortableToFloat64 } from '../format/int64.js'
import type { Column } from '../read/column.js'
import { expectType, filterOf } from './common.js'
import type { DocSet } from './doc-set.js'
import { releaseSelection, selectValues } from './layout.js'
import { rawEdges, type NaturalValue } from './natural-units.js'

/** What aggregate returns: count of values; min/max/sum exact (number when safe, else bigint), doubles for fractional. */
export interface Aggregate {
  count: number
  min: number | bigint | null
  max: number | bigint | null
  sum: number | bigint
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
  const selected = selectValues(column, backend, filter)
  try {
    backend.query.aggregate(column.values, 0, column.totalValueCount, doubles ? 'sortable' : 'integer', selected.selection, 0, state)
  } finally {
    releaseSelection(selected)
  }
  const count = state.numbers[0]
  const words = state.words
  if (doubles) {
    if (count === 0) return { count, min: null, max: null, sum: 0 }
    return { count, min: sortableToFloat64(words[0], words[1]), max: sortableToFloat64(words[2], words[3]), sum: state.numbers[1] }
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
  const { raw, bucketOf } = rawEdges(column.name, type, edges)
  const rawWords = new Int32Array(2 * raw.length)
  raw.forEach((edge, index) => {
    bigIntToInt64(edge)
    rawWords[2 * index] = int64Result[0]
    rawWords[2 * index + 1] = int64Result[1]
  })
  const rawCounts = new Uint32Array(raw.length - 1)
  const selected = selectValues(column, backend, filter)
  try {
    if (rawCounts.length > 0) backend.query.histogram(column.values, 0, column.totalValueCount, rawWords, selected.selection, 0, rawCounts)
  } finally {
    releaseSelection(selected)
  }
  const counts = new Uint32Array(edges.length - 1)
  for (let bucket = 0; bucket < rawCounts.length; bucket++) counts[bucketOf[bucket]] += rawCounts[bucket]
  return counts
}
