/**
 * Linear memory of the WebAssembly backend: views handed out survive memory
 * growth, closing (or `using`, or dropping and collecting) a reader gives its
 * region back, and a closed reader refuses reads. Runs with --expose-gc
 * (vitest.config.ts). That corrupt files never read a neighbour's bytes (b)
 * is test/wasm-canary.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wasmRuntime } from '../src/backend/wasm/runtime.js'
import { CorruptIndexException } from '../src/format/errors.js'
import { openColumnsFile } from '../src/node/files.js'
import { createValueBuffer } from '../src/read/buffers.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { denseFile, randomInteger, valuesForBytes } from './helpers/dense-file.js'
import { attempt } from './helpers/duel.js'
import { richBytes, RICH_MAX_DOC } from './helpers/file-surgery.js'
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

  it("a format 2 reader's question memory (block extremes, record copies, decoded codes) goes back at close, not at collection", () => {
    // A service whose JavaScript heap stays small may never collect closed readers: what their
    // questions made in linear memory must go with close() (it once stayed until collection).
    const random = seededRandom(31)
    // Dates in runs of about 14 with uneven steps: run blocks (block extremes), as flights-3m's date.
    let time = 1_000_000
    const docs = Array.from({ length: 20_000 }, () => ({
      day: (time += random() < 0.07 ? 60_000 * (1 + Math.floor(random() * 100)) : 0),
      delay: random() < 0.97 ? Math.floor(random() * 60) : 1000 + Math.floor(random() * 5000),
      k: TERMS[Math.min(4, Math.floor(-Math.log2(random())))],
    }))
    const bytes = flushColumns({ fields: [
      { name: 'day', type: 'date', column: true }, { name: 'delay', type: 'integral', column: true }, { name: 'k', type: 'keyword', facet: true },
    ] }, docs, { format: 2 })!
    // Round 0 makes what the backend keeps for every reader (work areas of the largest size asked).
    let before = 0
    for (let round = 0; round < 4; round++) {
      if (round === 1) before = runtime().regions.bytesInUse
      const reader = openColumns(bytes, wasm)
      const opened = runtime().regions.bytesInUse
      expect(reader.getColumn('day')!.histogram([1_000_000, 2e9, 1e10]).reduce((a, b) => a + b)).toBe(20_000)
      expect(reader.getColumn('delay')!.histogram([0, 30, 60, 10_000]).reduce((a, b) => a + b)).toBe(20_000)
      expect(reader.getColumn('k')!.facetCounts().reduce((a, b) => a + b)).toBe(20_000)
      expect(runtime().regions.bytesInUse).toBeGreaterThan(opened)
      reader.close()
      if (round > 0) expect(runtime().regions.bytesInUse).toBe(before)
    }
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

  it('a format 2 reader dropped after a cascade read is reclaimed too (no read keeps its sequence)', async () => {
    // The cascade reads kept the last sequence selected, and with it the file's region, until the next read.
    const wide = (i: number) => ((i * 2654435761) % 1_000_000_007) * 1000 + i
    const cascadeBytes = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] },
      Array.from({ length: 5000 }, (_, d) => ({ v: wide(d % 37) })), { format: 2 })!
    const before = runtime().regions.bytesInUse
    ;(() => {
      const reader = openColumns(cascadeBytes, wasm)
      expect(reader.getColumn('v')!.values.cascade?.form).toBe(1)
      reader.getColumn('v')!.readValues(0, new BigInt64Array(5000))
    })()
    expect(runtime().regions.bytesInUse).toBeGreaterThan(before)
    await collectUntil(() => runtime().regions.bytesInUse === before)
    expect(runtime().regions.bytesInUse).toBe(before)
  })

  it('a ValueBuffer dropped without release() is kept by the array it handed out, and reclaimed once that is dropped too', async () => {
    // A module-level set of live buffers once held them (and their memory) forever; then a buffer
    // dropped while its array was kept was freed, and the array came to show the next buffer's values.
    const reader = openColumns(keywordBytes, wasm)
    const column = reader.getColumn('k')!
    const before = runtime().regions.bytesInUse
    let kept: Int32Array | null = (() => {
      const buffer = createValueBuffer('int32', 3000, wasm)
      column.readValues(0, buffer.array)
      return buffer.array
    })()
    expect(kept[7]).toBe(2)
    expect(runtime().regions.bytesInUse).toBeGreaterThan(before)
    await collectUntil(() => false, 10)
    // The array keeps its buffer: its region is neither freed nor handed to the next buffer, and it is still a destination.
    expect(runtime().regions.bytesInUse).toBeGreaterThan(before)
    const next = createValueBuffer('int32', 3000, wasm)
    next.array.fill(-5)
    expect([kept[7], next.array[7]]).toEqual([2, -5])
    column.readValues(0, kept)
    expect(next.array[7]).toBe(-5)
    next.release()
    kept = null
    await collectUntil(() => runtime().regions.bytesInUse === before)
    expect(runtime().regions.bytesInUse).toBe(before)
    reader.close()
  })

  it('the bytes of a FileBuffer dropped without release() keep its region until they are dropped too', async () => {
    const { createFileBuffer } = await import('../src/read/buffers.js')
    const before = runtime().regions.bytesInUse
    let kept: Uint8Array | null = (() => {
      const buffer = createFileBuffer(keywordBytes.length, wasm)
      buffer.bytes.set(keywordBytes)
      return buffer.bytes
    })()
    await collectUntil(() => false, 10)
    // A file opened meanwhile does not get those bytes (it did, and a write through them changed its answers).
    const reader = openColumns(keywordBytes, wasm)
    kept.fill(0)
    expect(reader.getColumn('k')!.getKeywordString(3)).toBe('délta')
    reader.close()
    expect(runtime().regions.bytesInUse).toBeGreaterThan(before)
    kept = null
    await collectUntil(() => runtime().regions.bytesInUse === before)
    expect(runtime().regions.bytesInUse).toBe(before)
  })

  it('readers of a FileBuffer dropped without close() are collected while the buffer lives', async () => {
    const { createFileBuffer } = await import('../src/read/buffers.js')
    const buffer = createFileBuffer(keywordBytes.length, wasm)
    buffer.bytes.set(keywordBytes)
    const [dropped, term] = (() => {
      const reader = buffer.open()
      return [new WeakRef(reader), reader.getColumn('k')!.getKeywordString(3)] as const
    })()
    expect(term).toBe('délta')
    // A read of another reader first: the last term read is kept (with its reader) until the next.
    const again = buffer.open()
    expect(again.getColumn('k')!.getKeywordString(4)).toBe('\u{1F600}')
    // (No deref() while collecting: it keeps its target alive to the end of the turn, through the gc() that follows.)
    await collectUntil(() => false, 20)
    expect(dropped.deref()).toBeUndefined()
    buffer.release()
    expect(() => again.getColumn('k')!.getKeywordString(4)).toThrow('reader is closed')
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
  // collection cannot hide the growth; the least of six rounds leaves out the compiler's one-off
  // allocations; the bound allows 12 bytes a read. Every round yields first, so that V8's optimising
  // compiler (concurrent) has finished: code not yet optimised boxes doubles. (With three rounds that
  // did not yield, about 1 run in 40 on a loaded machine measured 44 bytes a read in all three.)
  const leastGrowth = async (read: (reads: number) => void): Promise<number> => {
    for (let round = 0; round < 10; round++) {
      read(1000)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    let least = Infinity
    for (let round = 0; round < 6; round++) {
      await new Promise((resolve) => setTimeout(resolve, 5))
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
