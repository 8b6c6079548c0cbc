/**
 * A corrupt file must never let a WebAssembly read reach bytes outside its own
 * region: corrupt files that still open (valid checksum) sit in linear memory
 * between two canary files, every read of them runs, and no value, error
 * message or array read back holds the canary.
 */
import { describe, expect, it } from 'vitest'
import { CorruptIndexException } from '../src/format/errors.js'
import { sortableBitsToFloat64 } from '../src/format/sortable-bits.js'
import type { Column } from '../src/read/column.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { attempt } from './helpers/duel.js'
import { type Block, buildFile, col, fixChecksum, parseFile, tableBlock } from './helpers/file-surgery.js'
import { seededRandom } from './helpers/random.js'

const wasm = { backend: 'wasm' } as const
const TERMS = ['alpha', 'bravo', 'charlie', 'délta', '\u{1F600}']

/**
 * Every byte of the canary is 0x7e, so an 8-byte load at any alignment inside its data
 * gives the canary back: a read that strays into the neighbour is seen wherever it lands.
 */
const CANARY = 0x7e7e7e7e7e7e7e7en
const CANARY_DOCS = 4096

/** One integral column whose values are all CANARY, stored packed (width 64, base 0, g 1): its data is the canary repeated. */
function canaryFile(): Uint8Array {
  const model = parseFile(flushColumns({ fields: [{ name: 'c', type: 'integral', column: true }] }, Array.from({ length: CANARY_DOCS }, (_, d) => ({ c: d })))!)
  const column = model.columns[0]
  const blocks: Block[] = [0, 1, 2, 3].map(() => ({ kind: 1, width: 64, reserved: 0, base: 0n, aux: 1n, data: new Uint8Array(8 * 1024).fill(0x7e) }))
  column.section.values = { count: CANARY_DOCS, blocks, padding: new Uint8Array(8) }
  Object.assign(column, { minRaw: CANARY, maxRaw: CANARY })
  return buildFile(model)
}

/** Corrupt files that still open (valid checksum), each aimed at reads past its own bytes. */
function corruptNeighbours(): [string, Uint8Array][] {
  const docs = Array.from({ length: 1100 }, (_, d) => ({ k: TERMS[d % 5], z: d }))
  const base = () => parseFile(flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }, { name: 'z', type: 'integral', column: true }] }, docs)!)
  const withBlocks = (name: string, blocks: Block[]) => { const m = base(); col(m, name).section.values.blocks = blocks; return buildFile(m) }
  const entries = (k: number) => Array.from({ length: k }, (_, i) => BigInt(i) * 1000n)
  // n fields of all ones (the largest units), so every load reaches as far as a field can.
  const ones = (n: number, width: number): Block => {
    const data = new Uint8Array(Math.ceil((n * width) / 8)).fill(0xff)
    if ((n * width) & 7) data[data.length - 1] = (1 << ((n * width) & 7)) - 1
    return { kind: 1, width, reserved: 0, base: -1n, aux: 3n, data }
  }
  // 64-bit ordinals far beyond the 5 terms (and negative ones): high bytes set, low bytes varied.
  const wideOrdinals = Uint8Array.from({ length: 8 * 1024 }, (_, b) => [0xff, 0x7f, 0x05, 0x00, 0x80, 0x01, 0xff, 0xff][(b >> 3) % 8] ^ (b & 7))
  const files: [string, Uint8Array][] = [
    // The last block of the last sequence: entry 255 of 129 would lie ~1 KiB past the end of the file.
    ['table indexes beyond the entries, last block of the file', withBlocks('z', [tableBlock(entries(3), Array(1024).fill(3)), tableBlock(entries(129), Array(76).fill(255))])],
    ['ordinals beyond the dictionary', withBlocks('k', [
      { kind: 1, width: 64, reserved: 0, base: 0n, aux: 1n, data: wideOrdinals },
      tableBlock([5n, 1n << 31n, (1n << 32n) - 1n], Array.from({ length: 76 }, (_, i) => i % 3)),
    ])],
    ['width 64 and 57 fields ending at the last data byte', withBlocks('z', [ones(1024, 57), ones(76, 64)])],
    ['largest table (256 entries) last, every index 255', withBlocks('z', [ones(1024, 63), tableBlock(entries(256), Array(76).fill(255))])],
  ]
  const random = seededRandom(77)
  for (let trial = 0; trial < 12; trial++) {
    const bytes = files[trial % 4][1].slice()
    const position = Math.floor(random() * (bytes.length - 8))
    bytes[position] ^= 1 + Math.floor(random() * 255)
    files.push([`${files[trial % 4][0]}, byte ${position} changed`, fixChecksum(bytes)])
  }
  return files
}

/** Calls every read of a reader, handing each result or error message to see(). */
function readEverything(reader: ColumnsReader, see: (value: unknown) => void): number {
  let corrupt = 0
  const call = (read: () => unknown) => {
    const outcome = attempt(read)
    if (outcome.ok) see(outcome.value)
    else {
      see(outcome.message)
      if (outcome.kind === 'CorruptIndexException') corrupt++
    }
  }
  for (const column of reader.columns) {
    const c: Column = column
    for (let document = 0; document < reader.maxDoc; document++) {
      for (let nth = 0; nth < Math.max(1, c.valueCount(document)); nth++) {
        const reads: ((document: number, nth: number) => unknown)[] = [c.getInt64, c.getInt64BigInt, c.getFloat64, c.getOrdinal, c.getKeyword, c.getKeywordString]
        for (const read of reads) call(() => read.call(c, document, nth))
        call(() => c.getGeoPoint(document, nth, new Float64Array(2)))
      }
    }
    for (let index = 0; index < c.totalValueCount; index++) {
      call(() => c.getRawBigInt(index))
      if (c.longitudes !== null) call(() => c.getRawBigInt(index, 'longitude'))
      if (c.dictionary !== null) call(() => c.getOrdinalAt(index))
    }
    for (const make of [BigInt64Array, Float64Array, Int32Array]) {
      for (let first = 0; first < c.totalValueCount; first += 64) call(() => { const out = new make(Math.min(64, c.totalValueCount - first)); c.readValues(first, out); return out })
    }
  }
  call(() => reader.verify())
  return corrupt
}

/** Throws when a value read back is, holds or names the canary. */
function checkNoCanary(where: string, value: unknown): void {
  const fail = () => { throw new Error(`${where}: the canary came back (${String(value)})`) }
  const float = sortableBitsToFloat64(CANARY), hex = CANARY.toString(16)
  if (typeof value === 'bigint' && value === CANARY) fail()
  if (typeof value === 'number' && (value === Number(CANARY) || Object.is(value, float))) fail()
  if (typeof value === 'string' && (value.includes(String(CANARY)) || value.includes(hex) || value.includes(String(float)))) fail()
  if (value instanceof BigInt64Array && value.includes(CANARY)) fail()
  if (value instanceof Float64Array && (value.includes(float) || new BigInt64Array(value.buffer, value.byteOffset, value.length).includes(CANARY))) fail()
  if (value instanceof Uint8Array && Buffer.from(value).includes(Buffer.from([0x7e, 0x7e, 0x7e, 0x7e]))) fail()
}

describe('(b) corrupt files never read the canary next to them', () => {
  it('the canary file holds the canary everywhere', () => {
    const reader = openColumns(canaryFile(), wasm)
    const values = new BigInt64Array(CANARY_DOCS)
    reader.getColumn('c')!.readValues(0, values)
    expect(new Set(values)).toEqual(new Set([CANARY]))
    reader.close()
  })

  it('reading every corrupt file (wasm) between two canaries returns no canary value', () => {
    const canary = canaryFile()
    const before = openColumns(canary, wasm)
    try {
      for (const [name, bytes] of corruptNeighbours()) {
        let reader: ColumnsReader
        try {
          reader = openColumns(bytes, { ...wasm, fileName: 'corrupt.oixk' })
        } catch (error) {
          expect(error, name).toBeInstanceOf(CorruptIndexException)
          continue
        }
        const after = openColumns(canary, wasm)
        try {
          // First fit puts the second canary right after the corrupt file's region (its length + 16 bytes of
          // slack, rounded to 16), so a read past the file's end lands in the canary.
          const end = reader.bytes.byteOffset + reader.bytes.length
          expect(after.bytes.byteOffset - end, name).toBeGreaterThanOrEqual(16)
          expect(after.bytes.byteOffset - end, name).toBeLessThan(32)
          const corrupt = readEverything(reader, (value) => checkNoCanary(name, value))
          if (!name.includes('changed') && !name.startsWith('width 64') && !name.startsWith('largest')) expect(corrupt, name).toBeGreaterThan(0)
        } finally {
          after.close()
          reader.close()
        }
      }
    } finally {
      before.close()
    }
  })
})
