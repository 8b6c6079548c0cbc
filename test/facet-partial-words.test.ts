/**
 * Facet counts over DocSets that select parts of words: the kernels pack a word's selected
 * fields together (8-bit and 16-bit fields in place, other widths after unpacking to 32 bits)
 * before counting them. Keyword columns whose blocks come out at each of those widths, DocSets of
 * every density and a last block cut short, both backends and formats, against counts made
 * from the documents themselves; and 8- and 16-bit fields whose block divides its units by 2.
 */
import { describe, expect, it } from 'vitest'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { seededRandom } from './helpers/random.js'

const BACKENDS = wasmUnavailableReason() === null ? (['ts', 'wasm'] as const) : (['ts'] as const)
/** 35 whole blocks, then 170 documents: the last block ends inside a word. */
const MAX_DOC = 36_010
/** Terms per column, and the width of its packed fields in format 1 (ordinals spread over the whole dictionary). */
const COLUMNS = [{ terms: 200, width: 8 }, { terms: 300, width: 9 }, { terms: 5000, width: 13 }, { terms: MAX_DOC, width: 16 }]

const random = seededRandom(71)
// The last column holds a term of its own in each document, in an order far from the terms'.
const term = (terms: number, d: number) => `t${String(terms === MAX_DOC ? (d * 7919) % MAX_DOC : Math.floor(random() * terms)).padStart(5, '0')}`
const docs = Array.from({ length: MAX_DOC }, (_, d) => Object.fromEntries(COLUMNS.map(({ terms }) => [`k${terms}`, term(terms, d)])))
const schema = { fields: COLUMNS.map(({ terms }) => ({ name: `k${terms}`, type: 'keyword', facet: true })) }

describe('facet counts over DocSets selecting parts of words', () => {
  for (const format of [1, 2] as const) {
    const bytes = flushColumns(schema as never, docs as never, { format })!
    for (const backend of BACKENDS) {
      it(`${backend}, format ${format}: every field width, every density`, () => {
        const reader = openColumns(bytes, { backend })
        const pick = seededRandom(72)
        for (const density of [0.03, 0.3, 0.7, 0.97]) {
          const ids = Array.from({ length: MAX_DOC }, (_, d) => d).filter(() => pick() < density)
          const docSet = DocSet.fromDocuments(reader, ids)
          for (const { terms: n, width } of COLUMNS) {
            const column = reader.getColumn(`k${n}`)!
            if (format === 1) expect(column.values.records[6] >>> 8, `k${n}: block 1's field width`).toBe(width)
            const expected = new Uint32Array(column.dictionary!.termCount)
            for (const d of ids) expected[column.lookupOrdinal(docs[d][`k${n}`])]++
            expect(column.facetCounts(docSet), `k${n}, ${density}`).toEqual(expected)
          }
          docSet.release()
        }
        reader.close()
      })
    }
  }
})

/** Documents over every block: even blocks hold only even ordinals, odd blocks only odd ones, so each block's divisor is 2. */
const PARITY_DOCS = 72_000
const PARITY_COLUMNS = [{ terms: 512, width: 8 }, { terms: 70_000, width: 16 }]
function parityOrdinal(terms: number, d: number): number {
  const block = Math.floor(d / 1024), half = terms / 2
  const i = Math.floor(block / 2) * 1024 + (d % 1024) // the document's place among those of its parity
  return 2 * ((i * 7919) % half) + (block % 2)
}
const parityDocs = Array.from({ length: PARITY_DOCS }, (_, d) =>
  Object.fromEntries(PARITY_COLUMNS.map(({ terms }) => [`p${terms}`, `t${String(parityOrdinal(terms, d)).padStart(5, '0')}`])))
const paritySchema = { fields: PARITY_COLUMNS.map(({ terms }) => ({ name: `p${terms}`, type: 'keyword', facet: true })) }

describe('facet counts over 8- and 16-bit fields of blocks with a divisor of 2', () => {
  for (const format of [1, 2] as const) {
    const bytes = flushColumns(paritySchema as never, parityDocs as never, { format })!
    for (const backend of BACKENDS) {
      it(`${backend}, format ${format}`, () => {
        using reader = openColumns(bytes, { backend })
        const pick = seededRandom(73)
        for (const density of [0.3, 0.97, 1]) {
          const ids = Array.from({ length: PARITY_DOCS }, (_, d) => d).filter(() => pick() < density)
          using docSet = DocSet.fromDocuments(reader, ids)
          for (const { terms: n, width } of PARITY_COLUMNS) {
            const column = reader.getColumn(`p${n}`)!
            if (format === 1) expect([column.values.records[6] >>> 8, column.values.records[10]], `p${n}: block 1's width and divisor`).toEqual([width, 2])
            expect(column.dictionary!.termCount).toBe(n)
            const expected = new Uint32Array(n)
            for (const d of ids) expected[parityOrdinal(n, d)]++
            expect(column.facetCounts(docSet), `p${n}, ${density}`).toEqual(expected)
          }
        }
      })
    }
  }
})
