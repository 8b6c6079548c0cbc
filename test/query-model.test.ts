/**
 * Model-based test of the query API: random files of every type × layout ×
 * block form, random DocSets of several densities, every method compared
 * exactly with the naive model of test/helpers/query-model.ts, on each backend
 * whose query kernels exist. Plus golden counts, errors and DocSet checks.
 */
import { describe, expect, it } from 'vitest'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { typeScriptBackend } from '../src/backend/ts/index.js'
import { float64ToSortableBits } from '../src/format/sortable-bits.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { bits, buildFile, packedBlock, parseFile, tableBlock } from './helpers/file-surgery.js'
import { modelOf } from './helpers/query-model.js'
import { checkColumn, docSets } from './helpers/query-checks.js'
import { randomDocuments, termPool } from './helpers/random-columns.js'
import { seededRandom } from './helpers/random.js'

type BackendName = 'ts' | 'wasm'

/** Why a backend cannot run here (no WebAssembly, or its query kernels are still stubs), or null. */
function skipReason(backend: BackendName): string | null {
  if (backend === 'ts') return null
  const unavailable = wasmUnavailableReason()
  if (unavailable !== null) return unavailable
  try {
    const reader = openColumns(flushColumns({ fields: [{ name: 'b', type: 'bool', column: true }] }, [{ b: true }])!, { backend })
    reader.getColumn('b')!.facetCounts()
    reader.close()
    return null
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

const BACKENDS: BackendName[] = ['ts', 'wasm']
const FILES = [
  { seed: 11, maxDoc: 1 }, { seed: 12, maxDoc: 2 }, { seed: 13, maxDoc: 37 }, { seed: 14, maxDoc: 1024 },
  { seed: 15, maxDoc: 1500 }, { seed: 16, maxDoc: 2077 }, { seed: 17, maxDoc: 3100 },
]

for (const backend of BACKENDS) {
  const reason = skipReason(backend)
  describe(`query API against the naive model (${backend} backend)`, () => {
    if (reason !== null) {
      it.skip(`${backend}: skipped: ${reason}`, () => {})
      return
    }
    for (const { seed, maxDoc, format } of FILES.flatMap((file) => [1, 2].map((format) => ({ ...file, format: format as 1 | 2 })))) {
      it(`random file seed ${seed}, maxDoc ${maxDoc}, format ${format}: every method, every column, every DocSet density`, () => {
        const random = seededRandom(seed)
        const { schema, docs } = randomDocuments(random, maxDoc)
        const reader = openColumns(flushColumns(schema, docs, { format })!, { backend })
        const sets = docSets(reader, random)
        for (const column of reader.columns) checkColumn(modelOf(column), sets, random)
        reader.close()
      })
    }
  })
}

/** Six documents, every type and layout, with expectations worked out by hand. */
function goldenReader(backend: BackendName): ColumnsReader {
  const schema = {
    fields: [
      { name: 'city', type: 'keyword', facet: true },
      { name: 'n', type: 'integral', column: true },
      { name: 'tags', type: 'keyword', facet: true, multi: true },
      { name: 'price', type: 'fractional', column: true },
      { name: 'when', type: 'date', column: true },
      { name: 'ok', type: 'bool', column: true },
      { name: 'geo', type: 'geo_point', column: true },
    ],
  }
  const day = (text: string) => Date.parse(text)
  const docs = [
    { city: 'b', n: 5, tags: ['x', 'y', 'x'], price: 1.5, when: day('2024-01-01T00:00:00Z'), ok: true, geo: { lat: 10, lon: 170 } },
    { city: 'a', tags: ['y'], price: -0, when: day('2024-01-02T00:00:00Z'), ok: false },
    { city: 'b', n: -3, tags: [], price: 0, when: day('2024-01-01T12:00:00Z'), ok: true, geo: { lat: 10, lon: -170 } },
    { city: 'c', n: 10, tags: ['z'], price: NaN, when: day('2024-02-01T00:00:00Z'), ok: true, geo: { lat: -10, lon: 0 } },
    { city: 'b', tags: ['x', 'x'], price: -2.5, when: day('2023-12-31T00:00:00Z'), ok: false, geo: { lat: 0, lon: -0 } },
    { city: 'a', n: 7, tags: ['y', 'z'], price: 1e300, when: day('2024-01-03T00:00:00Z'), ok: false },
  ]
  return openColumns(flushColumns(schema, docs)!, { backend, fileName: 'golden.oixk' })
}

const FILE_NAME = 'duel.oixk'

/** Keyword "k" of 2048 values over 400 terms: block 0 packed from block0, block 1 a table whose value 100 (index 1124) has index 3 of 3 entries. */
function corruptKeywordFile(block0: bigint[]): Uint8Array {
  const terms = termPool(seededRandom(9), 400)
  const docs = Array.from({ length: 2048 }, (_, d) => ({ k: terms[d % 400] }))
  const model = parseFile(flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, docs)!)
  const sequence = model.columns[0].section.values
  const max = block0.reduce((a, b) => (b > a ? b : a))
  sequence.blocks[0] = packedBlock(block0, 0n, 1n, bits(max))
  sequence.blocks[1] = tableBlock([0n, 150n, 399n], Array.from({ length: 1024 }, (_, i) => (i === 100 ? 3 : i % 3)))
  return buildFile(model)
}

function thrown(action: () => unknown): { kind: string; message: string } {
  try {
    action()
  } catch (error) {
    return { kind: (error as Error).constructor.name, message: (error as Error).message }
  }
  return { kind: 'none', message: '' }
}

for (const backend of BACKENDS) {
  const reason = skipReason(backend)
  describe(`query API: golden answers, errors and DocSets (${backend} backend)`, () => {
    if (reason !== null) {
      it.skip(`${backend}: skipped: ${reason}`, () => {})
      return
    }
    it('answers a hand-made file exactly', () => {
      const reader = goldenReader(backend)
      const get = (name: string) => reader.getColumn(name)!
      const firstThree = DocSet.fromDocuments(reader, [0, 1, 2])
      expect(get('city').facetCounts()).toEqual(Uint32Array.of(2, 3, 1))
      expect(get('city').facetCounts(firstThree)).toEqual(Uint32Array.of(1, 2, 0))
      expect(get('city').topTerms(2)).toEqual([{ term: 'b', ordinal: 1, count: 3 }, { term: 'a', ordinal: 0, count: 2 }])
      expect(get('tags').facetCounts()).toEqual(Uint32Array.of(2, 3, 2))
      expect(get('tags').termFilter(['z', 'nope']).toArray()).toEqual(Uint32Array.of(3, 5))
      expect(get('tags').aggregate()).toEqual({ count: 9, min: 0, max: 2, sum: 7 })
      expect(get('n').rangeFilter(0, 7).toArray()).toEqual(Uint32Array.of(0, 5))
      expect(get('n').rangeFilter(-3.5, 4.9).toArray()).toEqual(Uint32Array.of(2))
      expect(get('n').rangeFilter(6, 5).toArray()).toEqual(Uint32Array.of())
      expect(get('n').aggregate()).toEqual({ count: 4, min: -3, max: 10, sum: 19 })
      expect(get('n').aggregate(firstThree)).toEqual({ count: 2, min: -3, max: 5, sum: 2 })
      expect(get('n').histogram([-10, 0, 6n, 100])).toEqual(Uint32Array.of(1, 1, 2))
      expect(get('n').histogram([0.5, 0.7, 5.5, 7])).toEqual(Uint32Array.of(0, 1, 0))
      expect(Array.from(get('n').topK(2, 'descending'))).toEqual([3, 5])
      expect(Array.from(get('n').topK(9, 'ascending'))).toEqual([2, 0, 5, 3])
      expect(get('price').rangeFilter(0, 0).toArray()).toEqual(Uint32Array.of(1, 2))
      expect(get('price').rangeFilter(-Infinity, Infinity).toArray()).toEqual(Uint32Array.of(0, 1, 2, 4, 5))
      expect(get('price').rangeFilter({ raw: float64ToSortableBits(1e300) }, { raw: float64ToSortableBits(NaN) }).toArray()).toEqual(Uint32Array.of(3, 5))
      // A bigint bound means the double the writer stores for it (1n is 1.0), not raw bits.
      expect(get('price').rangeFilter(1n, 2n).toArray()).toEqual(Uint32Array.of(0))
      expect(get('price').rangeFilter(-3n, 0n).toArray()).toEqual(Uint32Array.of(1, 2, 4))
      expect(get('price').histogram([-3, 0, 2])).toEqual(Uint32Array.of(1, 3))
      // NaN is left out like a missing value (counted apart), and sorts last in both orders.
      expect(get('price').aggregate()).toEqual({ count: 5, min: -2.5, max: 1e300, sum: 1e300, nanCount: 1 })
      expect(get('price').aggregate(firstThree)).toEqual({ count: 3, min: -0, max: 1.5, sum: 1.5, nanCount: 0 })
      expect(get('price').aggregate(DocSet.fromDocuments(reader, [3]))).toEqual({ count: 0, min: null, max: null, sum: 0, nanCount: 1 })
      expect(Array.from(get('price').topK(3, 'ascending'))).toEqual([4, 1, 2])
      expect(Array.from(get('price').topK(9, 'ascending'))).toEqual([4, 1, 2, 0, 5, 3])
      expect(Array.from(get('price').topK(9, 'descending'))).toEqual([5, 0, 2, 1, 4, 3])
      expect(Array.from(get('price').topK(2, 'descending'))).toEqual([5, 0])
      // A single term is one term, not its characters.
      expect(get('city').termFilter('b').toArray()).toEqual(Uint32Array.of(0, 2, 4))
      expect(get('city').termFilter(new TextEncoder().encode('a')).toArray()).toEqual(Uint32Array.of(1, 5))
      expect(get('tags').termFilter('z').toArray()).toEqual(Uint32Array.of(3, 5))
      // Date bounds and edges take the ISO-8601 strings the writer takes.
      expect(get('when').rangeFilter('2024-01-01', '2024-01-02T00:00:00Z').toArray()).toEqual(Uint32Array.of(0, 1, 2))
      expect(get('when').histogram(['2023-12-31', '2024-01-02', '2024-03-01'])).toEqual(Uint32Array.of(3, 3))
      const day = (text: string) => new Date(`${text}T00:00:00Z`)
      expect(get('when').histogram([day('2024-01-01'), day('2024-01-02'), day('2024-01-03'), day('2024-01-04')])).toEqual(Uint32Array.of(2, 1, 1))
      expect(get('when').rangeFilter(day('2024-01-01'), day('2024-01-02')).toArray()).toEqual(Uint32Array.of(0, 1, 2))
      expect(get('when').aggregate().min).toBe(Date.parse('2023-12-31T00:00:00Z'))
      expect(get('ok').facetCounts()).toEqual(Uint32Array.of(3, 3))
      expect(get('ok').rangeFilter(true, true).toArray()).toEqual(Uint32Array.of(0, 2, 3))
      const crossing = { minLatitude: 0, maxLatitude: 20, minLongitude: 160, maxLongitude: -160 }
      expect(get('geo').boundingBoxFilter(crossing).toArray()).toEqual(Uint32Array.of(0, 2))
      expect(get('geo').boundingBoxFilter({ minLatitude: -0, maxLatitude: 0, minLongitude: 0, maxLongitude: 0 }).toArray()).toEqual(Uint32Array.of(4))
      const out = reader.createDocSet().add(1)
      expect(get('n').rangeFilter(5, 10, firstThree, out)).toBe(out)
      expect(out.toArray()).toEqual(Uint32Array.of(0))
      expect(get('n').rangeFilter(-5, 5, firstThree, firstThree).toArray()).toEqual(Uint32Array.of(0, 2))
      const dense = DocSet.fromDocuments(reader, [0, 1, 3, 4])
      expect(get('city').termFilter(['b', 'c'], dense, dense).toArray()).toEqual(Uint32Array.of(0, 3, 4))
      expect(get('city').rangeFilter(1, 1, dense, dense).toArray()).toEqual(Uint32Array.of(0, 4))
      expect(get('tags').rangeFilter(2, 2, reader.allDocuments().andNot(DocSet.fromDocuments(reader, [3])), out).toArray()).toEqual(Uint32Array.of(5))
      reader.close()
    })

    it('topK visits a block whose bound ties the worst kept value (a smaller document id wins the tie)', () => {
      // Block 0: constant 7 (bound 7). Block 1: packed 0..9 (bound 15) holding 9 at 1024 and 7 at 1025, visited first.
      const values: number[] = Array.from({ length: 2048 }, (_, d) => (d < 1024 ? 7 : d === 1024 ? 9 : d === 1025 ? 7 : 0))
      values[2047] = 1
      const reader = openColumns(flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, values.map((n) => ({ n })))!, { backend })
      expect(Array.from(reader.getColumn('n')!.topK(2, 'descending'))).toEqual([1024, 0])
      expect(Array.from(reader.getColumn('n')!.topK(3, 'ascending'))).toEqual([1026, 1027, 1028])
      reader.close()
    })

    it('a corrupt table index or ordinal during facetCounts raises the reader\'s exact error', () => {
      const valid = Array.from({ length: 1024 }, (_, i) => BigInt(i % 400))
      const table = openColumns(corruptKeywordFile(valid), { backend, fileName: FILE_NAME }).getColumn('k')!
      expect(thrown(() => table.facetCounts())).toEqual({ kind: 'CorruptIndexException', message: `${FILE_NAME}: values of field "k": block 1 has table index 3, beyond its 3 entries` })
      expect(thrown(() => table.rangeFilter(100, 200))).toEqual({ kind: 'CorruptIndexException', message: `${FILE_NAME}: values of field "k": block 1 has table index 3, beyond its 3 entries` })
      const beyond = valid.map((v, i) => (i === 700 ? 400n : v))
      const ordinal = openColumns(corruptKeywordFile(beyond), { backend, fileName: FILE_NAME }).getColumn('k')!
      expect(thrown(() => ordinal.facetCounts())).toEqual({ kind: 'CorruptIndexException', message: `${FILE_NAME}: values of field "k": value 700 is 400, not in [0, 400)` })
    })

    it('wrong column types raise TypeError naming the field and what the method reads', () => {
      const reader = goldenReader(backend)
      expect(thrown(() => reader.getColumn('n')!.facetCounts())).toEqual({ kind: 'TypeError', message: 'field "n" is integral; facetCounts reads keyword/bool columns' })
      expect(thrown(() => reader.getColumn('city')!.histogram([0, 1]))).toEqual({ kind: 'TypeError', message: 'field "city" is keyword; histogram reads integral/date/fractional columns' })
      expect(thrown(() => reader.getColumn('geo')!.aggregate())).toEqual({ kind: 'TypeError', message: 'field "geo" is geo_point; aggregate reads integral/date/fractional/bool/keyword columns' })
      expect(thrown(() => reader.getColumn('n')!.termFilter(['x']))).toEqual({ kind: 'TypeError', message: 'field "n" is integral; termFilter reads keyword columns' })
      expect(thrown(() => reader.getColumn('n')!.boundingBoxFilter({ minLatitude: 0, maxLatitude: 1, minLongitude: 0, maxLongitude: 1 }))).toEqual({ kind: 'TypeError', message: 'field "n" is integral; boundingBoxFilter reads geo_point columns' })
      expect(thrown(() => reader.getColumn('n')!.rangeFilter(new Date(0), 5))).toEqual({ kind: 'TypeError', message: 'field "n" is integral; Date bounds are for date columns (rangeFilter\'s lo)' })
      expect(thrown(() => reader.getColumn('n')!.histogram([1, 1]))).toEqual({ kind: 'RangeError', message: 'field "n": histogram edges must be strictly increasing (edge 1)' })
      reader.close()
    })

    it('DocSets of another maxDoc or backend raise RangeError; DocSet operations', () => {
      const reader = goldenReader(backend)
      const other = openColumns(flushColumns({ fields: [{ name: 'b', type: 'bool', column: true }] }, [{ b: true }])!, { backend })
      const foreign = other.createDocSet()
      expect(thrown(() => reader.getColumn('n')!.aggregate(foreign))).toEqual({
        kind: 'RangeError',
        message: `field "n": docs DocSet has 1 documents on the ${backend} backend; this column has 6 documents on the ${backend} backend`,
      })
      expect(thrown(() => reader.getColumn('n')!.rangeFilter(0, 1, undefined, foreign)).kind).toBe('RangeError')
      const copy = openColumns(flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, Array.from({ length: 6 }, (_, n) => ({ n })))!, { backend: { ...typeScriptBackend } })
      expect(thrown(() => copy.getColumn('n')!.aggregate(reader.allDocuments())).kind).toBe('RangeError')
      const a = DocSet.fromDocuments(reader, [0, 2, 4]), b = DocSet.fromDocuments(reader, [2, 3])
      expect([...a.clone().and(b)]).toEqual([2])
      expect([...a.clone().or(b)]).toEqual([0, 2, 3, 4])
      expect([...a.clone().andNot(b)]).toEqual([0, 4])
      expect(a.count()).toBe(3)
      expect(a.has(2) && !a.has(3)).toBe(true)
      expect(reader.allDocuments().toArray()).toEqual(Uint32Array.of(0, 1, 2, 3, 4, 5))
      expect(reader.createDocSet().count()).toBe(0)
      expect(thrown(() => a.add(6))).toEqual({ kind: 'RangeError', message: 'document 6 is outside [0, 6)' })
      expect(thrown(() => a.and(foreign)).kind).toBe('RangeError')
      a.release()
      a.release()
      expect(thrown(() => a.count())).toEqual({ kind: 'Error', message: 'DocSet was released (by its release(), or by closing the reader or segment that made it)' })
      reader.close()
      other.close()
    })
  })
}

describe('boundaries of the natural units', () => {
  const backends = BACKENDS.filter((backend) => skipReason(backend) === null)
  it('a lower bound of +Infinity selects nothing, even beside 2^63 - 1 (both backends)', () => {
    const bytes = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, [{ v: 2n ** 63n - 1n }, { v: 0 }])!
    for (const backend of backends) {
      const column = openColumns(bytes, { backend }).getColumn('v')!
      expect([...column.rangeFilter(Infinity, Infinity).toArray()], backend).toEqual([])
      expect([...column.rangeFilter(2n ** 63n - 1n, Infinity).toArray()], backend).toEqual([0])
    }
  })
  it('bigint bounds beyond 64 bits: a lower one clamps up to -2^63 or selects nothing, an upper one the other way (both backends)', () => {
    const bytes = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, [{ v: -(2n ** 63n) }, { v: 0 }, { v: 2n ** 63n - 1n }, {}])!
    for (const backend of backends) {
      const column = openColumns(bytes, { backend }).getColumn('v')!
      const matched = (lo: bigint, hi: bigint) => [...column.rangeFilter(lo, hi).toArray()]
      expect(matched(-(2n ** 70n), 2n ** 70n), backend).toEqual([0, 1, 2])
      expect(matched(-(2n ** 70n), -(2n ** 63n)), backend).toEqual([0])
      expect(matched(2n ** 63n - 1n, 2n ** 70n), backend).toEqual([2])
      expect(matched(2n ** 64n, 2n ** 70n), backend).toEqual([])
      expect(matched(-(2n ** 70n), -(2n ** 64n)), backend).toEqual([])
    }
  })

  it('aggregate over blocks of 32-bit fields, every value and a selection (both backends, both formats)', () => {
    const random = seededRandom(32)
    // Values over [0, 2^32): frame blocks of width 32, each field a whole word.
    const values = Array.from({ length: 2500 }, (_, i) => (i === 7 ? 0 : i === 9 ? 2 ** 32 - 1 : Math.floor(random() * 2 ** 32)))
    const documents = values.map((v) => ({ v }))
    const sum = (list: number[]) => list.reduce((a, b) => a + b, 0)
    const selected = values.filter((_, i) => i % 3 === 0)
    for (const format of [1, 2] as const) {
      const bytes = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, documents, { format })!
      for (const backend of backends) {
        const reader = openColumns(bytes, { backend })
        const column = reader.getColumn('v')!
        expect(column.aggregate(), `${backend} v${format}`).toEqual({ count: 2500, min: 0, max: 2 ** 32 - 1, sum: sum(values) })
        const some = DocSet.fromDocuments(reader, values.map((_, i) => i).filter((i) => i % 3 === 0))
        expect(column.aggregate(some), `${backend} v${format} selected`)
          .toEqual({ count: selected.length, min: Math.min(...selected), max: Math.max(...selected), sum: sum(selected) })
      }
    }
  })

  it('aggregate gives 2^53 - 1, still a safe integer, as a number (both backends)', () => {
    const bytes = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, [{ v: 2 ** 53 - 1 }])!
    for (const backend of backends) {
      expect(openColumns(bytes, { backend }).getColumn('v')!.aggregate(), backend)
        .toEqual({ count: 1, min: 2 ** 53 - 1, max: 2 ** 53 - 1, sum: 2 ** 53 - 1 })
    }
  })
})
