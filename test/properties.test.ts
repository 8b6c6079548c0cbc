// Property tests (fast-check, fixed seed): arbitrary schemas and documents of every type and
// layout flush, open and read back exactly on both backends; and a merge of arbitrary segment
// splits with deletions and reordering equals, byte for byte, a flush of the survivors in new order.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { type ColumnsDocument, flushColumns } from '../src/write/columns-writer.js'
import type { Schema, SchemaField } from '../src/write/schema.js'
import { mergeColumns } from '../src/write/merge.js'
import { dumpReader } from '../src/cli/dump.js'
import { sortable } from './helpers/file-surgery.js'
import { seededRandom } from './helpers/random.js'

const SEED = 20_260_101
const MIN = -(2n ** 63n), MAX = 2n ** 63n - 1n
const TYPES = ['keyword', 'integral', 'fractional', 'date', 'bool', 'geo_point'] as const
type Type = (typeof TYPES)[number]
type LayoutWish = 'dense' | 'optional' | 'multi'
const NAMES = ['a', 'B', 'b', 'é', 'z z', '\u{1F600}', '\uFFFD', '\u{10FFFF}x', 'k', 'n0', 'n1']

/** Raw i64 of a fractional input: a double or {bits} (any IEEE pattern, NaN payloads included). */
function fractionalRaw(value: unknown): bigint {
  if (typeof value === 'number') return sortable(value)
  const b = BigInt.asIntN(64, (value as { bits: bigint }).bits)
  return b ^ ((b >> 63n) & 0x7fffffffffffffffn)
}

/** Expected raw values of an input value (two for a geo point). */
function rawOf(type: Type, value: unknown): bigint[] {
  switch (type) {
    case 'integral': case 'date': return [BigInt(value as number | bigint)]
    case 'fractional': return [fractionalRaw(value)]
    case 'bool': return [value ? 1n : 0n]
    case 'geo_point': { const { lat, lon } = value as { lat: number; lon: number }; return [sortable(lat), sortable(lon)] }
    default: throw new Error('keywords compare as strings')
  }
}

const i64 = fc.oneof(fc.bigInt({ min: MIN, max: MAX }), fc.constantFrom(MIN, MAX, MIN + 1n, MAX - 1n, 0n, -1n, 1n))
const nanBits = fc.bigInt({ min: 1n, max: (1n << 51n) - 1n }).chain((payload) =>
  fc.constantFrom({ bits: 0x7ff0000000000000n | payload }, { bits: 0xfff0000000000000n | payload }, { bits: 0x7ff8000000000000n | payload }))

/** One input value of each type. */
const valueOf: Record<Type, fc.Arbitrary<unknown>> = {
  keyword: fc.oneof(fc.constantFrom('', 'a', 'é', '\u{1F600}', '\uFFFD', '\u0000', 'zz', 'a\u{1F600}'), fc.string({ unit: 'binary', maxLength: 6 })),
  integral: fc.oneof(i64, fc.integer()),
  date: fc.oneof(i64, fc.integer({ min: -8.64e15, max: 8.64e15 })),
  fractional: fc.oneof(fc.double(), nanBits, fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map((bits) => ({ bits })), fc.constantFrom(-0, 0, NaN, Infinity, -Infinity)),
  bool: fc.boolean(),
  geo_point: fc.record({
    lat: fc.oneof(fc.double({ min: -90, max: 90, noNaN: true }), fc.constantFrom(-90, 90, -0, 0)),
    lon: fc.oneof(fc.double({ min: -180, max: 180, noNaN: true }), fc.constantFrom(-180, 180, -0, 0)),
  }),
}

/** Value i of a "spread" run: distinct values per i (cycled: k distinct values, around the 256-entry table limit). */
function spreadValue(type: Type, start: bigint, step: bigint, i: number): unknown {
  const v = BigInt.asIntN(64, start + step * BigInt(i))
  switch (type) {
    case 'keyword': return `s${start % 1000n}:${i}`
    case 'fractional': return { bits: BigInt.asUintN(64, v) }
    case 'geo_point': return { lat: ((Number(BigInt.asUintN(64, start) % 1000n) + i) % 1_800_001) / 1e4 - 90, lon: (i % 3_600_001) / 1e4 - 180 }
    case 'bool': return i % 2 === 0
    default: return v
  }
}

type Segment =
  | { kind: 'run'; value: unknown; length: number }
  | { kind: 'pool'; pool: unknown[]; length: number }
  | { kind: 'spread'; start: bigint; step: bigint; cycle: number; length: number }

const segmentsOf = (type: Type) => fc.array(fc.oneof(
  fc.record({ kind: fc.constant('run' as const), value: valueOf[type], length: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 900, max: 2500 })) }),
  fc.record({ kind: fc.constant('pool' as const), pool: fc.array(valueOf[type], { minLength: 1, maxLength: 10 }), length: fc.integer({ min: 1, max: 60 }) }),
  fc.record({
    kind: fc.constant('spread' as const), start: i64, step: fc.bigInt({ min: 1n, max: 1n << 40n }),
    cycle: fc.oneof(fc.constant(1 << 30), fc.integer({ min: 2, max: 300 }), fc.constantFrom(255, 256, 257)), length: fc.integer({ min: 257, max: 1400 }),
  }),
), { minLength: 1, maxLength: 4 })

interface FieldSpec { name: string; type: Type; layout: LayoutWish; density: number; seed: number; segments: Segment[] }

const fieldSpec = (name: string) => fc.constantFrom(...TYPES).chain((type) => fc.record({
  name: fc.constant(name), type: fc.constant(type), layout: fc.constantFrom<LayoutWish>('dense', 'optional', 'multi'),
  density: fc.oneof(fc.constantFrom(0, 0.05, 0.5, 0.95, 1), fc.double({ min: 0.01, max: 1, noNaN: true })), seed: fc.nat(), segments: segmentsOf(type),
}))

/** The field's values in order: its segments (pool picks seeded), cycled until count. */
function streamOf(spec: FieldSpec, count: number): unknown[] {
  const random = seededRandom(spec.seed)
  const out: unknown[] = []
  while (out.length < count) {
    for (const segment of spec.segments) {
      for (let i = 0; i < segment.length && out.length < count; i++) {
        if (segment.kind === 'run') out.push(segment.value)
        else if (segment.kind === 'pool') out.push(segment.pool[Math.floor(random() * segment.pool.length)])
        else out.push(spreadValue(spec.type, segment.start, segment.step, i % segment.cycle))
      }
    }
  }
  return out
}

interface Corpus { schema: Schema; docs: ColumnsDocument[]; expected: Map<string, { type: Type; perDoc: unknown[][] }> }

/** Documents for the specs: per document 1 (dense), 0/1 (optional) or 0..4 (multi) values. */
function corpusOf(specs: FieldSpec[], maxDoc: number, withText: boolean): Corpus {
  const docs: Record<string, unknown>[] = Array.from({ length: maxDoc }, () => ({}))
  const expected: Corpus['expected'] = new Map()
  const fields: SchemaField[] = specs.map((spec) => ({ name: spec.name, type: spec.type, [spec.type === 'keyword' ? 'facet' : 'column']: true, multi: spec.layout === 'multi' }))
  if (withText) fields.push({ name: 'text', type: 'text' })
  for (const spec of specs) {
    const random = seededRandom(spec.seed ^ 0x51ed)
    const counts = Array.from({ length: maxDoc }, () =>
      spec.layout === 'dense' ? 1 : random() >= spec.density ? 0 : spec.layout === 'optional' ? 1 : Math.floor(random() * 5))
    const values = streamOf(spec, counts.reduce((a, b) => a + b, 0))
    const perDoc: unknown[][] = []
    let next = 0
    counts.forEach((count, d) => {
      const mine = values.slice(next, (next += count))
      perDoc.push(mine)
      if (spec.layout === 'multi') { if (count > 0 || random() < 0.5) docs[d][spec.name] = mine } else if (count === 1) docs[d][spec.name] = mine[0]
    })
    expected.set(spec.name, { type: spec.type, perDoc })
  }
  if (withText) docs.forEach((doc, d) => { doc.text = `document ${d}` })
  return { schema: { fields }, docs, expected }
}

const maxDocArb = fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 1, max: 40 }) }, { weight: 1, arbitrary: fc.integer({ min: 1000, max: 2100 }) })
const specsArb = fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 }).chain((names) => fc.tuple(...names.map(fieldSpec)))
const corpusArb = fc.tuple(specsArb, maxDocArb, fc.boolean()).map(([specs, maxDoc, text]) => corpusOf(specs, maxDoc, text))

/** Asserts that every value of every field reads back exactly, and that verify() passes. */
function expectReadsBack(reader: ColumnsReader, corpus: Corpus): void {
  reader.verify()
  for (const [name, { type, perDoc }] of corpus.expected) {
    const column = reader.getColumn(name)
    const total = perDoc.reduce((sum, values) => sum + values.length, 0)
    if (total === 0) { expect(column, name).toBeNull(); continue }
    expect(column, name).not.toBeNull()
    expect(column!.valueCount()).toBe(total)
    const parts = type === 'geo_point' ? (['latitude', 'longitude'] as const) : (['latitude'] as const)
    const raws = parts.map((part) => { const into = new BigInt64Array(total); column!.readValues(0, into, part); return into })
    perDoc.forEach((values, d) => {
      expect(column!.valueCount(d), `${name} doc ${d}`).toBe(values.length)
      const first = column!.firstValueIndex(d)
      values.forEach((value, nth) => {
        if (type === 'keyword') {
          expect(column!.term(Number(raws[0][first + nth])), `${name} doc ${d} #${nth}`).toBe(value)
          if (nth === 0 && d < 50) expect(column!.getKeywordString(d, nth)).toBe(value)
        } else {
          const expectedRaw = rawOf(type, value)
          parts.forEach((_, p) => expect(raws[p][first + nth], `${name} doc ${d} #${nth} ${parts[p]}`).toBe(expectedRaw[p]))
        }
      })
    })
  }
  expect(reader.columns.map((column) => column.name).filter((name) => !corpus.expected.has(name))).toEqual([])
}

describe('properties', () => {
  it('flush → open → every value reads back exactly, on both backends', () => {
    fc.assert(fc.property(corpusArb, (corpus) => {
      const maxDoc = corpus.docs.length
      const bytes = flushColumns(corpus.schema, corpus.docs)
      for (const backend of ['ts', 'wasm'] as const) {
        const reader = openColumns(bytes, { backend, maxDoc, fileName: 'property.oixk' })
        try { expectReadsBack(reader, corpus) } finally { reader.close() }
      }
    }), { seed: SEED, numRuns: 500 })
  }, 120_000)

  it('mergeColumns of arbitrary splits, deletions and reorderings equals a flush of the survivors', () => {
    const planArb = corpusArb.chain((corpus) => {
      const n = corpus.docs.length
      return fc.record({
        corpus: fc.constant(corpus),
        cuts: fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, n - 1) }), { maxLength: 4 }),
        keepRate: fc.constantFrom(1, 0.9, 0.5, 0.1, 0),
        orderSeed: fc.nat(), shuffle: fc.boolean(),
        backends: fc.array(fc.constantFrom('ts' as const, 'wasm' as const), { minLength: 5, maxLength: 5 }),
      })
    })
    fc.assert(fc.property(planArb, ({ corpus, cuts, keepRate, orderSeed, shuffle, backends }) => {
      const n = corpus.docs.length
      const bounds = [0, ...cuts.filter((cut) => cut < n).sort((a, b) => a - b), n]
      const random = seededRandom(orderSeed)
      const survivors = Array.from({ length: n }, (_, d) => d).filter(() => random() < keepRate || keepRate === 1)
      if (shuffle) for (let i = survivors.length - 1; i > 0; i--) { const j = Math.floor(random() * (i + 1)); [survivors[i], survivors[j]] = [survivors[j], survivors[i]] }
      const newId = new Int32Array(n).fill(-1)
      survivors.forEach((old, id) => { newId[old] = id })
      const readers: ColumnsReader[] = []
      try {
        const sources = bounds.slice(0, -1).map((start, s) => {
          const end = bounds[s + 1]
          const bytes = flushColumns(corpus.schema, corpus.docs.slice(start, end))
          const reader = openColumns(bytes, { backend: backends[s], maxDoc: end - start, fileName: `segment${s}.oixk` })
          readers.push(reader)
          return { reader, docMap: newId.slice(start, end) }
        })
        const merged = mergeColumns(sources, { maxDoc: survivors.length })
        const flushed = flushColumns(corpus.schema, survivors.map((old) => corpus.docs[old]))
        expect(merged === null, 'merge and flush agree on writing no file').toBe(flushed === null)
        if (merged !== null && flushed !== null) expect(Buffer.from(merged).equals(Buffer.from(flushed)), 'merge is byte-identical to flush').toBe(true)
      } finally {
        readers.forEach((reader) => reader.close())
      }
    }), { seed: SEED, numRuns: 400 })
  }, 120_000)
})

describe('properties of format 2', () => {
  const dumpOf = async (reader: ColumnsReader): Promise<string> => {
    let text = ''
    await dumpReader(reader, { write: (chunk: string) => { text += chunk } })
    return text
  }

  it('flush format 2 → open → every value reads back exactly and the full check passes, on both backends', () => {
    fc.assert(fc.property(corpusArb, (corpus) => {
      const maxDoc = corpus.docs.length
      const bytes = flushColumns(corpus.schema, corpus.docs, { format: 2 })
      for (const backend of ['ts', 'wasm'] as const) {
        const reader = openColumns(bytes, { backend, maxDoc, fileName: 'property.oixk' })
        try {
          expect(bytes === null || reader.format === 2).toBe(true)
          expectReadsBack(reader, corpus)
        } finally { reader.close() }
      }
    }), { seed: SEED, numRuns: 300 })
  }, 180_000)

  it('the v1 and v2 files of the same documents dump identically', async () => {
    await fc.assert(fc.asyncProperty(corpusArb, async (corpus) => {
      const v1 = flushColumns(corpus.schema, corpus.docs), v2 = flushColumns(corpus.schema, corpus.docs, { format: 2 })
      expect(v1 === null).toBe(v2 === null)
      if (v1 === null || v2 === null) return
      const [a, b] = [openColumns(v1, { backend: 'ts' }), openColumns(v2, { backend: 'ts' })]
      try { expect(await dumpOf(b)).toBe(await dumpOf(a)) } finally { a.close(); b.close() }
    }), { seed: SEED + 1, numRuns: 200 })
  }, 180_000)

  it('a v2 merge of v1 and v2 sources, split, deleted and reordered, equals a v2 flush of the survivors', () => {
    const planArb = corpusArb.chain((corpus) => fc.record({
      corpus: fc.constant(corpus),
      cuts: fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, corpus.docs.length - 1) }), { maxLength: 3 }),
      keepRate: fc.constantFrom(1, 0.7, 0.2),
      orderSeed: fc.nat(), shuffle: fc.boolean(),
      formats: fc.array(fc.constantFrom(1 as const, 2 as const), { minLength: 4, maxLength: 4 }),
    }))
    fc.assert(fc.property(planArb, ({ corpus, cuts, keepRate, orderSeed, shuffle, formats }) => {
      const n = corpus.docs.length
      const bounds = [0, ...cuts.filter((cut) => cut < n).sort((a, b) => a - b), n]
      const random = seededRandom(orderSeed)
      const survivors = Array.from({ length: n }, (_, d) => d).filter(() => keepRate === 1 || random() < keepRate)
      if (shuffle) for (let i = survivors.length - 1; i > 0; i--) { const j = Math.floor(random() * (i + 1)); [survivors[i], survivors[j]] = [survivors[j], survivors[i]] }
      const newId = new Int32Array(n).fill(-1)
      survivors.forEach((old, id) => { newId[old] = id })
      const readers: ColumnsReader[] = []
      try {
        const sources = bounds.slice(0, -1).map((start, s) => {
          const bytes = flushColumns(corpus.schema, corpus.docs.slice(start, bounds[s + 1]), { format: formats[s] })
          const reader = openColumns(bytes, { backend: 'ts', maxDoc: bounds[s + 1] - start })
          readers.push(reader)
          return { reader, docMap: newId.slice(start, bounds[s + 1]) }
        })
        const merged = mergeColumns(sources, { maxDoc: survivors.length, format: 2 })
        const flushed = flushColumns(corpus.schema, survivors.map((old) => corpus.docs[old]), { format: 2 })
        expect(merged === null).toBe(flushed === null)
        if (merged !== null && flushed !== null) expect(Buffer.from(merged).equals(Buffer.from(flushed)), 'merge is byte-identical to flush').toBe(true)
      } finally {
        readers.forEach((reader) => reader.close())
      }
    }), { seed: SEED + 2, numRuns: 200 })
  }, 180_000)
})
