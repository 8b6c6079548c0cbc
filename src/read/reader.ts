/**
 * An open columns file: immutable, columns by name, explicit close.
 */
import type { BackendName, ColumnsBackend, ResidentFile } from '../backend/backend.js'
import type { Column } from './column.js'
import { fullCheck } from './full-check.js'
import { DocSet } from '../kernels/doc-set.js'

/** A segment's columns, opened and validated. */
export class ColumnsReader implements Disposable {
  readonly fileName: string
  readonly maxDoc: number
  /** Columns in directory order (field names ascending by UTF-16). */
  readonly columns: readonly Column[]
  private readonly byName = new Map<string, Column>()
  private readonly backend: ColumnsBackend
  private closed = false

  private readonly file: ResidentFile | null

  constructor(
    fileName: string, maxDoc: number, columns: Column[], backend: ColumnsBackend, file: ResidentFile | null,
  ) {
    this.fileName = fileName
    this.maxDoc = maxDoc
    this.columns = Object.freeze(columns)
    this.backend = backend
    this.file = file
    for (const column of columns) this.byName.set(column.name, column)
  }

  /**
   * The resident file's bytes (empty without a file). With the WebAssembly backend this
   * is a view of linear memory, valid until the memory grows: use it at once.
   */
  get bytes(): Uint8Array {
    this.assertOpen()
    return this.file === null ? new Uint8Array(0) : this.file.bytes
  }

  /** Which backend decodes this reader's blocks. */
  get backendName(): BackendName {
    return this.backend.name
  }

  /** The column of a field, or null when the segment has none for it. */
  getColumn(name: string): Column | null {
    this.assertOpen()
    return this.byName.get(name) ?? null
  }

  /**
   * Full check: reads every value and rejects anything a flush would not have
   * written (ordinals, table indexes, unused terms, min/max, block forms).
   * Throws CorruptIndexException.
   */
  verify(): void {
    this.assertOpen()
    for (const column of this.columns) fullCheck(column, this.fileName, this.backend)
  }

  /** An empty DocSet over this reader's documents, in its backend's memory. */
  createDocSet(): DocSet {
    this.assertOpen()
    return new DocSet(this.backend, this.maxDoc)
  }

  /** A DocSet holding every document. */
  allDocuments(): DocSet {
    return this.createDocSet().fill()
  }

  /** Releases the reader and its memory; later calls on it throw. Closing twice is harmless. */
  close(): void {
    if (this.closed) return
    this.closed = true
    for (const column of this.columns) column.markClosed()
    this.file?.release()
  }

  [Symbol.dispose](): void {
    this.close()
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`${this.fileName}: reader is closed`)
  }
}
