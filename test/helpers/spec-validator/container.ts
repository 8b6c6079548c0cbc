/**
 * The file around the sequences: frame, directory and sections (format.md
 * §2, §3, §5 and the checks at open of §8.1, as format-v2.md §1 keeps them).
 * `validateV2` is the entry point: it returns null for a file that must open,
 * or a short string naming the first rule the file breaks.
 */
import { Cursor, Invalid, type Sites, fail, rdU32, rdU64 } from './bytes.js'
import { dictionary } from './dictionaries.js'
import { sequence } from './sequences.js'

export interface ValidateOptions {
  /** XXH64 (seed 0) of the bytes before the checksum; without it the checksum is not checked. */
  xxh64?: (bytes: Uint8Array) => bigint
  /** When given, filled with every field read and every unused-bits byte seen. */
  sites?: Sites
}

interface Column {
  name: string
  type: number
  layout: number
  withValue: number
  valueCount: number
  minRaw: bigint
  maxRaw: bigint
  offset: number
  length: number
}

/** Validates a v2 file at open (format.md §8.1, format-v2.md §3.8, §10.6); null when valid. */
export function validateV2(bytes: Uint8Array, maxDoc: number, options: ValidateOptions = {}): string | null {
  try {
    validateFile(bytes, maxDoc, options)
    return null
  } catch (e) {
    if (e instanceof Invalid) return e.rule
    throw e
  }
}

/** format.md §2: magics at both ends, version, checksum over everything before it, maxDoc as the caller expects. */
function checkFrame(b: Uint8Array, maxDoc: number, options: ValidateOptions): number {
  const L = b.length
  if (L < 33) fail('length < 33')
  if (b[0] !== 0x4f || b[1] !== 0x49 || b[2] !== 0x58 || b[3] !== 0x4b) fail('OIXK magic')
  if (rdU32(b, 4) !== 2) fail(`version ${rdU32(b, 4)} (this validator reads v2 only)`)
  if (b[L - 12] !== 0x4b || b[L - 11] !== 0x58 || b[L - 10] !== 0x49 || b[L - 9] !== 0x4f) fail('KXIO magic')
  if (options.xxh64 && options.xxh64(b.subarray(0, L - 8)) !== rdU64(b, L - 8)) fail('checksum')
  options.sites?.fields.push({ off: 8, size: 4, label: 'maxDoc' }, { off: L - 20, size: 8, label: 'D' })
  if (rdU32(b, 8) !== maxDoc) fail('maxDoc mismatch')
  const D = rdU64(b, L - 20)
  if (D < 12n || D >= BigInt(L - 20)) fail('directory offset out of range')
  return Number(D)
}

/** format.md §3: the directory, from D to exactly L − 20, names strictly increasing in UTF-16 order. */
function readDirectory(b: Uint8Array, D: number, sites: Sites | null): Column[] {
  const c = new Cursor(b, D, b.length - 20, sites)
  const n = c.varuint('columnCount')
  if (n < 1) fail('empty directory')
  const columns: Column[] = []
  for (let i = 0; i < n; i++) {
    const nameLength = c.varuint(`col${i}.nameLength`)
    c.need(nameLength, 'name')
    if (nameLength === 0) fail('empty name')
    let name: string
    try {
      name = new TextDecoder('utf-8', { fatal: true }).decode(b.subarray(c.pos, c.pos + nameLength))
    } catch {
      return fail('name not valid UTF-8')
    }
    c.pos += nameLength
    columns.push({
      name,
      type: c.u8(`col${i}.type`),
      layout: c.u8(`col${i}.layout`),
      withValue: c.varuint(`col${i}.documentsWithValue`),
      valueCount: c.varuint(`col${i}.valueCount`),
      minRaw: c.i64(`col${i}.minRaw`),
      maxRaw: c.i64(`col${i}.maxRaw`),
      offset: c.varuint(`col${i}.sectionOffset`),
      length: c.varuint(`col${i}.sectionLength`),
    })
  }
  if (c.pos !== b.length - 20) fail('directory does not end at L − 20')
  // Sections tile [12, D) in directory order.
  let next = 12
  columns.forEach((col, i) => {
    if (i > 0 && !(columns[i - 1].name < col.name)) fail('names not strictly increasing')
    if (col.type < 1 || col.type > 6) fail('type byte')
    if (col.layout > 2) fail('layout byte')
    if (col.valueCount < 1) fail('valueCount 0')
    if (col.minRaw > col.maxRaw) fail('minRaw > maxRaw')
    if (col.offset !== next) fail('sections do not tile')
    next += col.length
    if (next > D) fail('sections do not tile')
  })
  if (next !== D) fail('sections do not tile')
  return columns
}

/** format.md §5.2 layout 1: the presence bitmap, no bit past maxDoc, population = valueCount. */
function presenceBitmap(c: Cursor, w: string, maxDoc: number, valueCount: number): void {
  const words = Math.ceil(maxDoc / 64)
  c.need(8 * words, `${w} bitmap`)
  let population = 0
  for (let q = 0; q < words; q++) {
    let v = c.u64(`${w}.bitmap${q}`)
    if (q === words - 1 && maxDoc % 64 && v >> BigInt(maxDoc % 64)) fail(`${w}: bitmap bits past maxDoc`)
    for (; v; v &= v - 1n) population++
  }
  if (population !== valueCount) fail(`${w}: bitmap population ≠ valueCount`)
}

/** format.md §5.2 layout 2: maxDoc + 1 offsets from 0, never decreasing, ending at valueCount, documentsWithValue non-empty. */
function multiOffsets(c: Cursor, w: string, col: Column, maxDoc: number): void {
  const off = sequence(c, `${w}.offsets`, maxDoc + 1, false, 'top')
  let prev = 0n
  let nonEmpty = 0
  for (let d = 0; d <= maxDoc; d++) {
    const v = off.get(d)
    if (d === 0 && v !== 0n) fail(`${w}: offsets[0] ≠ 0`)
    if (v < prev) fail(`${w}: offsets decrease`)
    if (d > 0 && v > prev) nonEmpty++
    prev = v
  }
  if (prev !== BigInt(col.valueCount)) fail(`${w}: last offset ≠ valueCount`)
  if (nonEmpty !== col.withValue) fail(`${w}: non-empty documents ≠ documentsWithValue`)
}

/** format.md §5: one section, in order (dictionary, layout map, values, longitudes), consumed exactly. */
function checkSection(b: Uint8Array, col: Column, i: number, maxDoc: number, sites: Sites | null): void {
  const w = `col${i}(${col.name})`
  if (col.valueCount < col.withValue) fail(`${w}: valueCount < documentsWithValue`)
  if (col.withValue > maxDoc) fail(`${w}: documentsWithValue > maxDoc`)
  // §5.1: the layout is a function of the counts.
  const layout = col.valueCount > col.withValue ? 2 : col.withValue === maxDoc ? 0 : 1
  if (col.layout !== layout) fail(`${w}: layout not the one the counts require`)
  const c = new Cursor(b, col.offset, col.offset + col.length, sites)
  let termCount = 0
  if (col.type === 1) {
    termCount = dictionary(c, `${w}.dict`)
    if (col.minRaw !== 0n || col.maxRaw !== BigInt(termCount - 1)) fail(`${w}: keyword minRaw/maxRaw ≠ 0, termCount − 1`)
  }
  if (col.layout === 1) presenceBitmap(c, w, maxDoc, col.valueCount)
  else if (col.layout === 2) multiOffsets(c, w, col, maxDoc)
  const doubles = col.type === 3 || col.type === 6 // fractional, and geo latitudes
  const values = sequence(c, `${w}.values`, col.valueCount, doubles, 'top')
  if (col.type === 1 && values.entries) {
    // format-v2.md §3.8: a keyword ordinal dictionary entry outside 0..termCount − 1 (read unsigned).
    for (let q = 0; q < values.entries.count; q++) {
      if (BigInt.asUintN(64, values.entries.get(q)) >= BigInt(termCount)) fail(`${w}: keyword ordinal dictionary entry outside 0..termCount − 1`)
    }
  }
  if (col.type === 6) sequence(c, `${w}.longitudes`, col.valueCount, true, 'top')
  if (c.pos !== c.end) fail(`${w}: section parts do not fill sectionLength`)
}

function validateFile(b: Uint8Array, maxDoc: number, options: ValidateOptions): void {
  const sites = options.sites ?? null
  const D = checkFrame(b, maxDoc, options)
  const columns = readDirectory(b, D, sites)
  columns.forEach((col, i) => checkSection(b, col, i, maxDoc, sites))
}
