// Histograms of packed blocks whose values lie in a narrow range (within 2^13 of the least base for
// WebAssembly, 2^16 for TypeScript) count each value at its place in that range for the whole call and
// sum between edges once (assembly/query-histogram-range.ts, src/backend/ts/query-histogram.ts). The
// blocks here mix ways: in the range with g = 1 and g = 3, out of it (the per-block paths, which share
// WebAssembly's count area with the range and must not lose its counts), constant and table blocks;
// edges fall below, on, between and above the values.
import { describe, expect, it } from 'vitest'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { seededRandom } from './helpers/random.js'

const BACKENDS = wasmUnavailableReason() === null ? (['ts', 'wasm'] as const) : (['ts'] as const)
const random = seededRandom(0x4a17)
const pick = (from: number, to: number) => from + Math.floor(random() * (to - from))
// Each block's values, by kind: 13-bit fields from a base in [1000, 3000) (in range), multiples of 3
// (g = 3, in range), 13-bit fields from 20,000 (out of WebAssembly's range, in TypeScript's), one value,
// four values (a table).
const kinds = [
  () => { const base = pick(1000, 3000); return (j: number) => (j === 0 ? base : j === 1 ? base + 5000 : base + pick(0, 5001)) },
  () => (j: number) => (j === 0 ? 1200 : 1200 + 3 * pick(0, 1500)),
  () => (j: number) => (j === 0 ? 20_000 : 20_000 + pick(0, 8000)),
  () => () => 4321,
  () => (j: number) => [1500, 1501, 7000, 9999][j & 3],
]
const order = [0, 1, 0, 2, 0, 3, 1, 4, 0, 2, 2, 0, 1, 0]
const values = order.flatMap((kind) => { const value = kinds[kind](); return Array.from({ length: 1024 }, (_, j) => value(j)) })
values.push(...Array.from({ length: 300 }, () => pick(1000, 9000)))
const N = values.length

const evenly = (count: number, from: number, to: number) => Array.from({ length: count }, (_, e) => Math.round(from + ((to - from) * e) / (count - 1)))
const edgeSets = [
  [1000, 3000, 6000, 9000, 30_000],
  evenly(40, 900, 10_000),
  [1500, 1501, 1502, 4321, 4322, 7000, 7001, 9999, 10_000],
  evenly(2000, 1000, 30_000),
  [...new Set(Array.from({ length: 300 }, () => pick(-5, 12_000)))].sort((a, b) => a - b),
  evenly(30, 1200, 1260),
]
const selections: (number[] | null)[] = [
  null,
  Array.from({ length: N }, (_, d) => d).filter(() => random() < 0.5),
  Array.from({ length: N }, (_, d) => d).filter(() => random() < 0.03),
  Array.from({ length: 5000 }, (_, d) => 4000 + d),
]

describe.each([1, 2] as const)('histograms over a narrow range of values (format %i)', (format) => {
  const bytes = flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, values.map((n) => ({ n })), { format })!
  it.each(BACKENDS)('count as a model does (%s backend)', (backend) => {
    using reader = openColumns(bytes, { backend })
    const column = reader.getColumn('n')!
    for (const documents of selections) {
      const docs = documents === null ? undefined : DocSet.fromDocuments(reader, documents)
      const chosen = documents === null ? values : documents.map((d) => values[d])
      for (const edges of edgeSets) {
        const expected = new Array<number>(edges.length - 1).fill(0)
        for (const n of chosen) {
          let b = 0
          while (b < edges.length && edges[b] <= n) b++
          if (b > 0 && b < edges.length) expected[b - 1]++
        }
        expect([...column.histogram(edges, docs)], `${edges.length} edges from ${edges[0]}, ${documents?.length ?? 'all'} documents`).toEqual(expected)
      }
    }
  })
})
