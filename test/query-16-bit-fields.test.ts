/**
 * 16-bit fields read in place by the TypeScript aggregate and range kernels (query-scan.ts's
 * halfStart): on an even byte as u16s, on an odd one as bit fields, both as the model says,
 * and as WebAssembly answers; and byte fields read in place by the range kernel, for runs that
 * start inside a block (a pool worker's range) too.
 */
import { describe, expect, it } from 'vitest'
import { resolveBackend } from '../src/backend/select.js'
import { boundsOf } from '../src/kernels/filters.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'

const COUNT = 3001
const values = Array.from({ length: COUNT }, (_, i) => (i * 7919) % 60000)

describe('16-bit fields in place, TypeScript', () => {
  // The keyword's one term shifts the integers' data by a byte: 'ab' puts it on an even byte, 'abc' on an odd one.
  for (const [term, parity] of [['ab', 0], ['abc', 1]] as const) {
    it(`data on an ${parity ? 'odd' : 'even'} byte: aggregate and rangeFilter as the model says`, () => {
      const docs = values.map((n) => ({ a: term, n }))
      const bytes = flushColumns({ fields: [{ name: 'a', type: 'keyword', facet: true }, { name: 'n', type: 'integral', column: true }] }, docs)!
      for (const backend of ['ts', 'wasm'] as const) {
        const column = openColumns(bytes, { backend }).getColumn('n')!
        const sequence = column.values
        expect([(sequence.records[0] >>> 8) & 0xff, (sequence.bytes.byteOffset + sequence.dataStart) & 1]).toEqual([16, parity])
        const sum = values.reduce((a, b) => a + b, 0)
        expect(column.aggregate()).toMatchObject({ count: COUNT, min: Math.min(...values), max: Math.max(...values), sum })
        for (const [lo, hi] of [[0, 0], [100, 30_000], [59_990, 70_000], [-5, 65_535]]) {
          const expected = values.flatMap((n, d) => (n >= lo && n <= hi ? [d] : []))
          expect([...column.rangeFilter(lo, hi).toArray()], `${backend} [${lo}, ${hi}]`).toEqual(expected)
        }
      }
    })
  }

  it('runs that start inside a block: matchRange over byte and 16-bit fields from any first value', () => {
    const bytesOf = values.map((n) => n % 256)
    const file = flushColumns({ fields: [{ name: 'b', type: 'integral', column: true }, { name: 'n', type: 'integral', column: true }] }, values.map((n, d) => ({ b: bytesOf[d], n })))!
    for (const name of ['ts', 'wasm'] as const) {
      const backend = resolveBackend(name)
      const reader = openColumns(file, { backend: name })
      for (const [field, column, lo, hi] of [['b', bytesOf, 10, 200], ['n', values, 100, 30_000]] as const) {
        const sequence = reader.getColumn(field)!.values
        expect((sequence.records[0] >>> 8) & 0xff).toBe(field === 'b' ? 8 : 16)
        for (const [first, count] of [[0, COUNT], [1056, 1500], [2016, 985]]) {
          const out = backend.query.allocateBitset((count + 31) >>> 5)
          const matched = backend.query.matchRange(sequence, first, count, boundsOf(BigInt(lo), BigInt(hi)), null, 0, out, 0)
          const got = Array.from({ length: count }, (_, i) => (out.words[i >>> 5] >>> (i & 31)) & 1)
          const expected = column.slice(first, first + count).map((v) => (v >= lo && v <= hi ? 1 : 0))
          expect(got, `${name} ${field} [${first}, +${count})`).toEqual(expected)
          expect(matched).toBe(expected.filter((bit) => bit === 1).length)
          out.release()
        }
      }
      reader.close()
    }
  })
})
