// Golden files (made once by scripts/make-golden.ts): every file opens, verifies and dumps to its JSON,
// and re-flushing its documents gives the same bytes, so an accidental format change fails here.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { flushColumns, openColumns, type Schema } from '../src/index.js'
import { signature, summarize } from '../src/cascade/describe.js'
import { cascadesCase } from './helpers/cascades-golden.js'
import { revive } from './helpers/golden-json.js'
// The dump of test/golden/*.json, shared with the browser's golden page.
import { dump } from './browser/pages/compare.js'

/** The cascades golden file's documents, as the other inputs read. */
function cascadesInput() {
  const { fields, maxDoc, docs } = cascadesCase()
  return { schema: { fields } as Schema, maxDoc, docs }
}

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), 'golden')
const names = readdirSync(GOLDEN).filter((file) => file.endsWith('.oixk')).map((file) => file.slice(0, -'.oixk'.length)).sort()

describe('golden files', () => {
  it('the golden files are all there, each with its dump and input', () => {
    expect(names).toEqual(expect.arrayContaining(['blocks', 'dense-all-types', 'extremes', 'multi', 'optional-trailing', 'unicode', 'worked-example']))
    const files = readdirSync(GOLDEN)
    expect(files).toEqual(expect.arrayContaining(names.flatMap((name) => [`${name}.input.json`, `${name}.json`])))
  })

  for (const name of names) {
    describe(name, () => {
      const bytes = new Uint8Array(readFileSync(join(GOLDEN, `${name}.oixk`)))
      const expected = JSON.parse(readFileSync(join(GOLDEN, `${name}.json`), 'utf8'))
      const input = JSON.parse(readFileSync(join(GOLDEN, `${name}.input.json`), 'utf8'), revive) as {
        schema: Schema; maxDoc: number; docs: (Record<string, unknown> | null)[]
      }

      it('opens, verifies and dumps to its JSON', () => {
        const reader = openColumns(bytes, { maxDoc: expected.maxDoc, fileName: `${name}.oixk` })
        reader.verify()
        expect(dump(reader)).toEqual(expected)
      })

      it('re-flushing its documents writes the same bytes', () => {
        expect(input.maxDoc).toBe(expected.maxDoc)
        const flushed = flushColumns(input.schema, input.docs, { maxDoc: input.maxDoc })
        expect(flushed).not.toBeNull()
        expect(flushed!.length).toBe(bytes.length)
        expect(Buffer.from(flushed!).equals(Buffer.from(bytes))).toBe(true)
      })
    })
  }

  describe('format 2', () => {
    const V2 = join(GOLDEN, 'v2')
    const v2Names = readdirSync(V2).filter((file) => file.endsWith('.oixk')).map((file) => file.slice(0, -'.oixk'.length)).sort()
    it('every v1 golden file has its format 2 twin, and "cascades" takes every block kind and form', () => {
      expect(v2Names).toEqual([...names, 'cascades'].sort())
    })
    for (const name of v2Names) {
      // The cascades documents are generated (test/helpers/cascades-golden.ts); the others are v1's inputs.
      const input = (name === 'cascades' ? cascadesInput() : JSON.parse(readFileSync(join(GOLDEN, `${name}.input.json`), 'utf8'), revive)) as
        { schema: Schema; maxDoc: number; docs: (Record<string, unknown> | null)[] }
      const bytes = new Uint8Array(readFileSync(join(V2, `${name}.oixk`)))
      it(`${name}: opens and verifies on both backends, dumps as its v1 twin, and re-flushes to the same bytes`, () => {
        const v1 = name === 'cascades'
          ? dump(openColumns(flushColumns(input.schema, input.docs, { maxDoc: input.maxDoc }), { maxDoc: input.maxDoc }))
          : JSON.parse(readFileSync(join(GOLDEN, `${name}.json`), 'utf8'))
        for (const backend of ['ts', 'wasm'] as const) {
          const reader = openColumns(bytes, { maxDoc: input.maxDoc, fileName: `v2/${name}.oixk`, backend })
          expect(reader.format).toBe(2)
          reader.verify()
          expect(dump(reader), backend).toEqual(v1)
        }
        const flushed = flushColumns(input.schema, input.docs, { maxDoc: input.maxDoc, format: 2 })
        expect(Buffer.from(flushed!).equals(Buffer.from(bytes))).toBe(true)
      })
    }
    it('cascades: each column comes out in the cascade it was built for', () => {
      const reader = openColumns(new Uint8Array(readFileSync(join(V2, 'cascades.oixk'))))
      const shapes: Record<string, string> = Object.fromEntries(reader.columns.flatMap((column) => [[column.name, signature(summarize(column.values, 2))],
        ...(column.dictionary === null ? [] : [[`${column.name} (dictionary)`, column.dictionary.encoding!.formName]])]))
      expect(shapes).toEqual(JSON.parse(readFileSync(join(V2, 'cascades.shapes.json'), 'utf8')))
      // Every dictionary form a flush writes (v1's never is: the plain form is always smaller).
      const forms = new Set(Object.entries(shapes).filter(([name]) => name.endsWith(' (dictionary)')).map(([, form]) => form))
      expect([...forms].sort()).toEqual(['digits', 'front', 'front-fsst', 'fsst', 'plain'])
      const sequences = Object.entries(shapes).filter(([name]) => !name.endsWith(' (dictionary)')).map(([, shape]) => shape)
      const kinds = new Set(sequences.flatMap((shape) => [...shape.matchAll(/blocks\{([a-z ]+)\}/g)].flatMap((m) => m[1].split(' '))))
      expect([...kinds].sort()).toEqual(['constant', 'dictionary', 'frame', 'frequent', 'linear', 'patched'])
      expect(Object.values(shapes).map((shape) => shape.split(/[({]/)[0]).sort()).toEqual(expect.arrayContaining(['blocks', 'decimal', 'dictionary', 'runs']))
    })
  })

  it('spot checks against hand-computed values', () => {
    const load = (name: string) => openColumns(new Uint8Array(readFileSync(join(GOLDEN, `${name}.oixk`))))
    const worked = readFileSync(join(GOLDEN, 'worked-example.oixk'))
    expect([...worked.subarray(48, 50)]).toEqual([0x88, 0x0a]) // docs/format.md §6.3
    expect(load('dense-all-types').getColumn('f')!.getRawBigInt(0)).toBe(-4607182418800017409n) // -1.0
    expect(load('extremes').getColumn('f')!.getRawBigInt(0)).toBe(-9221120237041090852n) // fff8000000000123
    expect(load('unicode').columns.map((c) => c.name)).toEqual(['a\u{1F600}', 'a\uFFFD'])
    const blocks = load('blocks').getColumn('v')!.values.records
    expect([0, 1, 2, 3].map((b) => blocks[6 * b] & 0xff)).toEqual([2, 1, 0, 1]) // table, packed, constant, packed
  })
})
