/**
 * readValues into an Int32Array: the WebAssembly fast path (chunks whose blocks
 * provably fit int32 or the ordinal limit, unpacked as u32) against the
 * TypeScript backend, at the edges of int32 and of the ordinal range, for runs
 * that start and end inside blocks.
 */
import { describe, expect, it } from 'vitest'
import { attempt, sameOutcome } from './helpers/duel.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { denseFile } from './helpers/dense-file.js'
import { seededRandom } from './helpers/random.js'
import { buildFile, canonicalSequence, col, decodeSequence, expectCorrupt, FILE_NAME, fixChecksum, parseFile } from './helpers/file-surgery.js'
import { createValueBuffer } from '../src/read/buffers.js'

const random = seededRandom(23)
const MAX = 2 ** 31 - 1, MIN = -(2 ** 31)
/** Blocks of 1,024 values: each block a shape near an edge. */
const shapes: ((index: number) => number)[] = [
  (index) => MAX - (index % 2 === 0 ? 0 : Math.floor(random() * 1000)),          // top = MAX exactly
  (index) => MIN + (index % 2 === 0 ? 0 : Math.floor(random() * 2 ** 20)),      // base = MIN
  (index) => (index % 3 === 0 ? MAX : MAX - 1) - 5,                              // packed, narrow, near the top
  () => -12345,                                                                 // constant, negative
  (index) => 7 * Math.floor(random() * 2 ** 20) - 3 + (index === 5 ? 0 : 0),    // g = 7
  () => Math.floor(random() * 2 ** 32) - 2 ** 31,                                // width 32
  (index) => (index === 900 ? MAX + 1 : 17),                                     // one value beyond int32: the checked path
]
const values = shapes.flatMap((shape) => Array.from({ length: 1024 }, (_, index) => shape(index))).concat([1, 2, 3])
const bytes = denseFile(values.length, (index) => values[index])

describe('readValues → Int32Array, WebAssembly fast path = TypeScript', () => {
  const wasm = openColumns(bytes, { backend: 'wasm' }).getColumn('v')!, ts = openColumns(bytes, { backend: 'ts' }).getColumn('v')!
  const runs: [number, number][] = [[0, 6 * 1024], [500, 3000], [1023, 2], [0, values.length], [6 * 1024 + 800, 200], [6 * 1024 + 800, 227]]
  for (const [first, count] of runs) {
    it(`values [${first}, ${first + count})`, () => {
      const a = new Int32Array(count).fill(99), b = new Int32Array(count).fill(99)
      const outcomes = [attempt(() => wasm.readValues(first, a)), attempt(() => ts.readValues(first, b))]
      expect(sameOutcome(outcomes[0], outcomes[1])).toBe(true)
      expect(Array.from(a)).toEqual(Array.from(b))
      if (first + count <= 6 * 1024) expect(Array.from(a)).toEqual(values.slice(first, first + count))
    })
  }
  it('the value beyond int32 is refused with the same message by both', () => {
    const a = new Int32Array(values.length - 6 * 1024)
    expect(() => wasm.readValues(6 * 1024, a)).toThrow(`field "v": value 7044 (${MAX + 1})`)
  })
})

describe('keyword ordinals → Int32Array at the ordinal limit', () => {
  it('blocks whose largest ordinal is the last term are read unchecked and exactly', () => {
    const terms = Array.from({ length: 300 }, (_, index) => `t${String(index).padStart(3, '0')}`)
    const documents = Array.from({ length: 5000 }, (_, index) => ({ k: terms[index < 1024 ? 299 - (index % 3) : (index * 7919) % 300] }))
    const file = flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, documents)!
    const wasm = openColumns(file, { backend: 'wasm' }).getColumn('k')!, ts = openColumns(file, { backend: 'ts' }).getColumn('k')!
    const a = new Int32Array(5000), b = new Int32Array(5000)
    wasm.readValues(0, a)
    ts.readValues(0, b)
    expect(Array.from(a)).toEqual(Array.from(b))
    expect(a[0]).toBe(299)
    expect(Array.from(a.subarray(1024, 1030))).toEqual(Array.from({ length: 6 }, (_, i) => ((1024 + i) * 7919) % 300))
  })
})

// 300 terms: ordinals pack at width 9 (bound 511, u16 lanes); 200 terms: width 8 (bound 255, byte lanes).
// Either way every block is lane-checked against the limit.
for (const [termCount, width] of [[300, 9], [200, 8]] as const) describe(`int32 decode in place (ValueBuffer) and bad ordinals inside SIMD groups, ${termCount} terms`, () => {
  const terms = Array.from({ length: termCount }, (_, index) => `t${String(index).padStart(3, '0')}`)
  const documents = Array.from({ length: 3000 }, (_, index) => ({ k: terms[(index * 7919) % termCount] }))
  const valid = flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, documents)!
  /** The file with the ordinal of value `at` replaced by `ordinal` (same width: the block stays packed). */
  const corrupt = (at: number, ordinal: bigint) => {
    const model = parseFile(valid)
    const section = col(model, 'k').section
    const ordinals = decodeSequence(section.values)
    ordinals[at] = ordinal
    section.values = canonicalSequence(ordinals)
    expect(section.values.blocks[at >>> 10]).toMatchObject({ kind: 1, width })
    return buildFile(model)
  }
  const expectedOrdinals = documents.map((_, index) => (index * 7919) % termCount)

  it('a valid column decodes in place to the same ordinals as the TS backend into a plain array', () => {
    const wasm = openColumns(valid, { backend: 'wasm' }).getColumn('k')!, ts = openColumns(valid, { backend: 'ts' }).getColumn('k')!
    for (const [first, count] of [[0, 3000], [5, 2990], [1030, 7]]) {
      const buffer = createValueBuffer('int32', count, { backend: 'wasm' }), plain = new Int32Array(count)
      expect(wasm.readValues(first, buffer.array)).toBe(count)
      expect(ts.readValues(first, plain)).toBe(count)
      expect(Array.from(buffer.array)).toEqual(expectedOrdinals.slice(first, first + count))
      expect(Array.from(plain)).toEqual(expectedOrdinals.slice(first, first + count))
      buffer.release()
    }
  })

  // Value 1,061 sits in the middle of a group of 8 (1,056..1,063) and of 16 (1,056..1,071), well past a block start.
  for (const [at, ordinal] of [[1061, BigInt(termCount)], [1061, 2n ** BigInt(width) - 1n], [0, BigInt(termCount)], [2999, BigInt(termCount) + 5n]] as const) {
    it(`ordinal ${ordinal} at value ${at}: same error, values before it written, none after, plain and in place`, () => {
      const bytes = corrupt(at, ordinal)
      const wasm = openColumns(bytes, { backend: 'wasm', fileName: FILE_NAME }).getColumn('k')!
      const ts = openColumns(bytes, { backend: 'ts', fileName: FILE_NAME }).getColumn('k')!
      const message = `values of field "k": value ${at} has ordinal ${ordinal}, not in [0, ${termCount}), the term ordinals`
      const buffer = createValueBuffer('int32', 3000, { backend: 'wasm' })
      const destinations = [new Int32Array(3000), new Int32Array(3000), buffer.array]
      destinations.forEach((destination) => destination.fill(-7))
      expectCorrupt(() => ts.readValues(0, destinations[0]), message)
      expectCorrupt(() => wasm.readValues(0, destinations[1]), message)
      expectCorrupt(() => wasm.readValues(0, buffer.array), message)
      const expected = [...expectedOrdinals.slice(0, at), ...new Array(3000 - at).fill(-7)]
      for (const destination of destinations) expect(Array.from(destination)).toEqual(expected)
      buffer.release()
      // Into doubles: the int32 decode's check, the same error; its chunk (all 3,000 values here) writes nothing.
      const doubles = [new Float64Array(3000).fill(-7), new Float64Array(3000).fill(-7)]
      expectCorrupt(() => ts.readValues(0, doubles[0]), message)
      expectCorrupt(() => wasm.readValues(0, doubles[1]), message)
      for (const destination of doubles) expect(Array.from(destination)).toEqual(new Array(3000).fill(-7))
    })
  }
})

describe('keyword ordinals → Float64Array, across 65,536-value chunks', () => {
  const terms = Array.from({ length: 300 }, (_, index) => `t${String(index).padStart(3, '0')}`)
  const COUNT = 140_000
  const ordinals = Array.from({ length: COUNT }, (_, index) => (index * 7919) % 300)
  const valid = flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, ordinals.map((ordinal) => ({ k: terms[ordinal] })))!

  it('reads runs that start and end inside chunks as the ordinals, both backends', () => {
    for (const backend of ['wasm', 'ts'] as const) {
      const column = openColumns(valid, { backend }).getColumn('k')!
      for (const [first, count] of [[0, COUNT], [3, 65_537], [65_535, 70_000], [131_070, 2]]) {
        const destination = new Float64Array(count).fill(-1)
        expect(column.readValues(first, destination)).toBe(count)
        expect(Array.from(destination), `${backend} [${first}, +${count})`).toEqual(ordinals.slice(first, first + count))
      }
    }
    // A ValueBuffer's doubles (in WebAssembly's memory) too.
    const buffer = createValueBuffer('float64', 70_000, { backend: 'wasm' })
    expect(openColumns(valid, { backend: 'wasm' }).getColumn('k')!.readValues(65_000, buffer.array)).toBe(70_000)
    expect(Array.from(buffer.array)).toEqual(ordinals.slice(65_000, 135_000))
    buffer.release()
  })

  it('an ordinal beyond the terms in the second chunk: its error, the first chunk written, nothing after', () => {
    const model = parseFile(valid)
    const section = col(model, 'k').section
    const values = decodeSequence(section.values)
    values[70_000] = 300n
    section.values = canonicalSequence(values)
    const bytes = buildFile(model)
    for (const backend of ['wasm', 'ts'] as const) {
      const column = openColumns(bytes, { backend, fileName: FILE_NAME }).getColumn('k')!
      const destination = new Float64Array(COUNT).fill(-7)
      expectCorrupt(() => column.readValues(0, destination), 'values of field "k": value 70000 has ordinal 300, not in [0, 300), the term ordinals')
      expect(Array.from(destination)).toEqual([...ordinals.slice(0, 65_536), ...new Array(COUNT - 65_536).fill(-7)])
    }
  })
})

// Format 2 narrows whole blocks four values a vector (assembly/cascade/index.ts, narrowChecked):
// one value beyond int32 in any lane of a group, in either half of the vector pair, must be refused
// where the TypeScript backend refuses it, and nothing from it on written.
describe('format 2 → Int32Array: one value beyond int32 at each lane of a group of four', () => {
  for (const at of [1024, 1025, 1026, 1027, 2045, 2046, 2047]) {
    for (const bad of [MAX + 1, MIN - 1]) {
      it(`${bad} at value ${at}`, () => {
        const column = Array.from({ length: 3000 }, (_, index) => ({ v: index === at ? bad : (index * 37) % 1000 }))
        const file = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, column, { format: 2 })!
        const [wasm, ts] = (['wasm', 'ts'] as const).map((backend) => openColumns(file, { backend }).getColumn('v')!)
        const a = new Int32Array(3000).fill(99), b = new Int32Array(3000).fill(99)
        expect(() => wasm.readValues(0, a)).toThrow(`field "v": value ${at} (${bad})`)
        expect(() => ts.readValues(0, b)).toThrow(`field "v": value ${at} (${bad})`)
        expect(Array.from(a)).toEqual(Array.from(b))
        // Valid runs on either side still narrow.
        const before = new Int32Array(at)
        wasm.readValues(0, before)
        expect(Array.from(before)).toEqual(column.slice(0, at).map(({ v }) => v))
      })
    }
  }
})

// Frame blocks of a format 2 file: read by v1's int32 path (the patched block below reaches format 2's own).
describe('format 2 keyword ordinals → Int32Array: one ordinal beyond the terms at each lane of a group of four', () => {
  const terms = Array.from({ length: 200 }, (_, index) => `t${String(index).padStart(3, '0')}`)
  const documents = Array.from({ length: 3000 }, (_, index) => ({ k: terms[(index * 7919) % 200] }))
  const valid = flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, documents, { format: 2 })!
  const sequence = openColumns(valid, { backend: 'ts' }).getColumn('k')!.values
  for (const at of [1024, 1025, 1026, 1027, 2047]) {
    it(`ordinal 255 at value ${at}`, () => {
      const block = at >>> 10, record = 6 * block
      // A frame of 8-bit ordinals: value j of the block is byte j of its data.
      expect([sequence.records[record] & 0xff, sequence.records[record] >>> 8]).toEqual([1, 8])
      const bytes = valid.slice()
      bytes[sequence.dataStart + sequence.records[record + 1] + (at & 1023)] = 255
      const file = fixChecksum(bytes)
      const [wasm, ts] = (['wasm', 'ts'] as const).map((backend) => openColumns(file, { backend, fileName: FILE_NAME }).getColumn('k')!)
      const message = `values of field "k": value ${at} has ordinal 255, not in [0, 200), the term ordinals`
      const a = new Int32Array(3000).fill(-7), b = new Int32Array(3000).fill(-7)
      expectCorrupt(() => wasm.readValues(0, a), message)
      expectCorrupt(() => ts.readValues(0, b), message)
      expect(Array.from(a)).toEqual(Array.from(b))
    })
  }
})

// The same in a patched block, whose ordinals take format 2's own int32 decode (narrowChecked):
// two patches at values 1,026 and 1,027 (the second vector of the group 1,024..1,027) made to name
// ordinals beyond the 200 terms.
describe('format 2 keyword ordinals → Int32Array: bad ordinals in the second vector of a group (patched block)', () => {
  const terms = Array.from({ length: 200 }, (_, index) => `t${String(index).padStart(3, '0')}`)
  const ordinal = (i: number) => (i >= 1024 && i < 2048 ? (i === 1026 || i === 1027 ? 150 : (i * 5) % 8) : (i * 7919) % 200)
  const documents = Array.from({ length: 3000 }, (_, i) => ({ k: terms[ordinal(i)] }))
  const valid = flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, documents, { format: 2 })!
  const sequence = openColumns(valid, { backend: 'ts' }).getColumn('k')!.values

  it('both backends refuse value 1,026 with the same message and write the same values before it', () => {
    // Block 1: patched (kind 6), low fields of 3 bits, 2 patches listed (param 1024 | 2).
    expect([sequence.records[6] & 0xff, (sequence.records[6] >>> 8) & 0xff, sequence.records[6] >>> 16]).toEqual([6, 3, 1026])
    const bytes = valid.slice()
    const p = sequence.dataStart + sequence.records[7], highWidth = bytes[p]
    // Patch width byte, 1,024 low fields of 3 bits (384 bytes), 2 positions of 10 bits (3 bytes), then the highs.
    const highs = p + 1 + 384 + 3
    bytes[highs] = 0xff
    bytes[highs + 1] |= 0x03
    expect(highWidth).toBe(5)
    const bad = 6 + 31 * 8
    const file = fixChecksum(bytes)
    const [wasm, ts] = (['wasm', 'ts'] as const).map((backend) => openColumns(file, { backend, fileName: FILE_NAME }).getColumn('k')!)
    const message = `values of field "k": value 1026 has ordinal ${bad}, not in [0, 200), the term ordinals`
    const a = new Int32Array(3000).fill(-7), b = new Int32Array(3000).fill(-7)
    expectCorrupt(() => wasm.readValues(0, a), message)
    expectCorrupt(() => ts.readValues(0, b), message)
    expect(Array.from(a)).toEqual(Array.from(b))
    expect(Array.from(a.subarray(0, 1026))).toEqual(documents.slice(0, 1026).map((_, i) => ordinal(i)))
  })
})

// An ordinal exactly at the limit (200 of 200 terms) from a patched block, the one value that tells
// "≥ limit" from "> limit": low field 0 of value 1,026 (ordinal 152) with its patch's high part set to 25.
describe('format 2 keyword ordinals → Int32Array: an ordinal equal to the term count (patched block)', () => {
  const terms = Array.from({ length: 200 }, (_, index) => `t${String(index).padStart(3, '0')}`)
  const ordinal = (i: number) => (i >= 1024 && i < 2048 ? (i === 1026 || i === 1027 ? 152 : (i * 5) % 8) : (i * 7919) % 200)
  const documents = Array.from({ length: 3000 }, (_, i) => ({ k: terms[ordinal(i)] }))
  const valid = flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, documents, { format: 2 })!
  const sequence = openColumns(valid, { backend: 'ts' }).getColumn('k')!.values

  it('both backends refuse value 1,026 (ordinal 200) with the same message', () => {
    expect([sequence.records[6] & 0xff, (sequence.records[6] >>> 8) & 0xff, sequence.records[6] >>> 16]).toEqual([6, 3, 1026])
    const bytes = valid.slice()
    const p = sequence.dataStart + sequence.records[7]
    expect(bytes[p]).toBe(5)
    const highs = p + 1 + 384 + 3
    // The first patch's high part (bits 0-4): 19 (152 >> 3) becomes 25, so 0 + 25 × 8 = 200.
    expect(bytes[highs] & 0x1f).toBe(19)
    bytes[highs] = (bytes[highs] & ~0x1f) | 25
    const file = fixChecksum(bytes)
    const [wasm, ts] = (['wasm', 'ts'] as const).map((backend) => openColumns(file, { backend, fileName: FILE_NAME }).getColumn('k')!)
    const message = 'values of field "k": value 1026 has ordinal 200, not in [0, 200), the term ordinals'
    const a = new Int32Array(3000).fill(-7), b = new Int32Array(3000).fill(-7)
    expectCorrupt(() => wasm.readValues(0, a), message)
    expectCorrupt(() => ts.readValues(0, b), message)
    expect(Array.from(a)).toEqual(Array.from(b))
  })
})

describe('format 2 → Int32Array: sequence dictionary codes in patched blocks with a position list', () => {
  // 98.5% of values among 16 entries, the rest among 284 more: codes of 4 low bits, a few patched, listed.
  const random = seededRandom(77)
  const entry = (i: number) => ((i * 2654435761) % 1_000_003) * 1000 + i
  const values = Array.from({ length: 8192 }, () => entry(random() < 0.985 ? Math.floor(random() * 16) : 16 + Math.floor(random() * 284)))
  const bytes = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, values.map((v) => ({ v })), { format: 2 })!

  it('decodes every value, both backends, plain and in place', () => {
    const codes = (openColumns(bytes, { backend: 'ts' }).getColumn('v')!.values.cascade as unknown as { form: number; codes: { cascade: { blocks: { records: Int32Array } } } })
    expect(codes.form).toBe(1)
    const records = codes.codes.cascade.blocks.records
    // Kind 6 (patched), low width 4, the list flag (1024 in param), for every block.
    for (let block = 0; block < 8; block++) expect([records[6 * block] & 0xff, (records[6 * block] >>> 8) & 0xff, (records[6 * block] >>> 16) & 1024]).toEqual([6, 4, 1024])
    for (const backend of ['wasm', 'ts'] as const) {
      using reader = openColumns(bytes, { backend })
      const plain = new Int32Array(8192)
      reader.getColumn('v')!.readValues(0, plain)
      expect(Array.from(plain), backend).toEqual(values)
      using buffer = createValueBuffer('int32', 8192 - 5, { backend })
      reader.getColumn('v')!.readValues(5, buffer.array)
      expect(Array.from(buffer.array), `${backend} in place`).toEqual(values.slice(5))
    }
  })

  it('more than 65,536 entries (codes wider than 16 bits)', () => {
    // 90% of values among 16 entries, the rest each a new one: 73,252 entries, lists of ~100 patches a block.
    const many = seededRandom(78)
    let rare = 16
    const wide = Array.from({ length: 1024 * 720 }, () => entry(many() < 0.9 ? Math.floor(many() * 16) : rare++))
    const file = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, wide.map((v) => ({ v })), { format: 2 })!
    const view = openColumns(file, { backend: 'ts' }).getColumn('v')!.values.cascade as unknown as { codes: { cascade: { blocks: { records: Int32Array } } } }
    const records = view.codes.cascade.blocks.records
    expect([rare > 65_536, records[0] & 0xff, (records[0] >>> 8) & 0xff, (records[0] >>> 16) & 1024]).toEqual([true, 6, 4, 1024])
    for (const backend of ['wasm', 'ts'] as const) {
      using reader = openColumns(file, { backend })
      const plain = new Int32Array(wide.length)
      reader.getColumn('v')!.readValues(0, plain)
      expect(plain.every((value, at) => value === wide[at]), backend).toBe(true)
      // In place: one call over every value, so the dictionary's entries are narrowed once for all of them.
      using buffer = createValueBuffer('int32', wide.length, { backend })
      reader.getColumn('v')!.readValues(0, buffer.array)
      expect(buffer.array.every((value, at) => value === wide[at]), `${backend} in place`).toBe(true)
    }
  })
})
