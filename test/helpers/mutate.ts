/**
 * Seeded mutation operators over a valid OIXK file, for fuzzing the readers.
 * Byte-level operators (bit flips, overwrites, truncation, extension, splices)
 * work anywhere; field operators edit one located header / directory / record
 * field in place; model operators go through file-surgery's parse/build to
 * re-encode blocks, values, dictionaries and directory entries. Most mutants
 * get their XXH64 recomputed so that structural validation (not the checksum)
 * is what rejects them; some keep a stale checksum.
 */
import {
  type Block, BLOCK_VALUES, build, canonicalBlock, canonicalSequence, type Column, decodeBlock, decodeSequence, type FileModel, fixChecksum,
  packedBlock, type Sequence, tableBlockOf, varuintBytes,
} from './file-surgery.js'
import { type Field, type SeedFile } from './seed-file.js'

export type Random = () => number
/** A mutated file and a short description of what was done to it. */
export interface Mutant { bytes: Uint8Array; op: string }

const MIN_I64 = -(2n ** 63n)
const MAX_I64 = 2n ** 63n - 1n

// ---------------------------------------------------------------- small tools

const pickOf = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]
const below = (random: Random, limit: number): number => Math.floor(random() * limit)

function random64(random: Random): bigint {
  return BigInt.asIntN(64, (BigInt(below(random, 2 ** 32)) << 32n) | BigInt(below(random, 2 ** 32)))
}

function splice(bytes: Uint8Array, at: number, remove: number, insert: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(bytes.length - remove + insert.length)
  out.set(bytes.subarray(0, at))
  out.set(insert, at)
  out.set(bytes.subarray(at + remove), at + insert.length)
  return out
}

function randomBytes(random: Random, length: number): Uint8Array {
  return Uint8Array.from({ length }, () => pickOf(random, [0, 0xff, 0x80, 0x7f, below(random, 256), below(random, 256)]))
}

/** Recomputes the checksum (when the file is long enough) unless keepStale. */
function finish(bytes: Uint8Array, op: string, keepStale: boolean): Mutant {
  if (!keepStale && bytes.length >= 8) fixChecksum(bytes)
  return { bytes, op: keepStale ? `${op} (stale checksum)` : op }
}

// ---------------------------------------------------------------- byte-level operators

function byteLevel(seed: SeedFile, random: Random): Mutant {
  let bytes: Uint8Array = seed.bytes.slice()
  const stale = random() < 0.3
  const kind = below(random, 6)
  const position = () => below(random, bytes.length)
  if (kind === 0) {
    const flips = 1 + below(random, 4)
    for (let i = 0; i < flips; i++) { const at = position(); bytes[at] ^= 1 << below(random, 8) }
    return finish(bytes, `flip ${flips} bits`, stale)
  }
  if (kind === 1) {
    const at = position(), run = 1 + below(random, 8)
    bytes.set(randomBytes(random, Math.min(run, bytes.length - at)), at)
    return finish(bytes, `overwrite ${run} bytes at ${at}`, stale)
  }
  if (kind === 2) {
    const length = random() < 0.3 ? below(random, 40) : below(random, bytes.length)
    return finish(bytes.slice(0, length), `truncate to ${length}`, random() < 0.5)
  }
  if (kind === 3) {
    const extra = random() < 0.5 ? 1 + below(random, 8) : 1 + below(random, 200)
    return finish(Uint8Array.from([...bytes, ...randomBytes(random, extra)]), `append ${extra} bytes`, stale)
  }
  // splices inside the sections or the directory, optionally fixing the directory offset
  const directory = seed.directoryOffset
  const at = 12 + below(random, bytes.length - 32)
  const remove = kind === 4 ? 1 + below(random, 8) : 0
  const insert = kind === 5 ? randomBytes(random, 1 + below(random, 8)) : new Uint8Array(0)
  bytes = splice(bytes, at, Math.min(remove, bytes.length - 20 - at), insert)
  if (at < directory && random() < 0.7) {
    new DataView(bytes.buffer).setBigUint64(bytes.length - 20, BigInt(directory + insert.length - remove), true)
  }
  return finish(bytes, `splice -${remove} +${insert.length} at ${at}`, stale && random() < 0.5)
}

// ---------------------------------------------------------------- field operators

function fieldValue(bytes: Uint8Array, field: Field): bigint {
  let value = 0n
  for (let i = field.size - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[field.at + i])
  return value
}

function interesting(random: Random, field: Field, current: bigint): bigint {
  const top = (1n << BigInt(8 * field.size)) - 1n
  const common = [0n, 1n, current + 1n, current - 1n, top, current ^ (1n << BigInt(below(random, 8 * field.size)))]
  const byKind: Record<string, bigint[]> = {
    u8: [2n, 3n, 4n, 5n, 6n, 7n, 63n, 64n, 65n, 127n, 128n],
    u16: [0x8000n],
    u32: [current * 2n, 1023n, 1024n, 1025n, 8n, 0x7fffffffn, 0x80000000n, 1n << 30n, (1n << 30n) + 1n, BigInt(below(random, 2 ** 32))],
    i64: [BigInt.asUintN(64, MIN_I64), BigInt.asUintN(64, MAX_I64), BigInt.asUintN(64, random64(random)), current << 1n, 1n << 32n],
  }
  return BigInt.asUintN(8 * field.size, pickOf(random, [...common, ...(byKind[field.kind] ?? [])]))
}

function overlong(minimal: number[]): number[] {
  const bytes = minimal.slice()
  bytes[bytes.length - 1] |= 0x80
  return [...bytes, 0]
}

function varuintEdit(random: Random, value: number): [string, number[]] {
  const options: [string, number[]][] = [
    ['overlong', overlong(varuintBytes(value))],
    ['overlong x2', overlong(overlong(varuintBytes(value)))],
    ['plus 1', varuintBytes(value + 1)],
    ['minus 1', varuintBytes(Math.max(0, value - 1))],
    ['zero', [0]],
    ['2^32 - 1', varuintBytes(2 ** 32 - 1)],
    ['2^32', [0x80, 0x80, 0x80, 0x80, 0x10]],
    ['6 bytes', [0x81, 0x80, 0x80, 0x80, 0x80, 0x00]],
    ['truncated', [...varuintBytes(value).slice(0, -1), 0x80]],
    ['random', varuintBytes(below(random, 2 ** 32))],
    ['doubled', varuintBytes(value * 2 + 1)],
  ]
  return pickOf(random, options)
}

function fieldLevel(seed: SeedFile, random: Random): Mutant {
  const field = pickOf(random, seed.fields)
  const stale = random() < 0.12
  if (field.kind === 'varuint') {
    let value = 0
    for (let i = field.size - 1; i >= 0; i--) value = value * 128 + (seed.bytes[field.at + i] & 0x7f)
    const [how, replacement] = varuintEdit(random, value)
    return finish(splice(seed.bytes, field.at, field.size, replacement), `${field.what} varuint ${how}`, stale)
  }
  const bytes = seed.bytes.slice()
  if (field.kind === 'bytes') {
    if (field.size === 0) return finish(bytes, `${field.what} (empty, unchanged)`, true)
    const at = field.at + below(random, field.size)
    if (random() < 0.5) bytes[at] ^= 1 << below(random, 8)
    else bytes[at] = pickOf(random, [0, 0xff, 0x80, 0xc0, 0xed, 0xf4, 0x7f, below(random, 256)])
    return finish(bytes, `${field.what} byte ${at - field.at}`, stale)
  }
  const value = interesting(random, field, fieldValue(bytes, field))
  for (let i = 0; i < field.size; i++) bytes[field.at + i] = Number((value >> BigInt(8 * i)) & 0xffn)
  if (field.what === 'checksum') return { bytes, op: 'checksum field' }
  return finish(bytes, `${field.what} = ${value}`, stale)
}

// ---------------------------------------------------------------- model operators

/** A copy of the model sharing everything but the column list and the chosen column, section and sequence. */
function cloneColumn(model: FileModel, index: number): { model: FileModel; column: Column } {
  const original = model.columns[index]
  const column: Column = { ...original, section: { ...original.section } }
  const columns = model.columns.slice()
  columns[index] = column
  return { model: { ...model, columns }, column }
}

const cloneSequence = (sequence: Sequence): Sequence => ({ ...sequence, blocks: sequence.blocks.slice() })

const sortBig = (values: bigint[]) => values.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))

/** A different (non-canonical, or wrong) encoding of the same block values. */
function alternativeBlock(random: Random, values: bigint[]): [string, Block] {
  const min = values.reduce((a, b) => (b < a ? b : a)), max = values.reduce((a, b) => (b > a ? b : a))
  const range = BigInt.asUintN(64, max - min)
  const width = range === 0n ? 1 : range.toString(2).length
  const distinct = sortBig([...new Set(values)])
  const options: (() => [string, Block])[] = [
    () => ['packed g=1', packedBlock(values, min, 1n, width)],
    () => ['packed wider', packedBlock(values, min, 1n, Math.min(64, width + 1))],
    () => ['packed base min-1', packedBlock(values, BigInt.asIntN(64, min - 1n), 1n, Math.min(64, BigInt.asUintN(64, max - min + 1n).toString(2).length))],
  ]
  if (distinct.length >= 2 && distinct.length <= 256) options.push(() => ['table', tableBlockOf(values, distinct)])
  if (distinct.length <= 255) {
    options.push(() => ['table with unused entry', tableBlockOf(values, sortBig([...new Set([...distinct, BigInt.asIntN(64, max + 1n)])]))])
  }
  return pickOf(random, options)()
}

/** A raw value an edit may put in a sequence. */
function editedValue(random: Random, value: bigint, block: bigint[]): bigint {
  return BigInt.asIntN(64, pickOf(random, [
    value + 1n, value - 1n, 0n, 1n, 2n, -1n, MIN_I64, MAX_I64, random64(random), pickOf(random, block),
    4636033603912859648n /* Encode(91) */, 9221120237041090560n /* NaN */, 4640537203540230144n /* Encode(181) */,
  ]))
}

function sequenceEdit(random: Random, sequence: Sequence): [string, Sequence] {
  const edited = cloneSequence(sequence)
  const i = below(random, sequence.blocks.length)
  const n = Math.min(BLOCK_VALUES, sequence.count - i * BLOCK_VALUES)
  const values = decodeBlock(sequence.blocks[i], n)
  switch (below(random, 6)) {
    case 0: {
      const [how, block] = alternativeBlock(random, values)
      edited.blocks[i] = block
      return [`block ${i} ${how}`, edited]
    }
    case 1: case 2: {
      const j = below(random, n)
      values[j] = editedValue(random, values[j], values)
      edited.blocks[i] = canonicalBlock(values)
      return [`block ${i} value ${j} = ${values[j]}`, edited]
    }
    case 3: {
      const all = decodeSequence(sequence)
      if (random() < 0.5 && all.length > 1) all.pop()
      else all.push(editedValue(random, all[all.length - 1], all))
      return [`count ${sequence.count} -> ${all.length}`, canonicalSequence(all)]
    }
    case 4: {
      const what = pickOf(random, ['blockCount', 'dataLength', 'padding', 'reserved', 'dataOffset', 'count'] as const)
      const delta = pickOf(random, [1, -1, 8, -8, 1024])
      if (what === 'blockCount') edited.blockCount = Math.max(0, sequence.blocks.length + delta)
      if (what === 'count') edited.count = Math.max(0, sequence.count + delta)
      if (what === 'dataLength') edited.dataLength = Math.max(0, edited.blocks.reduce((s, b) => s + b.data.length, 8) + delta)
      if (what === 'padding') edited.padding = pickOf(random, [new Uint8Array(7), new Uint8Array(9), Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 1)])
      if (what === 'reserved') edited.blocks[i] = { ...sequence.blocks[i], reserved: pickOf(random, [1, 0x100, 0xffff]) }
      if (what === 'dataOffset') edited.blocks[i] = { ...sequence.blocks[i], dataOffset: Math.max(0, sequence.blocks.slice(0, i).reduce((s, b) => s + b.data.length, 0) + delta) }
      return [`${what} ${delta}`, edited]
    }
    default: {
      const block = sequence.blocks[i]
      const record = pickOf(random, ['kind', 'width', 'aux', 'base'] as const)
      const changed = { ...block }
      if (record === 'kind') changed.kind = pickOf(random, [0, 1, 2, 3].filter((k) => k !== block.kind))
      if (record === 'width') changed.width = pickOf(random, [0, block.width + 1, block.width - 1, 64, 65])
      if (record === 'aux') changed.aux = pickOf(random, [0n, 1n, block.aux + 1n, block.aux - 1n, 257n, -1n, MAX_I64])
      if (record === 'base') changed.base = BigInt.asIntN(64, block.base + pickOf(random, [1n, -1n, MIN_I64]))
      edited.blocks[i] = changed
      return [`block ${i} ${record} ${block.kind}/${block.width}/${block.aux} -> ${changed.kind}/${changed.width}/${changed.aux}`, edited]
    }
  }
}

function dictionaryEdit(random: Random, column: Column): string {
  const dictionary = column.section.dictionary!
  const terms = dictionary.offsets.slice(0, -1).map((start, i) => dictionary.bytes.slice(start, dictionary.offsets[i + 1]))
  const how = below(random, 7)
  if (how === 0 && terms.length > 1) { const i = below(random, terms.length - 1); [terms[i], terms[i + 1]] = [terms[i + 1], terms[i]] }
  else if (how === 1) terms[below(random, terms.length)] = pickOf(random, [Uint8Array.of(0xff), Uint8Array.of(0xc0, 0x80), Uint8Array.of(0xed, 0xa0, 0x80), new Uint8Array(0)])
  else if (how === 2) terms.push(Uint8Array.of(0xf4, 0x8f, 0xbf, 0xbf, 0x7a))
  else if (how === 3 && terms.length > 1) terms.pop()
  else if (how === 4) { const i = below(random, terms.length); terms.splice(i, 0, terms[i]) }
  const offsets = [0]
  for (const term of terms) offsets.push(offsets[offsets.length - 1] + term.length)
  const bytes = Uint8Array.from(terms.flatMap((term) => [...term]))
  const edited = { offsets, bytes, termCount: undefined as number | undefined, totalBytes: undefined as number | undefined }
  if (how === 5) edited.termCount = terms.length + pickOf(random, [1, -1, 2 ** 20])
  if (how === 6) {
    if (random() < 0.5) edited.totalBytes = bytes.length + pickOf(random, [1, -1, 2 ** 30 + 1])
    else { const i = below(random, offsets.length); offsets[i] = Math.max(0, offsets[i] + pickOf(random, [1, -1])) }
  }
  column.section.dictionary = edited
  return `dictionary edit ${how}`
}

function entryEdit(random: Random, model: FileModel, column: Column, index: number): string {
  const what = below(random, 12)
  const delta = pickOf(random, [1, -1])
  switch (what) {
    case 0: column.documentsWithValue = Math.max(0, column.documentsWithValue + delta); return `documentsWithValue ${delta}`
    case 1: column.valueCount = Math.max(0, column.valueCount + delta); return `valueCount ${delta}`
    case 2: column.minRaw += BigInt(delta); return `minRaw ${delta}`
    case 3: column.maxRaw += BigInt(delta); return `maxRaw ${delta}`
    case 4: column.type = pickOf(random, [0, 1, 2, 3, 4, 5, 6, 7]); return `type ${column.type}`
    case 5: column.layout = pickOf(random, [0, 1, 2, 3]); return `layout ${column.layout}`
    case 6: column.name = pickOf(random, [new Uint8Array(0), Uint8Array.of(0xff), Uint8Array.of(0x7a, 0x7a), model.columns[Math.max(0, index - 1)].name, Uint8Array.of(0xf0, 0x9f, 0x98, 0x80)]); return 'name'
    case 7: column.sectionOffset = Math.max(0, 12 + delta); return `sectionOffset ${column.sectionOffset}`
    case 8: column.gapBefore = new Uint8Array(1 + below(random, 3)); return 'gap before section'
    case 9: column.section.trailing = new Uint8Array(1 + below(random, 3)); return 'section trailing bytes'
    case 10: column.raw = { [pickOf(random, ['nameLength', 'documentsWithValue', 'valueCount', 'sectionOffset', 'sectionLength'] as const)]: [0x80, 0x80, 0x00] }; return 'raw varuint 0 overlong'
    default: {
      const sequence = pickOf(random, [column.section.offsets, column.section.values, column.section.longitudes].filter((s) => s !== undefined))
      column.section.values = sequence // a section whose sequences are not where its layout puts them
      return 'sequence moved'
    }
  }
}

function fileEdit(random: Random, model: FileModel): string {
  const columns = model.columns.slice()
  switch (below(random, 8)) {
    case 0: model.maxDoc += pickOf(random, [1, -1, 64]); return `maxDoc ${model.maxDoc}`
    case 1: if (columns.length > 1) { const i = below(random, columns.length - 1); [columns[i], columns[i + 1]] = [columns[i + 1], columns[i]] } model.columns = columns; return 'swap columns'
    case 2: columns.splice(below(random, columns.length), 1); model.columns = columns; return 'drop column'
    case 3: { const i = below(random, columns.length); columns.splice(i, 0, columns[i]); model.columns = columns; return 'duplicate column' }
    case 4: model.rawColumnCount = varuintBytes(columns.length + pickOf(random, [1, -1])); return 'column count'
    case 5: model.gapAfterSections = new Uint8Array(1 + below(random, 4)); return 'gap after sections'
    case 6: model.directoryExtra = Uint8Array.of(below(random, 256)); return 'directory extra byte'
    default: model.directoryOffset = BigInt(build(model).directoryOffset + pickOf(random, [1, -1, 2 ** 32])); return 'directory offset'
  }
}

function modelLevel(seed: SeedFile, random: Random): Mutant {
  const index = below(random, seed.model.columns.length)
  const { model, column } = cloneColumn(seed.model, index)
  const section = column.section
  let op: string
  const area = below(random, 10)
  if (area < 5) {
    const which = pickOf(random, (['offsets', 'values', 'longitudes'] as const).filter((name) => section[name] !== undefined))
    const [how, sequence] = sequenceEdit(random, section[which]!)
    section[which] = sequence
    op = `${which}: ${how}`
    if (which === 'values' && column.type !== 1 && random() < 0.6) { // keep min/max true so later checks are reached
      const values = decodeSequence(sequence)
      column.minRaw = values.reduce((a, b) => (b < a ? b : a))
      column.maxRaw = values.reduce((a, b) => (b > a ? b : a))
      op += ' (min/max kept true)'
    }
  } else if (area < 6 && section.dictionary) op = dictionaryEdit(random, column)
  else if (area < 7 && section.bitmap) {
    const bitmap = section.bitmap.slice()
    bitmap[below(random, bitmap.length)] ^= 1 << below(random, 8)
    section.bitmap = bitmap
    op = 'bitmap bit'
  } else if (area < 9) op = entryEdit(random, model, column, index)
  else op = fileEdit(random, model)
  if (random() < 0.08) model.checksum = random64(random)
  const name = new TextDecoder().decode(seed.model.columns[index].name)
  return { bytes: build(model).bytes, op: `model column "${name}" ${op}${model.checksum === undefined ? '' : ' (wrong checksum)'}` }
}

/** One seeded mutant of seed: byte-level (30%), field-level (35%) or model-level (35%). */
export function mutate(seed: SeedFile, random: Random): Mutant {
  const roll = random()
  let mutant: Mutant
  if (roll < 0.3) mutant = byteLevel(seed, random)
  else if (roll < 0.65) mutant = fieldLevel(seed, random)
  else {
    try {
      mutant = modelLevel(seed, random)
    } catch { // an edit the model cannot express for this block (e.g. a width the values do not fit)
      mutant = fieldLevel(seed, random)
    }
  }
  if (random() < 0.05 && mutant.bytes.length > 0) { // a second, stale-checksum byte flip now and then
    mutant.bytes[below(random, mutant.bytes.length)] ^= 1 << below(random, 8)
    mutant.op += ' + stray flip'
  }
  return { bytes: mutant.bytes, op: `${seed.name}: ${mutant.op}` }
}
