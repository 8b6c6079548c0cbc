/**
 * The naive model of the query API: every answer computed from plain decoded
 * values (raw i64 per document, read with readValues), with natural-unit
 * comparisons done by JavaScript itself (bigint vs number, doubles).
 */
import type { Column } from '../../src/read/column.js'
import { float64ToSortableBits, sortableBitsToFloat64 } from '../../src/format/sortable-bits.js'

/** A column's values per document, raw (fractional/geo: SortableBits; geo longitudes in lon). */
export interface ModelColumn {
  column: Column
  /** raw[d]: the document's values in value order. */
  raw: bigint[][]
  lon: bigint[][]
}

/** Reads a column into the model. */
export function modelOf(column: Column): ModelColumn {
  const all = new BigInt64Array(column.totalValueCount)
  column.readValues(0, all)
  const lons = new BigInt64Array(column.type === 'geo_point' ? column.totalValueCount : 0)
  if (column.type === 'geo_point') column.readValues(0, lons, 'longitude')
  const raw: bigint[][] = [], lon: bigint[][] = []
  for (let d = 0; d < column.maxDoc; d++) {
    const first = column.firstValueIndex(d), n = column.valueCount(d)
    raw.push(Array.from(all.subarray(first, first + n)))
    lon.push(column.type === 'geo_point' ? Array.from(lons.subarray(first, first + n)) : [])
  }
  return { column, raw, lon }
}

const double = (raw: bigint): number => sortableBitsToFloat64(raw)

/** A bound or edge in natural units, or a raw i64. */
export type Natural = number | bigint | Date | { raw: bigint }

function naturalNumber(value: Natural): number | bigint {
  return value instanceof Date ? value.getTime() : typeof value === 'object' ? value.raw : value
}

/** Whether a raw value of the column is ≥ / ≤ a natural bound (doubles: IEEE compare; others: exact). */
export function atLeast(model: ModelColumn, raw: bigint, bound: Natural): boolean {
  const type = model.column.type
  if ((type === 'fractional' || type === 'geo_point') && typeof bound !== 'object') return double(raw) >= Number(bound)
  return raw >= naturalNumber(bound)
}
export function atMost(model: ModelColumn, raw: bigint, bound: Natural): boolean {
  const type = model.column.type
  if ((type === 'fractional' || type === 'geo_point') && typeof bound !== 'object') return double(raw) <= Number(bound)
  return raw <= naturalNumber(bound)
}

export function modelFacet(model: ModelColumn, docs: number[]): Uint32Array {
  const counts = new Uint32Array(model.column.type === 'bool' ? 2 : model.column.dictionary!.termCount)
  for (const d of docs) for (const v of new Set(model.raw[d])) counts[Number(v)]++
  return counts
}

export function modelTopTerms(model: ModelColumn, k: number, docs: number[]): { term: string; ordinal: number; count: number }[] {
  const counts = modelFacet(model, docs)
  return Array.from(counts, (count, ordinal) => ({ ordinal, count }))
    .filter((entry) => entry.count > 0)
    .sort((a, b) => b.count - a.count || a.ordinal - b.ordinal)
    .slice(0, k)
    .map(({ ordinal, count }) => ({ term: model.column.term(ordinal), ordinal, count }))
}

export function modelHistogram(model: ModelColumn, edges: Natural[], docs: number[]): Uint32Array {
  const counts = new Uint32Array(edges.length - 1)
  for (const d of docs) {
    for (const v of model.raw[d]) {
      for (let b = 0; b < counts.length; b++) {
        if (atLeast(model, v, edges[b]) && !atLeast(model, v, edges[b + 1])) counts[b]++
      }
    }
  }
  return counts
}

/**
 * Doubles: two natural bounds compare as doubles (NaN never matches; a bigint is its double); with a
 * { raw } SortableBits bound, both compare raw (a natural bound's zero taken as -0 below, +0 above).
 */
export function modelRange(model: ModelColumn, lo: Natural, hi: Natural, docs: number[]): number[] {
  const isRaw = (bound: Natural) => typeof bound === 'object' && !(bound instanceof Date)
  if (model.column.type === 'fractional' && (isRaw(lo) || isRaw(hi))) {
    const rawOf = (bound: Natural, zero: number): bigint => (typeof bound === 'object' && !(bound instanceof Date) ? bound.raw : float64ToSortableBits(Number(bound) === 0 ? zero : Number(bound)))
    const rawLo = rawOf(lo, -0), rawHi = rawOf(hi, 0)
    return docs.filter((d) => model.raw[d].some((v) => v >= rawLo && v <= rawHi))
  }
  return docs.filter((d) => model.raw[d].some((v) => atLeast(model, v, lo) && atMost(model, v, hi)))
}

export function modelTerms(model: ModelColumn, ordinals: Set<number>, docs: number[]): number[] {
  return docs.filter((d) => model.raw[d].some((v) => ordinals.has(Number(v))))
}

export function modelBox(
  model: ModelColumn, box: { minLatitude: number; maxLatitude: number; minLongitude: number; maxLongitude: number }, docs: number[],
): number[] {
  const inside = (lat: number, lon: number) => lat >= box.minLatitude && lat <= box.maxLatitude
    && (box.minLongitude <= box.maxLongitude ? lon >= box.minLongitude && lon <= box.maxLongitude : lon >= box.minLongitude || lon <= box.maxLongitude)
  return docs.filter((d) => model.raw[d].some((lat, n) => inside(double(lat), double(model.lon[d][n]))))
}

const exact = (value: bigint): number | bigint => (value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value)

export function modelAggregate(model: ModelColumn, docs: number[]): { count: number; min: number | bigint | null; max: number | bigint | null; sum: number | bigint; nanCount?: number } {
  let values = docs.flatMap((d) => model.raw[d])
  if (model.column.type === 'fractional') {
    // NaN is left out like a missing value, and counted apart.
    const numbers = values.filter((v) => !Number.isNaN(double(v)))
    const nanCount = values.length - numbers.length
    if (numbers.length === 0) return { count: 0, min: null, max: null, sum: 0, nanCount }
    values = numbers
    const min = values.reduce((a, b) => (b < a ? b : a)), max = values.reduce((a, b) => (b > a ? b : a))
    let sum = 0
    for (const v of values) sum += double(v)
    return { count: values.length, min: double(min), max: double(max), sum, nanCount }
  }
  if (values.length === 0) return { count: 0, min: null, max: null, sum: 0 }
  const min = values.reduce((a, b) => (b < a ? b : a)), max = values.reduce((a, b) => (b > a ? b : a))
  return { count: values.length, min: exact(min), max: exact(max), sum: exact(values.reduce((a, b) => a + b, 0n)) }
}

/** Documents by their smallest (ascending) or largest (descending) value, ties by id; NaN values count as missing, NaN-only documents last by id. */
export function modelTopK(model: ModelColumn, k: number, order: 'ascending' | 'descending', docs: number[]): number[] {
  const isNaNValue = (v: bigint) => model.column.type === 'fractional' && Number.isNaN(double(v))
  const nanOnly = docs.filter((d) => model.raw[d].length > 0 && model.raw[d].every(isNaNValue))
  const keyed = docs.filter((d) => model.raw[d].some((v) => !isNaNValue(v))).map((d) => {
    const values = model.raw[d].filter((v) => !isNaNValue(v))
    const key = order === 'ascending' ? values.reduce((a, b) => (b < a ? b : a)) : values.reduce((a, b) => (b > a ? b : a))
    return { d, key }
  })
  keyed.sort((a, b) => (a.key === b.key ? a.d - b.d : (a.key < b.key) === (order === 'ascending') ? -1 : 1))
  return [...keyed.map((entry) => entry.d), ...nanOnly].slice(0, k)
}
