/**
 * Model-based test of the multi-valued query kernels (countDistinct; matchAny, under
 * termFilter, rangeFilter, boundingBoxFilter, aggregate and histogram with a DocSet):
 * multi columns of every type with 0..8 values per document, duplicates inside
 * documents, empty documents at the chunk edges (1023, 1024, 1025), a run of
 * long documents (a chunk's values split into pieces) and one document longer
 * than a piece (read in windows), a few selected documents whose values cross
 * a window's end, every DocSet density, both backends, format
 * 1 and 2 files: every answer equal to the naive model's. Plus outputs written
 * in place and over old bits, and a corrupt ordinal's error on both backends.
 */
import { describe, expect, it } from 'vitest'
import type { ColumnsBackend } from '../src/backend/backend.js'
import { resolveBackend } from '../src/backend/select.js'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { countFirstValuesIn } from '../src/kernels/facets.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsDocument } from '../src/write/columns-writer.js'
import { flushColumns } from '../src/write/columns-writer.js'
import type { SchemaField } from '../src/write/schema.js'
import { buildFile, packedBlock, parseFile } from './helpers/file-surgery.js'
import { checkColumn, docSets } from './helpers/query-checks.js'
import { modelOf, modelRange, modelTerms } from './helpers/query-model.js'
import { MAX_INT64, MIN_INT64, termPool } from './helpers/random-columns.js'
import { seededRandom } from './helpers/random.js'

type BackendName = 'ts' | 'wasm'
const BACKENDS: BackendName[] = wasmUnavailableReason() === null ? ['ts', 'wasm'] : ['ts']
const TYPES = ['keyword', 'integral', 'fractional', 'date', 'bool', 'geo_point'] as const
/** Documents with no values: the chunk edges (1,024 documents a chunk) and the ends. */
const EMPTY = new Set([0, 1023, 1024, 1025, 2047, 2048])
/** Documents of 40 values: chunk 1 holds more values than a piece (8,192) and is split. */
const LONG = { from: 1100, to: 1330 }
/** One document longer than a piece: read in windows. */
const HUGE = 2100
const HUGE_VALUES = 9000

/** Values per document: 0..8, but the special documents above. */
function valueCount(random: () => number, document: number, maxDoc: number): number {
  if (EMPTY.has(document) || document === maxDoc - 1) return 0
  if (document >= LONG.from && document < LONG.to) return 40
  if (document === HUGE) return HUGE_VALUES
  return Math.floor(random() * 9)
}

/** A generator of one type's values: few distinct ones at times, so documents repeat values. */
function valueSource(random: () => number, type: (typeof TYPES)[number]): () => unknown {
  const pick = (n: number) => Math.floor(random() * n)
  switch (type) {
    case 'keyword': {
      const pool = termPool(random, [3, 40, 300][pick(3)])
      return () => pool[pick(pool.length)]
    }
    case 'integral': return () => (random() < 0.05 ? [MIN_INT64, MAX_INT64, 0n][pick(3)] : BigInt(pick(2000) - 1000))
    case 'date': return () => pick(1000) * 86_400_000 - 5 * 86_400_000
    case 'fractional': return () => (random() < 0.1 ? [NaN, -0, 0, Infinity, -Infinity][pick(5)] : (pick(2000) - 1000) / 8)
    case 'bool': return () => random() < 0.5
    case 'geo_point': return () => ({ lat: (pick(1800) - 900) / 10, lon: (pick(3600) - 1800) / 10 })
  }
}

/** One multi column per type; each document's values often repeat one of its own. */
function multiDocuments(seed: number, maxDoc: number, count = valueCount): { fields: SchemaField[]; docs: ColumnsDocument[] } {
  const random = seededRandom(seed)
  const docs: Record<string, unknown>[] = Array.from({ length: maxDoc }, () => ({}))
  const fields: SchemaField[] = TYPES.map((type) => ({ name: `${type}_multi`, type, column: type !== 'keyword', facet: type === 'keyword', multi: true }))
  for (const type of TYPES) {
    const next = valueSource(random, type)
    for (let document = 0; document < maxDoc; document++) {
      const values: unknown[] = []
      for (let n = count(random, document, maxDoc); n > 0; n--) values.push(values.length > 0 && random() < 0.3 ? values[Math.floor(random() * values.length)] : next())
      if (values.length > 0) docs[document][`${type}_multi`] = values
    }
  }
  return { fields, docs }
}

const FILES = [{ seed: 41, maxDoc: 1026 }, { seed: 42, maxDoc: 2200 }, { seed: 43, maxDoc: 3100 }]

/** Flushes the documents, then checks every column (each multi) against the model over every DocSet density. */
function checkEveryColumn(file: { fields: SchemaField[]; docs: ColumnsDocument[] }, format: 1 | 2, backend: BackendName, seed: number): void {
  const reader = openColumns(flushColumns({ fields: file.fields }, file.docs, { format })!, { backend })
  const random = seededRandom(seed)
  const sets = docSets(reader, random)
  for (const column of reader.columns) {
    expect(column.layout).toBe('multi')
    checkColumn(modelOf(column), sets, random)
  }
  reader.close()
}

for (const backend of BACKENDS) {
  describe(`multi-valued columns against the naive model (${backend} backend)`, () => {
    for (const { seed, maxDoc, format } of FILES.flatMap((file) => [1, 2].map((format) => ({ ...file, format: format as 1 | 2 })))) {
      it(`seed ${seed}, maxDoc ${maxDoc}, format ${format}: every type, every method, every DocSet density`, () => {
        checkEveryColumn(multiDocuments(seed, maxDoc), format, backend, seed + 100)
      })
    }

    it('a few documents\' values read across windows of 8,192: one whose values cross the window\'s end', () => {
      // Documents 1,100.. hold 40 values each: the window begun at document 1,100's first value ends
      // inside document 1,304's, whose values past it are read in the next window.
      const file = multiDocuments(42, 2200)
      expect([1100, 1304].map((d) => (file.docs[d] as Record<string, unknown[]>).keyword_multi.length)).toEqual([40, 40])
      for (const format of [1, 2] as const) {
        const reader = openColumns(flushColumns({ fields: file.fields }, file.docs, { format })!, { backend })
        const ids = [1100, 1304]
        checkColumn(modelOf(reader.getColumn('keyword_multi')!), [{ name: 'documents 1,100 and 1,304', docs: DocSet.fromDocuments(reader, ids), ids }], seededRandom(46))
        reader.close()
      }
    })

    it('filters write their output in place (out = docs) and over a set holding other documents', () => {
      const { fields, docs } = multiDocuments(44, 2100)
      for (const format of [1, 2] as const) {
        const reader = openColumns(flushColumns({ fields }, docs, { format })!, { backend })
        const keywords = reader.getColumn('keyword_multi')!, integers = reader.getColumn('integral_multi')!
        const kModel = modelOf(keywords), iModel = modelOf(integers)
        const random = seededRandom(45)
        const ids = Array.from({ length: 2100 }, (_, d) => d).filter(() => random() < 0.4)
        const terms = [keywords.term(0), keywords.term(keywords.dictionary!.termCount - 1)]
        const ordinals = new Set(terms.map((term) => keywords.lookupOrdinal(term)))
        const inPlace = DocSet.fromDocuments(reader, ids)
        expect(keywords.termFilter(terms, inPlace, inPlace)).toBe(inPlace)
        expect(inPlace.toArray(), `format ${format}: termFilter in place`).toEqual(Uint32Array.from(modelTerms(kModel, ordinals, ids)))
        const dirty = reader.allDocuments()
        expect(integers.rangeFilter(-100, 100, DocSet.fromDocuments(reader, ids), dirty).toArray(), `format ${format}: rangeFilter over old bits`)
          .toEqual(Uint32Array.from(modelRange(iModel, -100, 100, ids)))
        expect(integers.rangeFilter(5, 4, undefined, reader.allDocuments()).count(), `format ${format}: an empty range clears out`).toBe(0)
        expect(keywords.termFilter(['no such term'], undefined, reader.allDocuments()).count(), `format ${format}: no known term clears out`).toBe(0)
        reader.close()
      }
    })
  })
}

describe('multi-valued columns whose documents hold one value each over whole chunks (the single-valued path)', () => {
  // Chunk 0 (documents 0-1,023) one value each; chunk 1 as many values as documents but not one
  // each (document 1,500 with two, 1,600 with none); chunk 2 one value short (2,100 with none), so
  // chunk 3, one value each, starts at a value position that is not a multiple of 32; then 0..8.
  const oneEach = (random: () => number, document: number) =>
    document === 1500 ? 2 : document === 1600 || document === 2100 ? 0 : document < 4096 ? 1 : Math.floor(random() * 9)
  for (const backend of BACKENDS) {
    for (const format of [1, 2] as const) {
      it(`${backend}, format ${format}: every type, every method, every DocSet density`, () => {
        checkEveryColumn(multiDocuments(47, 4500, oneEach), format, backend, 48)
      })
    }
  }
})

describe('multi-valued filters over documents longer than a word of values, ending on a word edge', () => {
  // 1,024 documents of 260 values (8 words with no document start between their first and last
  // value), then 0-3 values a document; the last document's 17 values end the values on a word's
  // edge, so the starts' sentinel is alone in a word after the last one.
  const MAX_DOC = 1100
  const matching = (d: number) => d % 3 === 0 || d === 1023
  const docs = Array.from({ length: MAX_DOC }, (_, d) => {
    const n = d < 1024 ? 260 : d === MAX_DOC - 1 ? 17 : d % 4
    // Every value out of [10, 20] but one, at a position that moves, in the matching documents.
    const values = Array.from({ length: n }, (_, i) => 100 + ((d + i) % 50))
    if (n > 0 && matching(d)) values[(d * 7) % n] = 10 + (d % 11)
    return n === 0 ? {} : { v: values }
  })
  const bytes = { 1: flushColumns({ fields: [{ name: 'v', type: 'integral', column: true, multi: true }] }, docs, { format: 1 })!,
    2: flushColumns({ fields: [{ name: 'v', type: 'integral', column: true, multi: true }] }, docs, { format: 2 })! }
  const expected = Uint32Array.from(Array.from({ length: MAX_DOC }, (_, d) => d).filter((d) => matching(d) && docs[d].v !== undefined))
  const values = docs.reduce((total, doc) => total + (doc.v?.length ?? 0), 0)
  for (const backend of BACKENDS) {
    for (const format of [1, 2] as const) {
      it(`${backend}, format ${format}: rangeFilter(10, 20) finds exactly the documents holding a value in it`, () => {
        const reader = openColumns(bytes[format], { backend })
        const column = reader.getColumn('v')!
        expect([column.totalValueCount, column.totalValueCount % 32]).toEqual([values, 0])
        expect(column.rangeFilter(10, 20).toArray()).toEqual(expected)
        const half = DocSet.fromDocuments(reader, Array.from({ length: MAX_DOC }, (_, d) => d).filter((d) => d % 2 === 0))
        expect(column.rangeFilter(10, 20, half).toArray()).toEqual(expected.filter((d) => d % 2 === 0))
        reader.close()
      })
    }
  }
})

describe('multi-valued documents ↔ values at the edges of the starts and nonempty bitsets', () => {
  // Whole words of empty documents (nonempty words of 0), a document of 70 values, one value
  // each; filters and a DocSet's values (aggregate) checked against the documents themselves.
  const MAX_DOC = 300
  const count = (d: number) => (d < 64 || (d >= 130 && d < 200) ? 0 : d === 100 ? 70 : d >= 200 && d < 260 ? 1 : d % 3)
  const docs = Array.from({ length: MAX_DOC }, (_, d) => {
    const values = Array.from({ length: count(d) }, (_, i) => (d * 13 + i * 7) % 40)
    return values.length === 0 ? {} : { v: values }
  })
  const schema = { fields: [{ name: 'v', type: 'integral', column: true, multi: true }] }
  const every = Array.from({ length: MAX_DOC }, (_, d) => d)
  const holding = (d: number, lo: number, hi: number) => (docs[d].v ?? []).some((x) => x >= lo && x <= hi)
  const picked = every.filter((d) => d % 5 !== 1)
  const selected = picked.flatMap((d) => docs[d].v ?? [])
  for (const backend of BACKENDS) {
    for (const format of [1, 2] as const) {
      it(`${backend}, format ${format}`, () => {
        const reader = openColumns(flushColumns(schema as never, docs as never, { format })!, { backend })
        const column = reader.getColumn('v')!
        for (const [lo, hi] of [[0, 3], [10, 10], [0, 39], [41, 50]]) {
          expect(column.rangeFilter(lo, hi).toArray(), `[${lo}, ${hi}]`).toEqual(Uint32Array.from(every.filter((d) => holding(d, lo, hi))))
        }
        const docSet = DocSet.fromDocuments(reader, picked)
        expect(column.rangeFilter(0, 3, docSet).toArray()).toEqual(Uint32Array.from(picked.filter((d) => holding(d, 0, 3))))
        expect(column.aggregate(docSet)).toEqual({ count: selected.length, min: 0, max: 39, sum: selected.reduce((a, b) => a + b, 0) })
        // One pair of bitsets for the whole column, made by the first filter and kept until close.
        const kept = column.documentStarts.get(`0:${MAX_DOC}`)!
        expect([column.documentStarts.size, kept.nonempty.wordCount]).toEqual([1, Math.ceil(MAX_DOC / 32)])
        column.rangeFilter(5, 6)
        expect(column.documentStarts.get(`0:${MAX_DOC}`)).toBe(kept)
        reader.close()
        expect(column.documentStarts.size).toBe(0)
      })
    }
  }
})

/**
 * Keyword "t" multi, 3 values each of 50,000 documents over 50 terms, value 2,000 set to `bad` (≥ 50:
 * corrupt). So many documents that a DocSet of a few is walked, not selected, on both backends.
 */
function corruptMultiFile(bad: bigint): Uint8Array {
  const terms = termPool(seededRandom(46), 50)
  const docs = Array.from({ length: 50_000 }, (_, d) => ({ t: [terms[d % 50], terms[(d * 7) % 50], terms[d % 50]] }))
  const model = parseFile(flushColumns({ fields: [{ name: 't', type: 'keyword', facet: true, multi: true }] }, docs)!)
  const sequence = model.columns[0].section.values
  const values = Array.from({ length: 1024 }, (_, i) => BigInt(i % 50))
  values[2000 - 1024] = bad
  sequence.blocks[1] = packedBlock(values, 0n, 1n, 7)
  return buildFile(model)
}

describe('multi-valued kernels: a corrupt ordinal', () => {
  it('raises the same CorruptIndexException on both backends, only when a selected document holds it', () => {
    const bytes = corruptMultiFile(77n)
    const thrown = (action: () => unknown): string => {
      try {
        action()
      } catch (error) {
        return `${(error as Error).constructor.name}: ${(error as Error).message}`
      }
      return 'none'
    }
    const expected = 'CorruptIndexException: bad.oixk: values of field "t": value 2000 is 77, not in [0, 50)'
    for (const backend of BACKENDS) {
      const reader = openColumns(bytes, { backend, fileName: 'bad.oixk' })
      const column = reader.getColumn('t')!
      expect(thrown(() => column.facetCounts()), backend).toBe(expected)
      // Counts given are cleared, and nothing walked before the bad ordinal is left in them.
      const counts = new Uint32Array(50).fill(9)
      expect(thrown(() => column.facetCounts(undefined, counts)), backend).toBe(expected)
      expect(Array.from(counts), backend).toEqual(new Array(50).fill(0))
      // Value 2,000 belongs to document 666 (3 values each): a DocSet without it reads no bad ordinal.
      const others = DocSet.fromDocuments(reader, [0, 665, 667, 49_999])
      expect(thrown(() => column.facetCounts(others)), backend).toBe('none')
      expect(thrown(() => column.facetCounts(DocSet.fromDocuments(reader, [666]))), backend).toBe(expected)
      reader.close()
    }
  })
})

describe('multi-valued facets over every document: the first values, marked once and kept', () => {
  /** Keyword "t": document d holds terms d % 5 and (d * 3) % 7 (+ 5), and term d % 5 again when d % every = 0. */
  const file = (every: number) => {
    const terms = Array.from({ length: 12 }, (_, t) => `t${String(t).padStart(2, '0')}`)
    const docs = Array.from({ length: 3000 }, (_, d) => ({
      t: d % 11 === 0 ? [] : [terms[d % 5], terms[5 + ((d * 3) % 7)], ...(d % every === 0 ? [terms[d % 5]] : [])],
    }))
    const expected = new Uint32Array(12)
    for (const { t } of docs) for (const term of new Set(t)) expected[terms.indexOf(term)]++
    return { bytes: flushColumns({ fields: [{ name: 't', type: 'keyword', facet: true, multi: true }] }, docs)!, expected, docs, terms }
  }
  for (const backend of BACKENDS) {
    it(`${backend}: counts each document once per term, twice in a row, then what is kept goes with close()`, () => {
      // A repeat every 4 documents (more than 1 value in 32: bits kept), every 25 (109 of 5,563
      // values, between 1 in 64 and 1 in 32: both), every 150 (a list), none.
      for (const every of [4, 25, 150, Infinity]) {
        const { bytes, expected, docs, terms } = file(every)
        const reader = openColumns(bytes, { backend })
        const column = reader.getColumn('t')!
        expect(column.firstValues).toBeNull()
        expect(Array.from(column.facetCounts()), `every ${every}`).toEqual(Array.from(expected))
        const kept = column.firstValues!
        const repeated = docs.map((_, d) => d).filter((d) => d % 11 !== 0 && d % every === 0)
        if (every <= 25) {
          // The bits mark every value but the repeats.
          expect(kept.bits!.wordCount).toBe(Math.ceil(column.totalValueCount / 32))
          const marked = Array.from(kept.bits!.words).reduce((sum, word) => sum + (word >>> 0).toString(2).replace(/[^1]/g, '').length, 0)
          expect(marked).toBe(column.totalValueCount - repeated.length)
        }
        if (every === 4) expect(kept.repeats).toBeNull()
        else {
          if (every === 25) expect([column.totalValueCount, repeated.length]).toEqual([5563, 109])
          else expect(kept.bits).toBeNull()
          // The repeats listed: each repeating document's third value, with its first term's ordinal.
          expect(Array.from(kept.repeats!.ordinals)).toEqual(repeated.map((d) => terms.indexOf(docs[d].t[0])))
          const starts: number[] = []
          docs.reduce((at, { t }) => (starts.push(at), at + t.length), 0)
          expect(Array.from(kept.repeats!.positions)).toEqual(repeated.map((d) => starts[d] + 2))
        }
        expect(Array.from(column.facetCounts()), `every ${every}, kept`).toEqual(Array.from(expected))
        expect(column.firstValues).toBe(kept)
        // A DocSet of every document, and one of every other document, count alike.
        expect(Array.from(column.facetCounts(reader.allDocuments()))).toEqual(Array.from(expected))
        const even = DocSet.fromDocuments(reader, docs.map((_, d) => d).filter((d) => d % 2 === 0))
        const evenExpected = new Uint32Array(12)
        docs.forEach(({ t }, d) => { if (d % 2 === 0) for (const term of new Set(t)) evenExpected[terms.indexOf(term)]++ })
        expect(Array.from(column.facetCounts(even)), `every ${every}, even documents`).toEqual(Array.from(evenExpected))
        reader.close()
        expect(column.firstValues).toBeNull()
      }
    })
  }
})

describe('markFirstValues: counts, first-value bits and the repeats listed while there is room', () => {
  // Document d holds terms d % 3, d % 3 again when d % 4 = 0, and 3 + d % 2 (two repeats when d % 8 = 0).
  // 40,000 documents: WebAssembly walks them in three calls, the list filling up in the second.
  const ROOM = 8000
  const docs = Array.from({ length: 40_000 }, (_, d) => ({
    t: [`a${d % 3}`, ...(d % 4 === 0 ? [`a${d % 3}`] : []), `b${d % 2}`, ...(d % 8 === 0 ? [`b${d % 2}`] : [])],
  }))
  const starts: number[] = []
  docs.reduce((at, { t }) => (starts.push(at), at + t.length), 0)
  // Repeats in value order: the second a (value 1) of d % 4 = 0, the second b (value 3) of d % 8 = 0.
  const repeats = docs.flatMap((_, d) => [
    ...(d % 4 === 0 ? [[starts[d] + 1, d % 3]] : []), ...(d % 8 === 0 ? [[starts[d] + 3, 3 + (d % 2)]] : []),
  ])
  for (const backend of BACKENDS) {
    for (const format of [1, 2] as const) {
      it(`${backend}, format ${format}: every repeat counted, the first ${ROOM} listed`, () => {
        const bytes = flushColumns({ fields: [{ name: 't', type: 'keyword', facet: true, multi: true }] }, docs, { format })!
        const reader = openColumns(bytes, { backend })
        const column = reader.getColumn('t')!
        const query = (column as unknown as { backend: ColumnsBackend }).backend.query
        const bits = query.allocateBitset(Math.ceil(column.totalValueCount / 32))
        const counts = new Uint32Array(5).fill(7), positions = new Uint32Array(ROOM), ordinals = new Uint32Array(ROOM + 1)
        const count = query.markFirstValues(column.offsets!, column.values, column.maxDoc, bits, counts, positions, ordinals)
        expect(count).toBe(repeats.length)
        expect([Array.from(positions), Array.from(ordinals.subarray(0, ROOM)), ordinals[ROOM]])
          .toEqual([repeats.slice(0, ROOM).map(([at]) => at), repeats.slice(0, ROOM).map(([, ordinal]) => ordinal), 0])
        // Documents per term, added to what counts held.
        expect(Array.from(counts)).toEqual([13_334, 13_333, 13_333, 20_000, 20_000].map((documents) => documents + 7))
        const repeated = new Set(repeats.map(([at]) => at))
        const firsts = Array.from({ length: column.totalValueCount }, (_, v) => v).filter((v) => !repeated.has(v))
        const marked = Array.from({ length: column.totalValueCount }, (_, v) => v).filter((v) => ((bits.words[v >>> 5] >>> (v & 31)) & 1) === 1)
        expect(marked).toEqual(firsts)
        bits.release()
        reader.close()
      })
    }
  }
})

describe('a pool worker\'s values [first, end) of a multi facet', () => {
  it('count the repeats inside the range only, not one at its end (both backends)', () => {
    // Document d holds t(d mod 7); document 50 holds t1 twice: values 50 and 51, value 51 a repeat.
    const docs = Array.from({ length: 200 }, (_, d) => ({ k: d === 50 ? ['t1', 't1'] : [`t${d % 7}`] }))
    const bytes = flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true, multi: true }] }, docs)!
    for (const backend of BACKENDS) {
      const column = openColumns(bytes, { backend }).getColumn('k')!
      for (const end of [51, 52]) {
        const counts = new Uint32Array(7)
        countFirstValuesIn(column, resolveBackend(backend), 0, end, null, counts)
        // Values [0, 51): documents 0-49 and document 50's first t1; [0, 52) adds the repeat, not counted.
        const expected = new Uint32Array(7)
        for (let d = 0; d < 50; d++) expected[d % 7]++
        expected[1]++
        expect([...counts], `${backend}, end ${end}`).toEqual([...expected])
      }
    }
  })
})
