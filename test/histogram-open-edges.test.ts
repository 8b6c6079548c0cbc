/**
 * Histogram edges beyond the i64 range: ±Infinity (docs/query.md: "±Infinity means unbounded") and
 * integers past 2^63 - 1. A last edge above every i64 leaves its bucket without an upper bound, so it
 * counts the values equal to 2^63 - 1 too; the buckets from such an edge on count nothing. Checked
 * against a model of the documents on every layout, both formats and both backends.
 */
import { describe, expect, it } from 'vitest'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import type { NaturalValue } from '../src/kernels/natural-units.js'
import { float64ToSortableBits } from '../src/format/sortable-bits.js'

const MAX = 2n ** 63n - 1n, MIN = -(2n ** 63n)
const VALUES = [MAX, MIN, 0n, -1n, 5n, MAX, 2n ** 62n, MAX - 1n]
const schema = { fields: [
  { name: 'dense', type: 'integral', column: true },
  { name: 'optional', type: 'integral', column: true },
  { name: 'multi', type: 'integral', column: true, multi: true },
  { name: 'small', type: 'date', column: true },
] } as const
// Document d: dense VALUES[d % 8]; optional every third document absent; multi 0-2 values; small without MAX.
const MAX_DOC = 3000
const documents = Array.from({ length: MAX_DOC }, (_, d) => ({
  dense: VALUES[d % 8],
  optional: d % 3 === 0 ? null : VALUES[(d * 5) % 8],
  multi: Array.from({ length: d % 3 }, (_, nth) => VALUES[(d + 3 * nth) % 8]),
  small: d * 1000 - 5000,
}))

function valuesOf(field: string, document: number): bigint[] {
  const value = (documents[document] as Record<string, unknown>)[field]
  if (value === null) return []
  return Array.isArray(value) ? value : [BigInt(value as bigint | number)]
}

/** The model: [lo, hi) per bucket with each edge as an exact bigint (±Infinity as ∓/± beyond every i64). */
function model(field: string, edges: readonly NaturalValue[], selected: (document: number) => boolean): number[] {
  const exact = edges.map((edge) => (edge === Infinity ? 2n ** 70n : edge === -Infinity ? -(2n ** 70n) : BigInt(edge as bigint | number)))
  const counts = new Array(edges.length - 1).fill(0)
  for (let document = 0; document < MAX_DOC; document++) {
    if (!selected(document)) continue
    for (const value of valuesOf(field, document)) {
      for (let bucket = 0; bucket < counts.length; bucket++) if (value >= exact[bucket] && value < exact[bucket + 1]) counts[bucket]++
    }
  }
  return counts
}

const EDGE_LISTS: NaturalValue[][] = [
  [-Infinity, 0, Infinity],
  [-Infinity, Infinity],
  [0, 2n ** 64n],
  [MAX, Infinity],
  [MAX - 1n, MAX, 2n ** 63n, 2n ** 64n],
  [2n ** 64n, 2n ** 65n],
  [-(2n ** 64n), MIN, -1, 6, MAX],
]

describe.each(['wasm', 'ts'] as const)('histogram edges beyond the i64 range (%s)', (backend) => {
  it.each([1, 2] as const)('format %i: every layout, all documents and a DocSet', (format) => {
    using reader = openColumns(flushColumns(schema, documents, { maxDoc: MAX_DOC, format })!, { backend })
    using some = reader.createDocSet()
    for (let document = 0; document < MAX_DOC; document += 7) some.add(document)
    for (const field of ['dense', 'optional', 'multi', 'small']) {
      for (const edges of EDGE_LISTS) {
        const at = `${field} ${edges.map(String).join(', ')}`
        expect(Array.from(reader.column(field).histogram(edges)), at).toEqual(model(field, edges, () => true))
        expect(Array.from(reader.column(field).histogram(edges, some)), `${at} over every 7th`).toEqual(model(field, edges, (document) => some.has(document)))
      }
    }
    expect(Array.from(reader.column('dense').histogram([-Infinity, Infinity]))).toEqual([MAX_DOC])
    expect(() => reader.column('dense').histogram([0, NaN])).toThrow(new RangeError('field "dense": histogram edge 1 is NaN'))
  })
})

describe.each(['wasm', 'ts'] as const)('fractional histogram edges given { raw } (%s)', (backend) => {
  // In raw (sortable-bits) order, as rangeFilter takes them: NaN patterns and -0 / +0 apart. The edges were
  // compared as doubles, so a NaN pattern or a -0 / +0 pair was refused as "not strictly increasing".
  it.each([1, 2] as const)('format %i: NaN patterns and signed zeros as edges, against rangeFilter', (format) => {
    const values = [NaN, -0, 0, 3, -NaN, 5, -2, Infinity]
    using reader = openColumns(flushColumns({ fields: [{ name: 'f', type: 'fractional', column: true }] }, values.map((f) => ({ f })), { format })!, { backend })
    const column = reader.column('f')
    const sortable = (x: number) => float64ToSortableBits(x)
    const count = (lo: bigint, hi: bigint) => column.rangeFilter({ raw: lo }, { raw: hi - 1n }).count()
    for (const raw of [[0n, MAX], [-1n, 0n, sortable(5)], [sortable(-0), sortable(0), sortable(Infinity) + 1n], [MIN, sortable(-2), MAX]]) {
      const edges = raw.map((edge) => ({ raw: edge }))
      expect(Array.from(column.histogram(edges)), raw.join(', ')).toEqual(raw.slice(1).map((hi, b) => count(raw[b], hi)))
    }
    // A number beside a { raw } edge: raw order too (the number keeps its zero rule: 0 as a lower bound is -0's raw).
    expect(Array.from(column.histogram([0, { raw: sortable(0) }, 4]))).toEqual([1, 2])
    expect(() => column.histogram([{ raw: 5n }, { raw: 5n }])).toThrow(new RangeError('field "f": histogram edges must be strictly increasing (edge 1)'))
  })
})
