/**
 * topK over format 2 run blocks read run by run (src/kernels/top-k-runs.ts), and over blocks
 * whose values reach a full heap through the range kernel (top-k-blocks.ts, offerMatches): the
 * answer is the model's k best with ties by document id, in both orders, for runs sorted either
 * way or in no order, negative values, DocSets of several densities, dense and multi layouts,
 * both backends and both formats. A run block whose run ends are out of order is decoded, and
 * refused as a read refuses it.
 */
import { describe, expect, it } from 'vitest'
import type { ColumnsBackend } from '../src/backend/backend.js'
import { createAggregateState } from '../src/backend/query-kernels.js'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { Kind } from '../src/cascade/constants.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { blockOf, setField } from './helpers/cascade-duel.js'
import { fixChecksum } from './helpers/file-surgery.js'
import { seededRandom } from './helpers/random.js'
import { float64ToSortableBits } from '../src/format/sortable-bits.js'
import { blockBounds } from '../src/kernels/top-k-blocks.js'
import { resolveBackend } from '../src/backend/select.js'

const BACKENDS = wasmUnavailableReason() === null ? (['ts', 'wasm'] as const) : (['ts'] as const)
const COUNT = 7000
const random = seededRandom(0x70c5)
// Blocks 0-1 ascending runs, 2-3 descending runs, 4-5 runs of values at random (negative too),
// block 6 values at random (no runs): runs of 1 to 40 equal values throughout blocks 0-5.
const runs: number[] = []
for (let value = -50; runs.length < 6144;) {
  const block = runs.length >> 10, length = 1 + Math.floor(random() * 40)
  value = block < 2 ? value + 1 + Math.floor(random() * 3) : block < 4 ? value - 1 - Math.floor(random() * 3) : Math.floor(random() * 400) - 200
  for (let at = 0; at < length && runs.length < 6144; at++) runs.push(value)
}
const dense = [...runs, ...Array.from({ length: COUNT - runs.length }, () => Math.floor(random() * 1000) - 500)]
const multi = dense.map((value, d) => (d % 11 === 5 ? [] : d % 3 === 0 ? [value, value - 7] : [value]))
const schema = { fields: [{ name: 'd', type: 'integral', column: true }, { name: 'm', type: 'integral', column: true, multi: true }] }
const docs = dense.map((value, d) => ({ d: value, m: multi[d] }))

/** The k best documents (each by its best value), ties by document id. */
function model(valuesOf: (d: number) => number[], k: number, ascending: boolean, chosen: Set<number> | null): number[] {
  const ranked: [number, number][] = []
  for (let d = 0; d < COUNT; d++) {
    const values = valuesOf(d)
    if (values.length === 0 || (chosen !== null && !chosen.has(d))) continue
    ranked.push([ascending ? Math.min(...values) : Math.max(...values), d])
  }
  ranked.sort((a, b) => (a[0] !== b[0] ? (ascending ? a[0] - b[0] : b[0] - a[0]) : a[1] - b[1]))
  return ranked.slice(0, k).map(([, d]) => d)
}

describe.each(BACKENDS)('topK over run blocks and full heaps (%s backend)', (backend) => {
  for (const format of [1, 2] as const) {
    it(`format ${format}: the k best, ties by document, runs in any order, every density`, () => {
      using reader = openColumns(flushColumns(schema, docs, { format })!, { backend })
      const column = reader.getColumn('d')!
      if (format === 2) {
        // Blocks 0-5 are run blocks of a form-0 sequence: the run path is the one taken.
        expect(column.values.cascade?.form).toBe(0)
        for (let block = 0; block < 6; block++) expect(column.values.records[6 * block] & 0xff, `block ${block}`).toBe(Kind.runs)
      }
      for (const density of [null, 0.02, 0.5]) {
        const pick = seededRandom(Math.round((density ?? 2) * 100))
        const chosen = density === null ? null : Array.from({ length: COUNT }, (_, d) => d).filter(() => pick() < density)
        const set = chosen === null ? undefined : DocSet.fromDocuments(reader, chosen)
        for (const [field, valuesOf] of [['d', (d: number) => [dense[d]]], ['m', (d: number) => multi[d]]] as const) {
          for (const k of [1, 10, 300, 3000]) {
            for (const order of ['ascending', 'descending'] as const) {
              const expected = model(valuesOf, k, order === 'ascending', chosen === null ? null : new Set(chosen))
              // Twice: the second walk reads blocks in the order the first one's bounds left.
              for (const pass of [1, 2]) {
                expect(Array.from(reader.getColumn(field)!.topK(k, order, set)), `${field} k ${k} ${order} density ${density} pass ${pass}`).toEqual(expected)
              }
            }
          }
        }
        set?.release()
      }
    })
  }

  it('a run block whose run starts are out of order answers from its decoded values, as reads give them', () => {
    // Starts are not checked at open; reads find each value's run by a fixed search all the same.
    const bytes = flushColumns(schema, docs, { format: 2 })!
    const source = openColumns(bytes, { backend: 'ts' })
    const block = blockOf(source.getColumn('d')!.values, 1)
    source.close()
    expect(block.kind).toBe(Kind.runs)
    const starts = block.data + Math.ceil(((block.param + 1) * block.width) / 8)
    setField(bytes, starts, 3, 10, 2)
    setField(bytes, starts, 7, 10, 1023)
    using reader = openColumns(fixChecksum(bytes), { backend })
    const column = reader.getColumn('d')!
    const read = Array.from({ length: COUNT }, (_, d) => Number(column.getInt64(d)))
    expect(read.slice(1024, 2048)).not.toEqual(dense.slice(1024, 2048))
    for (const k of [10, 3000]) {
      for (const order of ['ascending', 'descending'] as const) {
        expect(Array.from(column.topK(k, order)), `k ${k} ${order}`).toEqual(model((d) => [read[d]], k, order === 'ascending', null))
      }
    }
  })

  it('aggregates of any range of values over run blocks, one value to all of them, with and without a selection', () => {
    // A pool worker aggregates its documents' range of values: it may end one value into a run block.
    using reader = openColumns(flushColumns(schema, docs, { format: 2 })!, { backend })
    const column = reader.getColumn('d')!
    expect(blockOf(column.values, 0).kind).toBe(Kind.runs)
    const query = (column as unknown as { backend: ColumnsBackend }).backend.query
    const ranges = [[0, 1], [1023, 1], [1024, 1], [5000, 1], [6143, 1], [6144, 1], [0, 2], [1023, 2], [700, 2000], [0, COUNT], [6000, 1000]]
    for (const [first, count] of ranges) {
      for (const selected of [false, true]) {
        const words = selected ? Int32Array.from({ length: ((count + 31) >>> 5) + 1 }, (_, w) => (w === 0 ? 1 : 0x5555_5555)) : null
        const chosen = Array.from({ length: count }, (_, i) => words === null || ((words[i >>> 5] >>> (i & 31)) & 1) === 1)
        const selection = words === null ? null : query.allocateBitset(words.length)
        selection?.words.set(words!)
        const state = createAggregateState()
        query.aggregate(column.values, first, count, 'integer', selection, 0, state)
        selection?.release()
        const kept = dense.slice(first, first + count).filter((_, i) => chosen[i])
        const sum = (BigInt(state.words[5] >>> 0) << 32n) | BigInt(state.words[4] >>> 0)
        expect([state.numbers[0], BigInt.asIntN(64, sum), state.words[0], state.words[2]], `[${first}, ${first + count})${selected ? ' selected' : ''}`)
          .toEqual([kept.length, BigInt(kept.reduce((a, b) => a + b, 0)), Math.min(...kept), Math.max(...kept)])
      }
    }
  })
})

describe('topK over a runs sequence (form 2): blocks bounded by the runs over them', () => {
  // Long runs of values in no order (a few NaN runs too): the sequence's own runs form.
  const COUNT = 150_000
  const runValues = [7.5, -3, 1e9, NaN, 0, 42.25, -1e12, 7.5, 3, NaN, 1e9, -3]
  const valueAt = (d: number) => runValues[Math.floor((d * runValues.length) / COUNT)]
  const bytes = flushColumns({ fields: [{ name: 'r', type: 'fractional', column: true }] }, Array.from({ length: COUNT }, (_, d) => ({ r: valueAt(d) })), { format: 2 })!
  const model = (k: number, ascending: boolean, chosen: number[]) => {
    const numbers = chosen.filter((d) => !Number.isNaN(valueAt(d))).sort((a, b) => (valueAt(a) - valueAt(b)) * (ascending ? 1 : -1) || a - b)
    return [...numbers, ...chosen.filter((d) => Number.isNaN(valueAt(d)))].slice(0, k)
  }
  for (const backend of (wasmUnavailableReason() === null ? ['ts', 'wasm'] : ['ts']) as ('ts' | 'wasm')[]) {
    it(`${backend}: the k best with ties by id, every block bounded`, () => {
      using reader = openColumns(bytes, { backend })
      const column = reader.getColumn('r')!
      expect(column.values.cascade?.form).toBe(2)
      const pick = seededRandom(0x2f0)
      const everyone = Array.from({ length: COUNT }, (_, d) => d)
      for (const chosen of [everyone, everyone.filter(() => pick() < 0.05)]) {
        const docs = chosen === everyone ? undefined : DocSet.fromDocuments(reader, chosen)
        for (const k of [1, 10, 20_000]) {
          for (const order of ['ascending', 'descending'] as const) {
            expect([...column.topK(k, order, docs)], `top ${k} ${order} of ${chosen.length}`).toEqual(model(k, order === 'ascending', chosen))
          }
        }
      }
      // Every block bounded by its runs (none left at the i64 range's end).
      const { bounds } = blockBounds(column.values, false, resolveBackend(backend))
      expect([bounds.length, bounds.filter((bound) => bound === 2n ** 63n - 1n).length]).toEqual([Math.ceil(COUNT / 1024), 0])
      // Block 0 holds only run 0's 7.5; block 12 (values 12,288 to 13,311) runs 0 and 1: 7.5.
      expect([bounds[0], bounds[12]]).toEqual([float64ToSortableBits(7.5), float64ToSortableBits(7.5)])
    })
  }
})
