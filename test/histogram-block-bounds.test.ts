// Format 2 histograms count a block whole, unread, where its bounds (as topK bounds blocks) lie in
// one bucket (src/cascade/query-encodings.ts, blockSlots). Edges at a block's least and largest
// value, and one past them, must count each value in its own bucket, on both backends.
import { describe, expect, it, vi } from 'vitest'
import type { RunsCascade, SequenceView } from '../src/backend/backend.js'
import { resolveBackend } from '../src/backend/select.js'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { signature, summarize } from '../src/cascade/describe.js'
import { fewEdgesPerBlock } from '../src/cascade/query-slots.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { seededRandom } from './helpers/random.js'
import { withRunOneStart } from './helpers/file-surgery.js'

const BACKENDS = wasmUnavailableReason() === null ? (['ts', 'wasm'] as const) : (['ts'] as const)
const N = 20_000
// Block b holds 1000 b + u, u in [0, 255] with both ends present: in even blocks as 16 runs of 64
// (run blocks, bounded by their run values), in odd ones at random (8-bit fields, bounded by their
// record). Either way a block's bounds are its least and largest values exactly.
const random = seededRandom(0xb10c)
const values = Array.from({ length: N }, (_, i) => {
  const block = i >>> 10, j = i & 1023
  return 1000 * block + (block % 2 === 0 ? (j >>> 6) * 17 : j < 2 ? 255 * j : Math.floor(random() * 256))
})
const bytes = flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, values.map((n) => ({ n })), { format: 2 })!

describe.each(BACKENDS)('format 2 histograms over blocks bounded in one bucket (%s backend)', (backend) => {
  it('count values at a block\'s extremes in their own buckets', () => {
    using reader = openColumns(bytes, { backend })
    const column = reader.getColumn('n')!
    // A sequence of blocks (form 0) of format 2 kinds: run blocks go through the format 2 paths.
    expect(column.values.cascade?.form).toBe(0)
    for (let block = 0; block * 1024 < N; block++) {
      const part = values.slice(block * 1024, (block + 1) * 1024)
      const least = Math.min(...part), largest = Math.max(...part)
      for (const edges of [[least, largest], [least - 1, least, largest, largest + 1], [least + 1, largest + 1], [largest, largest + 3]]) {
        const expected = edges.slice(1).map((edge, b) => values.filter((n) => n >= edges[b] && n < edge).length)
        expect([...column.histogram(edges)], `block ${block}, edges ${edges}`).toEqual(expected)
      }
    }
  })
})

describe.each(BACKENDS)('a run block across one edge whose starts do not ascend (%s backend)', (backend) => {
  it('is counted as reads give its values, not by its runs\' lengths', () => {
    // Run 1 of block 0 made to start at 200, after later runs start (the open does not check the order): a walk that
    // took run lengths as stop - start would count a negative one; the kernel refuses the block, and a decode answers.
    const corrupt = withRunOneStart(bytes, openColumns(bytes, { backend: 'ts' }).getColumn('n')!.values, 0, 200)
    expect([corrupt.word & 0xff, (corrupt.word >>> 16) + 1]).toEqual([4, 16])
    using reader = openColumns(corrupt.bytes, { backend })
    const column = reader.getColumn('n')!
    const read = new BigInt64Array(N)
    column.readValues(0, read)
    // Edges inside block 0's values (0 to 255): the block lies across two buckets.
    for (const edges of [[1, 256], [18, 1000], [0, 35, 300]]) {
      const expected = edges.slice(1).map((edge, b) => read.filter((n) => n >= BigInt(edges[b]) && n < BigInt(edge)).length)
      expect([...column.histogram(edges)], `edges ${edges}`).toEqual(expected)
    }
  })
})

// A sorted column of short runs (3.4 values on average) is a runs sequence (form 2) with no block
// records: its blocks are bounded by the values of the runs over them, so a histogram counts a
// block inside one bucket whole and walks or decodes only the blocks an edge cuts (format 1 reads
// one block per edge too); before, every value was decoded or every run walked.
describe.each(BACKENDS)('format 2 histograms over a runs sequence of short runs (%s backend)', (backend) => {
  const random = seededRandom(0x5e75)
  const COUNT = 60_000
  let level = -1_000_000
  const sorted = Array.from({ length: COUNT }, () => (random() < 0.3 ? (level += 1 + Math.floor(random() * 1000)) : level))
  const runsBytes = flushColumns({ fields: [{ name: 'at', type: 'integral', column: true }] }, sorted.map((at) => ({ at })), { format: 2 })!
  const low = sorted[0], high = sorted[COUNT - 1]
  const edgeSets = [
    [low, high + 1],
    Array.from({ length: 13 }, (_, e) => Math.round(low + ((high + 1 - low) * e) / 12)),
    [low - 5, sorted[1024], sorted[1024] + 1, sorted[30_000], high, high + 1],
  ]

  it('counts as a model does, for every DocSet, decoding only the blocks an edge cuts', () => {
    using reader = openColumns(runsBytes, { backend })
    const column = reader.getColumn('at')!
    expect(signature(summarize(column.values, 2))).toMatch(/^runs\(\d+ runs\)/)
    const cascade = column.values.cascade as RunsCascade
    expect(COUNT / cascade.runCount).toBeLessThan(4)
    const selections: (number[] | null)[] = [null, Array.from({ length: COUNT }, (_, d) => d).filter(() => random() < 0.1), [0, 1023, 1024, 59_999]]
    const owner = resolveBackend(backend)
    for (const documents of selections) {
      const docs = documents === null ? undefined : DocSet.fromDocuments(reader, documents)
      const chosen = documents === null ? sorted : documents.map((d) => sorted[d])
      for (const edges of edgeSets) {
        const expected = edges.slice(1).map((edge, b) => chosen.filter((n) => n >= edges[b] && n < edge).length)
        // The first question makes the blocks' bounds (every run value decoded once); then only cut blocks are read.
        expect([...column.histogram(edges, docs)], `edges ${edges}`).toEqual(expected)
        const decodeRaw = vi.spyOn(owner, 'decodeRaw')
        try {
          expect([...column.histogram(edges, docs)], `edges ${edges}`).toEqual(expected)
          const read = (view: SequenceView) => decodeRaw.mock.calls.filter((call) => call[0] === view).reduce((sum, call) => sum + call[2], 0)
          // Values decoded, plus runs walked (their starts), at most a block's a cut edge.
          expect(read(column.values) + read(cascade.starts), `edges ${edges}`).toBeLessThanOrEqual(1024 * (edges.length - 1) + 1)
        } finally {
          decodeRaw.mockRestore()
        }
      }
    }
  })
})

// Format 1 packed blocks under many edges (WebAssembly: each u counted where the fields span at most
// 2^13 values, whatever the number of edges; a branch-free search among a block's own edges for wider
// spans; the TypeScript backend by its own paths): widths 9 to 20, 9 to 5,000 edges, every value and a
// tenth of them, against a model.
describe.each(BACKENDS)('format 1 histograms of packed blocks under many edges (%s backend)', (backend) => {
  it('count as a model does', () => {
    const random = seededRandom(0xed9e)
    const widths = [9, 12, 13, 14, 20]
    const packed = widths.flatMap((w) => Array.from({ length: 3000 }, () => -50_000 + 7 * Math.floor(random() * 2 ** w)))
    const file = flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, packed.map((n) => ({ n })))!
    using reader = openColumns(file, { backend })
    const column = reader.getColumn('n')!
    const low = Math.min(...packed), high = Math.max(...packed)
    const tenth = Array.from({ length: packed.length }, (_, d) => d).filter(() => random() < 0.1)
    const spread = (edgeCount: number, from: number, to: number) =>
      [...new Set(Array.from({ length: edgeCount }, () => from + Math.floor(random() * (to - from))))].sort((a, b) => a - b)
    // Edges over the whole range (a few inside each block), and thousands inside the narrow blocks' spans.
    const edgeSets = [9, 33, 100, 1500, 5000].map((count) => spread(count, low - 3, high + 3))
      .concat([spread(1500, -50_010, -50_000 + 7 * 2 ** 9 + 10), spread(5000, -50_010, -50_000 + 7 * 2 ** 13 + 10), spread(5000, -50_010, -50_000 + 7 * 2 ** 14)])
    for (const edges of edgeSets) {
      for (const documents of [null, tenth]) {
        const chosen = documents === null ? packed : documents.map((d) => packed[d])
        const expected = new Array<number>(edges.length - 1).fill(0)
        for (const n of chosen) {
          // Edges at or below n, by binary search.
          let at = 0, to = edges.length
          while (at < to) {
            const middle = (at + to) >>> 1
            if (edges[middle] <= n) at = middle + 1
            else to = middle
          }
          if (at >= 1 && at < edges.length) expected[at - 1]++
        }
        const docs = documents === null ? undefined : DocSet.fromDocuments(reader, documents)
        expect([...column.histogram(edges, docs)], `${edges.length} edges from ${edges[0]}, ${documents === null ? 'all' : 'a tenth'}`).toEqual(expected)
      }
    }
  })
})

// Format 2 histograms of a sequence dictionary's decoded copy with up to 32 buckets (WebAssembly) go to
// format 1's kernel only where few blocks hold many edges; else the codes are counted.
describe('the choice between format 1\'s kernel on a decoded copy and counting codes', () => {
  const words = (edges: number[]) => Int32Array.from(edges.flatMap((edge) => [edge | 0, Math.floor(edge / 2 ** 32)]))
  // Eight blocks: [100 b, 100 b + 99].
  const extremes = Float64Array.from(Array.from({ length: 8 }, (_, b) => [100 * b, 100 * b + 99]).flat())
  it('takes the kernel when at most a quarter of the blocks hold more than 8 edges', () => {
    expect(fewEdgesPerBlock(extremes, words(Array.from({ length: 9 }, (_, e) => 100 * e)))).toBe(true)
    const nineIn = (block: number) => Array.from({ length: 9 }, (_, e) => 100 * block + 1 + e)
    expect(fewEdgesPerBlock(extremes, words([...nineIn(2), ...nineIn(5)]))).toBe(true)
    expect(fewEdgesPerBlock(extremes, words([...nineIn(2), ...nineIn(5), ...nineIn(6)]))).toBe(false)
    expect(fewEdgesPerBlock(extremes, words(Array.from({ length: 800 }, (_, e) => e - 1)))).toBe(false)
    // Edges at a block's least value are not inside it (its values are all at or past them).
    expect(fewEdgesPerBlock(extremes, words([-5, 0, 100, 200, 300, 400, 500, 600, 700]))).toBe(true)
  })
})
