/**
 * A valid OIXK file as the fuzzer's seed: every field located (frame,
 * directory entries, dictionaries, sequence headers, block records, data
 * areas) for the field operators of mutate.ts, and its model for the model
 * operators.
 */
import { type FileModel, parseFile } from './file-surgery.js'
import { openColumns } from '../../src/read/open.js'

/** How a located field is encoded. */
export type FieldKind = 'u8' | 'u16' | 'u32' | 'i64' | 'varuint' | 'bytes'
/** A located field of a valid file: where it is, how it is encoded, what it means. */
export interface Field { at: number; size: number; kind: FieldKind; what: string }

/** A valid file to mutate, with its fields located and (format 1) its model parsed lazily. */
export class SeedFile {
  readonly fields: Field[]
  readonly version: number
  private parsed: FileModel | null = null
  constructor(readonly name: string, readonly bytes: Uint8Array) {
    this.fields = locateFields(bytes, dictionaryEnds(bytes))
    this.version = new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true)
  }
  /** The model of a format 1 file (file-surgery's); format 2 files have none, so model operators fall back to field ones. */
  get model(): FileModel {
    if (this.version !== 1) throw new Error(`${this.name}: no model of a format ${this.version} file`)
    return (this.parsed ??= parseFile(this.bytes))
  }
  get directoryOffset(): number {
    return Number(new DataView(this.bytes.buffer, this.bytes.byteOffset).getBigUint64(this.bytes.length - 20, true))
  }
}

/** Format 2: where each keyword column's dictionary ends (its pieces run up to there), by column index, from a reader of the valid file. */
function dictionaryEnds(bytes: Uint8Array): Map<number, number> {
  const ends = new Map<number, number>()
  if (new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true) !== 2) return ends
  const reader = openColumns(bytes, { backend: 'ts' })
  try {
    reader.columns.forEach((column, index) => {
      const end = column.dictionary?.encoding?.end
      if (end !== undefined) ends.set(index, end)
    })
  } finally {
    reader.close()
  }
  return ends
}

/** Every field of a valid file (frame, directory entries, dictionaries, sequence headers, block records, data areas). */
export function locateFields(bytes: Uint8Array, dictionaryEnds = new Map<number, number>()): Field[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const fields: Field[] = []
  let at = 0
  const take = (size: number, kind: FieldKind, what: string): number => {
    fields.push({ at, size, kind, what })
    const start = at
    at += size
    return kind === 'u8' ? bytes[start] : kind === 'u32' ? view.getUint32(start, true) : 0
  }
  const varuint = (what: string): number => {
    const start = at
    let value = 0
    for (let scale = 1, byte = 0x80; byte & 0x80; scale *= 128) value += ((byte = bytes[at++]) & 0x7f) * scale
    fields.push({ at: start, size: at - start, kind: 'varuint', what })
    return value
  }
  const sequence = (what: string): void => {
    take(4, 'u32', `${what} count`)
    const blockCount = take(4, 'u32', `${what} blockCount`)
    const dataLength = take(4, 'u32', `${what} dataLength`)
    for (let i = 0; i < blockCount; i++) {
      take(1, 'u8', `${what} block ${i} kind`); take(1, 'u8', `${what} block ${i} width`); take(2, 'u16', `${what} block ${i} reserved`)
      take(4, 'u32', `${what} block ${i} dataOffset`); take(8, 'i64', `${what} block ${i} base`); take(8, 'i64', `${what} block ${i} aux`)
    }
    take(dataLength, 'bytes', `${what} data`)
  }
  // Format 2: a form byte before each sequence, with its header and children (docs/format-v2.md §2).
  const cascade = (what: string): void => {
    const form = take(1, 'u8', `${what} form`)
    if (form === 0) return sequence(what)
    if (form === 1) {
      take(1, 'u8', `${what} order`); take(4, 'u32', `${what} count`)
      cascade(`${what} entries`); cascade(`${what} codes`)
    } else if (form === 2) {
      const count = take(4, 'u32', `${what} count`); take(4, 'u32', `${what} runCount`)
      for (let b = 0; b < Math.ceil(count / 1024); b++) take(4, 'u32', `${what} checkpoint ${b}`)
      cascade(`${what} run values`); cascade(`${what} run starts`)
    } else {
      take(1, 'u8', `${what} exponent`); take(4, 'u32', `${what} count`)
      const exceptions = take(4, 'u32', `${what} exceptionCount`)
      for (let e = 0; e < exceptions; e++) take(4, 'u32', `${what} exception position ${e}`)
      for (let e = 0; e < exceptions; e++) take(8, 'i64', `${what} exception ${e}`)
      cascade(`${what} integers`)
    }
  }
  // Format 2 dictionaries (docs/format-v2.md §10): false for form 0, v1's layout after the form byte.
  const intList = (what: string, count: number): void => {
    if (take(1, 'u8', `${what} tag`) === 0) take(Math.ceil((count * take(1, 'u8', `${what} width`)) / 8), 'bytes', `${what} fields`)
    else cascade(what)
  }
  const dictionary = (w: string, end: number): boolean => {
    const form = take(1, 'u8', `${w} dictionary form`)
    if (form === 0) return false
    const termCount = take(4, 'u32', `${w} termCount`)
    take(4, 'u32', `${w} totalBytes`)
    if (form === 5) {
      take(1, 'u8', `${w} digit count`)
      cascade(`${w} digits integers`)
      return true
    }
    if (form === 3 || form === 4) intList(`${w} shared lengths`, termCount)
    if (form === 2 || form === 4) {
      let symbolBytes = 0
      for (let size = 1; size <= 8; size++) symbolBytes += size * take(1, 'u8', `${w} symbols of ${size} bytes`)
      take(symbolBytes, 'bytes', `${w} symbols`)
    }
    intList(`${w} piece lengths`, termCount)
    take(end - at, 'bytes', `${w} pieces`)
    return true
  }
  take(4, 'u32', 'magic')
  const version = take(4, 'u32', 'version')
  const maxDoc = take(4, 'u32', 'maxDoc')
  const anySequence = version === 2 ? cascade : sequence
  const length = bytes.length
  const directory = Number(view.getBigUint64(length - 20, true))
  at = length - 20; take(8, 'i64', 'directoryOffset'); take(4, 'u32', 'footerMagic'); take(8, 'i64', 'checksum')
  at = directory
  const columnCount = varuint('columnCount')
  const entries: { type: number; layout: number; offset: number }[] = []
  for (let c = 0; c < columnCount; c++) {
    const w = `column ${c}`
    take(varuint(`${w} nameLength`), 'bytes', `${w} name`)
    const type = take(1, 'u8', `${w} type`), layout = take(1, 'u8', `${w} layout`)
    varuint(`${w} documentsWithValue`); varuint(`${w} valueCount`); take(8, 'i64', `${w} minRaw`); take(8, 'i64', `${w} maxRaw`)
    const offset = varuint(`${w} sectionOffset`)
    varuint(`${w} sectionLength`)
    entries.push({ type, layout, offset })
  }
  entries.forEach(({ type, layout, offset }, c) => {
    at = offset
    const w = `column ${c}`
    if (type === 1 && version === 2 && dictionary(w, dictionaryEnds.get(c)!)) {
      // a compressed form, located
    } else if (type === 1) {
      const termCount = take(4, 'u32', `${w} termCount`), totalBytes = take(4, 'u32', `${w} totalBytes`)
      for (let i = 0; i <= termCount; i++) take(4, 'u32', `${w} term offset ${i}`)
      take(totalBytes, 'bytes', `${w} term bytes`)
    }
    if (layout === 1) take(8 * Math.ceil(maxDoc / 64), 'bytes', `${w} bitmap`)
    if (layout === 2) anySequence(`${w} offsets`)
    anySequence(`${w} values`)
    if (type === 6) anySequence(`${w} longitudes`)
  })
  return fields
}
