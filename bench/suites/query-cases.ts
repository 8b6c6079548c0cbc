/**
 * The questions the query suite asks, each three ways: DuckDB SQL, a plain-JS
 * loop over already-decoded typed arrays, and the OIXK query API. Every way
 * yields a normalised answer string, so the suite checks they agree before
 * it times them.
 */
import type { Column } from '../../src/read/column.js'
import type { ColumnsReader } from '../../src/read/reader.js'
import { sqlName } from './common.js'
import { type BenchField } from './duckdb-data.js'
import { type BenchAggregate, type BenchDocSet, docSetOf, emptyDocSet, queryColumn } from './query-api.js'

/** A prepared computation: `run` is timed; `answer` normalises the last result. */
export interface Prepared {
  run: () => unknown
  answer: () => string
}

/** One question on one dataset. */
export interface QueryCase {
  id: string
  description: string
  sql: string
  /** Normalises DuckDB's rows. */
  duckAnswer: (rows: unknown[][]) => string
  /** Null where a plain loop over values cannot answer (multi-valued columns, filters by document). */
  plainJs: Prepared | null
  /** Builds the OIXK computation on a reader; may throw when the API is missing. */
  oixk: (reader: ColumnsReader) => Prepared
  /** Builds the same question on a worker-pool segment (src/node/query-pool.ts), where the pool can answer it. */
  pooled?: (segment: PooledSegmentLike) => AsyncPrepared
  /** Target in ms for OIXK WebAssembly, when the issue sets one. */
  targetMs?: number
}

/** Like Prepared, for the pool's promises. */
export interface AsyncPrepared {
  run: () => Promise<unknown>
  answer: () => string
}

/** The PooledSegment methods the benchmark uses (by field name, promises). */
export interface PooledSegmentLike {
  facetCounts(field: string, docs?: BenchDocSet): Promise<Uint32Array>
  histogram(field: string, edges: number[], docs?: BenchDocSet): Promise<Uint32Array>
  rangeFilter(field: string, lo: number, hi: number, docs?: BenchDocSet): Promise<BenchDocSet>
  aggregate(field: string, docs?: BenchDocSet): Promise<BenchAggregate>
}

/** What the cases read: the decoded arrays (TS backend) and the table name in DuckDB. */
export interface CaseContext {
  table: string
  decoder: ColumnsReader
  /** Documents of the 10% sample (flights only), ascending. */
  sample?: Uint32Array
}

const DAY_MS = 86_400_000

/** Keyword counts by term, zero counts omitted, sorted by term. */
function termCounts(entries: Iterable<[string, number]>): string {
  return JSON.stringify([...entries].filter(([, count]) => count > 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/** Facet counts by ordinal → answer string. */
function ordinalCounts(column: Column, counts: Uint32Array): string {
  return termCounts(Array.from(counts, (count, ordinal) => [column.term(ordinal), count] as [string, number]))
}

/** An aggregate as "count|min|max|sum" (doubles to 12 significant digits: engines add in different orders). */
function aggregateAnswer(count: number, min: unknown, max: unknown, sum: unknown, fractional: boolean): string {
  const show = (value: unknown): string => value === null || value === undefined ? 'null'
    : fractional ? Number(value).toPrecision(12) : String(typeof value === 'number' ? value : BigInt(value as bigint))
  return `${count}|${show(min)}|${show(max)}|${show(sum)}`
}

function duckAggregate(fractional: boolean) {
  return (rows: unknown[][]): string => {
    const [count, min, max, sum] = rows[0]
    const natural = (value: unknown) => value instanceof Date ? value.getTime() : value
    return aggregateAnswer(Number(count), natural(min), natural(max), natural(sum), fractional)
  }
}

/** The column decoded into a typed array of numbers (ordinals for keywords, ms for dates). */
export function decodeNumbers(column: Column, part: 'latitude' | 'longitude' = 'latitude'): Float64Array | Int32Array {
  // Integers that fit go to an Int32Array, as a JS engineer would hold them; dates stay exact ms in doubles.
  const int32 = column.type === 'keyword' || column.type === 'bool'
    || (column.type === 'integral' && column.minRaw >= -(2n ** 31n) && column.maxRaw < 2n ** 31n)
  const array = int32 ? new Int32Array(column.totalValueCount) : new Float64Array(column.totalValueCount)
  column.readValues(0, array, part)
  return array
}

/** Facet of a keyword column over all documents (optionally a DocSet of sample documents). */
export function facetCase(context: CaseContext, field: string, sampled: boolean): QueryCase {
  const column = context.decoder.getColumn(field)!
  const ordinals = decodeNumbers(column) as Int32Array
  const counts = new Uint32Array(column.dictionary!.termCount)
  const sample = context.sample
  const dense = column.layout === 'dense'
  const plainJs: Prepared | null = !dense ? (sampled ? null : {
    run: () => { counts.fill(0); for (let index = 0; index < ordinals.length; index++) counts[ordinals[index]]++ },
    answer: () => ordinalCounts(column, counts),
  }) : {
    run: sampled
      ? () => { counts.fill(0); for (let index = 0; index < sample!.length; index++) counts[ordinals[sample![index]]]++ }
      : () => { counts.fill(0); for (let index = 0; index < ordinals.length; index++) counts[ordinals[index]]++ },
    answer: () => ordinalCounts(column, counts),
  }
  return {
    id: sampled ? `facet ${field}, 10% DocSet` : `facet ${field}`,
    description: sampled ? `documents per ${field} among a fixed 10% of documents` : `documents per ${field}`,
    sql: `SELECT ${sqlName(field)}, count(*) FROM ${context.table} WHERE ${sqlName(field)} IS NOT NULL${sampled ? ' AND sample' : ''} GROUP BY 1`,
    duckAnswer: (rows) => termCounts(rows.map(([term, count]) => [String(term), Number(count)])),
    plainJs,
    oixk: (reader) => {
      const query = queryColumn(reader.getColumn(field)!)
      const docs = sampled ? docSetOf(reader, sample!) : undefined
      const out = new Uint32Array(counts.length)
      return { run: () => query.facetCounts(docs, out), answer: () => ordinalCounts(column, out) }
    },
    pooled: sampled ? undefined : (segment) => {
      let result: Uint32Array = new Uint32Array(counts.length)
      return { run: async () => { result = await segment.facetCounts(field) }, answer: () => ordinalCounts(column, result) }
    },
  }
}

/** Count of documents whose value lies in [lo, hi] (natural units: numbers; dates in ms). */
export function rangeCase(context: CaseContext, field: BenchField, lo: number, hi: number): QueryCase {
  const column = context.decoder.getColumn(field.name)!
  const values = decodeNumbers(column)
  let matched = 0
  const sqlBound = (value: number) => field.type === 'date' ? `epoch_ms(${value})` : String(value)
  return {
    id: `range ${field.name}`,
    description: `documents with ${field.name} in [${field.type === 'date' ? new Date(lo).toISOString() : lo}, ${field.type === 'date' ? new Date(hi).toISOString() : hi}]`,
    sql: `SELECT count(*) FROM ${context.table} WHERE ${sqlName(field.name)} BETWEEN ${sqlBound(lo)} AND ${sqlBound(hi)}`,
    duckAnswer: (rows) => String(Number(rows[0][0])),
    plainJs: column.layout === 'multi' ? null : {
      run: () => {
        let count = 0
        // Branch-free: on unsorted data a branch per value mispredicts (~3x slower here).
        for (let index = 0; index < values.length; index++) count += +(values[index] >= lo) & +(values[index] <= hi)
        matched = count
      },
      answer: () => String(matched),
    },
    oixk: (reader) => {
      const query = queryColumn(reader.getColumn(field.name)!)
      const out = emptyDocSet(reader)
      let count = 0
      return { run: () => { count = query.rangeFilter(lo, hi, undefined, out).count() }, answer: () => String(count) }
    },
    pooled: (segment) => {
      let count = 0
      return {
        run: async () => { const matches = await segment.rangeFilter(field.name, lo, hi); count = matches.count(); matches.release() },
        answer: () => String(count),
      }
    },
  }
}

/** count/min/max/sum of a numeric column's values. */
export function aggregateCase(context: CaseContext, field: BenchField): QueryCase {
  const column = context.decoder.getColumn(field.name)!
  const values = decodeNumbers(column)
  const fractional = field.type === 'fractional'
  let last = ''
  const name = sqlName(field.name)
  // DuckDB has no sum of timestamps: sum their epoch ms.
  const summed = field.type === 'date' ? `epoch_ms(${name})` : name
  return {
    id: `aggregate ${field.name}`,
    description: `count, min, max and sum of ${field.name}`,
    sql: `SELECT count(${name}), min(${summed}), max(${summed}), sum(${summed}) FROM ${context.table}`,
    duckAnswer: duckAggregate(fractional),
    plainJs: {
      run: () => {
        let min = Infinity, max = -Infinity, sum = 0
        for (let index = 0; index < values.length; index++) {
          const value = values[index]
          if (value < min) min = value
          if (value > max) max = value
          sum += value
        }
        last = aggregateAnswer(values.length, values.length === 0 ? null : min, values.length === 0 ? null : max, sum, fractional)
      },
      answer: () => last,
    },
    oixk: (reader) => {
      const query = queryColumn(reader.getColumn(field.name)!)
      let result: BenchAggregate = { count: 0, min: null, max: null, sum: 0 }
      return { run: () => { result = query.aggregate() }, answer: () => aggregateAnswer(result.count, result.min, result.max, result.sum, fractional) }
    },
    pooled: (segment) => {
      let result: BenchAggregate = { count: 0, min: null, max: null, sum: 0 }
      return { run: async () => { result = await segment.aggregate(field.name) }, answer: () => aggregateAnswer(result.count, result.min, result.max, result.sum, fractional) }
    },
  }
}

/** Documents per UTC day of a date column. */
export function histogramDayCase(context: CaseContext, field: string): QueryCase {
  const column = context.decoder.getColumn(field)!
  const values = decodeNumbers(column) as Float64Array
  const start = Math.floor(Number(column.minRaw) / DAY_MS) * DAY_MS
  const days = Math.floor(Number(column.maxRaw) / DAY_MS) * DAY_MS / DAY_MS - start / DAY_MS + 1
  const edges = Array.from({ length: days + 1 }, (_, day) => start + day * DAY_MS)
  const buckets = new Uint32Array(days)
  const answer = (counts: Uint32Array) => JSON.stringify(Array.from(counts, (count, day) => [start + day * DAY_MS, count]).filter(([, count]) => count > 0))
  return {
    id: `histogram ${field} per day`,
    description: `documents per UTC day of ${field} (${days} buckets)`,
    sql: `SELECT date_trunc('day', ${sqlName(field)}) AS day, count(*) FROM ${context.table} WHERE ${sqlName(field)} IS NOT NULL GROUP BY 1`,
    duckAnswer: (rows) => JSON.stringify(rows.map(([day, count]) => [(day as Date).getTime(), Number(count)]).sort(([a], [b]) => a - b)),
    plainJs: {
      run: () => { buckets.fill(0); for (let index = 0; index < values.length; index++) buckets[Math.floor((values[index] - start) / DAY_MS)]++ },
      answer: () => answer(buckets),
    },
    ...histogramSides(field, edges, answer),
  }
}

/** The OIXK and pool sides of a histogram case: the query API and the pool over the same edges. */
function histogramSides(field: string, edges: number[], answer: (result: Uint32Array) => string): Pick<QueryCase, 'oixk' | 'pooled'> {
  return {
    oixk: (reader) => {
      const query = queryColumn(reader.getColumn(field)!)
      let result: Uint32Array = new Uint32Array(0)
      return { run: () => { result = query.histogram(edges) }, answer: () => answer(result) }
    },
    pooled: (segment) => {
      let result: Uint32Array = new Uint32Array(0)
      return { run: async () => { result = await segment.histogram(field, edges) }, answer: () => answer(result) }
    },
  }
}

/**
 * Documents per bucket of `step` from `lo` (`buckets` buckets) of an integral column, e.g. delay per 15 minutes.
 * Its plain-JS loop repeats histogramDayCase's on purpose: sharing it between the two made it polymorphic
 * (Float64Array dates, Int32Array delays) and measured 2× slower (9.8 → 19.2 ms), which would handicap the baseline.
 */
export function histogramStepCase(context: CaseContext, field: string, lo: number, step: number, buckets: number): QueryCase {
  const values = decodeNumbers(context.decoder.getColumn(field)!)
  const edges = Array.from({ length: buckets + 1 }, (_, bucket) => lo + bucket * step)
  const hi = lo + buckets * step
  const counts = new Uint32Array(buckets)
  const answer = (result: Uint32Array) => JSON.stringify(Array.from(result, (count, bucket) => [bucket, count]).filter(([, count]) => count > 0))
  return {
    id: `histogram ${field} per ${step}`,
    description: `documents per ${step} of ${field} in [${lo}, ${hi}) (${buckets} buckets)`,
    sql: `SELECT floor((${sqlName(field)} - ${lo}) / ${step}) AS bucket, count(*) FROM ${context.table} WHERE ${sqlName(field)} >= ${lo} AND ${sqlName(field)} < ${hi} GROUP BY 1`,
    duckAnswer: (rows) => JSON.stringify(rows.map(([bucket, count]) => [Number(bucket), Number(count)]).sort(([a], [b]) => a - b)),
    plainJs: {
      run: () => {
        counts.fill(0)
        for (let index = 0; index < values.length; index++) {
          const value = values[index]
          if (value >= lo && value < hi) counts[Math.floor((value - lo) / step)]++
        }
      },
      answer: () => answer(counts),
    },
    ...histogramSides(field, edges, answer),
  }
}

/** Filter by a range of one column, then facet a keyword column over the matches. */
export function filterThenFacetCase(context: CaseContext, rangeField: string, lo: number, hi: number, facetField: string): QueryCase {
  const facetColumn = context.decoder.getColumn(facetField)!
  const ordinals = decodeNumbers(facetColumn) as Int32Array
  const values = decodeNumbers(context.decoder.getColumn(rangeField)!)
  const counts = new Uint32Array(facetColumn.dictionary!.termCount)
  return {
    id: `${rangeField} in [${lo}, ${hi}] → facet ${facetField}`,
    description: `documents per ${facetField} among those with ${rangeField} in [${lo}, ${hi}]`,
    sql: `SELECT ${sqlName(facetField)}, count(*) FROM ${context.table} WHERE ${sqlName(rangeField)} BETWEEN ${lo} AND ${hi} GROUP BY 1`,
    duckAnswer: (rows) => termCounts(rows.map(([term, count]) => [String(term), Number(count)])),
    plainJs: {
      run: () => {
        counts.fill(0)
        for (let document = 0; document < values.length; document++) counts[ordinals[document]] += +(values[document] >= lo) & +(values[document] <= hi)
      },
      answer: () => ordinalCounts(facetColumn, counts),
    },
    oixk: (reader) => {
      const range = queryColumn(reader.getColumn(rangeField)!), facet = queryColumn(reader.getColumn(facetField)!)
      const matches = emptyDocSet(reader)
      const out = new Uint32Array(counts.length)
      return { run: () => facet.facetCounts(range.rangeFilter(lo, hi, undefined, matches), out), answer: () => ordinalCounts(facetColumn, out) }
    },
    pooled: (segment) => {
      let result: Uint32Array = new Uint32Array(counts.length)
      return {
        run: async () => { const matches = await segment.rangeFilter(rangeField, lo, hi); result = await segment.facetCounts(facetField, matches); matches.release() },
        answer: () => ordinalCounts(facetColumn, result),
      }
    },
  }
}

/** Count of documents with a point inside a box (geo columns). */
export function boundingBoxCase(context: CaseContext, field: string, box: { minLatitude: number; maxLatitude: number; minLongitude: number; maxLongitude: number }): QueryCase {
  const column = context.decoder.getColumn(field)!
  const latitudes = decodeNumbers(column, 'latitude'), longitudes = decodeNumbers(column, 'longitude')
  let matched = 0
  const name = sqlName(field)
  return {
    id: `bounding box ${field}`,
    description: `documents with ${field} in latitude [${box.minLatitude}, ${box.maxLatitude}] × longitude [${box.minLongitude}, ${box.maxLongitude}]`,
    sql: `SELECT count(*) FROM ${context.table} WHERE ${name}.lat BETWEEN ${box.minLatitude} AND ${box.maxLatitude} AND ${name}.lon BETWEEN ${box.minLongitude} AND ${box.maxLongitude}`,
    duckAnswer: (rows) => String(Number(rows[0][0])),
    plainJs: column.layout === 'multi' ? null : {
      run: () => {
        let count = 0
        for (let index = 0; index < latitudes.length; index++) {
          const latitude = latitudes[index], longitude = longitudes[index]
          count += +(latitude >= box.minLatitude) & +(latitude <= box.maxLatitude) & +(longitude >= box.minLongitude) & +(longitude <= box.maxLongitude)
        }
        matched = count
      },
      answer: () => String(matched),
    },
    oixk: (reader) => {
      const query = queryColumn(reader.getColumn(field)!)
      const out = emptyDocSet(reader)
      let count = 0
      return { run: () => { count = query.boundingBoxFilter(box, undefined, out).count() }, answer: () => String(count) }
    },
  }
}
