/**
 * Model-based test of the query API: random files of every type × layout ×
 * block form, random DocSets of several densities, every method compared
 * exactly with the naive model of test/helpers/query-model.ts, on each backend
 * whose query kernels exist. Plus golden counts, errors and DocSet checks.
 */
import { describe, expect, it } from 'vitest'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { CorruptIndexException } from '../src/format/errors.js'
import { float64ToSortableBits, sortableBitsToFloat64 } from '../src/format/sortable-bits.js'
import { DocSet } from '../src/kernels/doc-set.js'
import type { Column } from '../src/read/column.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { bits, buildFile, packedBlock, parseFile, tableBlock } from './helpers/file-surgery.js'
import {
  modelAggregate, modelBox, modelFacet, modelHistogram, modelOf, modelRange, modelTerms, modelTopK, modelTopTerms,
  type ModelColumn, type Natural,
} from './helpers/query-model.js'
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

/** Named DocSets of several densities, the last selecting only documents of the last partial block. */
function docSets(reader: ColumnsReader, random: () => number): { name: string; docs: DocSet | undefined; ids: number[] }[] {
  const maxDoc = reader.maxDoc
  const all = Array.from({ length: maxDoc }, (_, d) => d)
  const sampled = (p: number) => all.filter(() => random() < p)
  const lastBlock = Math.floor((maxDoc - 1) / 1024) * 1024
  const sets: [string, number[] | null][] = [
    ['undefined (all)', null], ['empty', []], ['1%', sampled(0.01)], ['10%', sampled(0.1)], ['50%', sampled(0.5)],
    ['all', all], ['last partial block', all.filter((d) => d >= lastBlock && random() < 0.7)],
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
    if (random() < 0.15) return raw // raw SortableBits bound
    const value = sortableBitsToFloat64(raw)
    if (Number.isNaN(value)) return pickOne(random, [0, -0, Infinity, -Infinity, 1.5])
    return random() < 0.2 ? value + (random() - 0.5) * Math.abs(value) * 1e-3 : value
  }
  const safe = raw >= BigInt(Number.MIN_SAFE_INTEGER) && raw <= BigInt(Number.MAX_SAFE_INTEGER)
  if (type === 'date' && safe && raw >= -8640000000000000n && raw <= 8640000000000000n && random() < 0.3) return new Date(Number(raw))
  if (safe && random() < 0.5) return Number(raw) + (random() < 0.3 ? pickOne(random, [0.5, -0.5, 0.25]) : 0)
  return raw
}

function checkColumn(model: ModelColumn, sets: ReturnType<typeof docSets>, random: () => number): void {
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
      const terms = Array.from({ length: 1 + Math.floor(random() * 4) }, () => column.term(Math.floor(random() * column.dictionary!.termCount)))
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
      if (trial < 2 && typeof lo === typeof hi && !(lo instanceof Date) && lo > hi) [lo, hi] = [hi, lo]
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

for (const backend of BACKENDS) {
  const reason = skipReason(backend)
  describe(`query API against the naive model (${backend} backend)`, () => {
    if (reason !== null) {
      it.skip(`${backend}: skipped: ${reason}`, () => {})
      return
    }
    for (const { seed, maxDoc } of FILES) {
      it(`random file seed ${seed}, maxDoc ${maxDoc}: every method, every column, every DocSet density`, () => {
        const random = seededRandom(seed)
        const { schema, docs } = randomDocuments(random, maxDoc)
        const reader = openColumns(flushColumns(schema, docs)!, { backend })
        const sets = docSets(reader, random)
        for (const column of reader.columns) checkColumn(modelOf(column), sets, random)
        reader.close()
      })
    }
  })
}
