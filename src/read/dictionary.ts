/**
 * A keyword column's dictionary: sorted, distinct UTF-8 terms viewed in place
 * in the resident file; ordinals are positions, lookups binary-search.
 */
import { DICTIONARY_HEADER_BYTES, MAX_DICTIONARY_BYTES } from '../format/constants.js'
import { CorruptIndexException } from '../format/errors.js'
import { readUint32 } from '../format/int64.js'
import { compareByteRanges, encodeUtf8, findLoneSurrogate } from '../format/utf8.js'

/** How a format 2 dictionary is stored and what opening it cost (inspect and the bench report it). */
export interface DictionaryEncoding {
  /** The form byte (src/dictionary/constants.ts) and its name. */
  readonly form: number
  readonly formName: string
  /** File offsets of the form byte and of the first byte after the dictionary. */
  readonly start: number
  readonly end: number
  /** Bytes the reader keeps for it (terms, and offsets but for digits terms), and the milliseconds its decode at open took. */
  readonly memoryBytes: number
  readonly decodeMilliseconds: number
}

/** The ordinal of the first term not strictly above the one before it, or -1 (terms are bytes [start + offsets[t], start + offsets[t + 1])). */
export function firstDisorder(bytes: Uint8Array, start: number, offsets: Uint32Array): number {
  for (let term = 1; term < offsets.length - 1; term++) {
    const order = compareByteRanges(bytes, start + offsets[term - 1], start + offsets[term], start + offsets[term], start + offsets[term + 1])
    if (order >= 0) return term
  }
  return -1
}

/** The terms of one keyword column. */
export class Dictionary {
  readonly termCount: number
  readonly totalBytes: number
  /** Format 2: the form and cost of the dictionary; null in a format 1 file. */
  encoding: DictionaryEncoding | null = null
  /** termCount + 1 offsets into the term bytes, relative to bytesStart; null where every term has `width` bytes. */
  private readonly offsets: Uint32Array | null
  private readonly width: number
  private readonly bytes: Uint8Array
  /** Absolute offset of the first term byte. */
  private readonly bytesStart: number

  private constructor(bytes: Uint8Array, bytesStart: number, offsets: Uint32Array | null, termCount: number, width: number) {
    this.bytes = bytes
    this.bytesStart = bytesStart
    this.offsets = offsets
    this.width = width
    this.termCount = termCount
    this.totalBytes = offsets === null ? termCount * width : offsets[termCount]
  }

  /** Parses and validates the dictionary at offset; returns it and the offset after it. */
  static parse(
    bytes: Uint8Array, fileName: string, field: string, offset: number, limit: number, copyTerms: boolean,
  ): { dictionary: Dictionary; end: number } {
    const fail = (detail: string): never => {
      throw new CorruptIndexException(fileName, `dictionary of field "${field}": ${detail}`)
    }
    if (offset + DICTIONARY_HEADER_BYTES > limit) fail('header runs past the end of the section')
    const termCount = readUint32(bytes, offset)
    const totalBytes = readUint32(bytes, offset + 4)
    if (termCount === 0) fail('no terms in a column that has values')
    if (totalBytes > MAX_DICTIONARY_BYTES) fail(`${totalBytes} term bytes exceed the 1 GiB limit`)
    const offsetsStart = offset + DICTIONARY_HEADER_BYTES
    const bytesStart = offsetsStart + 4 * (termCount + 1)
    if (bytesStart > limit) fail(`${termCount + 1} term offsets run past the end of the section`)
    const end = bytesStart + totalBytes
    if (end > limit) fail(`${totalBytes} term bytes run past the end of the section`)
    const offsets = new Uint32Array(termCount + 1)
    for (let term = 0; term <= termCount; term++) offsets[term] = readUint32(bytes, offsetsStart + 4 * term)
    if (offsets[0] !== 0) fail(`first term offset is ${offsets[0]}, not 0`)
    if (offsets[termCount] !== totalBytes) fail(`last term offset is ${offsets[termCount]}, not the total ${totalBytes} bytes`)
    for (let term = 0; term < termCount; term++) {
      if (offsets[term + 1] < offsets[term]) fail(`term offsets decrease at term ${term + 1}`)
    }
    const disorder = firstDisorder(bytes, bytesStart, offsets)
    if (disorder >= 0) fail(`terms are not strictly increasing at ordinal ${disorder}`)
    const dictionary = copyTerms
      ? new Dictionary(bytes.slice(bytesStart, end), 0, offsets, termCount, 0)
      : new Dictionary(bytes, bytesStart, offsets, termCount, 0)
    return { dictionary, end }
  }

  /** Terms decoded at open (format 2's compressed forms), held in the reader's own memory; the caller checked them. */
  static fromTerms(bytes: Uint8Array, offsets: Uint32Array): Dictionary {
    return new Dictionary(bytes, 0, offsets, offsets.length - 1, 0)
  }

  /** Terms of `width` bytes each, back to back in `bytes` (digits terms: no offsets kept). */
  static fromFixedWidth(bytes: Uint8Array, termCount: number, width: number): Dictionary {
    return new Dictionary(bytes, 0, null, termCount, width)
  }

  /** Bytes the reader holds for the term offsets. */
  get offsetBytes(): number {
    return this.offsets === null ? 0 : this.offsets.byteLength
  }

  /** Start (absolute file offset) of the term with this ordinal. */
  termStart(ordinal: number): number {
    return this.bytesStart + (this.offsets === null ? ordinal * this.width : this.offsets[ordinal])
  }

  /** End (absolute, exclusive) of the term with this ordinal. */
  termEnd(ordinal: number): number {
    return this.bytesStart + (this.offsets === null ? (ordinal + 1) * this.width : this.offsets[ordinal + 1])
  }

  /** The term's UTF-8 bytes as a view (no copy): of the resident file, or of the terms copied at open where its memory may grow. */
  termBytes(ordinal: number): Uint8Array {
    if (!(ordinal >= 0 && ordinal < this.termCount) || !Number.isInteger(ordinal)) {
      throw new RangeError(`ordinal ${ordinal} is not an integer in [0, ${this.termCount})`)
    }
    return this.bytes.subarray(this.termStart(ordinal), this.termEnd(ordinal))
  }

  /** Ordinal of the term (a string, or its UTF-8 bytes), or -1 when absent. Binary search. */
  lookupOrdinal(term: string | Uint8Array): number {
    // A lone surrogate is no stored term (the writer refuses them); encoded, it would read as U+FFFD and find that one.
    if (typeof term === 'string' && findLoneSurrogate(term) >= 0) return -1
    const key = typeof term === 'string' ? encodeUtf8(term) : term
    let low = 0
    let high = this.termCount - 1
    while (low <= high) {
      const middle = (low + high) >>> 1
      const order = this.compareTermWith(middle, key)
      if (order === 0) return middle
      if (order < 0) low = middle + 1
      else high = middle - 1
    }
    return -1
  }

  private compareTermWith(ordinal: number, key: Uint8Array): number {
    const start = this.termStart(ordinal)
    const length = this.termEnd(ordinal) - start
    const shared = Math.min(length, key.length)
    const bytes = this.bytes
    for (let index = 0; index < shared; index++) {
      const difference = bytes[start + index] - key[index]
      if (difference !== 0) return difference
    }
    return length - key.length
  }
}
