/**
 * Whole v2 columns files, from docs/format.md §2–§5 and §7 (frame, directory,
 * raw values, layouts, sections, which fields get a column) with
 * docs/format-v2.md §1 (version 2, every sequence a v2 sequence, keyword
 * dictionaries of §10). The checksum is XXH64 from the `xxhash-wasm` package.
 */
import xxhash from 'xxhash-wasm'
import { ByteWriter } from './bytes.js'
import { note } from './choices.js'
import { encodeDictionary } from './dictionaries.js'
import { compareBytes } from './fsst.js'
import { sortableBits } from './decimals.js'
import { encodeDoubles, encodeIntegers } from './sequences.js'

/** The field types that get a column (docs/format.md §7), with their directory type bytes (§3). */
export const TYPE_BYTES = { keyword: 1, integral: 2, fractional: 3, date: 4, bool: 5, geo_point: 6 } as const
/** A column type by its schema name. */
export type ModelType = keyof typeof TYPE_BYTES

/** A field as the model needs it: name and type (multi-valuedness is read from the data, §5.1). */
export interface ModelField {
  name: string
  type: ModelType
}

/** A geo point value: two doubles, kept in two sequences (docs/format.md §4). */
export interface GeoPoint {
  lat: number
  lon: number
}
/** One value as a document gives it: keyword string, integral / date number or bigint, double, bool, geo point. */
export type ModelValue = string | number | bigint | boolean | GeoPoint
/** A document: field name to a value or an array of values; null for a document without fields. */
export type ModelDocument = Readonly<Record<string, ModelValue | readonly ModelValue[] | null | undefined>> | null

const LAYOUT = { dense: 0, optional: 1, multi: 2 } as const
const utf8 = new TextEncoder()
const hasher = xxhash()

/** A document's values for one field: none, one, or the array it gave, in its order (§7). */
function valuesOf(doc: ModelDocument, name: string): readonly ModelValue[] {
  const v = doc?.[name]
  if (v === undefined || v === null) return []
  return Array.isArray(v) ? (v as readonly ModelValue[]) : [v as ModelValue]
}

/** Raw i64 of a non-keyword, non-geo value (docs/format.md §4). */
function rawValue(type: ModelType, v: ModelValue): bigint {
  if (type === 'fractional') return sortableBits(v as number)
  if (type === 'bool') return v ? 1n : 0n
  return BigInt(v as number | bigint)
}

/** The presence bitmap (§5.2): ceil(maxDoc / 64) u64 words, document d at bit d & 63 of word d >> 6. */
function presenceBitmap(counts: readonly number[]): number[] {
  const out = new Array<number>(Math.ceil(counts.length / 64) * 8).fill(0)
  counts.forEach((c, d) => {
    if (c > 0) out[d >> 3] |= 1 << (d & 7)
  })
  return out
}

interface DirectoryEntry {
  name: string
  type: number
  layout: number
  documentsWithValue: number
  valueCount: number
  minRaw: bigint
  maxRaw: bigint
  offset: number
  length: number
}

/** One column's section (§5.2 and v2 §1): dictionary, map, value sequence(s); returns its directory entry. */
function writeSection(out: ByteWriter, field: ModelField, perDoc: (readonly ModelValue[])[]): DirectoryEntry | null {
  const counts = perDoc.map((v) => v.length)
  const valueCount = counts.reduce((a, b) => a + b, 0)
  if (valueCount === 0) return null // an empty column is never written
  const documentsWithValue = counts.filter((c) => c > 0).length
  const layout = valueCount > documentsWithValue ? LAYOUT.multi : documentsWithValue === perDoc.length ? LAYOUT.dense : LAYOUT.optional
  note(`layout ${['dense', 'optional', 'multi'][layout]} ${field.type}`)
  const values = perDoc.flat()
  const offset = out.out.length
  let raw: bigint[]
  let valueBytes: number[]
  if (field.type === 'keyword') {
    // Terms sorted by UTF-8 bytes; each value stored as its term's ordinal (§5.3, §7).
    const byText = new Map<string, Uint8Array>()
    for (const v of values) if (!byText.has(v as string)) byText.set(v as string, utf8.encode(v as string))
    const terms = [...byText.entries()].sort((a, b) => compareBytes(a[1], b[1]))
    const ordinal = new Map(terms.map(([text], i) => [text, BigInt(i)]))
    out.bytes(encodeDictionary(terms.map(([, bytes]) => bytes)))
    raw = [0n, BigInt(terms.length - 1)] // min/max: every term is used
    valueBytes = encodeIntegers(values.map((v) => ordinal.get(v as string)!))
  } else if (field.type === 'geo_point') {
    const points = values as GeoPoint[]
    raw = points.map((p) => sortableBits(p.lat)) // min/max over latitudes only (§3)
    valueBytes = [...encodeDoubles(points.map((p) => p.lat)), ...encodeDoubles(points.map((p) => p.lon))]
  } else {
    raw = values.map((v) => rawValue(field.type, v))
    valueBytes = field.type === 'fractional' ? encodeDoubles(values as number[]) : encodeIntegers(raw)
  }
  if (layout === LAYOUT.optional) out.bytes(presenceBitmap(counts))
  if (layout === LAYOUT.multi) {
    const offsets = [0]
    for (const c of counts) offsets.push(offsets[offsets.length - 1] + c)
    out.bytes(encodeIntegers(offsets))
  }
  out.bytes(valueBytes)
  let minRaw = raw[0]
  let maxRaw = raw[0]
  for (const x of raw) {
    if (x < minRaw) minRaw = x
    if (x > maxRaw) maxRaw = x
  }
  const type = TYPE_BYTES[field.type]
  return { name: field.name, type, layout, documentsWithValue, valueCount, minRaw, maxRaw, offset, length: out.out.length - offset }
}

/**
 * A whole v2 columns file (docs/format.md §2–§3, docs/format-v2.md §1) for
 * `maxDoc` documents, or null when no field has a value (§7 "No file").
 * Columns are in directory order: names by UTF-16 code units.
 */
export async function writeColumnsFile(fields: readonly ModelField[], docs: readonly ModelDocument[], maxDoc = docs.length): Promise<Uint8Array | null> {
  const out = new ByteWriter()
  out.bytes([0x4f, 0x49, 0x58, 0x4b]) // OIXK
  out.u32(2)
  out.u32(maxDoc)
  const directory: DirectoryEntry[] = []
  const sorted = [...fields].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const field of sorted) {
    const perDoc = Array.from({ length: maxDoc }, (_, d) => valuesOf(docs[d] ?? null, field.name))
    const entry = writeSection(out, field, perDoc)
    if (entry) directory.push(entry)
  }
  if (directory.length === 0) return null
  const directoryOffset = out.out.length
  out.varuint(directory.length)
  for (const e of directory) {
    const name = utf8.encode(e.name)
    out.varuint(name.length)
    out.bytes(name)
    out.u8(e.type)
    out.u8(e.layout)
    out.varuint(e.documentsWithValue)
    out.varuint(e.valueCount)
    out.i64(e.minRaw)
    out.i64(e.maxRaw)
    out.varuint(e.offset)
    out.varuint(e.length)
  }
  out.i64(BigInt(directoryOffset))
  out.bytes([0x4b, 0x58, 0x49, 0x4f]) // KXIO
  const { h64Raw } = await hasher
  out.i64(h64Raw(Uint8Array.from(out.out), 0n)) // XXH64, seed 0, over [0, L − 8)
  return Uint8Array.from(out.out)
}

/** A section's place in a file, read back from the directory (docs/format.md §2–§3) to name a differing byte. */
export interface SectionSpan {
  name: string
  offset: number
  length: number
}

/** Parses a v2 file's directory into section spans (docs/format.md §3); used for failure messages. */
export function sectionSpans(file: Uint8Array): SectionSpan[] {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  let p = Number(view.getBigUint64(file.length - 20, true))
  const varuint = (): number => {
    let x = 0
    for (let shift = 0; ; shift += 7) {
      const b = file[p++]
      x += (b & 127) * 2 ** shift
      if (!(b & 128)) return x
    }
  }
  const spans: SectionSpan[] = []
  for (let n = varuint(); n > 0; n--) {
    const nameLength = varuint()
    const name = new TextDecoder().decode(file.subarray(p, p + nameLength))
    p += nameLength + 2 // name, type, layout
    varuint()
    varuint()
    p += 16 // minRaw, maxRaw
    spans.push({ name, offset: varuint(), length: varuint() })
  }
  return spans
}
