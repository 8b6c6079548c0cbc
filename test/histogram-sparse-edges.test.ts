/**
 * Histograms with many edges inside each block over a few selected values, where each selected
 * value is looked up among the raw edges (TypeScript) rather than every edge converted per block:
 * the model's counts, edges on, between and beside the values, both formats.
 */
import { describe, expect, it } from 'vitest'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { seededRandom } from './helpers/random.js'

const N = 20_000
const random = seededRandom(0x4157)
// Packed blocks of wide spans with a common step of 3 (a divisor), negative values too.
const values = Array.from({ length: N }, () => 3 * Math.floor((random() - 0.5) * 2e8) + 1)
const schema = { fields: [{ name: 'n', type: 'integral', column: true }] } as const

function model(edges: number[], chosen: number[]): number[] {
  const counts = new Array<number>(edges.length - 1).fill(0)
  for (const document of chosen) {
    const value = values[document]
    let bucket = -1
    while (bucket + 1 < edges.length && edges[bucket + 1] <= value) bucket++
    if (bucket >= 0 && bucket < counts.length) counts[bucket]++
  }
  return counts
}

describe.each(['ts', 'wasm'] as const)('histograms of many edges over few selected values (%s)', (backend) => {
  it.each([1, 2] as const)('format %i: counts as the model', (format) => {
    using reader = openColumns(flushColumns(schema, values.map((n) => ({ n })), { format })!, { backend })
    const column = reader.column('n')
    const chosen = Array.from({ length: N }, (_, document) => document).filter(() => random() < 0.004)
    const docs = DocSet.fromDocuments(reader, chosen)
    // 5,000 edges over the values' span; a few set on chosen values themselves, one past them.
    const edges = Array.from({ length: 5000 }, (_, index) => -3e8 + Math.floor((6e8 * index) / 5000))
    for (const document of chosen.slice(0, 10)) edges.push(values[document], values[document] + 1)
    const sorted = [...new Set(edges)].sort((a, b) => a - b)
    expect(Array.from(column.histogram(sorted, docs))).toEqual(model(sorted, chosen))
    docs.release()
  })
})
