/**
 * Errors raised by oixk. Readers raise CorruptIndexException for any file that
 * breaks the format; writers raise InvalidInputError for bad documents/schemas.
 */

/** A columns file breaks the OIXK format; the message names the file and the broken rule. */
export class CorruptIndexException extends Error {
  readonly fileName: string
  readonly detail: string
  constructor(fileName: string, detail: string) {
    super(`${fileName}: ${detail}`)
    this.name = 'CorruptIndexException'
    this.fileName = fileName
    this.detail = detail
  }
}

/**
 * Throws CorruptIndexException for `label` ("values of field \"x\"") of the file. A module
 * function rather than a closure in each parser: an open parses many small sequences.
 */
export function failCorrupt(fileName: string, label: string, detail: string): never {
  throw new CorruptIndexException(fileName, `${label}: ${detail}`)
}

/** Bad input to a writer, merge or schema: the message names the field and document. */
export class InvalidInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'InvalidInputError'
  }
}

/**
 * An InvalidInputError for a maxDoc whose tables this process cannot allocate: the input is valid, the
 * machine too small (the CLI exits 2 for it, as for other limits of its environment).
 */
export class UnallocatableInputError extends InvalidInputError {}

/** A file or output larger than the configured resident limit, or keyword dictionaries that decode to more than maxDecodedBytes. */
export class ResidentLimitError extends Error {
  readonly size: number
  readonly limit: number
  /**
   * `size`: a file's size; `received`: what a download had received when it passed the limit (its
   * length not given); `decoded`: what a file's keyword dictionaries decode to (maxDecodedBytes).
   */
  constructor(what: string, size: number, limit: number, kind: 'size' | 'received' | 'decoded' = 'size') {
    super(kind === 'decoded'
      ? `${what} decode to ${size} bytes of terms, over the limit of ${limit} bytes (maxDecodedBytes)`
      : kind === 'received'
        ? `${what} is over the resident limit of ${limit} bytes (maxResidentFileBytes): ${size} bytes received so far, its size not given`
        : `${what} is ${size} bytes, over the resident limit of ${limit} bytes (maxResidentFileBytes)`)
    this.name = 'ResidentLimitError'
    this.size = size
    this.limit = limit
  }
}

/** The requested decoding backend cannot run here (e.g. 'wasm' before it ships, or without WebAssembly). */
export class BackendUnavailableError extends Error {
  readonly backend: string
  constructor(backend: string, why: string) {
    super(`backend "${backend}" is not available: ${why}`)
    this.name = 'BackendUnavailableError'
    this.backend = backend
  }
}

/** Text for a message, at most `max` characters and an ellipsis: input named in an error may be of any length. */
export function clipped(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}
