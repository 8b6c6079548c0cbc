/**
 * topK over columns of few distinct values (most blocks bounded by the value the heap's worst
 * kept one holds): the blocks after it are not read, and the answer is still the k best with ties
 * to the smallest document ids, as a model says: dense, optional and multi layouts, DocSets of
 * several densities, both backends, formats 1 and 2.
 */
import { describe, expect, it } from 'vitest'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { seededRandom } from './helpers/random.js'

const COUNT = 9000
const random = seededRandom(0x70b)
// Four values, the largest rarer; a block of 1s only (block 4), and a few 9s late in the column.
const dense = Array.from({ length: COUNT }, (_, d) => ((d >> 10) === 4 ? 1 : d > 8000 && d % 97 === 0 ? 9 : Math.floor(random() ** 2 * 4)))
const optional = dense.map((value, d) => (d % 5 === 1 ? null : value))
const multi = Array.from({ length: COUNT }, (_, d) => (d % 7 === 3 ? [] : [dense[d], (dense[d] + d) % 4]))
const schema = { fields: [{ name: 'd', type: 'integral', column: true }, { name: 'o', type: 'integral', column: true }, { name: 'm', type: 'integral', column: true, multi: true }] }
const docs = Array.from({ length: COUNT }, (_, d) => ({ d: dense[d], ...(optional[d] === null ? {} : { o: optional[d] }), m: multi[d] }))
const valuesOf = { d: (d: number) => [dense[d]], o: (d: number) => (optional[d] === null ? [] : [optional[d]!]), m: (d: number) => multi[d] }

/** The k best documents (each by its best value), ties by document id. */
function model(field: keyof typeof valuesOf, k: number, ascending: boolean, chosen: Set<number> | null): number[] {
  const ranked: [number, number][] = []
  for (let d = 0; d < COUNT; d++) {
    const values = valuesOf[field](d)
    if (values.length === 0 || (chosen !== null && !chosen.has(d))) continue
    ranked.push([ascending ? Math.min(...values) : Math.max(...values), d])
  }
  ranked.sort((a, b) => (a[0] !== b[0] ? (ascending ? a[0] - b[0] : b[0] - a[0]) : a[1] - b[1]))
  return ranked.slice(0, k).map(([, d]) => d)
}

describe('topK over few distinct values', () => {
  for (const backend of ['ts', 'wasm'] as const) {
    for (const format of [1, 2] as const) {
      it(`${backend}, format ${format}: the k best, ties by document, every layout and density`, () => {
        const reader = openColumns(flushColumns(schema, docs, { format })!, { backend })
        for (const density of [null, 0.01, 0.3, 1]) {
          const pick = seededRandom(Math.round((density ?? 2) * 100))
          const chosen = density === null ? null : Array.from({ length: COUNT }, (_, d) => d).filter(() => pick() < density)
          const set = chosen === null ? undefined : DocSet.fromDocuments(reader, chosen)
          for (const field of ['d', 'o', 'm'] as const) {
            for (const k of [1, 10, 300]) {
              for (const order of ['ascending', 'descending'] as const) {
                const expected = model(field, k, order === 'ascending', chosen === null ? null : new Set(chosen))
                expect(Array.from(reader.getColumn(field)!.topK(k, order, set)), `${field} k ${k} ${order} density ${density}`).toEqual(expected)
              }
            }
          }
          set?.release()
        }
        reader.close()
      })
    }
  }
})

// A sequence dictionary long enough for topK to mark its candidates by range filters (16,384 values
// or more): six values and NaN, so one value's ties run through every block, and the ties the k best
// need may end in any 65,536-value chunk.
const LONG = 200_000
const longRandom = seededRandom(0x70c)
const fractional = Array.from({ length: LONG }, (_, d) => (d % 1013 === 7 ? NaN : [0.5, -2, 7.25, 3, 1e6, -0.125][Math.floor(longRandom() * 6)]))
const tags = Array.from({ length: LONG }, (_, d) => (d % 9 === 4 ? [] : [fractional[d], fractional[(d * 7) % LONG]]))
const longSchema = { fields: [{ name: 'f', type: 'fractional', column: true }, { name: 'm', type: 'fractional', column: true, multi: true }] }
const longDocs = Array.from({ length: LONG }, (_, d) => ({ f: fractional[d], m: tags[d] }))

/** The k best documents by their best value other than NaN (documents of NaN only after, by id), ties by id. */
function longModel(field: 'f' | 'm', k: number, ascending: boolean, chosen: Set<number> | null): number[] {
  const ranked: [number, number][] = []
  const nanOnly: number[] = []
  for (let d = 0; d < LONG; d++) {
    const values = field === 'f' ? [fractional[d]] : tags[d]
    if (values.length === 0 || (chosen !== null && !chosen.has(d))) continue
    const numbers = values.filter((value) => !Number.isNaN(value))
    if (numbers.length === 0) nanOnly.push(d)
    else ranked.push([ascending ? Math.min(...numbers) : Math.max(...numbers), d])
  }
  ranked.sort((a, b) => (a[0] !== b[0] ? (ascending ? a[0] - b[0] : b[0] - a[0]) : a[1] - b[1]))
  return [...ranked.map(([, d]) => d), ...nanOnly].slice(0, k)
}

describe('topK over a long sequence dictionary of few values', () => {
  const bytes = flushColumns(longSchema, longDocs, { format: 2 })!
  for (const backend of ['ts', 'wasm'] as const) {
    it(`${backend}: the k best, ties by document, when one value's ties fill every block`, () => {
      const reader = openColumns(bytes, { backend })
      for (const field of ['f', 'm'] as const) {
        const values = (reader.getColumn(field) as unknown as { values: { cascade: { form: number } | null } }).values
        expect(values.cascade?.form, `${field}: a sequence dictionary`).toBe(1)
      }
      for (const density of [null, 0.002, 0.3]) {
        const pick = seededRandom(Math.round((density ?? 2) * 1000))
        const chosen = density === null ? null : Array.from({ length: LONG }, (_, d) => d).filter(() => pick() < density)
        const set = chosen === null ? undefined : DocSet.fromDocuments(reader, chosen)
        for (const field of ['f', 'm'] as const) {
          for (const order of ['ascending', 'descending'] as const) {
            const ranked = longModel(field, LONG, order === 'ascending', chosen === null ? null : new Set(chosen))
            for (const k of [1, 10, 5000, 70_000, 190_000]) {
              expect(Array.from(reader.getColumn(field)!.topK(k, order, set)), `${field} k ${k} ${order} density ${density}`).toEqual(ranked.slice(0, k))
            }
          }
        }
        set?.release()
      }
      reader.close()
    })
  }
})
