/**
 * Linear blocks (format 2) bound their values by their line's two ends and their fields' span, as
 * the other kinds bound theirs from their records: range filters and histograms take blocks wholly
 * inside or outside as they are, and topK reads only the blocks that can rank. Lines that rise,
 * fall, are steep or fractional, with and without jitter, against a model of the values; both
 * backends.
 */
import { describe, expect, it } from 'vitest'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { signature, summarize } from '../src/cascade/describe.js'
import { blockExtremes } from '../src/cascade/query-match-runs.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { seededRandom } from './helpers/random.js'

const BACKENDS = wasmUnavailableReason() === null ? (['ts', 'wasm'] as const) : (['ts'] as const)
const N = 20_300
const jitter = seededRandom(0x11ea)
const LINES: Record<string, (i: number) => number> = {
  rising: (i) => 5 + i * 3 + Math.floor(jitter() * 4),
  falling: (i) => 9_000_000 - i * 7 - Math.floor(jitter() * 3),
  steep: (i) => -(2 ** 40) + i * 1_000_003,
  fractional: (i) => Math.floor(i * 3.37) + (i % 2) + 11,
  fallingFraction: (i) => 50_000 - Math.floor(i * 2.203) - (i % 2),
  fallingHalves: (i) => 100_000 - Math.floor(i * 2.5),
  fallingThirds: (i) => 100_000 - Math.floor((i * 7) / 3),
}
const values = Object.fromEntries(Object.entries(LINES).map(([name, line]) => [name, Array.from({ length: N }, (_, i) => line(i))]))
const names = Object.keys(LINES)
const schema = { fields: names.map((name) => ({ name, type: 'integral', column: true })) }
const bytes = flushColumns(schema, Array.from({ length: N }, (_, i) => Object.fromEntries(names.map((name) => [name, values[name][i]]))), { format: 2 })!

/** The k best documents by value, ties by id. */
function top(name: string, k: number, ascending: boolean, chosen: number[]): number[] {
  return [...chosen].sort((a, b) => (values[name][a] - values[name][b]) * (ascending ? 1 : -1) || a - b).slice(0, k)
}

describe.each(BACKENDS)('linear blocks bounded (%s backend)', (backend) => {
  const reader = openColumns(bytes, { backend })
  const pick = seededRandom(0x5e7)
  const everyone = Array.from({ length: N }, (_, d) => d)
  const chosenSets = [everyone, everyone.filter(() => pick() < 0.3), everyone.filter(() => pick() < 0.002)]

  it('every column is linear blocks, each bounded by its own values', () => {
    for (const name of names) {
      const sequence = reader.getColumn(name)!.values
      expect(signature(summarize(sequence, 2)), name).toBe('blocks{linear}')
      const extremes = blockExtremes((sequence.cascade as { blocks: typeof sequence }).blocks)
      for (let block = 0; block * 1024 < N; block++) {
        const own = values[name].slice(block * 1024, (block + 1) * 1024)
        // At or beyond the block's own least and largest, and no further than its fields' span allows.
        expect(extremes[2 * block], `${name} block ${block}`).toBeLessThanOrEqual(Math.min(...own))
        expect(extremes[2 * block + 1], `${name} block ${block}`).toBeGreaterThanOrEqual(Math.max(...own))
        expect(extremes[2 * block + 1] - extremes[2 * block], `${name} block ${block}`).toBeLessThan(Math.max(...own) - Math.min(...own) + 16)
      }
    }
  })

  it('range filters, histograms and topK answer as the values say', () => {
    for (const name of names) {
      const column = reader.getColumn(name)!, own = values[name]
      const min = Math.min(...own), max = Math.max(...own)
      const at = (f: number) => Math.floor(min + (max - min) * f)
      for (const chosen of chosenSets) {
        const docs = chosen === everyone ? undefined : DocSet.fromDocuments(reader, chosen)
        for (const [lo, hi] of [[min, max], [at(0.1), at(0.35)], [at(0.5), at(0.5)], [own[3000], own[5000]], [own[5000], own[3000]], [at(0.999), max + 5]]) {
          const expected = chosen.filter((d) => own[d] >= lo && own[d] <= hi)
          expect([...column.rangeFilter(lo, hi, docs).toArray()], `${name} [${lo}, ${hi}]`).toEqual(expected)
        }
        const edges = [min, at(0.2), at(0.21), at(0.6), max + 1]
        const expected = edges.slice(1).map((edge, b) => chosen.filter((d) => own[d] >= edges[b] && own[d] < edge).length)
        expect([...column.histogram(edges, docs)], `${name} histogram`).toEqual(expected)
        for (const k of [1, 10, 1500]) {
          for (const order of ['ascending', 'descending'] as const) {
            expect([...column.topK(k, order, docs)], `${name} top ${k} ${order}`).toEqual(top(name, k, order === 'ascending', chosen))
          }
        }
        docs?.release()
      }
    }
  })
})
