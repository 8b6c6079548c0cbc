/**
 * 16-bit fields read in place by the TypeScript aggregate and range kernels (query-scan.ts's
 * halfStart): on an even byte as u16s, on an odd one as bit fields, both as the model says,
 * and as WebAssembly answers.
 */
import { describe, expect, it } from 'vitest'
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
})
