/**
 * openColumns: checksum and full structural validation, then an immutable reader.
 */
import type { ColumnsBackend, PresenceView, ResidentFile, SequenceView } from '../backend/backend.js'
import { resolveBackend, type BackendChoice } from '../backend/select.js'
import { BLOCK_VALUES, DEFAULT_MAX_DECODED_BYTES, DEFAULT_MAX_RESIDENT_FILE_BYTES } from '../format/constants.js'
import { CorruptIndexException, ResidentLimitError, failCorrupt } from '../format/errors.js'
import { int64ToBigInt, readUint32 } from '../format/int64.js'
import { popcount } from '../backend/bits.js'
import { Column } from './column.js'
import { Dictionary } from './dictionary.js'
import type { DirectoryEntry } from '../format/directory-entry.js'
import { type Checksum, checkFrame, checkLayoutCounts, parseDirectory } from './directory.js'
import { type ParsedSequence, parseSequence } from './sequence-parser.js'
import { ColumnsReader } from './reader.js'
import { FORMAT_VERSION_2 } from '../cascade/constants.js'
import { keepCodesEncoded } from '../cascade/decoded-codes.js'
import { type ParsedCascade, type SequenceDomain, parseCascade } from '../cascade/reader/parse.js'
import { validateCascade } from '../cascade/reader/validate.js'
import type { DecodeBudget } from '../dictionary/read/context.js'
import { parseDictionaryV2 } from '../dictionary/read/open.js'
import { describeInput, fileBytesOf, shown } from './file-input.js'

/** Options of openColumns. */
export interface OpenOptions {
  /** The segment's document count; the file must agree (required when bytes is null). */
  maxDoc?: number
  /** Named in every error (default "columns"). */
  fileName?: string
  /** 'ts', 'wasm', 'auto' (default), or a backend object. */
  backend?: BackendChoice
  /** Files larger than this are refused before reading (default 1 GiB). */
  maxResidentFileBytes?: number
  /**
   * Term bytes a format 2 file's keyword dictionaries may decode to, together (default 1 GiB). A
   * small file can declare far more terms than it holds; past this the open fails with a
   * ResidentLimitError before the dictionary that crosses it is decoded.
   */
  maxDecodedBytes?: number
  /**
   * Format 2: decode a sequence dictionary's codes once, on a column's first question, so later
   * questions read them at format 1's speed (default true; 1 or 2 bytes a value, reported by
   * `reader.decodedCodesBytes`). False keeps every question on the encodings.
   */
  decodedCodes?: boolean
}

/**
 * Opens a columns file held in memory (a Uint8Array, a Node Buffer, or an
 * ArrayBuffer such as `await response.arrayBuffer()`), verifying its checksum and
 * whole structure; `null` (no file: no field qualified) gives a reader without columns.
 */
export function openColumns(file: Uint8Array | ArrayBuffer | SharedArrayBuffer | null, options: OpenOptions = {}): ColumnsReader {
  if (typeof options !== 'object' || options === null) throw new TypeError(`openColumns: options must be an object, not ${String(options)}`)
  checkFileName(options.fileName)
  const fileName = options.fileName ?? 'columns'
  const bytes = file === null ? null : fileBytesOf(file, 'openColumns')
  const backend = resolveBackend(options.backend)
  if (bytes === null) {
    if (options.maxDoc === undefined) throw new TypeError('openColumns(null) needs options.maxDoc')
    checkMaxDocOption(fileName, options.maxDoc)
    return new ColumnsReader(fileName, options.maxDoc, [], backend, null)
  }
  const limit = residentLimit(fileName, options)
  if (bytes.length > limit) throw new ResidentLimitError(`${fileName}`, bytes.length, limit)
  return openResidentFile(backend.load(bytes), backend, options)
}

/**
 * Validates a file a backend already holds (openColumns, or a Node open that read the
 * file straight into the backend's memory) and wraps it in a reader. On any error the
 * file is released. `checksum` computes the file's checksum (default: the backend's hash;
 * Node's worker pool hashes a file as it is copied in).
 */
export function openResidentFile(
  file: ResidentFile, backend: ColumnsBackend, options: OpenOptions = {}, checksum: Checksum = (...args) => backend.hash(...args),
): ColumnsReader {
  const fileName = options.fileName ?? 'columns'
  try {
    const budget: DecodeBudget = { used: 0, limit: checkOpenOptions(fileName, options) }
    if (options.decodedCodes === false) keepCodesEncoded(file)
    const maxDoc = checkFrame(file, fileName, checksum)
    if (options.maxDoc !== undefined && options.maxDoc !== maxDoc) {
      throw new CorruptIndexException(fileName, `the file's maxDoc is ${maxDoc}, but the segment has ${options.maxDoc} documents (options.maxDoc)`)
    }
    const version = readUint32(file.bytes, 4) === FORMAT_VERSION_2 ? 2 : 1
    const columns = parseDirectory(file.bytes, fileName).map((entry) => openColumn(file, fileName, maxDoc, entry, backend, version, budget))
    return new ColumnsReader(fileName, maxDoc, columns, backend, file, version)
  } catch (error) {
    file.release()
    throw error
  }
}

/**
 * The options an open checks once it holds the file (decodedCodes, maxDoc, maxDecodedBytes), checked
 * before: a download checks them before it starts. Returns the maxDecodedBytes limit.
 */
export function checkOpenOptions(fileName: string, options: OpenOptions): number {
  checkFileName(options.fileName)
  if (options.decodedCodes !== undefined && typeof options.decodedCodes !== 'boolean') {
    throw new TypeError(`${fileName}: options.decodedCodes must be true or false, not ${String(options.decodedCodes)}`)
  }
  if (options.maxDoc !== undefined) checkMaxDocOption(fileName, options.maxDoc)
  return positiveLimit(fileName, 'maxDecodedBytes', options.maxDecodedBytes ?? DEFAULT_MAX_DECODED_BYTES)
}

/**
 * The options as openColumns reads them (each by name: inherited ones and getters count), with the
 * file's name: a spread copied own properties only, so an inherited maxDoc went unchecked.
 */
export function namedOpenOptions(options: OpenOptions, fileName: string): OpenOptions {
  return {
    fileName, maxDoc: options.maxDoc, backend: options.backend, maxResidentFileBytes: options.maxResidentFileBytes,
    maxDecodedBytes: options.maxDecodedBytes, decodedCodes: options.decodedCodes,
  }
}

/** options.fileName is named in every error: a string, or absent (an object named itself "[object Object]"). */
export function checkFileName(fileName: unknown): void {
  if (fileName !== undefined && typeof fileName !== 'string') throw new TypeError(`options.fileName must be a string, not ${describeInput(fileName)}`)
}

/** options.maxResidentFileBytes, checked (a string or negative limit switched the limit off or named itself as a file's size). */
export function residentLimit(fileName: string, options: { maxResidentFileBytes?: number }): number {
  return positiveLimit(fileName, 'maxResidentFileBytes', options.maxResidentFileBytes ?? DEFAULT_MAX_RESIDENT_FILE_BYTES)
}

/** A limit option, checked: a positive integer. */
export function positiveLimit(fileName: string, option: string, limit: unknown): number {
  if (!(typeof limit === 'number' && Number.isSafeInteger(limit) && limit > 0)) {
    throw new RangeError(`${fileName}: options.${option} must be a positive integer, not ${shown(limit)}`)
  }
  return limit
}

/** options.maxDoc is a document count (a string or fraction was reported as a file that disagrees with it). */
function checkMaxDocOption(fileName: string, maxDoc: unknown): void {
  if (!(typeof maxDoc === 'number' && Number.isInteger(maxDoc) && maxDoc >= 0 && maxDoc <= 0xffffffff)) {
    throw new RangeError(`${fileName}: options.maxDoc must be an integer in [0, 2^32 - 1], not ${shown(maxDoc)}`)
  }
}

/** The file's whole buffer as aligned words: the TS kernels read bit fields in place through it. */
function wordsOf(bytes: Uint8Array): Int32Array {
  // Not `>>> 2`: a memory of 4 GiB has 2^32 bytes, which that makes 0 words.
  return new Int32Array(bytes.buffer, 0, Math.floor(bytes.buffer.byteLength / 4))
}

/** A v1 sequence, or a v2 one of any form (its children checked through the backend), of a section ending at `end`. */
function sequenceAt(
  file: ResidentFile, bufferWords: Int32Array, fileName: string, end: number, version: 1 | 2, backend: ColumnsBackend,
  label: string, at: number, count: number, domain: SequenceDomain, ordinalLimit: number,
): ParsedSequence | ParsedCascade {
  if (version === 1) return parseSequence(file, bufferWords, fileName, label, at, end, count)
  const parsed = parseCascade(file, bufferWords, fileName, label, at, end, count, domain)
  validateCascade(parsed.view, backend, ordinalLimit)
  return parsed
}

function openColumn(
  file: ResidentFile, fileName: string, maxDoc: number, entry: DirectoryEntry, backend: ColumnsBackend, version: 1 | 2, budget: DecodeBudget,
): Column {
  let bytes = file.bytes
  let bufferWords = wordsOf(bytes)
  checkLayoutCounts(entry, maxDoc, fileName)
  const field = `field "${entry.name}"`
  const end = entry.sectionOffset + entry.sectionLength
  let offset = entry.sectionOffset
  let dictionary: Dictionary | null = null
  if (entry.type === 'keyword') {
    // Terms are handed out as views for the reader's life: copy them out of memory that may move.
    const parsed = version === 2
      ? parseDictionaryV2(file, bufferWords, backend, fileName, entry.name, offset, end, budget)
      : Dictionary.parse(bytes, fileName, entry.name, offset, end, !file.stable)
    // Decoding may have grown the backend's memory, detaching views of it made before.
    bytes = file.bytes
    bufferWords = wordsOf(bytes)
    dictionary = parsed.dictionary
    offset = parsed.end
    if (entry.minLow !== 0 || entry.minHigh !== 0 || entry.maxHigh !== 0 || entry.maxLow >>> 0 !== dictionary.termCount - 1) {
      failCorrupt(fileName, field, `keyword minRaw/maxRaw must be 0 and ${dictionary.termCount - 1} (the ordinals of the first and last term)`)
    }
  }
  let presence: PresenceView | null = null
  let offsets: SequenceView | null = null
  if (entry.layout === 'optional') {
    const parsed = parsePresence(bytes, offset, end, maxDoc, entry.valueCount, fileName, field)
    presence = parsed.presence
    offset = parsed.end
  } else if (entry.layout === 'multi') {
    const parsed = sequenceAt(file, bufferWords, fileName, end, version, backend, `offsets of ${field}`, offset, maxDoc + 1, 'integer', -1)
    offsets = parsed.view
    offset = parsed.end
    checkOffsets(backend, offsets, entry, fileName, field)
  }
  const domain = entry.type === 'fractional' || entry.type === 'geo_point' ? 'double' : 'integer'
  const values = sequenceAt(
    file, bufferWords, fileName, end, version, backend, `${entry.type === 'geo_point' ? 'latitudes' : 'values'} of ${field}`, offset,
    entry.valueCount, domain, dictionary === null ? -1 : dictionary.termCount,
  )
  offset = values.end
  let longitudes: SequenceView | null = null
  if (entry.type === 'geo_point') {
    const parsed = sequenceAt(file, bufferWords, fileName, end, version, backend, `longitudes of ${field}`, offset, entry.valueCount, domain, -1)
    longitudes = parsed.view
    offset = parsed.end
  }
  if (offset !== end) {
    const early = end - offset
    failCorrupt(fileName, field, `section length ${entry.sectionLength} disagrees with its contents, which end ${early} byte${early === 1 ? '' : 's'} early`)
  }
  return new Column({
    name: entry.name, type: entry.type, layout: entry.layout, maxDoc,
    documentsWithValue: entry.documentsWithValue, valueCount: entry.valueCount,
    minRaw: int64ToBigInt(entry.minLow, entry.minHigh), maxRaw: int64ToBigInt(entry.maxLow, entry.maxHigh),
    sectionOffset: entry.sectionOffset, sectionLength: entry.sectionLength,
    values: values.view, longitudes, presence, offsets, dictionary, backend, fileName,
  })
}

/** Copies the bitmap into aligned words, checks its population and builds the rank per 64 documents. */
function parsePresence(
  bytes: Uint8Array, offset: number, end: number, maxDoc: number, valueCount: number, fileName: string, field: string,
): { presence: PresenceView; end: number } {
  const wordCount64 = Math.ceil(maxDoc / 64)
  const bitmapEnd = offset + 8 * wordCount64
  if (bitmapEnd > end) failCorrupt(fileName, field, `presence bitmap (${8 * wordCount64} bytes) runs past the end of the section`)
  const aligned = new Uint8Array(8 * wordCount64)
  aligned.set(bytes.subarray(offset, bitmapEnd))
  const words = new Int32Array(aligned.buffer)
  const ranks = new Uint32Array(wordCount64 + 1)
  let population = 0
  for (let word = 0; word < wordCount64; word++) {
    ranks[word] = population
    population += popcount(words[2 * word]) + popcount(words[2 * word + 1])
  }
  ranks[wordCount64] = population
  const tailBits = maxDoc & 63
  if (tailBits !== 0) {
    const lastLow = words[2 * wordCount64 - 2], lastHigh = words[2 * wordCount64 - 1]
    const strayLow = tailBits >= 32 ? 0 : lastLow >>> tailBits
    const strayHigh = tailBits <= 32 ? lastHigh : lastHigh >>> (tailBits - 32)
    if (strayLow !== 0 || strayHigh !== 0) failCorrupt(fileName, field, `presence bitmap has bits set at or beyond maxDoc ${maxDoc}`)
  }
  if (population !== valueCount) failCorrupt(fileName, field, `presence bitmap has ${population} documents, but valueCount is ${valueCount}`)
  return { presence: { words, ranks }, end: bitmapEnd }
}

/** Offsets decoded at a time when a multi column opens. */
const OFFSET_CHUNK = 8 * BLOCK_VALUES
const offsetScratch = new Int32Array(2 * OFFSET_CHUNK)

/** Offsets start at 0, never decrease, end at valueCount and give documentsWithValue non-empty runs. */
function checkOffsets(backend: ColumnsBackend, offsets: SequenceView, entry: DirectoryEntry, fileName: string, field: string): void {
  let previous = 0
  let documents = 0
  for (let first = 0; first < offsets.count; first += OFFSET_CHUNK) {
    const chunk = Math.min(OFFSET_CHUNK, offsets.count - first)
    backend.decodeRaw(offsets, first, chunk, offsetScratch, 0)
    if (first === 0 && (offsetScratch[0] !== 0 || offsetScratch[1] !== 0)) {
      failCorrupt(fileName, field, `offsets start at ${int64ToBigInt(offsetScratch[0], offsetScratch[1])}, not 0`)
    }
    // The loop only finds the first bad offset: a call that builds a message inside it made it several times slower.
    let index = 0
    for (; index < chunk; index++) {
      const low = offsetScratch[2 * index] >>> 0
      if (offsetScratch[2 * index + 1] !== 0 || low < previous) break
      documents += +(low !== previous)
      previous = low
    }
    if (index < chunk) {
      const low = offsetScratch[2 * index] >>> 0, high = offsetScratch[2 * index + 1]
      if (high !== 0) failCorrupt(fileName, field, `offset of document ${first + index} is ${int64ToBigInt(low, high)}, beyond 32 bits`)
      failCorrupt(fileName, field, `offsets decrease at document ${first + index} (${previous} then ${low})`)
    }
  }
  if (previous !== entry.valueCount) failCorrupt(fileName, field, `offsets end at ${previous}, but valueCount is ${entry.valueCount}`)
  if (documents !== entry.documentsWithValue) failCorrupt(fileName, field, `offsets give ${documents} documents with values, but documentsWithValue is ${entry.documentsWithValue}`)
}
