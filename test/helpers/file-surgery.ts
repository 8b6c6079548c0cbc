/**
 * File surgery for the OIXK v1 corruption tests. parseFile turns a valid file
 * (as flushColumns writes it) into an editable model: frame fields, directory
 * entries, and per section the dictionary, presence bitmap, offsets and value
 * sequences down to each block's record and data. buildFile writes the model
 * back, recomputing every derived number (block data offsets, dataLength,
 * blockCount, section offsets and lengths, minimal varuints, directory offset,
 * XXH64 checksum) unless a test overrides exactly that one. Block data (little-
 * endian bit fields) is encoded and decoded independently of src/, in
 * block-model.ts, which this module re-exports.
 */
import { expect } from 'vitest'
import { CorruptIndexException } from '../../src/format/errors.js'
import { xxh64 } from '../../src/format/xxh64.js'
import { openColumns } from '../../src/read/open.js'
import type { ColumnsReader } from '../../src/read/reader.js'
import { type ColumnsDocument, flushColumns } from '../../src/write/columns-writer.js'
import { type Block, BLOCK_VALUES, blockDataLength, concat, type Sequence } from './block-model.js'

// The block model is part of the surgery kit: tests import it from here too.
export * from './block-model.js'

export const FILE_NAME = 'corrupt.oixk'

// Optional fields marked "override" replace a derived value only when set; a
// valid file's model has none of them.

/** A keyword dictionary: termCount, totalBytes are overrides (default offsets.length - 1, bytes.length). */
export interface Dictionary { termCount?: number; totalBytes?: number; offsets: number[]; bytes: Uint8Array }

/** A section's parts in file order; trailing: stray bytes after them. */
export interface Section {
  dictionary?: Dictionary; bitmap?: Uint8Array; offsets?: Sequence; values: Sequence; longitudes?: Sequence; trailing?: Uint8Array
}

type VarName = 'nameLength' | 'documentsWithValue' | 'valueCount' | 'sectionOffset' | 'sectionLength'

/**
 * A directory entry and its section. sectionOffset / sectionLength: overrides (default: where the
 * section really is); raw: bytes written instead of a field's minimal varuint; gapBefore: stray
 * bytes before the section.
 */
export interface Column {
  name: Uint8Array; type: number; layout: number; documentsWithValue: number; valueCount: number; minRaw: bigint; maxRaw: bigint
  sectionOffset?: number; sectionLength?: number; raw?: Partial<Record<VarName, number[]>>; gapBefore?: Uint8Array
  section: Section
}

/**
 * A whole file. rawColumnCount: bytes instead of the minimal varuint; gapAfterSections: stray bytes
 * before the directory; directoryExtra: stray bytes after its last entry; directoryOffset and
 * checksum: overrides (default: the real offset, XXH64 of [0, length - 8)).
 */
export interface FileModel {
  magic: number; version: number; maxDoc: number; rawColumnCount?: number[]; columns: Column[]
  gapAfterSections?: Uint8Array; directoryExtra?: Uint8Array; directoryOffset?: bigint; footerMagic: number; checksum?: bigint
}

// ---------------------------------------------------------------- bytes

class Out {
  bytes: number[] = []
  get length(): number { return this.bytes.length }
  u8(value: number): void { this.bytes.push(value & 0xff) }
  u32(value: number): void { for (let i = 0; i < 4; i++) this.u8(value >>> (8 * i)) }
  u64(value: bigint): void { for (let i = 0n; i < 8n; i++) this.u8(Number((BigInt.asUintN(64, value) >> (8n * i)) & 0xffn)) }
  raw(bytes: ArrayLike<number>): void { for (let i = 0; i < bytes.length; i++) this.u8(bytes[i]) }
}

class In {
  private readonly view: DataView
  constructor(readonly bytes: Uint8Array, public at = 0) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }
  u8(): number { return this.bytes[this.at++] }
  u32(): number { const value = this.view.getUint32(this.at, true); this.at += 4; return value }
  i64(): bigint { const value = this.view.getBigInt64(this.at, true); this.at += 8; return value }
  take(length: number): Uint8Array { const part = this.bytes.slice(this.at, this.at + length); this.at += length; return part }
  varuint(): number { // minimal and in range: parseFile reads valid files only
    let value = 0
    for (let scale = 1, byte = 0x80; byte & 0x80; scale *= 128) value += ((byte = this.u8()) & 0x7f) * scale
    return value
  }
}

/** The minimal varuint encoding of value. */
export function varuintBytes(value: number): number[] {
  const bytes: number[] = []
  while (value >= 0x80) {
    bytes.push((value % 128) | 0x80)
    value = Math.floor(value / 128)
  }
  bytes.push(value)
  return bytes
}

/** Rewrites the XXH64 checksum over [0, length - 8) in place; returns bytes. */
export function fixChecksum(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  view.setBigUint64(bytes.length - 8, xxh64(bytes, 0, bytes.length - 8), true)
  return bytes
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

/**
 * A copy of a format 2 file (checksum fixed) where run block `block` of `sequence` (a full block
 * of 1,024 values: 10-bit starts) has run 1 start at `start`, an order the open does not check.
 * Returns the copy and the block's record word (kind, width and run count, for the caller's checks).
 */
export function withRunOneStart(bytes: Uint8Array, sequence: { records: Int32Array; dataStart: number }, block: number, start: number): { bytes: Uint8Array; word: number } {
  const word = sequence.records[6 * block], runs = (word >>> 16) + 1, width = (word >>> 8) & 0xff
  const startsAt = sequence.dataStart + sequence.records[6 * block + 1] + Math.ceil((runs * width) / 8)
  const copy = bytes.slice()
  copy[startsAt] = start & 0xff
  copy[startsAt + 1] = (copy[startsAt + 1] & ~3) | (start >>> 8)
  return { bytes: fixChecksum(copy), word }
}

// ---------------------------------------------------------------- parse

function parseSequence(input: In): Sequence {
  const count = input.u32(), blockCount = input.u32(), dataLength = input.u32()
  const records: (Omit<Block, 'data'> & { dataOffset: number })[] = []
  for (let i = 0; i < blockCount; i++) {
    const kind = input.u8(), width = input.u8()
    const reserved = input.u8() | (input.u8() << 8)
    records.push({ kind, width, reserved, dataOffset: input.u32(), base: input.i64(), aux: input.i64() })
  }
  const data = input.take(dataLength)
  let running = 0
  const blocks = records.map(({ dataOffset, ...record }, i) => {
    const length = blockDataLength({ ...record, data: data }, Math.min(BLOCK_VALUES, count - i * BLOCK_VALUES))
    if (dataOffset !== running) throw new Error('parseFile expects a valid file')
    running += length
    return { ...record, data: data.slice(dataOffset, dataOffset + length) }
  })
  return { count, blocks, padding: data.slice(running) }
}

function parseSection(input: In, type: number, layout: number, maxDoc: number, end: number): Section {
  let dictionary: Dictionary | undefined
  if (type === 1) {
    const termCount = input.u32(), totalBytes = input.u32()
    const offsets: number[] = []
    for (let i = 0; i <= termCount; i++) offsets.push(input.u32())
    dictionary = { offsets, bytes: input.take(totalBytes) }
  }
  const bitmap = layout === 1 ? input.take(8 * Math.ceil(maxDoc / 64)) : undefined
  const offsets = layout === 2 ? parseSequence(input) : undefined
  const values = parseSequence(input)
  const longitudes = type === 6 ? parseSequence(input) : undefined
  if (input.at !== end) throw new Error('parseFile expects a valid file')
  return { dictionary, bitmap, offsets, values, longitudes }
}

/** Parses a valid OIXK file into an editable model. */
export function parseFile(bytes: Uint8Array): FileModel {
  const input = new In(bytes)
  const magic = input.u32(), version = input.u32(), maxDoc = input.u32()
  const directory = new In(bytes, Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(bytes.length - 20, true)))
  const columnCount = directory.varuint()
  const columns: Column[] = []
  for (let i = 0; i < columnCount; i++) {
    const name = directory.take(directory.varuint())
    const type = directory.u8(), layout = directory.u8()
    const documentsWithValue = directory.varuint(), valueCount = directory.varuint()
    const minRaw = directory.i64(), maxRaw = directory.i64()
    const offset = directory.varuint(), length = directory.varuint()
    const section = parseSection(new In(bytes, offset), type, layout, maxDoc, offset + length)
    columns.push({ name, type, layout, documentsWithValue, valueCount, minRaw, maxRaw, section })
  }
  return { magic, version, maxDoc, columns, footerMagic: new In(bytes, bytes.length - 12).u32() }
}

// ---------------------------------------------------------------- build

export function encodeSequence(sequence: Sequence): Uint8Array {
  const records = new Out(), data = new Out()
  sequence.blocks.forEach((block) => {
    for (const byte of [block.kind, block.width, block.reserved, block.reserved >> 8]) records.u8(byte)
    records.u32(block.dataOffset ?? data.length)
    records.u64(block.base)
    records.u64(block.aux)
    data.raw(block.data)
  })
  data.raw(sequence.padding)
  const out = new Out()
  for (const word of [sequence.count, sequence.blockCount ?? sequence.blocks.length, sequence.dataLength ?? data.length]) out.u32(word)
  return concat(out.bytes, records.bytes, data.bytes)
}

export function encodeSection(section: Section): Uint8Array {
  const out = new Out()
  const dictionary = section.dictionary
  if (dictionary) {
    out.u32(dictionary.termCount ?? dictionary.offsets.length - 1)
    out.u32(dictionary.totalBytes ?? dictionary.bytes.length)
    dictionary.offsets.forEach((offset) => out.u32(offset))
    out.raw(dictionary.bytes)
  }
  if (section.bitmap) out.raw(section.bitmap)
  for (const sequence of [section.offsets, section.values, section.longitudes]) if (sequence) out.raw(encodeSequence(sequence))
  if (section.trailing) out.raw(section.trailing)
  return Uint8Array.from(out.bytes)
}

/** The file, where each column's section really is, and the directory offset. */
export interface Built { bytes: Uint8Array; sections: { offset: number; length: number }[]; directoryOffset: number }

/** Writes the model; every derived number is recomputed unless overridden. */
export function build(model: FileModel): Built {
  const out = new Out()
  for (const word of [model.magic, model.version, model.maxDoc]) out.u32(word)
  const sections = model.columns.map((column) => {
    if (column.gapBefore) out.raw(column.gapBefore)
    const offset = out.length
    out.raw(encodeSection(column.section))
    return { offset, length: out.length - offset }
  })
  if (model.gapAfterSections) out.raw(model.gapAfterSections)
  const directoryOffset = out.length
  out.raw(model.rawColumnCount ?? varuintBytes(model.columns.length))
  model.columns.forEach((column, i) => {
    const varField = (name: VarName, value: number) => out.raw(column.raw?.[name] ?? varuintBytes(value))
    varField('nameLength', column.name.length)
    out.raw(column.name)
    out.u8(column.type)
    out.u8(column.layout)
    varField('documentsWithValue', column.documentsWithValue)
    varField('valueCount', column.valueCount)
    out.u64(column.minRaw)
    out.u64(column.maxRaw)
    varField('sectionOffset', column.sectionOffset ?? sections[i].offset)
    varField('sectionLength', column.sectionLength ?? sections[i].length)
  })
  if (model.directoryExtra) out.raw(model.directoryExtra)
  out.u64(model.directoryOffset ?? BigInt(directoryOffset))
  out.u32(model.footerMagic)
  out.u64(model.checksum ?? 0n)
  const bytes = Uint8Array.from(out.bytes)
  if (model.checksum === undefined) fixChecksum(bytes)
  return { bytes, sections, directoryOffset }
}

export const buildFile = (model: FileModel): Uint8Array => build(model).bytes

/** The column of the model with this name. */
export function col(model: FileModel, name: string): Column {
  const found = model.columns.find((column) => new TextDecoder().decode(column.name) === name)
  if (!found) throw new Error(`no column ${name}`)
  return found
}

// ---------------------------------------------------------------- fixtures

/** maxDoc 101: not a multiple of 64 (bitmap tail bits) nor of 8 (unused high bits in 1- and 2-bit fields). */
export const RICH_MAX_DOC = 101
export const richSchema = {
  fields: [
    { name: 'bool', type: 'bool', column: true }, // dense, packed width 1
    { name: 'const', type: 'integral', column: true }, // dense, constant block
    { name: 'frac', type: 'fractional', column: true }, // optional
    { name: 'geo', type: 'geo_point', column: true }, // optional, two sequences
    { name: 'int', type: 'integral', column: true }, // dense, packed base 1000, g 10, width 4
    { name: 'kw', type: 'keyword', facet: true }, // optional, dictionary alpha/bravo/delta
    { name: 'multi', type: 'integral', column: true, multi: true }, // multi, doc 0 has 3 values, doc 100 has 2
    { name: 'status', type: 'integral', column: true }, // dense, table {200, 404, 500}
    { name: 'tags', type: 'keyword', column: true, multi: true },
    { name: 'text', type: 'text' }, // never a column
  ],
}
export const KW_TERMS = ['alpha', 'bravo', 'delta']

export function richDocuments(): ColumnsDocument[] {
  return Array.from({ length: RICH_MAX_DOC }, (_, d) => {
    const doc: Record<string, unknown> = {
      bool: d % 3 === 0, const: 7, int: 1000 + 10 * ((d * 7) % 13), status: [200, 404, 500][d % 3], text: `doc ${d}`,
    }
    if (d % 2 === 0) doc.frac = d / 4 - 3
    if (d % 4 !== 1) doc.geo = { lat: (d % 7) * 10 - 30, lon: d - 50 }
    if (d % 5 !== 2) doc.kw = KW_TERMS[d % 3]
    if (d % 3 === 0) doc.multi = [d, d + 1, d + 2]
    if (d % 3 === 1) doc.multi = [d, -d]
    doc.tags = [['x', 'y'], ['y'], [], ['z', 'x', 'x']][d % 4]
    return doc
  })
}

/** maxDoc 1100, one column "n": block 0 packed (d % 5), block 1 constant 3. */
export const TWO_BLOCK_MAX_DOC = 1100
/** maxDoc 8, column "n" = [0, 1, top, 0, 1, top, 0, 1]: packed in 26 or 25 bits beats or ties a 3-entry table. */
export const SMALL_MAX_DOC = 8

const integralSchema = (name: string) => ({ fields: [{ name, type: 'integral', column: true }] })
const cache = new Map<string, Uint8Array>()

/** A fresh copy of a fixture file, flushed once. */
function cached(key: string, make: () => Uint8Array | null): Uint8Array {
  if (!cache.has(key)) cache.set(key, make()!)
  return cache.get(key)!.slice()
}

export const richBytes = () => cached('rich', () => flushColumns(richSchema, richDocuments()))
export const twoBlockBytes = () => cached('two', () => flushColumns(integralSchema('n'),
  Array.from({ length: TWO_BLOCK_MAX_DOC }, (_, d) => ({ n: d < 1024 ? d % 5 : 3 }))))
/** top = 2^25 (packed 26 bytes = table 26 bytes, a tie) or 2^24 (packed 25 < 26). */
export const smallBytes = (top: number) => cached(`small${top}`, () => flushColumns(integralSchema('n'),
  [0, 1, top, 0, 1, top, 0, 1].map((n) => ({ n }))))

export const rich = (): FileModel => parseFile(richBytes())

// ---------------------------------------------------------------- assertions

/** Opens bytes as corrupt.oixk with the pure-TS backend (maxDoc defaults to the rich fixture's). */
export function open(bytes: Uint8Array, maxDoc: number = RICH_MAX_DOC): ColumnsReader {
  return openColumns(bytes, { fileName: FILE_NAME, maxDoc, backend: 'ts' })
}

/** Asserts that action throws CorruptIndexException whose message is FILE_NAME + ': ' + expected (or matches it). */
export function expectCorrupt(action: () => unknown, expected: string | RegExp): void {
  let error: unknown = null
  try { action() } catch (caught) { error = caught }
  expect(error, 'expected a CorruptIndexException').toBeInstanceOf(CorruptIndexException)
  const message = (error as CorruptIndexException).message
  expect(message.startsWith(`${FILE_NAME}: `)).toBe(true)
  expect((error as CorruptIndexException).fileName).toBe(FILE_NAME)
  if (typeof expected === 'string') expect(message).toBe(`${FILE_NAME}: ${expected}`)
  else expect(message).toMatch(expected)
}

/** Builds the edited model and asserts that opening it fails with expected. */
export function expectOpenFails(model: FileModel, expected: string | RegExp, maxDoc = model.maxDoc): void {
  const bytes = buildFile(model)
  expectCorrupt(() => open(bytes, maxDoc), expected)
}

/** Builds the edited model, asserts that it opens, and returns the reader. */
export function openModel(model: FileModel): ColumnsReader {
  return open(buildFile(model), model.maxDoc)
}
