/**
 * The model-based query checks shared by test/query-model.test.ts and
 * test/query-multi.test.ts: named DocSets of every density, and every query
 * method of a column compared exactly with the naive model (helpers/query-model.ts).
 */
import { expect } from 'vitest'
import { sortableBitsToFloat64 } from '../../src/format/sortable-bits.js'
import { DocSet } from '../../src/kernels/doc-set.js'
import type { Column } from '../../src/read/column.js'
import type { ColumnsReader } from '../../src/read/reader.js'
import {
  modelAggregate, modelBox, modelFacet, modelHistogram, modelRange, modelTerms, modelTopK, modelTopTerms,
  type ModelColumn, type Natural,
} from './query-model.js'

/** Named DocSets of several densities (and shapes: empty blocks, the last partial block only). */
export function docSets(reader: ColumnsReader, random: () => number): { name: string; docs: DocSet | undefined; ids: number[] }[] {
  const maxDoc = reader.maxDoc
  const all = Array.from({ length: maxDoc }, (_, d) => d)
  const sampled = (p: number) => all.filter(() => random() < p)
  const lastBlock = Math.floor((maxDoc - 1) / 1024) * 1024
  const sets: [string, number[] | null][] = [
    ['undefined (all)', null], ['empty', []], ['1%', sampled(0.01)], ['10%', sampled(0.1)], ['50%', sampled(0.5)],
    ['all', all], ['last partial block', all.filter((d) => d >= lastBlock && random() < 0.7)],
    // Cross-filter shapes: whole blocks empty, the others sparse (kernels skip the first, read the rest value by value).
    ['5% of every other block', all.filter((d) => ((d >>> 10) & 1) === 0 && random() < 0.05)],
  ]
  return sets.map(([name, ids]) => ({
    name,
    docs: ids === null ? undefined : name === 'all' ? reader.allDocuments() : DocSet.fromDocuments(reader, ids),
    ids: ids ?? all,
  }))
}

function pickOne<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]
}

/** A bound near the column's values, in one of the natural forms. */
function randomBound(model: ModelColumn, random: () => number): Natural {
  const values = model.raw.flat()
  const type = model.column.type
  const raw = values.length > 0 && random() < 0.8 ? pickOne(random, values) : BigInt(Math.floor(random() * 2000) - 1000)
  if (type === 'fractional') {
    if (random() < 0.15) return { raw } // raw SortableBits bound
    if (random() < 0.05) return raw // a bigint: the double the writer would store
    const value = sortableBitsToFloat64(raw)
    if (Number.isNaN(value)) return pickOne(random, [0, -0, Infinity, -Infinity, 1.5])
    return random() < 0.2 ? value + (random() - 0.5) * Math.abs(value) * 1e-3 : value
  }
  const safe = raw >= BigInt(Number.MIN_SAFE_INTEGER) && raw <= BigInt(Number.MAX_SAFE_INTEGER)
  if (type === 'date' && safe && raw >= -8640000000000000n && raw <= 8640000000000000n && random() < 0.3) return new Date(Number(raw))
  // A fraction only well inside 2^53, where the sum stays below it (a number bound from 2^53 on is refused).
  if (safe && random() < 0.5) return Number(raw) + (random() < 0.3 && raw > -(2n ** 52n) && raw < 2n ** 52n ? pickOne(random, [0.5, -0.5, 0.25]) : 0)
  return raw
}

/** Every query method of the column, with every DocSet, against the model. */
export function checkColumn(model: ModelColumn, sets: ReturnType<typeof docSets>, random: () => number): void {
  const column: Column = model.column
  const label = `${column.name}`
  const type = column.type
  for (const { name, docs, ids } of sets) {
    const at = `${label} with docs ${name}`
    if (type === 'keyword' || type === 'bool') {
      expect(column.facetCounts(docs), `${at}: facetCounts`).toEqual(modelFacet(model, ids))
      const reused = new Uint32Array(type === 'bool' ? 2 : column.dictionary!.termCount).fill(7)
      expect(column.facetCounts(docs, reused), `${at}: facetCounts into counts`).toEqual(modelFacet(model, ids))
    }
    if (type === 'keyword') {
      const k = pickOne(random, [0, 1, 3, 1000])
      expect(column.topTerms(k, docs), `${at}: topTerms(${k})`).toEqual(modelTopTerms(model, k, ids))
      // 20 scattered terms take the decoded-ordinals path (more than 8 ordinal runs).
      const terms = Array.from({ length: pickOne(random, [1, 2, 4, 20]) }, () => column.term(Math.floor(random() * column.dictionary!.termCount)))
      terms.push('no such term')
      const ordinals = new Set(terms.map((term) => column.lookupOrdinal(term)).filter((o) => o >= 0))
      expect(column.termFilter(terms, docs).toArray(), `${at}: termFilter`).toEqual(Uint32Array.from(modelTerms(model, ordinals, ids)))
    }
    if (type === 'geo_point') {
      const lat = () => random() * 200 - 100, lon = () => random() * 400 - 200
      const box = random() < 0.2
        ? { minLatitude: -0, maxLatitude: 0, minLongitude: 0, maxLongitude: -0 }
        : { minLatitude: Math.min(lat(), lat()), maxLatitude: Math.max(lat(), lat()), minLongitude: lon(), maxLongitude: lon() }
      expect(column.boundingBoxFilter(box, docs).toArray(), `${at}: boundingBoxFilter ${JSON.stringify(box)}`).toEqual(Uint32Array.from(modelBox(model, box, ids)))
      continue
    }
    for (let trial = 0; trial < 3; trial++) {
      let lo = randomBound(model, random), hi = randomBound(model, random)
      if (trial < 2 && typeof lo === typeof hi && !(lo instanceof Date) && (lo as number | bigint) > (hi as number | bigint)) [lo, hi] = [hi, lo]
      const got = column.rangeFilter(lo, hi, docs)
      expect(got.toArray(), `${at}: rangeFilter(${String(lo)}, ${String(hi)})`).toEqual(Uint32Array.from(modelRange(model, lo, hi, ids)))
      got.release()
    }
    expect(column.aggregate(docs), `${at}: aggregate`).toEqual(modelAggregate(model, ids))
    const k = pickOne(random, [0, 1, 5, 100000])
    for (const order of ['ascending', 'descending'] as const) {
      expect(Array.from(column.topK(k, order, docs)), `${at}: topK(${k}, ${order})`).toEqual(modelTopK(model, k, order, ids))
    }
    if (type === 'integral' || type === 'date' || type === 'fractional') {
      const edges = randomEdges(model, random)
      if (edges.length >= 2) expect(column.histogram(edges, docs), `${at}: histogram(${edges.map(String)})`).toEqual(modelHistogram(model, edges, ids))
    }
  }
}

/** 2..7 strictly increasing edges from the column's values (doubles for fractional). */
function randomEdges(model: ModelColumn, random: () => number): Natural[] {
  const values = model.raw.flat()
  const n = 2 + Math.floor(random() * 6)
  if (model.column.type === 'fractional') {
    const doubles = Array.from({ length: n }, () => (values.length > 0 ? sortableBitsToFloat64(pickOne(random, values)) : random()))
      .filter((x) => !Number.isNaN(x)).sort((a, b) => a - b)
    return doubles.filter((x, i) => i === 0 || doubles[i - 1] < x)
  }
  const raws = Array.from({ length: n }, () => (values.length > 0 && random() < 0.9 ? pickOne(random, values) : BigInt(Math.floor(random() * 100))))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return raws.filter((x, i) => i === 0 || raws[i - 1] < x)
}
