/**
 * The first-value marks of multi-valued keyword columns (markFirstValues: which value is
 * the first of its term in its document), against a model made from the documents, on the
 * shapes that take each walk of the WebAssembly kernel (assembly/query-first-values.ts):
 * chunks of documents of at most 4 values compared with the values before them, as bytes
 * read where they lie (a format 1 block of width 8 and base 0, or format 2's decoded codes),
 * as bytes or as u16 decoded first (more than 256 terms), and chunks holding a longer
 * document walked with stamps, mixed in one column. Repeats sit 1, 2 and 3 values after
 * the value they repeat, also across the start of a document (not repeats there). Plus a
 * corrupt ordinal in a block read in place and in one decoded, inside a chunk and in its tail.
 */
import { describe, expect, it } from 'vitest'
import type { ColumnsBackend } from '../src/backend/backend.js'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { buildFile, packedBlock, parseFile } from './helpers/file-surgery.js'
import { seededRandom } from './helpers/random.js'

const BACKENDS = wasmUnavailableReason() === null ? ['ts', 'wasm'] as const : ['ts'] as const
const SCHEMA = { fields: [{ name: 't', type: 'keyword' as const, facet: true, multi: true }] }

interface Shape { label: string, terms: number, documents: number, longIn: number[], longAt?: number }

/** Terms t000..: sorted as their ordinals. */
const termsOf = (count: number) => Array.from({ length: count }, (_, t) => `t${String(t).padStart(3, '0')}`)

/**
 * Documents of 0-4 values (a chunk's documents in `longIn` chunks: one of 7 values too, the
 * chunk's document `longAt`, whose last value repeats its second, 5 values back), term 0 in every
 * block (so format 1's blocks of 129-256 terms have base 0), and repeats at every distance: each
 * value repeats one of the 3 before it in one case of 4.
 */
function documentsOf(shape: Shape): string[][] {
  const random = seededRandom(shape.terms * 7 + shape.longIn.length)
  const terms = termsOf(shape.terms)
  return Array.from({ length: shape.documents }, (_, d) => {
    if (d % 500 === 0) return [terms[0]]
    const length = shape.longIn.includes(d >>> 10) && d % 1024 === (shape.longAt ?? 700) ? 7 : Math.floor(random() * 5)
    const values: string[] = []
    for (let i = 0; i < length; i++) {
      values.push(i > 0 && random() < 0.25 ? values[i - 1 - Math.floor(random() * Math.min(i, 3))] : terms[Math.floor(random() * shape.terms)])
    }
    if (length === 7) values[6] = values[1]
    return values
  })
}

/** The model: each value's ordinal, whether it is the first of its term in its document, documents per term. */
function modelOf(documents: string[][], terms: number) {
  const ordinals: number[] = [], firsts: boolean[] = [], counts = new Uint32Array(terms)
  for (const values of documents) {
    const seen = new Set<number>()
    for (const term of values) {
      const ordinal = Number(term.slice(1))
      ordinals.push(ordinal)
      firsts.push(!seen.has(ordinal))
      if (!seen.has(ordinal)) counts[ordinal]++
      seen.add(ordinal)
    }
  }
  return { ordinals, firsts, counts }
}

const SHAPES: Shape[] = [
  // 200 terms: bytes (read in place from a format 1 file; format 2's decoded codes need 16,384 values).
  { label: '200 terms, documents of 0-4 values', terms: 200, documents: 12_000, longIn: [] },
  // 300 terms: u16 lanes; chunks 1 and 4 hold a document of 7 values (stamps there).
  { label: '300 terms, a long document in chunks 1 and 4', terms: 300, documents: 12_000, longIn: [1, 4] },
  // 200 terms and long documents: byte chunks and stamp chunks in one column.
  { label: '200 terms, a long document in chunks 0, 2 and 11', terms: 200, documents: 12_000, longIn: [0, 2, 11] },
  // The long document first or last in its chunk: every document's count is checked, the edges' too.
  { label: '200 terms, a long document first in chunk 3', terms: 200, documents: 12_000, longIn: [3], longAt: 0 },
  { label: '300 terms, a long document last in chunk 5', terms: 300, documents: 12_000, longIn: [5], longAt: 1023 },
  // 40 terms: packed below width 8 in format 1, so decoded to bytes.
  { label: '40 terms, documents of 0-4 values', terms: 40, documents: 5_000, longIn: [] },
]

describe('markFirstValues on every walk: bits, repeats and counts equal the model', () => {
  for (const shape of SHAPES) {
    const documents = documentsOf(shape)
    const model = modelOf(documents, shape.terms)
    const repeats = model.firsts.flatMap((first, v) => (first ? [] : [v]))
    for (const format of [1, 2] as const) {
      const bytes = flushColumns(SCHEMA, documents.map((t) => ({ t })), { format })!
      for (const backend of BACKENDS) {
        it(`${shape.label}, format ${format}, ${backend}`, () => {
          const reader = openColumns(bytes, { backend })
          const column = reader.getColumn('t')!
          expect(column.totalValueCount).toBe(model.ordinals.length)
          const query = (column as unknown as { backend: ColumnsBackend }).backend.query
          const bits = query.allocateBitset(Math.ceil(column.totalValueCount / 32))
          const counts = new Uint32Array(shape.terms), room = repeats.length + 1
          const positions = new Uint32Array(room), ordinals = new Uint32Array(room)
          expect(query.markFirstValues(column.offsets!, column.values, column.maxDoc, bits, counts, positions, ordinals)).toBe(repeats.length)
          expect(Array.from(positions.subarray(0, repeats.length))).toEqual(repeats)
          expect(Array.from(ordinals.subarray(0, repeats.length))).toEqual(repeats.map((v) => model.ordinals[v]))
          expect(Array.from(counts)).toEqual(Array.from(model.counts))
          const marked = model.firsts.flatMap((_, v) => (((bits.words[v >>> 5] >>> (v & 31)) & 1) === 1 ? [v] : []))
          expect(marked).toEqual(model.firsts.flatMap((first, v) => (first ? [v] : [])))
          // Nothing past the last value's bit.
          const last = column.totalValueCount
          if (last % 32 !== 0) expect(bits.words[last >>> 5] >>> (last & 31)).toBe(0)
          bits.release()
          // Through the column: the first facet (which marks), the next (which reads the marks), over a DocSet.
          expect(Array.from(column.facetCounts())).toEqual(Array.from(model.counts))
          expect(Array.from(column.facetCounts())).toEqual(Array.from(model.counts))
          const third = documents.map((_, d) => d).filter((d) => d % 3 === 0)
          const thirdCounts = modelOf(documents.filter((_, d) => d % 3 === 0), shape.terms).counts
          expect(Array.from(column.facetCounts(DocSet.fromDocuments(reader, third)))).toEqual(Array.from(thirdCounts))
          reader.close()
        })
      }
    }
  }
})

describe('markFirstValues: a corrupt ordinal, in place or decoded', () => {
  // 3 values a document (3,001 documents, 9,003 values): value 1,500 (block 1, in a chunk of 3,072
  // values) or 9,001 (the last block, among the last 3 values of the last chunk's 2,859: past its
  // whole vectors and its groups of 4) set to a value past the terms. 200 terms: bytes read where
  // they lie (width 8); 40 terms: decoded first (width 6).
  for (const [termCount, width, bad] of [[200, 8, 230], [40, 6, 50]] as const) {
    for (const at of [1500, 9001]) {
      it(`${termCount} terms: names value ${at} on both backends`, () => {
        const terms = termsOf(termCount)
        const documents = Array.from({ length: 3001 }, (_, d) => [0, 1, 2].map((i) => terms[(d * 3 + i) % termCount]))
        const model = parseFile(flushColumns(SCHEMA, documents.map((t) => ({ t })))!)
        const block = at >>> 10, size = Math.min(1024, 9003 - block * 1024)
        const values = Array.from({ length: size }, (_, i) => BigInt((block * 1024 + i) % termCount))
        values[at - block * 1024] = BigInt(bad)
        model.columns[0].section.values.blocks[block] = packedBlock(values, 0n, 1n, width)
        const bytes = buildFile(model)
        for (const backend of BACKENDS) {
          const reader = openColumns(bytes, { backend, fileName: 'bad.oixk' })
          expect(() => reader.getColumn('t')!.facetCounts(), backend)
            .toThrow(`bad.oixk: values of field "t": value ${at} is ${bad}, not in [0, ${termCount})`)
          reader.close()
        }
      })
    }
  }
})
