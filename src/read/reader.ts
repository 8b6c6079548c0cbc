/**
 * An open columns file: immutable, columns by name, explicit close.
 */
import type { BackendName, ColumnsBackend } from '../backend/backend.js'
import type { Column } from './column.js'
import { fullCheck } from './full-check.js'

/** A segment's columns, opened and validated. */
export class ColumnsReader implements Disposable {
  readonly fileName: string
  readonly maxDoc: number
  /** Columns in directory order (field names ascending by UTF-16). */
  readonly columns: readonly Column[]
  /** The resident file (empty when the segment has no columns file). */
  readonly bytes: Uint8Array
  private readonly byName = new Map<string, Column>()
  private readonly backend: ColumnsBackend
  private closed = false

  constructor(fileName: string, maxDoc: number, columns: Column[], backend: ColumnsBackend, bytes: Uint8Array) {
    this.fileName = fileName
    this.maxDoc = maxDoc
    this.columns = Object.freeze(columns)
    this.backend = backend
    this.bytes = bytes
    for (const column of columns) this.byName.set(column.name, column)
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

  /** Releases the reader; later calls on it throw. */
  close(): void {
    this.closed = true
  }

  [Symbol.dispose](): void {
    this.close()
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`${this.fileName}: reader is closed`)
  }
}
