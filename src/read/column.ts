/**
 * A column of an open reader: which documents have values (dense / optional
 * bitmap + rank / multi offsets) and the value sequences behind them.
 * Accessors allocate nothing (but getKeyword's view and BigInt results).
 */
import type { ColumnsBackend, PresenceView, SequenceView } from '../backend/backend.js'
import type { BitsetMemory } from '../backend/query-kernels.js'
import type { ColumnType, Layout } from '../format/constants.js'
import { CorruptIndexException } from '../format/errors.js'
import { int64Result, int64ToBigInt, sortableToFloat64Into } from '../format/int64.js'
import { decodeUtf8Strict } from '../format/utf8.js'
import type { Dictionary } from './dictionary.js'
import { NO_LOOKUP, NumberLookup } from './number-lookup.js'
import { ordinalOutOfRange, readValuesInto } from './read-values.js'
import { checkWritable } from '../backend/destinations.js'
import { describeInput, shown } from './file-input.js'
import { documentProblem, type DocSet, type DocSetOwner } from '../kernels/doc-set.js'
import { aggregate, histogram, type Aggregate } from '../kernels/aggregations.js'
import { facetCounts, topTerms, type TermCount } from '../kernels/facets.js'
import { boundingBoxFilter, checkTerm, rangeFilter, termFilter, type BoundingBox, type Terms } from '../kernels/filters.js'
import type { NaturalValue } from '../kernels/natural-units.js'
import { topK, type SortOrder } from '../kernels/top-k.js'
import { columnToArray, type ColumnValue, type ToArrayOptions } from './to-array.js'

/** Which of a geo column's two sequences to read. */
export type GeoPart = 'latitude' | 'longitude'

/** The parts of a column the reader validated at open. */
export interface ColumnParts {
  name: string
  type: ColumnType
  layout: Layout
  maxDoc: number
  documentsWithValue: number
  valueCount: number
  minRaw: bigint
  maxRaw: bigint
  sectionOffset: number
  sectionLength: number
  values: SequenceView
  longitudes: SequenceView | null
  presence: PresenceView | null
  offsets: SequenceView | null
  dictionary: Dictionary | null
  backend: ColumnsBackend
  fileName: string
}

const INTEGER_LIKE = 'integral/date/bool/keyword'

// Where the number accessors leave their result (see loadInt64Number).
const numberResult = new Float64Array(1)

// Run of the last resolved document, so accessors return two numbers without allocating.
let runStart = 0
let runCount = 0

/**
 * A multi column's first values: their bits (repeats null); or, when few values repeat a term of
 * their document, bits null and the repeats' value positions (ascending) and ordinals (none when
 * every value is first).
 */
export interface FirstValues {
  readonly bits: BitsetMemory | null
  readonly repeats: { readonly positions: Uint32Array; readonly ordinals: Uint32Array } | null
}

/**
 * A multi column's documents as bitsets (QueryKernels.markDocumentStarts): `starts`, over values
 * and one past the last, marks each non-empty document's first value; `nonempty` its documents.
 */
export interface DocumentStarts {
  readonly starts: BitsetMemory
  readonly nonempty: BitsetMemory
}

/** One column of a segment's columns file. */
export class Column {
  readonly name: string
  readonly type: ColumnType
  readonly layout: Layout
  readonly maxDoc: number
  /** Documents with at least one value. */
  readonly documentsWithValue: number
  /** Values in the column (valueCount() without a document gives the same). */
  readonly totalValueCount: number
  /** Smallest and largest raw value (geo: of the latitudes; keyword: ordinals). */
  readonly minRaw: bigint
  readonly maxRaw: bigint
  /** Absolute offset and length of the column's section in the file. */
  readonly sectionOffset: number
  readonly sectionLength: number
  /** Keyword dictionary, or null for other types. */
  readonly dictionary: Dictionary | null
  /** Sequences and maps, for kernels and inspection. */
  readonly values: SequenceView
  readonly longitudes: SequenceView | null
  readonly presence: PresenceView | null
  readonly offsets: SequenceView | null
  private readonly backend: ColumnsBackend
  private readonly fileName: string
  /** @internal The reader's tracker of the DocSets its queries make (released when it closes); set by the reader. */
  docSetOwner: DocSetOwner | null = null
  /**
   * @internal The reader, set by it: a column kept after its reader is dropped keeps the reader, so
   * what closes readers it lent out (a FileBuffer's or a pooled segment's release, which track them
   * weakly) still finds and closes it, and the column with it, before the memory goes to another file.
   */
  reader: object | null = null
  /**
   * @internal Multi keyword and bool columns: the values that are the first of their ordinal in
   * their document (markFirstValues), made by the first facet that counts them and kept until
   * close, in this column's backend (see FirstValues).
   */
  firstValues: FirstValues | null = null
  /**
   * @internal Multi columns: per document range (key `from:to`; the whole column's, or each of
   * the worker pool's), made by the first filter or selection there, kept until close, in this
   * column's backend.
   */
  readonly documentStarts = new Map<string, DocumentStarts>()
  /** Set by the reader's close(), after which no read may touch its memory. */
  private closed = false
  private readonly integerLike: boolean
  /**
   * Single reads of a dense integer-like column in JS, without a backend call: built by the first
   * getInt64 (at open, its per-block tables cost milliseconds on a big file); NO_LOOKUP (serving no
   * document) until then, for other columns and after close.
   */
  private numberLookup: NumberLookup = NO_LOOKUP

  constructor(parts: ColumnParts) {
    this.name = parts.name
    this.type = parts.type
    this.layout = parts.layout
    this.maxDoc = parts.maxDoc
    this.documentsWithValue = parts.documentsWithValue
    this.totalValueCount = parts.valueCount
    this.minRaw = parts.minRaw
    this.maxRaw = parts.maxRaw
    this.sectionOffset = parts.sectionOffset
    this.sectionLength = parts.sectionLength
    this.dictionary = parts.dictionary
    this.values = parts.values
    this.longitudes = parts.longitudes
    this.presence = parts.presence
    this.offsets = parts.offsets
    this.backend = parts.backend
    this.fileName = parts.fileName
    this.integerLike = this.type !== 'fractional' && this.type !== 'geo_point'
  }

  // A closed reader's memory may belong to another file by now (WebAssembly): refuse.
  private assertOpen(): void {
    if (this.closed) throw new Error(`${this.fileName}: reader is closed`)
  }

  private resolve(document: number): void {
    this.assertOpen()
    if (typeof document !== 'number' || !(document >= 0 && document < this.maxDoc) || !Number.isInteger(document)) {
      throw new RangeError(`field "${this.name}": ${documentProblem(document, this.maxDoc)}`)
    }
    if (this.layout === 'dense') {
      runStart = document
      runCount = 1
    } else if (this.presence !== null) {
      const words = this.presence.words
      runCount = (words[document >>> 5] >>> (document & 31)) & 1
      runStart = runCount === 0 ? 0 : this.backend.rank(this.presence, document)
    } else {
      const offsets = this.offsets!
      this.backend.getRaw(offsets, document)
      runStart = int64Result[0] >>> 0
      this.backend.getRaw(offsets, document + 1)
      runCount = (int64Result[0] >>> 0) - runStart
    }
  }

  /** Value index of the nth value of document; throws when it has fewer values. */
  private valueIndex(document: number, nth: number): number {
    // The dense first value needs no run lookup: the value index is the document.
    if (this.layout === 'dense' && nth === 0 && typeof document === 'number' && document >>> 0 === document && document < this.maxDoc && !this.closed) {
      return document
    }
    this.resolve(document)
    if (typeof nth !== 'number' || !(nth >= 0 && nth < runCount) || !Number.isInteger(nth)) {
      throw new RangeError(`field "${this.name}": document ${document} has ${runCount} value(s), no value #${shown(nth)}`)
    }
    return runStart + nth
  }

  private checkIndex(index: number, limit: number, what: string): void {
    if (typeof index !== 'number' || !(index >= 0 && index < limit) || !Number.isInteger(index)) {
      throw new RangeError(`field "${this.name}": ${what} ${shown(index)} is not an integer in [0, ${limit})`)
    }
  }

  private expectType(accessor: string, allowed: boolean, types: string): void {
    if (!allowed) throw new TypeError(`field "${this.name}" is ${this.type}; ${accessor} reads ${types} columns`)
  }

  /** Whether the document has at least one value. */
  hasValue(document: number): boolean {
    this.resolve(document)
    return runCount > 0
  }

  /** Values of the document; without a document, the column's total value count. */
  valueCount(document?: number): number {
    if (document === undefined) return this.totalValueCount
    this.resolve(document)
    return runCount
  }

  /** Value index where the document's run starts (use with readValues); its length is valueCount(document). */
  firstValueIndex(document: number): number {
    this.resolve(document)
    return runStart
  }

  /** The nth value of an integral, date (ms), bool or keyword (ordinal) column as an exact number. */
  getInt64(document: number, nth = 0): number {
    // The common case answers here (NumberLookup); NaN means the block needs the backend's read.
    // A closed reader has no lookup (see markClosed), so the backend's read refuses it.
    // Failed checks go to the backend's read, which throws the right error. (The same checks in
    // value(), returning a constant NaN, measured slower in a caller's loop.)
    const lookup = this.numberLookup
    if (nth === 0 && typeof document === 'number' && document >>> 0 === document && document < lookup.count) {
      const value = lookup.value(document)
      if (value === value) return value
      const read = this.backend.getNumber(this.values, document)
      if (read === read) return read
    }
    this.loadInt64Number(document, nth)
    return numberResult[0]
  }

  // The work of getInt64/getFloat64 returns nothing: a double returned from a call V8
  // does not inline is boxed (a heap allocation). The accessors themselves stay tiny,
  // so they inline into the caller's loop and read the result from a typed array.
  private loadInt64Number(document: number, nth: number): void {
    this.expectType('getInt64', this.integerLike, INTEGER_LIKE)
    this.backend.getRaw(this.values, this.valueIndex(document, nth))
    // After the read, which refuses a closed reader: the lookup copies the records from the file.
    if (this.numberLookup === NO_LOOKUP && this.layout === 'dense') this.numberLookup = new NumberLookup(this.values)
    // Computed here rather than by a helper: a double returned from a call may be boxed.
    const value = int64Result[1] * 4294967296 + (int64Result[0] >>> 0)
    if (!Number.isSafeInteger(value)) {
      throw new RangeError(`field "${this.name}" document ${document}: value ${int64ToBigInt(int64Result[0], int64Result[1])} is beyond 2^53; use getInt64BigInt`)
    }
    numberResult[0] = value
  }

  /** @internal Called by the reader's close(): every later read throws (getInt64's through the backend's path). */
  markClosed(): void {
    this.closed = true
    this.numberLookup = NO_LOOKUP
    this.firstValues?.bits?.release()
    this.firstValues = null
    for (const { starts, nonempty } of this.documentStarts.values()) {
      starts.release()
      nonempty.release()
    }
    this.documentStarts.clear()
  }

  /** The nth value as a bigint (exact for every i64). */
  getInt64BigInt(document: number, nth = 0): bigint {
    this.expectType('getInt64BigInt', this.integerLike, INTEGER_LIKE)
    this.backend.getRaw(this.values, this.valueIndex(document, nth))
    return int64ToBigInt(int64Result[0], int64Result[1])
  }

  /** The nth value of a fractional column. */
  getFloat64(document: number, nth = 0): number {
    this.loadFloat64(document, nth)
    return numberResult[0]
  }

  private loadFloat64(document: number, nth: number): void {
    this.expectType('getFloat64', this.type === 'fractional', 'fractional')
    this.backend.getRaw(this.values, this.valueIndex(document, nth))
    sortableToFloat64Into(int64Result[0], int64Result[1], numberResult, 0)
  }

  /** The nth ordinal of a keyword column (range-checked against the dictionary). */
  getOrdinal(document: number, nth = 0): number {
    this.expectType('getOrdinal', this.dictionary !== null, 'keyword')
    return this.checkedOrdinal(this.valueIndex(document, nth))
  }

  /** The ordinal at a value index (range-checked). */
  getOrdinalAt(valueIndex: number): number {
    this.assertOpen()
    this.expectType('getOrdinalAt', this.dictionary !== null, 'keyword')
    this.checkIndex(valueIndex, this.totalValueCount, 'value index')
    return this.checkedOrdinal(valueIndex)
  }

  private checkedOrdinal(valueIndex: number): number {
    this.backend.getRaw(this.values, valueIndex)
    const termCount = this.dictionary!.termCount
    if (int64Result[1] !== 0 || int64Result[0] >>> 0 >= termCount) {
      throw new CorruptIndexException(this.fileName, `field "${this.name}": ${ordinalOutOfRange(valueIndex, int64Result[0], int64Result[1], termCount)}`)
    }
    return int64Result[0] >>> 0
  }

  /** The nth keyword's UTF-8 bytes: a view (of the file, or with WebAssembly of its terms copied at open), valid while the reader lives. */
  getKeyword(document: number, nth = 0): Uint8Array {
    this.expectType('getKeyword', this.dictionary !== null, 'keyword')
    return this.dictionary!.termBytes(this.checkedOrdinal(this.valueIndex(document, nth)))
  }

  /** The nth keyword decoded to a string (allocates). */
  getKeywordString(document: number, nth = 0): string {
    this.expectType('getKeywordString', this.dictionary !== null, 'keyword')
    return this.term(this.getOrdinal(document, nth))
  }

  /** The term with this ordinal as a string (allocates). */
  term(ordinal: number): string {
    this.assertOpen()
    this.expectType('term', this.dictionary !== null, 'keyword')
    this.checkIndex(ordinal, this.dictionary!.termCount, 'ordinal')
    const text = decodeUtf8Strict(this.dictionary!.termBytes(ordinal))
    if (text === null) throw new CorruptIndexException(this.fileName, `field "${this.name}": term ${ordinal} is not valid UTF-8`)
    return text
  }

  /** Ordinal of a keyword (string or UTF-8 bytes) by binary search, or -1. */
  lookupOrdinal(term: string | Uint8Array): number {
    this.assertOpen()
    this.expectType('lookupOrdinal', this.dictionary !== null, 'keyword')
    checkTerm(this.name, term)
    return this.dictionary!.lookupOrdinal(term)
  }

  /** The nth geo point as [latitude, longitude] in `out` (allocates a Float64Array only when out is omitted). */
  getGeoPoint(document: number, nth = 0, out: Float64Array = new Float64Array(2)): Float64Array {
    this.expectType('getGeoPoint', this.longitudes !== null, 'geo_point')
    if (!(out instanceof Float64Array) || out.length < 2) {
      throw new TypeError(`field "${this.name}": getGeoPoint's out must be a Float64Array of 2 or more elements (latitude, longitude), got ${out instanceof Float64Array ? `one of ${out.length}` : describeInput(out)}`)
    }
    checkWritable(out, this.name, 'getGeoPoint\'s out')
    const index = this.valueIndex(document, nth)
    this.backend.getRaw(this.values, index)
    sortableToFloat64Into(int64Result[0], int64Result[1], out, 0)
    this.backend.getRaw(this.longitudes!, index)
    sortableToFloat64Into(int64Result[0], int64Result[1], out, 1)
    return out
  }

  /** Raw i64 of a value by value index (any type; geo: the chosen part), as a bigint. */
  getRawBigInt(valueIndex: number, part: GeoPart = 'latitude'): bigint {
    this.assertOpen()
    this.checkIndex(valueIndex, this.totalValueCount, 'value index')
    this.backend.getRaw(this.sequenceOf(part), valueIndex)
    return int64ToBigInt(int64Result[0], int64Result[1])
  }

  /**
   * @internal Loads the raw value at a value index into int64Result and returns that array (for
   * merge): the caller may be another copy of this library, whose own int64Result this leaves alone.
   */
  loadRaw(valueIndex: number, part: GeoPart = 'latitude'): Int32Array {
    this.assertOpen()
    this.backend.getRaw(this.sequenceOf(part), valueIndex)
    return int64Result
  }

  private sequenceOf(part: GeoPart): SequenceView {
    if (part !== 'latitude' && part !== 'longitude') {
      throw new TypeError(`field "${this.name}": part must be 'latitude' or 'longitude', got ${shown(part)}`)
    }
    if (part === 'longitude') {
      if (this.longitudes === null) throw new TypeError(`field "${this.name}" is ${this.type}; only geo_point columns have longitudes`)
      return this.longitudes
    }
    return this.values
  }

  /**
   * Decodes values [firstValue, firstValue + destination.length) in bulk.
   * BigInt64Array: raw i64. Float64Array: doubles (fractional, geo) or exact
   * numbers (other types; RangeError beyond 2^53). Int32Array: ordinals, bools
   * and integers that fit (RangeError otherwise). Returns the number of values.
   */
  readValues(firstValue: number, destination: BigInt64Array | Float64Array | Int32Array, part: GeoPart = 'latitude'): number {
    this.assertOpen()
    if (!(destination instanceof BigInt64Array || destination instanceof Float64Array || destination instanceof Int32Array)) {
      // A ValueBuffer itself, for its array: a likely slip, named with its remedy.
      const array = typeof destination === 'object' && destination !== null ? (destination as { array?: unknown }).array : undefined
      const hint = ArrayBuffer.isView(array) ? ' (pass its .array)' : ''
      throw new TypeError(`field "${this.name}": readValues needs a BigInt64Array, Float64Array or Int32Array destination, got ${describeInput(destination)}${hint}`)
    }
    checkWritable(destination, this.name, 'readValues destination')
    const count = destination.length
    if (!Number.isInteger(firstValue)) {
      throw new RangeError(`field "${this.name}": readValues' first value ${shown(firstValue)} is not an integer number`)
    }
    if (!(firstValue >= 0 && firstValue + count <= this.totalValueCount)) {
      // Beyond 2^53 the end would round onto the start: said as a count.
      const values = Number.isSafeInteger(firstValue + count) ? `[${firstValue}, ${firstValue + count})` : `${count} from ${firstValue}`
      throw new RangeError(`field "${this.name}": values ${values} are outside [0, ${this.totalValueCount})`)
    }
    const termCount = this.dictionary === null ? -1 : this.dictionary.termCount
    readValuesInto(this.backend, this.sequenceOf(part), this.type, this.name, termCount, firstValue, destination)
    return count
  }

  /**
   * Every document's value in natural units: null without a value, an array for a multi column;
   * keywords as strings, dates as ms (Date with useDate), integers as numbers (bigints with useBigInt).
   */
  toArray(options?: ToArrayOptions): (ColumnValue | ColumnValue[] | null)[] {
    this.assertOpen()
    return columnToArray(this, options)
  }

  // Queries (docs/query.md): thin delegations to src/kernels, which call only the backend seam.

  /** Documents per ordinal (keyword, length termCount) or per value (bool, [false, true]); multi: once per distinct term (the first call without docs keeps a bit per value until close: docs/query.md). */
  facetCounts(docs?: DocSet, counts?: Uint32Array): Uint32Array {
    this.assertOpen()
    return facetCounts(this, this.backend, docs, counts)
  }

  /** The k terms with the most documents: count descending, ties by ordinal; zero counts omitted. */
  topTerms(k: number, docs?: DocSet): TermCount[] {
    this.assertOpen()
    return topTerms(this, this.backend, k, docs)
  }

  /** Values per bucket [edges[b], edges[b + 1]) (natural units, strictly increasing); multi: every value counts. */
  histogram(edges: readonly NaturalValue[], docs?: DocSet): Uint32Array {
    this.assertOpen()
    return histogram(this, this.backend, edges, docs)
  }

  /** Documents with a value in [lo, hi] (inclusive, natural units; multi: any value); into out when given. */
  rangeFilter(lo: NaturalValue, hi: NaturalValue, docs?: DocSet, out?: DocSet): DocSet {
    this.assertOpen()
    return rangeFilter(this, this.backend, lo, hi, docs, out)
  }

  /** Documents with any of the terms (keyword; one term, or a list); unknown terms match nothing. */
  termFilter(terms: Terms, docs?: DocSet, out?: DocSet): DocSet {
    this.assertOpen()
    return termFilter(this, this.backend, terms, docs, out)
  }

  /** Documents with a point in the box (geo_point, inclusive; minLongitude > maxLongitude crosses the antimeridian). */
  boundingBoxFilter(box: BoundingBox, docs?: DocSet, out?: DocSet): DocSet {
    this.assertOpen()
    return boundingBoxFilter(this, this.backend, box, docs, out)
  }

  /** Count of values, min, max and sum (exact integers; doubles for fractional). */
  aggregate(docs?: DocSet): Aggregate {
    this.assertOpen()
    return aggregate(this, this.backend, docs)
  }

  /** Up to k document ids by value (ties by id); multi: a document's smallest (ascending) or largest (descending) value. */
  topK(k: number, order: SortOrder, docs?: DocSet): Uint32Array {
    this.assertOpen()
    return topK(this, this.backend, k, order, docs)
  }
}
