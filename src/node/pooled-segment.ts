/**
 * A segment open in every worker of a query pool: the questions, split by document range and
 * sent to the workers, their parts merged; see query-pool.ts.
 */
import type { ColumnType } from '../format/constants.js'
import type { Aggregate } from '../kernels/aggregations.js'
import { notADocSet } from '../kernels/common.js'
import { DocSet } from '../kernels/doc-set.js'
import { WeakTracker } from '../backend/weak-tracker.js'
import { topOrdinals, type TermCount } from '../kernels/facets.js'
import { termList, type BoundingBox, type Terms } from '../kernels/filters.js'
import { rawEdges, type NaturalValue } from '../kernels/natural-units.js'
import { type OpenOptions, openColumns } from '../read/open.js'
import { shown } from '../read/file-input.js'
import { checkFieldName, noColumn, type ColumnsReader } from '../read/reader.js'
import { mergeAggregates, sharedMemoryBackend, splitDocuments, sumCounts, type AggregateParts } from './query-merge.js'
import { sendableBound, sendableBox, sendableTerms } from './query-protocol.js'
import type { ColumnInfo, PooledMethod, QueryRequest } from './query-protocol.js'
import type { QueryPool } from './query-pool.js'

/** A segment open in every worker of a pool; methods mirror Column's, by field name, and return promises. */
export class PooledSegment {
  readonly fileName: string
  readonly maxDoc: number
  /** Columns in directory order. */
  readonly columns: readonly ColumnInfo[]
  private readonly pool: QueryPool
  private readonly segment: number
  private readonly byName = new Map<string, ColumnInfo>()
  // The readers openReader lent out (held weakly: a reader dropped unclosed may still be collected).
  private readonly readers = new WeakTracker<ColumnsReader>()
  private readonly shared: Uint8Array
  private closed = false

  /** Not for callers: use QueryPool.open. */
  /** The open's options a reader of the same bytes takes too (openReader). */
  private readonly readerOptions: Pick<OpenOptions, 'decodedCodes' | 'maxDecodedBytes' | 'maxResidentFileBytes'>

  constructor(
    pool: QueryPool, segment: number, fileName: string, maxDoc: number, columns: ColumnInfo[], bytes: Uint8Array,
    readerOptions: Pick<OpenOptions, 'decodedCodes' | 'maxDecodedBytes' | 'maxResidentFileBytes'> = {},
  ) {
    this.readerOptions = readerOptions
    this.pool = pool
    this.segment = segment
    this.fileName = fileName
    this.maxDoc = maxDoc
    this.columns = Object.freeze(columns)
    this.shared = bytes
    for (const column of columns) this.byName.set(column.name, column)
  }

  /**
   * The file's bytes in shared memory (the one copy every worker reads). Throws once the segment
   * is closed; a view taken before is valid until then only: the pool then reuses that memory for
   * the next file opened (pool.open copies these bytes, so a segment opened over them stays).
   */
  get bytes(): Uint8Array {
    this.assertOpen()
    return this.shared
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`${this.fileName}: pooled segment is closed`)
  }

  /**
   * A reader in this thread over the same shared bytes (TS kernels, no copy; the file is
   * validated again) whose methods accept the pool's DocSets and make shared ones: for
   * what the pool does not split (topK, accessors). Close it when done.
   */
  openReader(): ColumnsReader {
    const reader = openColumns(this.bytes, { ...this.readerOptions, fileName: this.fileName, maxDoc: this.maxDoc, backend: sharedMemoryBackend })
    // Closed with the segment: with backend 'wasm' its bytes may then hold the next file opened.
    this.readers.add(reader)
    return reader
  }

  /** An empty DocSet in shared memory: workers read and write it in place. */
  createDocSet(): DocSet {
    this.assertOpen()
    return new DocSet(sharedMemoryBackend, this.maxDoc)
  }

  /** A shared DocSet holding every document. */
  allDocuments(): DocSet {
    const set = this.createDocSet()
    const words = set.words
    words.fill(-1)
    if ((this.maxDoc & 31) !== 0) words[words.length - 1] = (1 << (this.maxDoc & 31)) - 1
    return set
  }

  private column(field: string): ColumnInfo {
    this.assertOpen()
    checkFieldName(this.fileName, field)
    const column = this.byName.get(field)
    if (column === undefined) throw new RangeError(noColumn(this.fileName, field, this.columns.map((column) => column.name)))
    return column
  }

  /** The filter's words in shared memory: a pooled DocSet as it is, any other DocSet copied once. */
  private filterWords(field: string, docs: DocSet | undefined): Int32Array | null {
    if (docs === undefined || docs === null) return null
    if (!(docs instanceof DocSet)) throw notADocSet(field, 'docs', docs, 'segment')
    if (docs.maxDoc !== this.maxDoc) {
      throw new RangeError(`field "${field}": docs DocSet has ${docs.maxDoc} documents; this segment has ${this.maxDoc} documents`)
    }
    const words = docs.words
    if (words.buffer instanceof SharedArrayBuffer) return words
    const shared = new Int32Array(new SharedArrayBuffer(words.byteLength))
    shared.set(words)
    return shared
  }

  private async query(method: PooledMethod, field: string, args: unknown[], docs: DocSet | undefined, out: DocSet | null): Promise<unknown[]> {
    this.column(field)
    const filter = this.filterWords(field, docs)
    const outWords = out === null ? null : out.words
    const requests = splitDocuments(this.maxDoc, this.pool.threads).map(({ from, to }): Omit<QueryRequest, 'id'> => ({
      op: 'query', segment: this.segment, method, field, args, from, to, filter, out: outWords,
    }))
    return this.pool.run(requests)
  }

  /** Documents per ordinal (keyword) or per value (bool), like Column.facetCounts. */
  async facetCounts(field: string, docs?: DocSet): Promise<Uint32Array> {
    return sumCounts((await this.query('facetCounts', field, [], docs, null)) as Uint32Array[])
  }

  /** The k terms with the most documents (count descending, ties by ordinal, zeros omitted), like Column.topTerms. */
  async topTerms(field: string, k: number, docs?: DocSet): Promise<TermCount[]> {
    const type = this.column(field).type
    if (type !== 'keyword') throw new TypeError(`field "${field}" is ${type}; topTerms reads keyword columns`)
    if (!(k >= 0) || !Number.isInteger(k)) throw new RangeError(`field "${field}": k must be a non-negative integer, got ${shown(k)}`)
    const counts = await this.facetCounts(field, docs)
    const ordinals = Array.from(topOrdinals(counts, k))
    // A close while the counts came back: named as every other question names it, not as the worker saw it.
    this.assertOpen()
    const terms = (await this.pool.ask({ op: 'terms', segment: this.segment, field, ordinals }).catch((error: unknown) => {
      this.assertOpen()
      throw error
    })) as string[]
    return ordinals.map((ordinal, index) => ({ term: terms[index], ordinal, count: counts[ordinal] }))
  }

  /** Values per bucket [edges[b], edges[b + 1]) in natural units, like Column.histogram. */
  async histogram(field: string, edges: readonly NaturalValue[], docs?: DocSet): Promise<Uint32Array> {
    // Edges checked here too, so that one no worker can be sent (a function) is named as Column.histogram names it.
    const type = this.column(field).type
    // Read once: what is checked is what is sent (an edge behind a getter may change between reads).
    const sent = Array.isArray(edges) ? Array.from(edges, sendableBound) : edges
    if ((type === 'integral' || type === 'date' || type === 'fractional') && Array.isArray(sent)) rawEdges(field, type, sent as NaturalValue[])
    return sumCounts((await this.query('histogram', field, [sent], docs, null)) as Uint32Array[])
  }

  /**
   * Count, min, max and sum, like Column.aggregate. Exact for every integer type.
   * Fractional: the sum adds each range's in-order sum, range after range, so with
   * more than one range it may differ in the last bits from the single-threaded sum.
   */
  async aggregate(field: string, docs?: DocSet): Promise<Aggregate> {
    const type: ColumnType = this.column(field).type
    return mergeAggregates((await this.query('aggregate', field, [], docs, null)) as AggregateParts[], type === 'fractional')
  }

  private async filter(method: PooledMethod, field: string, args: unknown[], docs: DocSet | undefined): Promise<DocSet> {
    const out = this.createDocSet()
    try {
      await this.query(method, field, args, docs, out)
    } catch (error) {
      out.release()
      throw error
    }
    return out
  }

  /** Documents with a value in [lo, hi] (inclusive, natural units), like Column.rangeFilter; a shared DocSet. */
  rangeFilter(field: string, lo: NaturalValue, hi: NaturalValue, docs?: DocSet): Promise<DocSet> {
    return this.filter('rangeFilter', field, [sendableBound(lo), sendableBound(hi)], docs)
  }

  /** Documents with any of the terms, like Column.termFilter; a shared DocSet. */
  async termFilter(field: string, terms: Terms, docs?: DocSet): Promise<DocSet> {
    return this.filter('termFilter', field, [sendableTerms(termList(field, terms))], docs)
  }

  /** Documents with a point inside the box, like Column.boundingBoxFilter; a shared DocSet. */
  boundingBoxFilter(field: string, box: BoundingBox, docs?: DocSet): Promise<DocSet> {
    return this.filter('boundingBoxFilter', field, [sendableBox(box)], docs)
  }

  /** Drops the segment from every worker (the shared bytes go when nothing references them); later calls throw or reject. Idempotent. */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve()
    this.closed = true
    for (const reader of this.readers.drain()) reader.close()
    return this.pool.release(this.segment)
  }
}
