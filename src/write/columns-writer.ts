/**
 * The flush path: documents in doc-id order in, one OIXK columns file out.
 */
import { slottedKind } from '../format/brands.js'
import {
  CHECKSUM_BYTES, DEFAULT_MAX_RESIDENT_FILE_BYTES, FieldTypeCode, FIRST_SECTION_OFFSET, FOOTER_MAGIC, LayoutCode, MAX_DOC_OFFSET,
  FORMAT_VERSION, HEADER_MAGIC, MAX_COUNT, TRAILER_BYTES,
} from '../format/constants.js'
import { clipped, InvalidInputError } from '../format/errors.js'
import { describeInput } from '../read/file-input.js'
import { FORMAT_VERSION_2 } from '../cascade/constants.js'
import { float64ToSortable, int64Result } from '../format/int64.js'
import { encodeUtf8 } from '../format/utf8.js'
import { varuintLength, writeVarUint } from '../format/varuint.js'
import { xxh64Into } from '../format/xxh64.js'
import { ByteSink } from './byte-sink.js'
import type { DirectoryEntry } from '../format/directory-entry.js'
import { ColumnBuilder } from './column-builder.js'
import { type ResolvedField, resolveSchema } from './schema.js'
import type { CheckedSchema, DocumentOf, SchemaInput } from './document-types.js'
import {
  boolToRaw, checkGeoPoint, dateToRaw, describeValue, fractionalToRaw, integralToRaw, invalidValue,
} from './values.js'

/** Options of a writer. */
export interface WriterOptions {
  /** Refuse to produce a file larger than this (default 1 GiB, the readers' default limit). */
  maxResidentFileBytes?: number
  /** How many documents will come, to presize buffers (a hint, not a limit). */
  expectedDocuments?: number
  /** The format to write: 1 (default, the normative spec) or 2 (cascading encodings, docs/format-v2.md). */
  format?: 1 | 2
}

/** A document: field name → value (or array of values for multi fields); null/absent = no value. */
export type ColumnsDocument = Readonly<Record<string, unknown>>

const geoScratch = new Float64Array(2)

/**
 * Writes one segment's columns file from documents added in doc-id order. With a
 * literal schema, S types the documents (DocumentOf); the schema and every value
 * are still checked at run time. `ColumnsWriter` alone (S = any) is a writer of
 * any schema, taking untyped documents.
 */
export class ColumnsWriter<const S extends SchemaInput = any> {
  private readonly fields: Map<string, ResolvedField>
  /** Column builders by field name, only for fields that get a column. */
  private readonly builders = new Map<string, ColumnBuilder>()
  /** Every schema field: its builder, or null when the field has no column. */
  private readonly slots = new Map<string, ColumnBuilder | null>()
  /** The keys of the last documents by position, and their slots (a cache in front of `slots`). */
  private readonly recentKeys: string[] = []
  private readonly recentSlots: (ColumnBuilder | null)[] = []
  private readonly builderList: ColumnBuilder[] = []
  private readonly maxResidentFileBytes: number
  private readonly format: 1 | 2
  private lastDocument = -1
  private finished = false
  /** Why finish() failed, for the calls after it; the document being added (a getter may call addDocument). */
  private finishFailure: string | null = null
  private adding = -1
  /** Object.prototype has enumerable properties (polluted): plain documents' keys are checked as own too. */
  private readonly inheritedKeys = hasEnumerableKeys(Object.prototype)
  /**
   * What the schema asks that the file will not hold, one message per field,
   * in schema order: a non-text field with neither `column` nor `facet` (it
   * gets no column; its values are accepted and dropped) and a text field
   * marked `column` or `facet` (text never has a column). Empty when none;
   * the writer works either way. `oixk build` prints these on stderr.
   */
  readonly warnings: readonly string[]

  /** Checks the schema (an InvalidInputError names what is wrong) and prepares a column per field that gets one. */
  constructor(schema: S & CheckedSchema<S>, options: WriterOptions = {}) {
    if (typeof options !== 'object' || options === null) throw new InvalidInputError(`writer options must be an object, got ${describeValue(options)}`)
    const expected = options.expectedDocuments
    if (expected !== undefined && !(typeof expected === 'number' && Number.isSafeInteger(expected) && expected >= 0)) {
      throw new InvalidInputError(`expectedDocuments must be a non-negative integer, got ${describeValue(expected)}`)
    }
    const warnings: string[] = []
    this.fields = resolveSchema(schema, warnings)
    this.warnings = Object.freeze(warnings)
    const limit = options.maxResidentFileBytes ?? DEFAULT_MAX_RESIDENT_FILE_BYTES
    if (!(typeof limit === 'number' && Number.isSafeInteger(limit) && limit > 0)) {
      throw new InvalidInputError(`maxResidentFileBytes must be a positive integer, got ${describeValue(limit)}`)
    }
    this.maxResidentFileBytes = limit
    const format = options.format ?? 1
    if (format !== 1 && format !== 2) throw new InvalidInputError(`format must be 1 or 2, got ${describeValue(format)}`)
    this.format = format
    for (const field of this.fields.values()) {
      this.slots.set(field.name, null)
      if (field.columnType === null) continue
      const builder = new ColumnBuilder(field.name, field.columnType, field.multi, Math.min(options.expectedDocuments ?? 32, 1 << 16))
      this.builders.set(field.name, builder)
      this.slots.set(field.name, builder)
      this.builderList.push(builder)
    }
  }

  /** The builders, for merge (which feeds raw values directly). */
  columnBuilder(name: string): ColumnBuilder | undefined {
    return this.builders.get(name)
  }

  /** Checks that `document` may come next and records it as the last document. */
  beginDocument(document: number): void {
    if (this.finished) throw new InvalidInputError(this.finishedMessage())
    if (typeof document !== 'number') throw new InvalidInputError(`a doc id must be an integer in [0, 2^32 - 2], got ${describeValue(document)}`)
    if (!Number.isInteger(document) || document < 0 || document >= MAX_COUNT) {
      throw new InvalidInputError(`document ${document}: doc ids are integers in [0, 2^32 - 2]`)
    }
    if (document <= this.lastDocument) {
      throw new InvalidInputError(`document ${document}: doc ids must increase (previous was ${this.lastDocument})`)
    }
  }

  /** Adds a document's values. On error nothing of this document is kept. */
  addDocument(document: number, values: DocumentOf<S> | null | undefined): void {
    this.beginDocument(document)
    // A call from inside another's values (a getter) took over its marks: values landed on other documents.
    if (this.adding >= 0) throw new InvalidInputError(`document ${document}: addDocument was called while document ${this.adding} was being added (from a getter of its values?)`)
    if (values !== null && values !== undefined) {
      if (typeof values !== 'object' || Array.isArray(values)) {
        throw new InvalidInputError(`document ${document}: expected an object of field values, got ${describeValue(values)}`)
      }
      // for-in also walks inherited enumerable properties; only own ones are values.
      const prototype = Object.getPrototypeOf(values)
      const ownOnly = (prototype !== Object.prototype && prototype !== null) || this.inheritedKeys
      // Built-ins (of any realm) hold their data apart from their properties (a Map's entries, a
      // Date's time): read as objects they had no values at all.
      const kind = ownOnly ? slottedKind(values) : null
      if (kind === 'Map') throw new InvalidInputError(`document ${document}: expected an object of field values, got a Map (Object.fromEntries(map) makes one)`)
      if (kind !== null) throw new InvalidInputError(`document ${document}: expected an object of field values, got ${describeInput(values)}`)
      const builders = this.builderList
      for (let index = 0; index < builders.length; index++) builders[index].mark()
      this.adding = document
      try {
        // One for-in pass: V8 reads values[name] through the enum cache, fast for same-shaped documents.
        let position = 0
        for (const name in values) {
          if (ownOnly && !Object.hasOwn(values, name)) continue
          // Documents usually list their fields in the same order: compare with the key
          // seen at this position last time before falling back to the map.
          let builder: ColumnBuilder | null | undefined
          if (this.recentKeys[position] === name) builder = this.recentSlots[position]
          else {
            builder = this.slots.get(name)
            if (builder === undefined) {
              if (!Object.hasOwn(values, name)) continue
              throw new InvalidInputError(`document ${document}: unknown field "${clipped(name)}" (not in the schema)`)
            }
            this.recentKeys[position] = name
            this.recentSlots[position] = builder
          }
          position++
          const value = values[name]
          if (builder !== null && value !== null && value !== undefined) this.addFieldValues(builder, document, value)
        }
      } catch (error) {
        for (let index = 0; index < builders.length; index++) builders[index].rollback()
        throw error
      } finally {
        this.adding = -1
      }
    }
    this.lastDocument = document
  }

  private finishedMessage(): string {
    return this.finishFailure === null ? 'writer: finish() was already called'
      : `writer: finish() failed (${clipped(this.finishFailure, 200)}); its documents are gone: make a new writer`
  }

  private addFieldValues(builder: ColumnBuilder, document: number, value: unknown): void {
    const runStart = builder.valueCount
    if (typeof value === 'number' && builder.integerNumbers && Number.isSafeInteger(value)) {
      // The common case, inlined: one safe integer, its words without further calls.
      builder.values.push(value | 0, Math.floor(value / 4294967296))
      builder.endDocument(document, runStart)
      return
    }
    if (Array.isArray(value)) {
      if (!builder.multi) invalidValue(builder.name, document, 'got an array but the field is not multi-valued')
      for (const item of value) {
        if (item === null || item === undefined) invalidValue(builder.name, document, `a multi-valued field's array holds ${item === null ? 'null' : 'undefined (or a hole)'}`)
        this.addOneValue(builder, document, item)
      }
    } else {
      if (builder.multi && typeof value === 'object' && (ArrayBuffer.isView(value) || value instanceof Set)) {
        invalidValue(builder.name, document, `a multi-valued field takes a plain array, got ${describeInput(value)} (Array.from makes one)`)
      }
      this.addOneValue(builder, document, value)
    }
    builder.endDocument(document, runStart)
  }

  private addOneValue(builder: ColumnBuilder, document: number, value: unknown): void {
    switch (builder.type) {
      case 'keyword':
        if (typeof value !== 'string') invalidValue(builder.name, document, `expected a keyword string, got ${describeValue(value)}`)
        builder.appendTerm(value, document)
        return
      case 'geo_point':
        checkGeoPoint(builder.name, document, value, geoScratch)
        float64ToSortable(geoScratch[0])
        builder.values.push(int64Result[0], int64Result[1])
        float64ToSortable(geoScratch[1])
        builder.longitudes.push(int64Result[0], int64Result[1])
        return
      case 'integral': integralToRaw(builder.name, document, value); break
      case 'date': dateToRaw(builder.name, document, value); break
      case 'fractional': fractionalToRaw(builder.name, document, value); break
      case 'bool': boolToRaw(builder.name, document, value); break
    }
    builder.values.push(int64Result[0], int64Result[1])
  }

  /** Notes that the caller (merge) added raw values for `document` directly through builders. */
  endRawDocument(document: number): void {
    this.lastDocument = document
  }

  /** Writes the file for a segment of maxDoc documents; null when no field has a value. */
  finish(maxDoc: number): Uint8Array | null {
    if (this.finished) throw new InvalidInputError(this.finishedMessage())
    checkMaxDoc(maxDoc, '')
    if (maxDoc <= this.lastDocument) {
      throw new InvalidInputError(`maxDoc ${maxDoc} must be greater than the last doc id ${this.lastDocument}`)
    }
    this.finished = true
    try {
      return this.build(maxDoc)
    } catch (error) {
      // The builders are spent by a build: later calls say why there is no file, not only that finish() ran.
      this.finishFailure = error instanceof Error ? error.message : String(error)
      throw error
    }
  }

  private build(maxDoc: number): Uint8Array | null {
    const withValues = this.builderList.filter((builder) => builder.valueCount > 0)
    if (withValues.length === 0) return null
    withValues.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    const estimate = withValues.reduce((bytes, builder) => bytes + 2 * builder.valueCount, 1024)
    const sink = new ByteSink(Math.min(estimate, this.maxResidentFileBytes))
    sink.writeZeros(FIRST_SECTION_OFFSET)
    const columns: DirectoryEntry[] = []
    for (const builder of withValues) {
      columns.push(builder.build(maxDoc, sink, this.format))
      // Stop early rather than build the rest of a file that cannot be kept.
      if (sink.length + TRAILER_BYTES > this.maxResidentFileBytes) {
        throw new InvalidInputError(
          `the columns file would be over the resident limit of ${this.maxResidentFileBytes} bytes: ${sink.length} bytes already after field "${builder.name}" (${columns.length} of ${withValues.length} columns)`,
        )
      }
    }
    return assembleFile(maxDoc, columns, sink, this.maxResidentFileBytes, this.format)
  }
}

/** Whether an object has enumerable string keys of its own (Object.prototype: none unless polluted). */
function hasEnumerableKeys(object: object): boolean {
  for (const _ in object) return true
  return false
}

/** Appends directory and footer after the sections in sink, checksums, and returns the exact file. */
function assembleFile(maxDoc: number, columns: DirectoryEntry[], sink: ByteSink, maxResidentFileBytes: number, format: 1 | 2): Uint8Array {
  const names = columns.map((column) => encodeUtf8(column.name))
  const directoryOffset = sink.length
  let directoryLength = varuintLength(columns.length)
  columns.forEach((column, index) => {
    directoryLength += varuintLength(names[index].length) + names[index].length + 2
      + varuintLength(column.documentsWithValue) + varuintLength(column.valueCount) + 16
      + varuintLength(column.sectionOffset) + varuintLength(column.sectionLength)
  })
  const fileLength = directoryOffset + directoryLength + TRAILER_BYTES
  checkResidentLimit(fileLength, maxResidentFileBytes, columns)
  sink.reserve(fileLength - sink.length)
  const file = sink.bytes
  const view = new DataView(file.buffer, file.byteOffset, fileLength)
  view.setUint32(0, HEADER_MAGIC, true)
  view.setUint32(4, format === 1 ? FORMAT_VERSION : FORMAT_VERSION_2, true)
  view.setUint32(MAX_DOC_OFFSET, maxDoc, true)
  let offset = writeVarUint(file, directoryOffset, columns.length)
  columns.forEach((column, index) => {
    offset = writeVarUint(file, offset, names[index].length)
    file.set(names[index], offset)
    offset += names[index].length
    file[offset++] = FieldTypeCode[column.type]
    file[offset++] = LayoutCode[column.layout]
    offset = writeVarUint(file, offset, column.documentsWithValue)
    offset = writeVarUint(file, offset, column.valueCount)
    view.setInt32(offset, column.minLow, true)
    view.setInt32(offset + 4, column.minHigh, true)
    view.setInt32(offset + 8, column.maxLow, true)
    view.setInt32(offset + 12, column.maxHigh, true)
    offset += 16
    offset = writeVarUint(file, offset, column.sectionOffset)
    offset = writeVarUint(file, offset, column.sectionLength)
  })
  view.setUint32(offset, directoryOffset, true)
  view.setUint32(offset + 4, 0, true)
  view.setUint32(offset + 8, FOOTER_MAGIC, true)
  const checksum = new Uint32Array(2)
  xxh64Into(file, 0, fileLength - CHECKSUM_BYTES, 0, 0, checksum)
  view.setUint32(fileLength - 8, checksum[0], true)
  view.setUint32(fileLength - 4, checksum[1], true)
  // The file owns an exact-size buffer, so readers' views and users' writes see no slack.
  return file.length === fileLength ? file : file.slice(0, fileLength)
}

/** Refuses a file beyond the resident limit (or beyond 32-bit offsets), naming the largest column. */
function checkResidentLimit(fileLength: number, maxResidentFileBytes: number, columns: DirectoryEntry[]): void {
  if (fileLength <= maxResidentFileBytes && fileLength <= MAX_COUNT) return
  const biggest = columns.reduce((a, b) => (a.sectionLength >= b.sectionLength ? a : b))
  throw new InvalidInputError(
    `the columns file would be ${fileLength} bytes, over the resident limit of ${maxResidentFileBytes} bytes (largest column: "${biggest.name}", ${biggest.sectionLength} bytes)`,
  )
}

/** A segment's document count (flush, finish, merge), or an InvalidInputError after `prefix` saying what came. */
export function checkMaxDoc(maxDoc: unknown, prefix: string): asserts maxDoc is number {
  if (typeof maxDoc !== 'number') throw new InvalidInputError(`${prefix}maxDoc must be an integer in [0, 2^32 - 1], got ${describeValue(maxDoc)}`)
  if (!Number.isInteger(maxDoc) || maxDoc < 0 || maxDoc > MAX_COUNT) throw new InvalidInputError(`${prefix}maxDoc ${maxDoc} must be an integer in [0, 2^32 - 1]`)
}

/** Options of flushColumns. */
export interface FlushOptions extends WriterOptions {
  /** Documents in the segment (default docs.length). */
  maxDoc?: number
  /**
   * Called once per schema warning ({@link ColumnsWriter.warnings}: a field
   * that gets no column though it looks meant to), before any document is
   * added. Without it, warnings are not reported.
   */
  onWarning?: (message: string) => void
}

/**
 * One call: docs[i] is document i (null/undefined = no values); returns the
 * file or null. Schema warnings go to `options.onWarning`. A literal schema
 * types the documents (DocumentOf); everything is still checked at run time.
 */
export function flushColumns<const S extends SchemaInput>(schema: S & CheckedSchema<S>, docs: readonly (DocumentOf<S> | null | undefined)[], options: FlushOptions = {}): Uint8Array | null {
  if (typeof options !== 'object' || options === null) throw new InvalidInputError(`flushColumns: options must be an object, got ${describeValue(options)}`)
  if (!Array.isArray(docs)) throw new InvalidInputError(`flushColumns: docs must be an array (docs[i] is document i; null for none), got ${describeValue(docs)}`)
  const maxDoc = options.maxDoc ?? docs.length
  checkMaxDoc(maxDoc, '')
  if (maxDoc < docs.length) throw new InvalidInputError(`maxDoc ${maxDoc} is smaller than the ${docs.length} documents given`)
  // Each option by name, as maxDoc and onWarning are (a spread copied own properties only: an inherited format was dropped).
  const writer = new ColumnsWriter<S>(schema, { expectedDocuments: docs.length, format: options.format, maxResidentFileBytes: options.maxResidentFileBytes })
  if (options.onWarning !== undefined) for (const warning of writer.warnings) options.onWarning(warning)
  for (let document = 0; document < docs.length; document++) {
    const values = docs[document]
    if (values !== null && values !== undefined) writer.addDocument(document, values)
  }
  return writer.finish(maxDoc)
}
