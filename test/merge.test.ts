// Merge identity: merging segments equals, byte for byte, a flush of the surviving documents in new-id order.
import { runInNewContext } from 'node:vm'
import { describe, expect, it, vi } from 'vitest'
import { seededRandom } from './helpers/random.js'
import { type ColumnsReader, CorruptIndexException, flushColumns, InvalidInputError, mergeColumns, openColumns } from '../src/index.js'
import { extraSeeds, fuzzSeeds, mutantAt } from './helpers/fuzz-check.js'

type Doc = Record<string, unknown> | null

const SCHEMA = { fields: [
  { name: 'k', type: 'keyword', facet: true },
  { name: 'km', type: 'keyword', facet: true, multi: true },
  { name: 'i', type: 'integral', column: true },
  { name: 'im', type: 'integral', column: true, multi: true },
  { name: 'f', type: 'fractional', column: true },
  { name: 'fm', type: 'fractional', column: true, multi: true },
  { name: 'd', type: 'date', column: true },
  { name: 'b', type: 'bool', column: true },
  { name: 'bm', type: 'bool', column: true, multi: true },
  { name: 'g', type: 'geo_point', column: true },
  { name: 'gm', type: 'geo_point', column: true, multi: true },
  { name: 'rare', type: 'integral', column: true },
  { name: 'ts', type: 'text' },
] }

const TERMS = ['', 'a', 'b', 'B', 'status:200', 'status:404', 'é', '\u{1F600}', '\uFFFD', 'zz', 'long-'.repeat(30)]

/** Random documents with every type, multi values (repeats included) and missing values. */
function randomDocs(count: number, seed: number): Doc[] {
  const random = seededRandom(seed)
  const int = (n: number) => Math.floor(random() * n)
  const maybe = (p: number, make: () => unknown) => (random() < p ? make() : undefined)
  const many = (make: () => unknown) => Array.from({ length: int(4) }, make)
  const term = () => (random() < 0.05 ? `unique-${int(1e9)}` : TERMS[int(TERMS.length)])
  const integral = () => [int(100), -int(1e6), 2n ** 63n - 1n, -(2n ** 63n), BigInt(int(1e9)) << 20n, 1700000000][int(6)]
  const fractional = () => [random() * 1000 - 500, -0, 0, NaN, Infinity, { bits: 'fff8000000000123' }, int(50) / 4][int(7)]
  const geo = () => ({ lat: random() * 180 - 90, lon: random() * 360 - 180 })
  return Array.from({ length: count }, () => {
    if (random() < 0.05) return null
    return {
      k: maybe(0.8, term), km: maybe(0.7, () => many(term)),
      i: maybe(0.7, integral), im: maybe(0.6, () => many(integral)),
      f: maybe(0.9, fractional), fm: maybe(0.5, () => many(fractional)),
      d: maybe(0.8, () => (random() < 0.2 ? '2024-05-01T12:00:00Z' : 1_700_000_000_000 + 1000 * int(86400))),
      b: maybe(0.5, () => random() < 0.5), bm: maybe(0.5, () => many(() => random() < 0.3)),
      g: maybe(0.6, geo), gm: maybe(0.4, () => many(geo)),
      rare: maybe(0.002, integral), ts: 'text is ignored',
    }
  })
}

interface Segment { docs: Doc[]; maxDoc: number; reader: ColumnsReader }

function segment(docs: Doc[], maxDoc: number, fileName: string): Segment {
  const bytes = flushColumns(SCHEMA, docs, { maxDoc })
  const reader = openColumns(bytes, { maxDoc, fileName })
  reader.verify()
  return { docs, maxDoc, reader }
}

/** Merges with docMaps and checks the result against a flush of the documents in their new places. */
function expectMergeIsFlush(segments: Segment[], docMaps: Int32Array[], maxDoc: number): Uint8Array | null {
  const placed: Doc[] = new Array<Doc>(maxDoc).fill(null)
  segments.forEach(({ docs }, s) => docMaps[s].forEach((target, old) => { if (target >= 0) placed[target] = docs[old] ?? null }))
  const expected = flushColumns(SCHEMA, placed, { maxDoc })
  const merged = mergeColumns(segments.map(({ reader }, s) => ({ reader, docMap: docMaps[s] })), { maxDoc })
  if (expected === null) {
    expect(merged).toBeNull()
    return null
  }
  expect(merged).not.toBeNull()
  expect(merged!.length).toBe(expected.length)
  expect(Buffer.from(merged!).equals(Buffer.from(expected))).toBe(true)
  openColumns(merged, { maxDoc }).verify()
  return merged
}

describe('merge identity', () => {
  const sizes = [[700, 705], [1500, 1500], [300, 310]] // [documents given, maxDoc]: trailing docs without values
  const segments = sizes.map(([count, maxDoc], s) => segment(randomDocs(count, 1000 + s), maxDoc, `seg${s}`))
  const total = sizes.reduce((sum, [, maxDoc]) => sum + maxDoc, 0)

  it('concatenation without deletions equals a flush of all documents', () => {
    let next = 0
    const docMaps = segments.map(({ maxDoc }) => Int32Array.from({ length: maxDoc }, () => next++))
    const merged = expectMergeIsFlush(segments, docMaps, total)!
    const reader = openColumns(merged)
    expect(reader.getColumn('rare')).not.toBeNull()
    expect(reader.getColumn('ts')).toBeNull()
    expect(reader.columns.length).toBe(12)
  })

  for (const seed of [1, 2, 3]) {
    it(`deletions, survivors kept in order (seed ${seed})`, () => {
      const random = seededRandom(seed)
      let next = 0
      const docMaps = segments.map(({ maxDoc }) => Int32Array.from({ length: maxDoc }, () => (random() < 0.3 ? -1 : next++)))
      expectMergeIsFlush(segments, docMaps, next)
    })

    it(`deletions and a reordering doc map with gaps (seed ${seed})`, () => {
      const random = seededRandom(100 + seed)
      const survivors = segments.flatMap(({ maxDoc }, s) => Array.from({ length: maxDoc }, (_, old) => [s, old]).filter(() => random() >= 0.25))
      const maxDoc = survivors.length + 17
      const targets = Array.from({ length: maxDoc }, (_, t) => t)
      for (let i = targets.length - 1; i > 0; i--) { // Fisher–Yates
        const j = Math.floor(random() * (i + 1));
        [targets[i], targets[j]] = [targets[j], targets[i]]
      }
      const docMaps = segments.map(({ maxDoc: n }) => new Int32Array(n).fill(-1))
      survivors.forEach(([s, old], n) => { docMaps[s][old] = targets[n] })
      expectMergeIsFlush(segments, docMaps, maxDoc)
    })
  }

  it('a source without a columns file, and all documents deleted', () => {
    const empty = segment([{ ts: 'only text' }, null], 2, 'empty')
    expect(empty.reader.columns.length).toBe(0)
    const small = segment(randomDocs(50, 9), 50, 'small')
    expectMergeIsFlush([small, empty], [Int32Array.from({ length: 50 }, (_, d) => d + 2), Int32Array.from([1, 0])], 52)
    expect(mergeColumns([{ reader: small.reader, docMap: new Int32Array(50).fill(-1) }], { maxDoc: 3 })).toBeNull()
    expect(mergeColumns([], { maxDoc: 0 })).toBeNull()
  })
})

describe('merge rebuilds dictionaries', () => {
  it('a keyword only deleted documents used disappears; ordinals are remapped', () => {
    const a = segment([{ k: 'apple' }, { k: 'ghost', km: ['ghost', 'zebra'] }, { k: 'zebra' }], 3, 'a')
    const b = segment([{ k: 'mango', km: ['apple'] }, { k: 'apple' }], 2, 'b')
    expect(a.reader.getColumn('k')!.lookupOrdinal('ghost')).toBe(1)
    const merged = expectMergeIsFlush([a, b], [Int32Array.from([3, -1, 0]), Int32Array.from([2, 1])], 4)!
    const reader = openColumns(merged)
    const k = reader.getColumn('k')!
    expect(k.lookupOrdinal('ghost')).toBe(-1)
    expect(k.dictionary!.termCount).toBe(3)
    expect([0, 1, 2].map((o) => k.term(o))).toEqual(['apple', 'mango', 'zebra'])
    expect([0, 1, 2, 3].map((d) => k.getKeywordString(d))).toEqual(['zebra', 'apple', 'mango', 'apple'])
    expect([0, 1, 2, 3].map((d) => k.getOrdinal(d))).toEqual([2, 0, 1, 0])
    const km = reader.getColumn('km')!
    expect([0, 1, 2, 3].map((d) => km.valueCount(d))).toEqual([0, 0, 1, 0])
    expect(km.getKeywordString(2)).toBe('apple')
    expect(km.dictionary!.termCount).toBe(1)
  })
})

describe('merge errors', () => {
  const expectError = (fn: () => unknown, message: string) => {
    let caught: unknown = null
    try { fn() } catch (error) { caught = error }
    expect(caught).toBeInstanceOf(InvalidInputError)
    expect((caught as Error).message).toBe(message)
  }
  const one = (name: string, type: string, value: unknown, fileName: string) =>
    openColumns(flushColumns({ fields: [{ name, type, column: true }] }, [{ [name]: value }, {}, { [name]: value }]), { fileName })

  it('the same field with different types', () => {
    const a = one('x', 'integral', 5, 'a'), b = one('x', 'date', 5, 'b'), c = one('y', 'bool', true, 'c')
    const map = () => Int32Array.from([-1, -1, -1])
    expectError(() => mergeColumns([{ reader: c, docMap: map() }, { reader: a, docMap: map() }, { reader: b, docMap: map() }], { maxDoc: 0 }),
      'merge: field "x" is integral in source 1 but date in source 2')
    const kw = one('x', 'keyword', '5', 'kw')
    expectError(() => mergeColumns([{ reader: kw, docMap: map() }, { reader: a, docMap: map() }], { maxDoc: 0 }),
      'merge: field "x" is keyword in source 0 but integral in source 1')
  })

  it('doc map checks', () => {
    const a = one('x', 'integral', 5, 'a'), b = one('x', 'integral', 6, 'b')
    expectError(() => mergeColumns([{ reader: a, docMap: Int32Array.from([0, 1]) }], { maxDoc: 3 }),
      'merge: source 0 (a) has 3 documents but its docMap has 2 entries')
    expectError(() => mergeColumns([{ reader: a, docMap: Int32Array.from([0, 1, 2]) }, { reader: b, docMap: Int32Array.from([3, 4, 5, 6]) }], { maxDoc: 7 }),
      'merge: source 1 (b) has 3 documents but its docMap has 4 entries')
    expectError(() => mergeColumns([{ reader: a, docMap: Int32Array.from([0, 1, 2]) }, { reader: b, docMap: Int32Array.from([3, 1, 4]) }], { maxDoc: 5 }),
      'merge: new document 1 is the target of source 0 document 1 and of source 1 document 1')
    expectError(() => mergeColumns([{ reader: a, docMap: Int32Array.from([0, 2, 2]) }], { maxDoc: 3 }),
      'merge: new document 2 is the target of source 0 document 1 and of source 0 document 2')
    expectError(() => mergeColumns([{ reader: a, docMap: Int32Array.from([0, 3, 1]) }], { maxDoc: 3 }),
      'merge: source 0 document 1 maps to 3, outside [0, 3) (-1 deletes)')
    expectError(() => mergeColumns([{ reader: a, docMap: Int32Array.from([0, -2, 1]) }], { maxDoc: 3 }),
      'merge: source 0 document 1 maps to -2, outside [0, 3) (-1 deletes)')
    expectError(() => mergeColumns([{ reader: a, docMap: [0, 1, 2] as unknown as Int32Array }], { maxDoc: 3 }),
      'merge: source 0 docMap must be an Int32Array, got an array')
    expectError(() => mergeColumns([], { maxDoc: -1 }), 'merge: maxDoc -1 must be an integer in [0, 2^32 - 1]')
    expectError(() => mergeColumns([], { maxDoc: 1.5 }), 'merge: maxDoc 1.5 must be an integer in [0, 2^32 - 1]')
    // These threw bare property errors, or printed '2' as 2.
    expectError(() => mergeColumns([], { maxDoc: '2' as unknown as number }), 'merge: maxDoc must be an integer in [0, 2^32 - 1], got the string "2"')
    expectError(() => mergeColumns([], undefined as unknown as { maxDoc: number }), 'merge: options must be an object with maxDoc, got undefined')
    expectError(() => mergeColumns({} as unknown as [], { maxDoc: 0 }), 'merge: sources must be an array of { reader, docMap }, got an object')
    expectError(() => mergeColumns([{ reader: null, docMap: new Int32Array(0) }] as unknown as [], { maxDoc: 0 }),
      "merge: source 0 reader must be a ColumnsReader (openColumns makes one; a pool's segment is not one), got null")
    // A look-alike (a pool's segment has columns and maxDoc) failed later with a bare TypeError.
    expectError(() => mergeColumns([{ reader: { columns: a.columns.map((c) => ({ name: c.name, type: c.type })), maxDoc: 3, fileName: 'p' }, docMap: Int32Array.from([0, 1, 2]) }] as unknown as [], { maxDoc: 3 }),
      "merge: source 0 reader must be a ColumnsReader (openColumns makes one; a pool's segment is not one), got an object")
    const closed = one('x', 'integral', 7, 'closed.oixk')
    closed.close()
    expectError(() => mergeColumns([{ reader: closed, docMap: Int32Array.from([-1, -1, -1]) }], { maxDoc: 3 }), 'merge: source 0 (closed.oixk) is a closed reader')
    expectError(() => mergeColumns([null] as unknown as [], { maxDoc: 0 }), 'merge: source 0 must be { reader, docMap }, got null')
    // Another realm's Int32Array (an iframe's, a node:vm context's) is one.
    const foreignMap = runInNewContext('Int32Array.from([2, 1, 0])') as Int32Array
    expect(foreignMap instanceof Int32Array).toBe(false)
    expect(mergeColumns([{ reader: a, docMap: foreignMap }], { maxDoc: 3 })).not.toBeNull()
    // A valid map still works after all that.
    const merged = mergeColumns([{ reader: a, docMap: Int32Array.from([2, 1, 0]) }], { maxDoc: 3 })!
    expect(Buffer.from(merged).equals(Buffer.from(flushColumns({ fields: [{ name: 'x', type: 'integral', column: true }] }, [{ x: 5 }, {}, { x: 5 }])!))).toBe(true)
  })
})

describe('sources that open but hold values a flush could not write', () => {
  // Mutants of the fuzz corpus that pass the open (not the full check): the merge copied their
  // values, and wrote a file with a valid checksum that its own full check refuses.
  const seeds = [...fuzzSeeds(), ...extraSeeds(5, 20)]
  const cases: [number, string, string][] = [
    [219, 'bool/dense/1100: model column "bool_dense" values: block 1 value 65 = -1', 'source.oixk: field "bool_dense": value 1089 is -1, not a bool (0 or 1)'],
    [85, 'bool/multi/40: column 0 values block 0 base = 4294967296', 'source.oixk: field "bool_multi": value 0 is 4294967296, not a bool (0 or 1)'],
    [19, 'geo_point/dense/40: model column "geo_point_dense" values: block 0 value 6 = 9223372036854775807', 'source.oixk: field "geo_point_dense": value 6 has latitude NaN, outside [-90, 90]'],
  ]
  for (const [index, op, message] of cases) {
    it(`refuses ${op.split(':')[0]} with the full check's words, for both formats`, () => {
      const mutant = mutantAt(seeds, 5, index)
      expect(mutant.op).toBe(op)
      const reader = openColumns(mutant.bytes, { fileName: 'source.oixk' })
      expect(() => reader.verify()).toThrow(CorruptIndexException)
      const docMap = Int32Array.from({ length: reader.maxDoc }, (_, doc) => doc)
      for (const format of [1, 2] as const) {
        expect(() => mergeColumns([{ reader, docMap }], { maxDoc: reader.maxDoc, format })).toThrow(new CorruptIndexException('source.oixk', message.slice('source.oixk: '.length)))
      }
      reader.close()
    })
  }
})

describe('readers of another copy of the library', () => {
  it('merges a reader opened by another copy (the browser reader bundle beside the writer bundle) exactly', async () => {
    // Merge read each value through this copy's result words, which the other copy's reader never wrote:
    // integers came out as leftovers ([5, 7, 9] as [1, 1, 1]), bools and geo points as "corrupt".
    vi.resetModules()
    const other = await import('../src/index.js')
    expect(other.openColumns).not.toBe(openColumns)
    const docs: Doc[] = randomDocs(300, 41)
    for (const format of [1, 2] as const) {
      for (const backend of ['wasm', 'ts'] as const) {
        const file = flushColumns(SCHEMA, docs, { format })!
        const reader = other.openColumns(file, { backend, fileName: 'other.oixk' }) as unknown as ColumnsReader
        const docMap = Int32Array.from({ length: reader.maxDoc }, (_, doc) => doc)
        const merged = mergeColumns([{ reader, docMap }], { maxDoc: reader.maxDoc, format })!
        expect(Buffer.from(merged).equals(Buffer.from(file)), `${format}, ${backend}`).toBe(true)
        reader.close()
      }
    }
  })
})
