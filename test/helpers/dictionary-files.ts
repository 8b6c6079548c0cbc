/**
 * Format 2 keyword dictionaries for tests: sorted terms as the writers take
 * them, a one-column v2 file of some terms, dictionary bytes written by hand
 * (independently of src/dictionary/write), and splicing a dictionary of any
 * length into a file (the section length, every later section's offset, the
 * directory offset and the checksum follow; the directory's varuints stay minimal).
 */
import { CorruptIndexException } from '../../src/format/errors.js'
import { openColumns } from '../../src/read/open.js'
import { flushColumns } from '../../src/write/columns-writer.js'
import { fixChecksum, varuintBytes } from './file-surgery.js'

export const BACKENDS = ['ts', 'wasm'] as const
export type BackendName = (typeof BACKENDS)[number]
export const FILE = 'dict.oixk'

const encoder = new TextEncoder()
export const utf8 = (text: string): Uint8Array => encoder.encode(text)

/** Unsigned byte order of two byte strings. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length)
  for (let index = 0; index < length; index++) if (a[index] !== b[index]) return a[index] - b[index]
  return a.length - b.length
}

/** Distinct strings sorted by their UTF-8 bytes. */
export function sortTerms(terms: readonly string[]): string[] {
  return [...new Set(terms)].map((term) => ({ term, bytes: utf8(term) })).sort((a, b) => compareBytes(a.bytes, b.bytes)).map(({ term }) => term)
}

/** Terms (already sorted and distinct) as the dictionary writers take them. */
export function termsOf(sorted: readonly string[]): { bytes: Uint8Array; offsets: Uint32Array } {
  const parts = sorted.map(utf8)
  const offsets = new Uint32Array(parts.length + 1)
  parts.forEach((part, index) => { offsets[index + 1] = offsets[index] + part.length })
  const bytes = new Uint8Array(offsets[parts.length])
  parts.forEach((part, index) => bytes.set(part, offsets[index]))
  return { bytes, offsets }
}

/** A v2 file of one dense keyword column `v`: document d holds values[d]. */
export function keywordFile(values: readonly string[]): Uint8Array {
  return flushColumns({ fields: [{ name: 'v', type: 'keyword', facet: true }] }, values.map((v) => ({ v })), { format: 2 })!
}

/** [start, end) of column `field`'s dictionary (form byte included) in a valid v2 file. */
export function dictionaryRange(file: Uint8Array, field = 'v'): [number, number] {
  const encoding = openColumns(file, { backend: 'ts', fileName: FILE }).getColumn(field)!.dictionary!.encoding!
  return [encoding.start, encoding.end]
}

/** The dictionary bytes of column `field` in a valid v2 file. */
export function dictionaryBytes(file: Uint8Array, field = 'v'): Uint8Array {
  const [start, end] = dictionaryRange(file, field)
  return file.slice(start, end)
}

interface Entry { head: number[]; sectionOffset: number; sectionLength: number }

/** Reads the directory of a valid file: per entry its bytes up to the section offset, the offset and the length. */
function readDirectory(file: Uint8Array): { entries: Entry[]; directoryOffset: number } {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const directoryOffset = Number(view.getBigUint64(file.length - 20, true))
  let at = directoryOffset
  const varuint = () => {
    let value = 0
    for (let scale = 1, byte = 0x80; byte & 0x80; scale *= 128) value += ((byte = file[at++]) & 0x7f) * scale
    return value
  }
  const count = varuint()
  const entries: Entry[] = []
  for (let index = 0; index < count; index++) {
    const from = at
    const nameLength = varuint()
    at += nameLength + 2
    varuint()
    varuint()
    at += 16
    const head = Array.from(file.subarray(from, at))
    entries.push({ head, sectionOffset: varuint(), sectionLength: varuint() })
  }
  if (at !== file.length - 20) throw new Error('readDirectory expects a valid file')
  return { entries, directoryOffset }
}

/** The file with bytes [start, end) (inside one section) replaced by `replacement`; sections, directory and checksum follow. */
export function spliceFile(file: Uint8Array, start: number, end: number, replacement: ArrayLike<number>): Uint8Array {
  const { entries, directoryOffset } = readDirectory(file)
  const delta = replacement.length - (end - start)
  const body = [...file.subarray(0, start), ...Array.from(replacement), ...file.subarray(end, directoryOffset)]
  const directory: number[] = [...varuintBytes(entries.length)]
  for (const entry of entries) {
    const inside = entry.sectionOffset <= start && end <= entry.sectionOffset + entry.sectionLength
    const offset = entry.sectionOffset >= end && !inside ? entry.sectionOffset + delta : entry.sectionOffset
    directory.push(...entry.head, ...varuintBytes(offset), ...varuintBytes(entry.sectionLength + (inside ? delta : 0)))
  }
  const out = new Uint8Array(body.length + directory.length + 20)
  out.set(body, 0)
  out.set(directory, body.length)
  const view = new DataView(out.buffer)
  view.setBigUint64(out.length - 20, BigInt(body.length), true)
  out.set(file.subarray(file.length - 12, file.length - 8), out.length - 12)
  return fixChecksum(out)
}

/** The file with column `field`'s dictionary replaced by `dictionary` (form byte included). */
export function withDictionary(file: Uint8Array, dictionary: ArrayLike<number>, field = 'v'): Uint8Array {
  const [start, end] = dictionaryRange(file, field)
  return spliceFile(file, start, end, dictionary)
}

// ---------------------------------------------------------------- dictionary bytes by hand

export const u32 = (value: number): number[] => [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, value >>> 24]

/** Form byte, u32 termCount, u32 totalBytes. */
export const header = (form: number, termCount: number, totalBytes: number): number[] => [form, ...u32(termCount), ...u32(totalBytes)]

/** A tag-0 list: u8 0, u8 width, the values in `width`-bit fields, least significant bit first. */
export function packedList(values: readonly number[], width = Math.max(0, ...values.map((value) => 32 - Math.clz32(value)))): number[] {
  const out = new Array<number>(Math.ceil((values.length * width) / 8)).fill(0)
  values.forEach((value, index) => {
    for (let bit = 0; bit < width; bit++) {
      const at = index * width + bit
      if (Math.floor(value / 2 ** bit) % 2 === 1) out[at >> 3] |= 1 << (at & 7)
    }
  })
  return [0, width, ...out]
}

/** Form 0: u8 0, then v1's dictionary (u32 termCount, u32 totalBytes, termCount + 1 offsets, bytes). */
export function v1Form(terms: readonly string[]): number[] {
  const { bytes, offsets } = termsOf(terms)
  return [0, ...u32(terms.length), ...u32(bytes.length), ...Array.from(offsets).flatMap(u32), ...bytes]
}

/** Form 1: header, the term lengths as a packed list, the bytes (terms in the order given). */
export function plainForm(terms: readonly string[]): number[] {
  const { bytes, offsets } = termsOf(terms)
  const lengths = terms.map((_, index) => offsets[index + 1] - offsets[index])
  return [...header(1, terms.length, bytes.length), ...packedList(lengths), ...bytes]
}

/** A symbol table: u8 count per length 1..8, then the symbols (in the order given, which must be by length). */
export function symbolTable(symbols: readonly (string | number[])[]): number[] {
  const bytes = symbols.map((symbol) => (typeof symbol === 'string' ? Array.from(utf8(symbol)) : symbol))
  const counts = new Array<number>(8).fill(0)
  for (const symbol of bytes) counts[symbol.length - 1]++
  return [...counts, ...bytes.flat()]
}

/** Form 2 by hand: header, table, code lengths (packed), codes. */
export function fsstForm(termCount: number, totalBytes: number, symbols: readonly (string | number[])[], codes: readonly number[][]): number[] {
  return [...header(2, termCount, totalBytes), ...symbolTable(symbols), ...packedList(codes.map((term) => term.length)), ...codes.flat()]
}

/** Form 3 by hand: header, shared (packed), suffix lengths (packed), suffixes. */
export function frontForm(totalBytes: number, shared: readonly number[], suffixes: readonly string[]): number[] {
  const parts = suffixes.map(utf8)
  return [...header(3, shared.length, totalBytes), ...packedList(shared), ...packedList(parts.map((part) => part.length)), ...parts.flatMap((part) => Array.from(part))]
}

/** Asserts that `action` throws CorruptIndexException naming FILE, with exactly this detail; returns the message. */
export function corruptMessage(action: () => unknown): string {
  try {
    action()
  } catch (error) {
    if (error instanceof CorruptIndexException) return error.message
    throw error
  }
  throw new Error('expected a CorruptIndexException')
}
