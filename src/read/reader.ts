/**
 * An open columns file: immutable, columns by name, explicit close.
 */
import type { BackendName, ColumnsBackend, ResidentFile } from '../backend/backend.js'
import type { Column } from './column.js'
import { decodedCodesMemory, releaseDecodedCodes } from '../cascade/decoded-codes.js'
import { releaseOwned } from '../backend/owned-regions.js'
import { fullCheck } from './full-check.js'
import { DocSet, DocSetOwner } from '../kernels/doc-set.js'
import { clipped } from '../format/errors.js'
import { describeInput } from './file-input.js'

/**
 * What mergeColumns asks of a reader, on every copy of this library (the browser's reader and writer
 * bundles, or two copies in node_modules): the brand's value is the version of the methods merge
 * calls, so a look-alike (a pool's segment) or another version's reader is refused by name.
 */
export const MERGE_PROTOCOL = Symbol.for('oixk.merge')
export const MERGE_PROTOCOL_VERSION = 1

/** A segment's columns, opened and validated. */
export class ColumnsReader implements Disposable {
  readonly fileName: string
  readonly maxDoc: number
  /** Columns in directory order (field names ascending by UTF-16). */
  readonly columns: readonly Column[]
  private readonly byName = new Map<string, Column>()
  private readonly backend: ColumnsBackend
  private closed = false
  /** The DocSets made from this reader and its columns, released by close(). */
  private readonly docSets = new DocSetOwner()

  private readonly file: ResidentFile | null

  /** The file's format version: 1 (docs/format.md) or 2 (docs/format-v2.md); 1 for a reader without a file. */
  readonly format: 1 | 2

  constructor(
    fileName: string, maxDoc: number, columns: Column[], backend: ColumnsBackend, file: ResidentFile | null, format: 1 | 2 = 1,
  ) {
    this.fileName = fileName
    this.format = format
    this.maxDoc = maxDoc
    this.columns = Object.freeze(columns)
    this.backend = backend
    this.file = file
    for (const column of columns) {
      this.byName.set(column.name, column)
      column.docSetOwner = this.docSets
      column.reader = this
    }
  }

  /**
   * The resident file's bytes (empty without a file). With the WebAssembly backend this
   * is a view of linear memory, valid until the memory grows: use it at once.
   */
  get bytes(): Uint8Array {
    this.assertOpen()
    return this.file === null ? new Uint8Array(0) : this.file.bytes
  }

  /**
   * Bytes the reader holds beside its file for queries: format 2 sequence dictionaries' codes,
   * decoded once on a column's first question (docs/query.md, "Decoded codes"); 0 for format 1.
   */
  get decodedCodesBytes(): number {
    return this.file === null ? 0 : decodedCodesMemory(this.file)
  }

  /** Whether close() was called: every later call on the reader, its columns and its DocSets throws. */
  get isClosed(): boolean {
    return this.closed
  }

  /** @internal See MERGE_PROTOCOL. */
  get [MERGE_PROTOCOL](): number {
    return MERGE_PROTOCOL_VERSION
  }

  /** Which backend decodes this reader's blocks. */
  get backendName(): BackendName {
    return this.backend.name
  }

  /** The column of a field, or null when the segment has none for it. */
  getColumn(name: string): Column | null {
    this.assertOpen()
    checkFieldName(this.fileName, name)
    return this.byName.get(name) ?? null
  }

  /** The column of a field; throws a RangeError naming the field and listing the columns there are when it has none. */
  column(name: string): Column {
    const column = this.getColumn(name)
    if (column !== null) return column
    throw new RangeError(noColumn(this.fileName, name, this.columns.map((each) => each.name)))
  }

  /**
   * Full check: reads every value and rejects anything a flush would not have
   * written (ordinals, table indexes, unused terms, min/max, block forms).
   * Throws CorruptIndexException.
   */
  verify(): void {
    this.assertOpen()
    for (const column of this.columns) fullCheck(column, this.fileName, this.backend, this.format)
  }

  /** An empty DocSet over this reader's documents, in its backend's memory. */
  createDocSet(): DocSet {
    this.assertOpen()
    return new DocSet(this.backend, this.maxDoc, this.docSets)
  }

  /** A DocSet holding every document. */
  allDocuments(): DocSet {
    return this.createDocSet().fill()
  }

  /**
   * Releases the reader and its memory, and the DocSets made from it (later use of them throws);
   * later calls on it throw. ValueBuffers and FileBuffers are not the reader's and stay. Closing twice is harmless.
   */
  close(): void {
    if (this.closed) return
    this.closed = true
    this.docSets.releaseAll()
    for (const column of this.columns) column.markClosed()
    if (this.file !== null) {
      releaseDecodedCodes(this.file)
      releaseOwned(this.file)
    }
    this.file?.release()
  }

  [Symbol.dispose](): void {
    this.close()
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`${this.fileName}: reader is closed`)
  }
}

/** What reader.column (and the worker pool) say of a field without a column, listing the columns there are. */
export function noColumn(fileName: string, field: string, names: readonly string[]): string {
  // Each name clipped, and at most 50 of them: a segment of long names made a message of megabytes.
  const list = names.slice(0, 50).map((name) => JSON.stringify(clipped(name))).join(', ') + (names.length > 50 ? `, and ${names.length - 50} more` : '')
  return `${fileName}: no column for field ${JSON.stringify(clipped(field))} (a field no document has a value for has none); columns: ${list || 'none'}`
}

/** A field name asked for must be a string (a number or String object was looked up as another name). */
export function checkFieldName(fileName: string, name: unknown): asserts name is string {
  if (typeof name !== 'string') throw new TypeError(`${fileName}: a field name must be a string, got ${describeInput(name)}`)
}
