// Schema warnings: fields that get no column though they look meant to, with exact messages,
// as ColumnsWriter.warnings and through flushColumns' onWarning.
import { describe, expect, it } from 'vitest'
import { ColumnsWriter, flushColumns } from '../src/index.js'

const SCHEMA = { fields: [
  { name: 'id', type: 'integral', column: true },
  { name: 'x', type: 'integral' },
  { name: 'tag', type: 'keyword', facet: true },
  { name: 'label', type: 'keyword', column: false, facet: false },
  { name: 'body', type: 'text' },
  { name: 'title', type: 'text', column: true },
  { name: 'summary', type: 'text', facet: true },
  { name: 'notes', type: 'text', column: true, facet: true },
  { name: 'where', type: 'geo_point', multi: true },
] }

const EXPECTED = [
  'field "x" (integral) has neither "column" nor "facet": it gets no column',
  'field "label" (keyword) has neither "column" nor "facet": it gets no column',
  'field "title" (text) is marked "column", but text fields never get a column',
  'field "summary" (text) is marked "facet", but text fields never get a column',
  'field "notes" (text) is marked "column" and "facet", but text fields never get a column',
  'field "where" (geo_point) has neither "column" nor "facet": it gets no column',
]

describe('schema warnings', () => {
  it('lists one message per field without a column it seems to want, in schema order', () => {
    const writer = new ColumnsWriter(SCHEMA)
    expect(writer.warnings).toStrictEqual(EXPECTED)
    expect(Object.isFrozen(writer.warnings)).toBe(true)
  })

  it('is empty when every field is as asked (plain text fields included)', () => {
    const schema = { fields: [{ name: 'id', type: 'integral', column: true }, { name: 'body', type: 'text' }, { name: 'd', type: 'date', facet: true }] }
    expect(new ColumnsWriter(schema).warnings).toStrictEqual([])
    const heard: string[] = []
    flushColumns(schema, [{ id: 1 }], { onWarning: (message) => heard.push(message) })
    expect(heard).toStrictEqual([])
  })

  it('flushColumns calls onWarning once per warning, and the fields named still take (and drop) values', () => {
    const heard: string[] = []
    const bytes = flushColumns(SCHEMA, [{ id: 1, x: 5, label: 'l', title: 't', where: [{ lat: 1, lon: 2 }] }], {
      onWarning: (message) => heard.push(message),
    })
    expect(heard).toStrictEqual(EXPECTED)
    // Same file as without the fields that get no column.
    const plain = flushColumns({ fields: [SCHEMA.fields[0], SCHEMA.fields[2]] }, [{ id: 1 }])
    expect(Buffer.from(bytes!).equals(Buffer.from(plain!))).toBe(true)
  })

  it('quotes names as JSON strings', () => {
    expect(new ColumnsWriter({ fields: [{ name: 'a "b"', type: 'bool' }] }).warnings)
      .toStrictEqual(['field "a \\"b\\"" (bool) has neither "column" nor "facet": it gets no column'])
  })
})
