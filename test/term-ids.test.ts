/**
 * Keyword ids in the writer for terms past 16,383 characters, which V8 hashes by their length
 * alone and TermIds keys by their characters: the same ids as a Map gives, a refused document's
 * new long terms taken back, and files byte-identical to those of the same terms shorter.
 */
import { describe, expect, it } from 'vitest'
import { TermIds } from '../src/write/term-ids.js'
import { ColumnsWriter, flushColumns } from '../src/write/columns-writer.js'
import { openColumns } from '../src/read/open.js'

const LONG = 20_000
/** A term of `length` characters that differs from its neighbours only near its end. */
const term = (index: number, length = LONG) => 'x'.repeat(length - 8) + index.toString(36).padStart(8, '0')

describe('TermIds', () => {
  it('gives, keeps and forgets ids as a Map does, for short and long terms alike', () => {
    const terms: string[] = []
    const ids = new TermIds(terms)
    const model = new Map<string, number>()
    const words = [...Array.from({ length: 300 }, (_, index) => term(index)), ...Array.from({ length: 300 }, (_, index) => term(index, 40))]
    for (const word of [...words, ...words.slice(0, 50)]) {
      const known = ids.get(word)
      expect(known).toBe(model.get(word))
      if (known === undefined) {
        model.set(word, terms.length)
        ids.set(word, terms.length)
        terms.push(word)
      }
    }
    // Forgotten (as a rollback does) while their terms are still listed.
    for (const word of [term(7), term(7, 40)]) {
      ids.delete(word)
      expect(ids.get(word)).toBeUndefined()
    }
    expect([ids.get(term(8)), ids.get(term(8, 40)), ids.get(term(300)), ids.get('')]).toEqual([8, 308, undefined, undefined])
  })
})

describe('long keyword terms in a flush', () => {
  const schema = { fields: [{ name: 'k', type: 'keyword', column: true }, { name: 'n', type: 'integral', column: true }] } as const

  it.each([1, 2] as const)('a refused document takes its new long terms back (format %i)', (format) => {
    const writer = new ColumnsWriter(schema, { format })
    for (let document = 0; document < 200; document++) writer.addDocument(document, { k: term(document % 150) })
    // A new term, then a bad value: the document is refused, and its term must not stay.
    expect(() => writer.addDocument(200, { k: term(999), n: 1.5 })).toThrow('is not an integer')
    writer.addDocument(200, { k: term(3) })
    const bytes = writer.finish(201)!
    const expected = flushColumns(schema, [...Array.from({ length: 200 }, (_, document) => ({ k: term(document % 150) })), { k: term(3) }], { format })
    // (Compared as Buffers: a deep comparison of 3 MB takes seconds.)
    expect(Buffer.from(bytes).equals(Buffer.from(expected!))).toBe(true)
    const column = openColumns(bytes).column('k')
    expect([column.dictionary!.termCount, column.getKeywordString(200)]).toEqual([150, term(3)])
  })
})
