// Field names are ordered by UTF-16 code units (directory); keyword terms by UTF-8 bytes (dictionary).
import { describe, expect, it } from 'vitest'
import { flushColumns, openColumns } from '../src/index.js'

const SMILE = '\u{1F600}' // UTF-16 D83D DE00, UTF-8 F0 9F 98 80
const REPLACEMENT = '\uFFFD' // UTF-16 FFFD, UTF-8 EF BF BD
const utf8 = (s: string) => [...new TextEncoder().encode(s)]

/** Parses the directory from raw bytes (names, type and layout bytes, section offsets), independently of src/read. */
function rawDirectory(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length)
  let at = Number(view.getBigUint64(bytes.length - 20, true))
  const varuint = () => {
    let value = 0, shift = 0, byte: number
    do { byte = bytes[at++]; value += (byte & 0x7f) * 2 ** shift; shift += 7 } while (byte & 0x80)
    return value
  }
  const count = varuint()
  const entries = []
  for (let i = 0; i < count; i++) {
    const nameLength = varuint()
    const name = [...bytes.subarray(at, at + nameLength)]
    at += nameLength
    const type = bytes[at++], layout = bytes[at++]
    const documentsWithValue = varuint(), valueCount = varuint()
    const minRaw = view.getBigInt64(at, true), maxRaw = view.getBigInt64(at + 8, true)
    at += 16
    entries.push({ name, type, layout, documentsWithValue, valueCount, minRaw, maxRaw, sectionOffset: varuint(), sectionLength: varuint() })
  }
  expect(at).toBe(bytes.length - 20) // the directory fills its area exactly
  return entries
}

describe('field name order: UTF-16 code units', () => {
  it('"a\\u{1F600}" comes before "a\\uFFFD" in the directory (D83D < FFFD)', () => {
    const names = [`a${REPLACEMENT}`, `a${SMILE}`]
    const schema = { fields: names.map((name) => ({ name, type: 'integral', column: true })) }
    const bytes = flushColumns(schema, [{ [names[0]]: 1, [names[1]]: 2 }])!
    const entries = rawDirectory(bytes)
    expect(entries.map((e) => e.name)).toEqual([
      [0x61, 0xf0, 0x9f, 0x98, 0x80],
      [0x61, 0xef, 0xbf, 0xbd],
    ])
    // Sections in directory order: the 😀 field's section comes first.
    expect(entries[0].sectionOffset).toBe(12)
    expect(entries[1].sectionOffset).toBe(12 + entries[0].sectionLength)
    expect([entries[0].minRaw, entries[1].minRaw]).toEqual([2n, 1n])
    const reader = openColumns(bytes)
    reader.verify()
    expect(reader.columns.map((c) => c.name)).toEqual([`a${SMILE}`, `a${REPLACEMENT}`])
    expect(reader.getColumn(`a${SMILE}`)!.getInt64(0)).toBe(2)
    expect(reader.getColumn(`a${REPLACEMENT}`)!.getInt64(0)).toBe(1)
  })

  it('a mixed set of names in UTF-16 order', () => {
    const names = ['ä', 'a', '\uE000', 'Z', 'aa', `a${REPLACEMENT}`, SMILE, `a${SMILE}`, '\u{10000}', 'b', '_']
    const expected = ['Z', '_', 'a', 'aa', `a${SMILE}`, `a${REPLACEMENT}`, 'b', 'ä', '\u{10000}', SMILE, '\uE000']
    expect([...names].sort()).toEqual(expected) // JavaScript's default sort is UTF-16 order
    const schema = { fields: names.map((name) => ({ name, type: 'bool', facet: true })) }
    const bytes = flushColumns(schema, [Object.fromEntries(names.map((name) => [name, true]))])!
    expect(rawDirectory(bytes).map((e) => e.name)).toEqual(expected.map(utf8))
    expect(openColumns(bytes).columns.map((c) => c.name)).toEqual(expected)
  })
})

describe('keyword term order: UTF-8 bytes', () => {
  it('ordinal 0 is "\\uFFFD" (EF BF BD < F0 9F 98 80); exact dictionary bytes', () => {
    const docs = [{ k: SMILE }, { k: REPLACEMENT }, { k: SMILE }]
    const bytes = flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, docs)!
    const [entry] = rawDirectory(bytes)
    expect(entry).toMatchObject({ type: 1, layout: 0, documentsWithValue: 3, valueCount: 3, minRaw: 0n, maxRaw: 1n, sectionOffset: 12 })
    const dictionary = [
      2, 0, 0, 0, // termCount
      7, 0, 0, 0, // totalBytes
      0, 0, 0, 0, 3, 0, 0, 0, 7, 0, 0, 0, // offsets
      0xef, 0xbf, 0xbd, 0xf0, 0x9f, 0x98, 0x80, // "\uFFFD" then "😀"
    ]
    expect([...bytes.subarray(12, 12 + dictionary.length)]).toEqual(dictionary)
    // Then the dense ordinal sequence 1, 0, 1: packed, base 0, g 1, width 1, bits 1,0,1 = 0x05.
    const sequence = [
      3, 0, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0,
      1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
      0x05, 0, 0, 0, 0, 0, 0, 0, 0,
    ]
    expect([...bytes.subarray(12 + dictionary.length, 12 + entry.sectionLength)]).toEqual(sequence)
    expect(entry.sectionLength).toBe(dictionary.length + sequence.length)
    const reader = openColumns(bytes)
    reader.verify()
    const k = reader.getColumn('k')!
    expect(k.term(0)).toBe(REPLACEMENT)
    expect(k.term(1)).toBe(SMILE)
    expect([0, 1, 2].map((d) => k.getOrdinal(d))).toEqual([1, 0, 1])
    expect(k.lookupOrdinal(REPLACEMENT)).toBe(0)
    expect(k.lookupOrdinal(SMILE)).toBe(1)
    expect(k.lookupOrdinal(Uint8Array.from([0xf0, 0x9f, 0x98, 0x80]))).toBe(1)
    expect(k.lookupOrdinal('\uFFFE')).toBe(-1)
  })

  it('a mixed set of terms in byte order, unlike UTF-16 order', () => {
    const terms = ['\uE000', '\u{10000}', '', 'a', 'B', 'ä', REPLACEMENT, SMILE, 'a\u0000', 'aa', '\u007F', '\u0080']
    const expected = ['', 'B', 'a', 'a\u0000', 'aa', '\u007F', '\u0080', 'ä', '\uE000', REPLACEMENT, '\u{10000}', SMILE]
    const docs = terms.map((k) => ({ k: [k, 'a'] }))
    const bytes = flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true, multi: true }] }, docs)!
    const reader = openColumns(bytes)
    reader.verify()
    const k = reader.getColumn('k')!
    expect(k.dictionary!.termCount).toBe(expected.length)
    expect(expected.map((_, ordinal) => k.term(ordinal))).toEqual(expected)
    const termBytes = expected.flatMap(utf8)
    const dictionaryStart = 12 + 8 + 4 * (expected.length + 1)
    expect([...bytes.subarray(dictionaryStart, dictionaryStart + termBytes.length)]).toEqual(termBytes)
    terms.forEach((term, d) => {
      expect(k.getOrdinal(d, 0)).toBe(expected.indexOf(term))
      expect(k.getOrdinal(d, 1)).toBe(2)
      expect(k.lookupOrdinal(term)).toBe(expected.indexOf(term))
    })
    expect(k.lookupOrdinal('a\u0001')).toBe(-1)
    expect(k.lookupOrdinal('\u{10FFFF}')).toBe(-1)
  })
})
