/**
 * Linear memory of the WebAssembly backend: views handed out survive memory
 * growth, corrupt files never read a neighbour's bytes, closing (or `using`,
 * or dropping and collecting) a reader gives its region back, and a closed
 * reader refuses reads. Runs with --expose-gc (vitest.config.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wasmRuntime } from '../src/backend/wasm/runtime.js'
import { CorruptIndexException } from '../src/format/errors.js'
import { sortableBitsToFloat64 } from '../src/format/sortable-bits.js'
import { openColumnsFile } from '../src/node/files.js'
import type { Column } from '../src/read/column.js'
import { createValueBuffer } from '../src/read/buffers.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { denseFile, randomInteger, valuesForBytes } from './helpers/dense-file.js'
import { attempt } from './helpers/duel.js'
import {
  type Block, buildFile, col, fixChecksum, parseFile, richBytes, RICH_MAX_DOC, tableBlock,
} from './helpers/file-surgery.js'
import { seededRandom } from './helpers/random.js'

const wasm = { backend: 'wasm' } as const
const runtime = () => wasmRuntime()
const memoryBytes = () => runtime().kernels.memory.buffer.byteLength
const TERMS = ['alpha', 'bravo', 'charlie', 'délta', '\u{1F600}']

const keywordBytes = flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, Array.from({ length: 3000 }, (_, d) => ({ k: TERMS[d % 5] })))!

// The backend's staging region comes with its first file and stays for the process: open one before
// any test counts bytes in use, so that each test holds when it runs alone (vitest -t).
beforeAll(() => openColumns(keywordBytes, wasm).close())

describe('(a) views survive memory growth', () => {
  it('getKeyword views, readValues and verify of an earlier reader after memory.grow', () => {
    const reader = openColumns(keywordBytes, wasm)
    const column = reader.getColumn('k')!
    const view = column.getKeyword(0), fourth = column.getKeyword(3)
    const expected = new TextEncoder().encode(TERMS[0])
    expect(view).toEqual(expected)
    const random = seededRandom(1)
    // Two large files (≈24 and ≈56 MB of 53-bit values), opened and kept until linear memory has grown.
    const big = [24e6, 56e6].map((size) => denseFile(valuesForBytes(size, 53), () => randomInteger(random, 53)))
    const before = memoryBytes()
    const opened: ColumnsReader[] = []
    while (memoryBytes() === before && opened.length < 60) opened.push(openColumns(big[opened.length % 2], wasm))
    try {
      expect(memoryBytes()).toBeGreaterThan(before)
      expect(view.length).toBe(expected.length) // a view of detached memory would have length 0
      expect(view).toEqual(expected)
      expect(new TextDecoder().decode(fourth)).toBe(TERMS[3])
      expect(column.getKeyword(0)).toEqual(expected)
      const ordinals = new Int32Array(3000), reference = new Int32Array(3000)
      expect(column.readValues(0, ordinals)).toBe(3000)
      openColumns(keywordBytes, { backend: 'ts' }).getColumn('k')!.readValues(0, reference)
      expect(ordinals).toEqual(reference)
      expect(() => reader.verify()).not.toThrow()
      // the big readers read correctly too (last one opened: after the growth)
      const last = opened[opened.length - 1].getColumn('v')!, lastTs = openColumns(big[(opened.length - 1) % 2], { backend: 'ts' }).getColumn('v')!
      const run = new BigInt64Array(100_000), runTs = new BigInt64Array(100_000)
      last.readValues(last.totalValueCount - run.length, run)
      lastTs.readValues(lastTs.totalValueCount - runTs.length, runTs)
      expect(run).toEqual(runTs)
    } finally {
      for (const other of opened) other.close()
      reader.close()
    }
  })
})

describe('(a2) the views a read keeps for the next one', () => {
  // The backend keeps the last in-place destination and the last view of staged values between reads
  // (so a read makes no view): the staged view must be made again for another type, length or address,
  // and after growth.
  it('reads into plain arrays and a ValueBuffer, before and after growth, and of two types at one staging address', () => {
    const random = seededRandom(9)
    const bytes = denseFile(3000, () => randomInteger(random, 20) - 2 ** 19)
    const reader = openColumns(bytes, wasm), column = reader.getColumn('v')!
    const reference = openColumns(bytes, { backend: 'ts' }).getColumn('v')!
    const expected = new Float64Array(300), expectedInt32 = new Int32Array(300), expectedInt64 = new BigInt64Array(300)
    reference.readValues(100, expected)
    reference.readValues(100, expectedInt32)
    reference.readValues(100, expectedInt64)
    const inPlace = createValueBuffer('float64', 300, wasm)
    const read = () => {
      // Fresh arrays of one length start at offset 0, so all three stage at one address: the BigInt64Array
      // must not be filled from the Int32Array's view of it, nor the Float64Array from the BigInt64Array's
      // (as many elements as it).
      const int32 = new Int32Array(300), int64 = new BigInt64Array(300), float64 = new Float64Array(300)
      column.readValues(100, int32)
      column.readValues(100, int64)
      column.readValues(100, float64)
      column.readValues(100, inPlace.array)
      expect(int32).toEqual(expectedInt32)
      expect(int64).toEqual(expectedInt64)
      expect(float64).toEqual(expected)
      expect(inPlace.array).toEqual(expected)
      // Fewer values at that address, then (after as many again) as many 8 bytes further on: each needs a view of its own.
      const shorter = new Float64Array(200), again = new Float64Array(300), further = new Float64Array(new ArrayBuffer(8 * 301), 8, 300)
      for (const array of [shorter, again, further]) column.readValues(100, array)
      expect(shorter).toEqual(expected.subarray(0, 200))
      expect(again).toEqual(expected)
      expect(further).toEqual(expected)
    }
    try {
      read()
      read()
      // Growth through the allocator, as an open would grow it.
      const before = memoryBytes(), region = runtime().regions.allocate(before)
      runtime().regions.free(region)
      expect(memoryBytes()).toBeGreaterThan(before)
      read()
    } finally {
      inPlace.release()
      reader.close()
    }
  })
})

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

describe('(c) closing readers returns their memory', () => {
  const directory = mkdtempSync(join(tmpdir(), 'oixk-memory-'))
  afterAll(() => rmSync(directory, { recursive: true, force: true }))

  it('bytesInUse after opening and closing 1,000 readers equals its value before', () => {
    const before = runtime().regions.bytesInUse
    for (let index = 0; index < 1000; index++) {
      const reader = openColumns(index % 2 === 0 ? richBytes() : keywordBytes, wasm)
      expect(runtime().regions.bytesInUse).toBeGreaterThan(before)
      reader.columns[0].readValues(0, new BigInt64Array(reader.columns[0].totalValueCount))
      reader.close()
      reader.close() // twice is harmless
    }
    expect(runtime().regions.bytesInUse).toBe(before)
  })

  it('`using` frees the region at the end of the block', () => {
    const before = runtime().regions.bytesInUse
    {
      using reader = openColumns(keywordBytes, wasm)
      expect(reader.getColumn('k')!.getKeywordString(1)).toBe('bravo')
      expect(runtime().regions.bytesInUse).toBeGreaterThanOrEqual(before + keywordBytes.length)
    }
    expect(runtime().regions.bytesInUse).toBe(before)
  })

  it('a failed open frees what it allocated (openColumns and openColumnsFile)', async () => {
    const before = runtime().regions.bytesInUse
    const corrupt = richBytes()
    corrupt[100] ^= 1
    const path = join(directory, 'corrupt.oixk'), good = join(directory, 'good.oixk')
    writeFileSync(path, corrupt)
    writeFileSync(good, richBytes())
    for (let index = 0; index < 100; index++) {
      expect(() => openColumns(corrupt, wasm)).toThrow(CorruptIndexException)
      expect(() => openColumns(richBytes(), { ...wasm, maxDoc: RICH_MAX_DOC + 1 })).toThrow(CorruptIndexException)
      await expect(openColumnsFile(path, wasm)).rejects.toThrow(CorruptIndexException)
      ;(await openColumnsFile(good, wasm)).close()
    }
    expect(runtime().regions.bytesInUse).toBe(before)
  })
})

describe('(d) a dropped reader is reclaimed by the FinalizationRegistry', () => {
  const gc = (globalThis as { gc?: () => void }).gc
  // Opens and reads, keeping no reference: the reader is garbage once this returns.
  function openAndDrop(bytes: Uint8Array): void {
    const reader = openColumns(bytes, wasm)
    reader.getColumn('k')!.getKeyword(5)
  }
  /** gc() and a timer turn (finalizers run as tasks) until done() or `rounds` rounds. */
  async function collectUntil(done: () => boolean, rounds = 200): Promise<void> {
    for (let round = 0; round < rounds && !done(); round++) {
      gc!()
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  }

  it('runs with --expose-gc', () => expect(typeof gc).toBe('function'))

  it('bytesInUse goes back after gc() once readers are dropped without close()', async () => {
    const before = runtime().regions.bytesInUse
    for (let index = 0; index < 50; index++) openAndDrop(keywordBytes)
    expect(runtime().regions.bytesInUse).toBeGreaterThan(before)
    await collectUntil(() => runtime().regions.bytesInUse === before)
    expect(runtime().regions.bytesInUse).toBe(before)
  })

  it('a closed reader that is collected is not freed a second time', async () => {
    const before = runtime().regions.bytesInUse
    ;(() => { openColumns(keywordBytes, wasm).close() })()
    const marker = openColumns(keywordBytes, wasm) // takes the freed region: a second free would release it
    const held = runtime().regions.bytesInUse
    await collectUntil(() => false, 20)
    expect(runtime().regions.bytesInUse).toBe(held)
    expect(marker.getColumn('k')!.getKeywordString(2)).toBe('charlie')
    marker.close()
    expect(runtime().regions.bytesInUse).toBe(before)
  })
})

describe('(e) a closed reader refuses reads', () => {
  const closed = /reader is closed/
  for (const backend of ['ts', 'wasm'] as const) {
    it(`every read of a closed reader throws "reader is closed" (${backend})`, () => {
      const reader = openColumns(richBytes(), { backend, fileName: 'closed.oixk' })
      const [int, kw, geo, frac] = ['int', 'kw', 'geo', 'frac'].map((name) => reader.getColumn(name)!)
      reader.close()
      const reads: [string, () => unknown][] = [
        ['getColumn', () => reader.getColumn('int')], ['verify', () => reader.verify()],
        ['hasValue', () => int.hasValue(0)], ['valueCount(doc)', () => int.valueCount(0)], ['firstValueIndex', () => int.firstValueIndex(0)],
        ['getInt64', () => int.getInt64(0)], ['getInt64BigInt', () => int.getInt64BigInt(0)], ['getFloat64', () => frac.getFloat64(0)],
        ['getOrdinal', () => kw.getOrdinal(0)], ['getOrdinalAt', () => kw.getOrdinalAt(0)], ['getKeyword', () => kw.getKeyword(0)],
        ['getKeywordString', () => kw.getKeywordString(0)], ['getGeoPoint', () => geo.getGeoPoint(0)], ['getRawBigInt', () => int.getRawBigInt(0)],
        ['getRawBigInt longitude', () => geo.getRawBigInt(0, 'longitude')], ['loadRaw', () => int.loadRaw(0)],
        ['readValues BigInt64Array', () => int.readValues(0, new BigInt64Array(4))], ['readValues Float64Array', () => frac.readValues(0, new Float64Array(4))],
        ['readValues Int32Array', () => kw.readValues(0, new Int32Array(4))], ['readValues longitudes', () => geo.readValues(0, new Float64Array(4), 'longitude')],
      ]
      const answered = reads.filter(([, read]) => { const outcome = attempt(read); return outcome.ok || outcome.kind !== 'Error' || !closed.test(outcome.message) })
      expect(answered.map(([name]) => name)).toEqual([])
      expect(() => int.getInt64(0)).toThrow('closed.oixk: reader is closed')
    })

    // Column.term and lookupOrdinal read the dictionary; reader.bytes is the resident file.
    it(`term, lookupOrdinal and bytes of a closed reader (${backend})`, () => {
      const reader = openColumns(richBytes(), { backend, fileName: 'closed.oixk' })
      const kw = reader.getColumn('kw')!
      reader.close()
      const other = openColumns(keywordBytes, { backend }) // may take the freed region
      const answers: Record<string, ReturnType<typeof attempt>> = { term: attempt(() => kw.term(0)), lookupOrdinal: attempt(() => kw.lookupOrdinal('alpha')) }
      // With WebAssembly the bytes are a view of linear memory that another file may own by now.
      if (backend === 'wasm') {
        answers.bytes = attempt(() => {
          const bytes = reader.bytes
          if (bytes.length === 0) return 'empty'
          const sameAsOther = Buffer.from(bytes.subarray(0, 12)).equals(Buffer.from(other.bytes.subarray(0, 12)))
          return `a view of ${bytes.length} bytes at ${bytes.byteOffset}${sameAsOther ? ', now the other file\'s header' : ''}`
        })
      }
      other.close()
      const refused = (outcome: ReturnType<typeof attempt>) => (!outcome.ok && closed.test(outcome.message)) || (outcome.ok && outcome.value === 'empty')
      expect(Object.entries(answers).filter(([, outcome]) => !refused(outcome)).map(([name, outcome]) => `${name}: ${JSON.stringify(outcome)}`)).toEqual([])
    })
  }
})

describe('(f) reads allocate nothing once warm', () => {
  // readValues into arrays read into before: no closure, view or context per read (a read used to make
  // about 700 bytes of them with WebAssembly). 5,000 reads stay below a scavenge even at that rate, so a
  // collection cannot hide the growth; the least of three rounds leaves out the compiler's one-off
  // allocations; the bound allows 12 bytes a read. Warm-up rounds yield, so that V8's optimising compiler
  // (concurrent) has finished: code not yet optimised boxes doubles.
  const leastGrowth = async (read: (reads: number) => void): Promise<number> => {
    for (let round = 0; round < 10; round++) {
      read(1000)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    let least = Infinity
    for (let round = 0; round < 3; round++) {
      gc!()
      const before = process.memoryUsage().heapUsed
      read(5000)
      least = Math.min(least, process.memoryUsage().heapUsed - before)
    }
    return least
  }
  for (const backend of ['wasm', 'ts'] as const) {
    it(`readValues into plain arrays and a ValueBuffer, runs of 64 and 4,096 values (${backend})`, async () => {
      const random = seededRandom(12)
      const reader = openColumns(denseFile(20_000, () => randomInteger(random, 13)), { backend }), column = reader.getColumn('v')!
      const buffer = createValueBuffer('int64', 4096, { backend })
      const growth: Record<string, number> = {}
      try {
        for (const length of [64, 4096]) {
          for (const array of [new BigInt64Array(length), new Float64Array(length), new Int32Array(length)]) {
            growth[`${array.constructor.name} × ${length}`] = await leastGrowth((reads) => { for (let index = 0; index < reads; index++) column.readValues((index * 997) % (20_000 - length), array) })
          }
        }
        growth['ValueBuffer × 4096'] = await leastGrowth((reads) => { for (let index = 0; index < reads; index++) column.readValues((index * 997) % 15_000, buffer.array) })
      } finally {
        buffer.release()
        reader.close()
      }
      expect(Object.entries(growth).filter(([, bytes]) => bytes > 12 * 5000).map(([name, bytes]) => `${backend} ${name}: ${bytes}`)).toEqual([])
    })
  }
})
