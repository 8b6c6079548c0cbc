/**
 * The query API of issue 5 as the benchmark calls it, typed locally so this
 * suite compiles before and after the API lands, and a probe that tells
 * whether a call works ("not available yet" instead of a faked figure).
 */
import * as oixk from '../../src/index.js'
import type { Column } from '../../src/read/column.js'
import type { ColumnsReader } from '../../src/read/reader.js'

/** The DocSet members the benchmark uses. */
export interface BenchDocSet {
  count(): number
  release(): void
}

/** Aggregate result as the contract states it. */
export interface BenchAggregate {
  count: number
  min: number | bigint | null
  max: number | bigint | null
  sum: number | bigint
}

/** The Column query methods the benchmark uses. */
export interface QueryColumn {
  facetCounts(docs?: BenchDocSet, counts?: Uint32Array): Uint32Array
  histogram(edges: number[], docs?: BenchDocSet): Uint32Array
  rangeFilter(lo: number, hi: number, docs?: BenchDocSet, out?: BenchDocSet): BenchDocSet
  boundingBoxFilter(box: { minLatitude: number; maxLatitude: number; minLongitude: number; maxLongitude: number }, docs?: BenchDocSet, out?: BenchDocSet): BenchDocSet
  aggregate(docs?: BenchDocSet): BenchAggregate
}

/** The reader's DocSet factory. */
interface QueryReader {
  createDocSet(): BenchDocSet
}

/** Why the OIXK side of a query has no figure, or null when the API answers. */
export function queryApiMissing(reader: ColumnsReader): string | null {
  const api = reader as unknown as Partial<QueryReader>
  if (typeof api.createDocSet !== 'function') return 'not available yet: ColumnsReader.createDocSet does not exist'
  if (typeof (oixk as Record<string, unknown>).DocSet !== 'function') return 'not available yet: DocSet is not exported from src/index.ts'
  return null
}

/** The column as a QueryColumn (callers probe the call first). */
export function queryColumn(column: Column): QueryColumn {
  return column as unknown as QueryColumn
}

/** An empty DocSet of the reader (for `out` arguments, reused across calls). */
export function emptyDocSet(reader: ColumnsReader): BenchDocSet {
  return (reader as unknown as QueryReader).createDocSet()
}

/** A DocSet holding the given documents. */
export function docSetOf(reader: ColumnsReader, documents: Uint32Array): BenchDocSet {
  const DocSet = (oixk as unknown as { DocSet: { fromDocuments(reader: ColumnsReader, ids: Iterable<number>): BenchDocSet } }).DocSet
  return DocSet.fromDocuments(reader, documents)
}

/** Runs a probe call; returns null when it works, else why it has no figure ("not available yet" for stubs). */
export function probe(call: () => unknown): string | null {
  try {
    call()
    return null
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return /not implemented/i.test(message) || error instanceof TypeError && /is not a function/.test(message)
      ? `not available yet: ${message}` : `error: ${message}`
  }
}
