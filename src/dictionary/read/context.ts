/**
 * What the dictionary readers share while one dictionary is opened: the file,
 * the backend, the section's limit, and failure with the dictionary's name.
 */
import type { ColumnsBackend, ResidentFile } from '../../backend/backend.js'
import { failCorrupt } from '../../format/errors.js'

/** One dictionary being opened. */
export interface DictionaryContext {
  readonly file: ResidentFile
  readonly bytes: Uint8Array
  readonly bufferWords: Int32Array
  readonly backend: ColumnsBackend
  readonly fileName: string
  readonly field: string
  /** `dictionary of field "name"`: the start of every message. */
  readonly label: string
  /** End of the column's section: nothing is read at or past it. */
  readonly limit: number
  /** Term bytes the file's dictionaries may still decode to (OpenOptions.maxDecodedBytes), shared by its columns. */
  readonly budget: DecodeBudget
}

/** What an open's keyword dictionaries have decoded, against its limit. */
export interface DecodeBudget {
  used: number
  readonly limit: number
}

/** Throws CorruptIndexException naming the file, the dictionary and the rule. */
export function failDictionary(context: DictionaryContext, detail: string): never {
  return failCorrupt(context.fileName, context.label, detail)
}

/** Fails unless `length` bytes from `at` lie inside the section. */
export function need(context: DictionaryContext, at: number, length: number, what: string): void {
  if (at + length > context.limit) failDictionary(context, `${what} runs past the end of the section`)
}
