/**
 * Term filters of several scattered terms in one membership pass (assembly/query-ordinals.ts,
 * the WebAssembly backend; TypeScript decodes the ordinals and looks them up): every block kind
 * a keyword column's ordinals take in format 1 (constant, table, byte fields over bases 0 and
 * above, narrower and wider fields, a short last block), and format 2's codes decoded as the
 * ordinals, each layout, every DocSet density, against a model. An ordinal not below the term
 * count (valid checksum) raises the reader's exact error on both backends.
 */
import { describe, expect, it } from 'vitest'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { buildFile, parseFile } from './helpers/file-surgery.js'
import { seededRandom } from './helpers/random.js'

const BACKENDS = ['ts', 'wasm'] as const
const FILE = 'terms.oixk'
// 20 whole blocks and a short one: format 2 decodes the codes of sequences of 16 blocks or more.
const COUNT = 20 * 1024 + 500
const name = (t: number) => `t${String(t).padStart(3, '0')}`
const random = seededRandom(0x7e4d5)

/** Ordinals of `small` (229 terms) by block: each block's values are shaped so format 1 writes the kind named. */
function smallOrdinal(d: number): number {
  const block = d >> 10, at = d & 1023
  switch (block % 6) {
    case 0: return 17 // constant
    case 1: return 3 + (at % 4) // 2-bit fields over base 3
    case 2: return 100 + Math.floor(random() * 128) // 7-bit fields over base 100
    case 3: return at === 5 ? 0 : Math.floor(random() * 229) // byte fields over base 0
    case 4: return at === 9 ? 20 : 20 + Math.floor(random() * 209) // byte fields over base 20, largest 228
    default: return Math.floor(random() ** 3 * 229) // skewed
  }
}
const small = Array.from({ length: COUNT }, (_, d) => smallOrdinal(d))
// Skewed and scattered (format 2: a dictionary by frequency, codes decoded for queries as the ordinals).
const skewed = (k: number) => (Math.floor(random() ** 3 * k) * 71) % k
// 600 terms: fields of 9 bits and more (one by one), and a table of three entries (block 1).
const wide = Array.from({ length: COUNT }, (_, d) => ((d >> 10) === 1 ? [3, 300, 599][d % 3] : skewed(600)))
// Optional: a value in seven documents of eight; multi: 0-4 values, repeats inside a document.
const optional = Array.from({ length: COUNT }, (_, d) => (d % 8 === 2 ? null : skewed(229)))
const tags = Array.from({ length: COUNT }, () => Array.from({ length: Math.floor(random() * 5) }, () => skewed(229)))

const schema = { fields: ['small', 'wide', 'optional', 'tags'].map((field) => ({ name: field, type: 'keyword', facet: true, multi: field === 'tags' })) }
const docs = Array.from({ length: COUNT }, (_, d) => {
  const doc: Record<string, unknown> = { small: name(small[d]), wide: name(wide[d]), tags: tags[d].map(name) }
  if (optional[d] !== null) doc.optional = name(optional[d]!)
  return doc
})
// Every term of each column is used (so ordinal = t): t000-t228 by name, t000-t599 for wide.
for (let t = 0; t < 600; t++) docs[t].wide = name(t)
for (let t = 0; t < 229; t++) { docs[COUNT - 1 - t].small = name(t); docs[COUNT - 1 - t].optional = name(t); docs[COUNT - 1 - t].tags = [name(t)] }
const valuesOf = (field: string, d: number): number[] => {
  const value = docs[d][field]
  if (value === undefined) return []
  return (Array.isArray(value) ? value : [value]).map((term) => Number((term as string).slice(1)))
}
const files = { 1: flushColumns(schema, docs)!, 2: flushColumns(schema, docs, { format: 2 })! }

const TERM_SETS: [string, number[]][] = [
  ['two runs', [5, 6, 7, 90]],
  ['12 scattered', [0, 3, 17, 20, 41, 90, 100, 150, 190, 211, 227, 228]],
  ['20 scattered, some beyond small', [1, 2, 9, 30, 31, 64, 99, 101, 127, 128, 129, 160, 200, 229, 255, 256, 300, 511, 512, 599]],
  ['above 128 only', [129, 140, 200, 255]],
]

describe('termFilter of several terms in one membership pass', () => {
  for (const backend of BACKENDS) {
    it(`${backend}: every block kind, layout and DocSet density, formats 1 and 2, as the model says`, () => {
      for (const format of [1, 2] as const) {
        const reader = openColumns(files[format], { backend, fileName: FILE })
        // Format 1's blocks: the kinds the data was shaped for.
        if (format === 1) {
          const blocks = (field: string) => parseFile(files[1]).columns.find((column) => new TextDecoder().decode(column.name) === field)!.section.values.blocks
          expect(blocks('small').slice(0, 6).map((block) => [block.kind, block.width, Number(block.base)])).toEqual([[0, 0, 17], [1, 2, 3], [1, 7, 100], [1, 8, 0], [1, 8, 20], [1, 8, 0]])
          expect([blocks('wide')[1].kind, blocks('wide')[1].width]).toEqual([2, 2])
        }
        const densities = [null, 0.002, 0.1, 0.5, 1]
        for (const density of densities) {
          const pick = seededRandom(Math.round((density ?? 7) * 1000))
          const chosen = density === null ? null : Array.from({ length: COUNT }, (_, d) => d).filter(() => pick() < density)
          const set = chosen === null ? undefined : DocSet.fromDocuments(reader, chosen)
          const inSet = chosen === null ? null : new Set(chosen)
          for (const field of ['small', 'wide', 'optional', 'tags']) {
            const column = reader.getColumn(field)!
            for (const [label, ordinals] of TERM_SETS) {
              const members = new Set(ordinals)
              const expected = Array.from({ length: COUNT }, (_, d) => d)
                .filter((d) => (inSet === null || inSet.has(d)) && valuesOf(field, d).some((v) => members.has(v)))
              using got = column.termFilter(ordinals.map(name), set)
              expect([...got.toArray()], `format ${format}, ${field}, ${label}, density ${density}`).toEqual(expected)
            }
          }
          set?.release()
        }
        // Format 2's dictionary codes were decoded as the ordinals (the pass reads them as format 1's).
        if (format === 2) expect(reader.decodedCodesBytes).toBeGreaterThan(COUNT)
        reader.close()
      }
    })
  }

  /** Format 1 with one edit to field `field`'s blocks (checksum valid). */
  function corrupt(field: string, edit: (blocks: ReturnType<typeof parseFile>['columns'][number]['section']['values']['blocks']) => void): Uint8Array {
    const model = parseFile(files[1])
    edit(model.columns.find((column) => new TextDecoder().decode(column.name) === field)!.section.values.blocks)
    return buildFile(model)
  }
  /** Byte field `at` of `small` set so that its value is `value`. */
  const byteAt = (at: number, value: number) => corrupt('small', (blocks) => {
    const block = blocks[at >> 10]
    expect(block.width).toBe(8)
    block.data[at & 1023] = value - Number(block.base)
  })

  it('an ordinal not below the term count raises the reader\'s exact error: in vectors, a short tail, over a base, in other blocks', () => {
    const cases: [string, Uint8Array, string, number, number, number][] = [
      // Blocks 3 and 9: bytes over base 0; block 4: over base 20 (byte 209 is ordinal 229); block 20: 500 values (a tail of 20).
      ['small', byteAt(3 * 1024 + 100, 229), 'small', 3 * 1024 + 100, 229, 229],
      ['small', byteAt(9 * 1024 + 1023, 255), 'small', 9 * 1024 + 1023, 255, 229],
      ['small', byteAt(4 * 1024 + 31, 229), 'small', 4 * 1024 + 31, 229, 229],
      ['small', byteAt(20 * 1024 + 490, 229), 'small', 20 * 1024 + 490, 229, 229],
      // A constant block of ordinal 229; byte fields over base 229; a table entry of 600 (wide's 600 terms).
      ['small', corrupt('small', (blocks) => { blocks[0].base = 229n }), 'small', 0, 229, 229],
      ['small', corrupt('small', (blocks) => { blocks[3].base = 229n }), 'small', 3072, 229 + small[3072], 229],
      ['wide', corrupt('wide', (blocks) => { new DataView(blocks[1].data.buffer, blocks[1].data.byteOffset).setBigInt64(16, 600n, true) }), 'wide', 1025, 600, 600],
    ]
    for (const [field, bytes, named, at, value, k] of cases) {
      for (const backend of BACKENDS) {
        const reader = openColumns(bytes, { backend, fileName: FILE })
        const column = reader.getColumn(field)!
        expect(() => column.termFilter(['t000', 't003']), `${backend} ${field} ${at}`).toThrow(`${FILE}: values of field "${named}": value ${at} is ${value}, not in [0, ${k})`)
        // A DocSet without that value's 4,096 values: nothing to refuse.
        const away = (at + 8192) % COUNT
        using set = DocSet.fromDocuments(reader, [away])
        expect([...column.termFilter(['t000', 't003', 't017', 't100', 't228'], set).toArray()], `${backend} ${field} ${at}`).toEqual(
          valuesOf(field, away).some((v) => [0, 3, 17, 100, 228].includes(v)) ? [away] : [],
        )
        reader.close()
      }
    }
  })
})
