/**
 * Parses and validates the frame (header, footer, checksum) and the directory.
 */
import type { ColumnsBackend, ResidentFile } from '../backend/backend.js'
import {
  CHECKSUM_BYTES, COLUMN_TYPE_BY_CODE, FIRST_SECTION_OFFSET, MAX_DOC_OFFSET, FOOTER_MAGIC, FORMAT_VERSION, HEADER_MAGIC, LAYOUT_BY_CODE, TRAILER_BYTES,
} from '../format/constants.js'
import type { DirectoryEntry } from '../format/directory-entry.js'
import { CorruptIndexException, failCorrupt } from '../format/errors.js'
import { compareInt64, readInt32, readUint32 } from '../format/int64.js'
import { decodeUtf8Strict } from '../format/utf8.js'
import { FORMAT_VERSION_2 } from '../cascade/constants.js'
import { readVarUint, type VarUintCursor } from '../format/varuint.js'

/** The smallest file: header, maxDoc, a one-byte directory, trailer. */
const MINIMUM_FILE_BYTES = FIRST_SECTION_OFFSET + 1 + TRAILER_BYTES

function hexBytes(bytes: Uint8Array, offset: number): string {
  return Array.from(bytes.subarray(offset, offset + 4), (byte) => byte.toString(16).padStart(2, '0')).join(' ')
}

/** What computes the checksum at open: a backend's hash, or one that hashed the file another way (Node's worker pool). */
export type Checksum = ColumnsBackend['hash']

/** Checks magic, version, footer and checksum (computed by `checksum`); returns maxDoc. */
export function checkFrame(file: ResidentFile, fileName: string, checksum: Checksum): number {
  const bytes = file.bytes
  const fail = (detail: string): never => {
    throw new CorruptIndexException(fileName, detail)
  }
  if (bytes.length < MINIMUM_FILE_BYTES) fail(`file is ${bytes.length} bytes, shorter than the smallest columns file (${MINIMUM_FILE_BYTES})`)
  if (readUint32(bytes, 0) !== HEADER_MAGIC) fail(`bad header magic ${hexBytes(bytes, 0)} (expected "OIXK")`)
  const version = readUint32(bytes, 4)
  if (version !== FORMAT_VERSION && version !== FORMAT_VERSION_2) fail(`unsupported format version ${version} (this reader knows ${FORMAT_VERSION} and ${FORMAT_VERSION_2})`)
  if (readUint32(bytes, bytes.length - 12) !== FOOTER_MAGIC) {
    fail(`bad footer magic ${hexBytes(bytes, bytes.length - 12)} (expected "KXIO"); the file may be truncated`)
  }
  const computed = new Uint32Array(2)
  checksum(file, 0, bytes.length - CHECKSUM_BYTES, computed)
  const storedLow = readUint32(bytes, bytes.length - CHECKSUM_BYTES), storedHigh = readUint32(bytes, bytes.length - 4)
  if (computed[0] !== storedLow || computed[1] !== storedHigh) {
    const hex = (high: number, low: number) => high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0')
    fail(`checksum mismatch: stored ${hex(storedHigh, storedLow)}, computed ${hex(computed[1], computed[0])}`)
  }
  return readUint32(bytes, MAX_DOC_OFFSET)
}

/** Parses the directory and checks that sections tile [12, directoryOffset) in order. */
export function parseDirectory(bytes: Uint8Array, fileName: string): DirectoryEntry[] {
  const fail = (detail: string): never => {
    throw new CorruptIndexException(fileName, detail)
  }
  const directoryEnd = bytes.length - TRAILER_BYTES
  const offsetHigh = readUint32(bytes, directoryEnd + 4)
  const directoryOffset = readUint32(bytes, directoryEnd)
  if (offsetHigh !== 0 || directoryOffset < FIRST_SECTION_OFFSET || directoryOffset >= directoryEnd) {
    fail(`directory offset ${offsetHigh === 0 ? directoryOffset : 'beyond 2^32'} is outside [${FIRST_SECTION_OFFSET}, ${directoryEnd})`)
  }
  const cursor: VarUintCursor = { value: 0, offset: directoryOffset }
  const varuint = (what: string): number => {
    const problem = readVarUint(bytes, directoryEnd, cursor)
    if (problem !== null) fail(`directory: ${what}: ${problem}`)
    return cursor.value
  }
  const columnCount = varuint('column count')
  if (columnCount === 0) fail('directory lists no columns (a segment without columns has no columns file)')
  const entries: DirectoryEntry[] = []
  let nextSection = FIRST_SECTION_OFFSET
  let previousName: string | null = null
  for (let index = 0; index < columnCount; index++) {
    const where = `directory entry ${index}`
    const nameLength = varuint(`${where} name length`)
    if (nameLength === 0) fail(`${where}: empty field name`)
    if (cursor.offset + nameLength + 2 > directoryEnd) fail(`${where}: runs past the directory`)
    const name = decodeUtf8Strict(bytes.subarray(cursor.offset, cursor.offset + nameLength))
    if (name === null) fail(`${where}: field name is not valid UTF-8`)
    const field = `field "${name}"`
    if (previousName !== null && !(previousName < name!)) {
      fail(`${field}: field names are not strictly increasing (after "${previousName}")`)
    }
    previousName = name
    cursor.offset += nameLength
    const typeCode = bytes[cursor.offset++]
    const layoutCode = bytes[cursor.offset++]
    const type = COLUMN_TYPE_BY_CODE[typeCode]
    if (type === undefined) fail(`${field}: unknown type byte ${typeCode}`)
    if (layoutCode >= LAYOUT_BY_CODE.length) fail(`${field}: unknown layout byte ${layoutCode}`)
    const documentsWithValue = varuint(`${field} documentsWithValue`)
    const valueCount = varuint(`${field} valueCount`)
    if (cursor.offset + 16 > directoryEnd) fail(`${field}: min/max run past the directory`)
    const minLow = readInt32(bytes, cursor.offset), minHigh = readInt32(bytes, cursor.offset + 4)
    const maxLow = readInt32(bytes, cursor.offset + 8), maxHigh = readInt32(bytes, cursor.offset + 12)
    cursor.offset += 16
    const sectionOffset = varuint(`${field} section offset`)
    const sectionLength = varuint(`${field} section length`)
    if (sectionOffset !== nextSection) fail(`${field}: section starts at ${sectionOffset}, expected ${nextSection} (sections tile the file in directory order)`)
    if (sectionOffset + sectionLength > directoryOffset) fail(`${field}: section [${sectionOffset}, ${sectionOffset + sectionLength}) runs into the directory at ${directoryOffset}`)
    nextSection = sectionOffset + sectionLength
    if (compareInt64(minLow, minHigh, maxLow, maxHigh) > 0) fail(`${field}: minRaw is greater than maxRaw`)
    entries.push({
      name: name!, type: type!, layout: LAYOUT_BY_CODE[layoutCode], documentsWithValue, valueCount,
      minLow, minHigh, maxLow, maxHigh, sectionOffset, sectionLength,
    })
  }
  if (cursor.offset !== directoryEnd) fail(`directory ends at ${cursor.offset}, but the directory area ends at ${directoryEnd}`)
  if (nextSection !== directoryOffset) fail(`sections end at ${nextSection}, but the directory starts at ${directoryOffset}`)
  return entries
}

/** Checks that a column's layout is the cheapest one for its counts. */
export function checkLayoutCounts(entry: DirectoryEntry, maxDoc: number, fileName: string): void {
  const { layout, documentsWithValue: documents, valueCount: values } = entry
  if (values === 0) failCorrupt(fileName, `field "${entry.name}"`, 'column has no values (such a column is not written)')
  if (documents === 0 || documents > maxDoc) failCorrupt(fileName, `field "${entry.name}"`, `documentsWithValue ${documents} outside 1..maxDoc (${maxDoc})`)
  if (layout === 'dense' && (documents !== maxDoc || values !== maxDoc)) {
    failCorrupt(fileName, `field "${entry.name}"`, `dense layout needs one value per document: documentsWithValue ${documents}, valueCount ${values}, maxDoc ${maxDoc}`)
  }
  if (layout === 'optional' && (values !== documents || documents === maxDoc)) {
    failCorrupt(fileName, `field "${entry.name}"`, `optional layout needs valueCount = documentsWithValue < maxDoc: documentsWithValue ${documents}, valueCount ${values}, maxDoc ${maxDoc}`)
  }
  if (layout === 'multi' && values <= documents) {
    failCorrupt(fileName, `field "${entry.name}"`, `multi layout needs some document with several values, but valueCount ${values} ≤ documentsWithValue ${documents}`)
  }
}
