/**
 * Term and range filters over keyword ordinals held in bytes, against a model: format 1's byte
 * blocks (TypeScript compares four bytes a word, shifted together where the data does not start
 * on a word; WebAssembly takes whole blocks 64 fields at a time) and format 2's decoded copy of
 * bytes (one pass over the whole range), each data start modulo 4, with and without a DocSet.
 */
import { describe, expect, it } from 'vitest'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { seededRandom } from './helpers/random.js'

const BACKENDS = wasmUnavailableReason() === null ? (['ts', 'wasm'] as const) : (['ts'] as const)
// Over 16 blocks, so that format 2's first question decodes a copy of the codes; not whole blocks.
const COUNT = 20_011

/** 200 terms, the first lengthened by `extra` bytes: the values' data start moves by as many. */
function file(extra: number, format: 1 | 2) {
  const terms = Array.from({ length: 200 }, (_, t) => `t${String(t).padStart(3, '0')}${t === 0 ? 'x'.repeat(extra) : ''}`)
  const random = seededRandom(0xb17e + extra)
  // Skewed and scattered over the terms (as flights' airports): format 2 numbers codes by frequency.
  const keywords = Array.from({ length: COUNT }, () => terms[(Math.floor(random() ** 3 * 200) * 71) % 200])
  const bytes = flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, keywords.map((k) => ({ k })), { format })!
  return { terms, keywords, bytes }
}

describe.each(BACKENDS)('filters over keyword ordinals in bytes (%s backend)', (backend) => {
  for (const format of [1, 2] as const) {
    it(`format ${format}: every data start modulo 4, one term, a run of terms, within a DocSet`, () => {
      const starts = new Set<number>()
      for (let extra = 0; extra < 4; extra++) {
        const { terms, keywords, bytes } = file(extra, format)
        using reader = openColumns(bytes, { backend })
        const column = reader.getColumn('k')!
        // Asked once first, so that format 2 reads its decoded copy from then on.
        column.facetCounts()
        if (format === 2) expect(reader.decodedCodesBytes, `extra ${extra}`).toBeGreaterThan(0)
        const values = column.values as unknown as { dataStartInBuffer?: number; dataStart: number; file: { bytes: Uint8Array } }
        if (format === 1) starts.add((values.file.bytes.byteOffset + values.dataStart) & 3)
        const chosen = Array.from({ length: COUNT }, (_, d) => d).filter((d) => d % 7 !== 3)
        using within = DocSet.fromDocuments(reader, chosen)
        for (const picked of [[terms[0]], [terms[1]], [terms[150]], [terms[199]], terms.slice(3, 9), ['absent']]) {
          const wanted = new Set(picked)
          const expected = keywords.flatMap((keyword, d) => (wanted.has(keyword) ? [d] : []))
          using all = column.termFilter(picked)
          expect([...all.toArray()], `extra ${extra} ${picked}`).toEqual(expected)
          using part = column.termFilter(picked, within)
          expect([...part.toArray()], `extra ${extra} ${picked} within`).toEqual(expected.filter((d) => d % 7 !== 3))
        }
      }
      if (format === 1) expect([...starts].sort()).toEqual([0, 1, 2, 3])
    })
  }
})
