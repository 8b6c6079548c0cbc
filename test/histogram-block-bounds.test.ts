// Format 2 histograms count a block whole, unread, where its bounds (as topK bounds blocks) lie in
// one bucket (src/cascade/query-encodings.ts, blockSlots). Edges at a block's least and largest
// value, and one past them, must count each value in its own bucket, on both backends.
import { describe, expect, it } from 'vitest'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
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
