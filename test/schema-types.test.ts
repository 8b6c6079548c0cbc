// Document types inferred from literal schemas. The assertions that matter run
// in `npm run typecheck` (each @ts-expect-error must be an error); the runtime
// part checks that the typed calls write what the untyped ones do.
import { describe, expect, expectTypeOf, it } from 'vitest'
import { ColumnsWriter, type DocumentOf, flushColumns, openColumns, type Schema } from '../src/index.js'

const schema = {
  fields: [
    { name: 'origin', type: 'keyword', facet: true },
    { name: 'tags', type: 'keyword', facet: true, multi: true },
    { name: 'delay', type: 'integral', column: true },
    { name: 'when', type: 'date', column: true },
    { name: 'price', type: 'fractional', column: true },
    { name: 'ok', type: 'bool', column: true },
    { name: 'where', type: 'geo_point', column: true },
    { name: 'body', type: 'text' },
  ],
} as const satisfies Schema

describe('schema types', () => {
  it('infers a document type from an `as const` schema', () => {
    type Flight = DocumentOf<typeof schema>
    // Every field is optional and may be null: what is given when there is a value.
    type Value<K extends keyof Flight> = Exclude<Flight[K], null | undefined>
    expectTypeOf<Value<'origin'>>().toEqualTypeOf<string>()
    expectTypeOf<Value<'tags'>>().toEqualTypeOf<string | readonly string[]>()
    expectTypeOf<Value<'delay'>>().toEqualTypeOf<number | bigint>()
    expectTypeOf<Value<'ok'>>().toEqualTypeOf<boolean>()
    expectTypeOf<Value<'where'>>().toEqualTypeOf<{ readonly lat: number; readonly lon: number }>()
    const bytes = flushColumns(schema, [
      { origin: 'SEA', tags: ['a', 'b'], delay: 12, when: '2020-01-01T10:00:00Z', price: 9.5, ok: true, where: { lat: 47.4, lon: -122.3 }, body: 'x' },
      null,
      { origin: 'LAX', tags: 'c', delay: 2n ** 62n, when: new Date(0), price: { bits: '7ff8000000000001' } },
      { when: 0, price: '-Infinity' },
    ])
    expect(openColumns(bytes!).getColumn('tags')!.valueCount()).toBe(3)
    expect(() => flushColumns(schema, [{
      // @ts-expect-error: not a field of the schema (the writer refuses it too)
      nope: 1,
    }])).toThrow(/unknown field "nope"/)
  })

  it('infers from a schema written inline, and refuses wrong values', () => {
    const inline = () => flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }, { name: 'k', type: 'keyword', facet: true }] }, [
      { n: 1, k: 'a' },
      // @ts-expect-error: an integral takes a number or bigint
      { n: '1' },
      // @ts-expect-error: a single-valued field takes no array
      { k: ['a'] },
    ])
    expect(inline).toThrow(/document 1/)
    // @ts-expect-error: a misspelt type is not a FieldType (TypeScript suggests "keyword")
    expect(() => flushColumns({ fields: [{ name: 'k', type: 'keywrd', facet: true }] }, [])).toThrow(/unknown type "keywrd"/)
  })

  it('types the writer from its schema', () => {
    const writer = new ColumnsWriter(schema)
    writer.addDocument(0, { origin: 'SEA', ok: false })
    // @ts-expect-error: bool takes a boolean
    expect(() => writer.addDocument(1, { ok: 1 })).toThrow(/expected a boolean/)
    expect(writer.finish(2)).not.toBeNull()
  })

  it('leaves schemas without literal names untyped, as before', () => {
    const annotated: Schema = { fields: [{ name: 'n', type: 'integral', column: true }] }
    expectTypeOf<DocumentOf<typeof annotated>>().toEqualTypeOf<Readonly<Record<string, unknown>>>()
    const documents: Record<string, unknown>[] = [{ n: 1 }]
    expect(flushColumns(annotated, documents)).not.toBeNull()
    // Without `as const` TypeScript widens the types to string: accepted, checked at run time.
    const widened = { fields: [{ name: 'n', type: 'integral', column: true }] }
    expect(flushColumns(widened, documents)).not.toBeNull()
    expect(() => flushColumns({ fields: [{ name: 'n', type: widened.fields[0].type.slice(1), column: true }] }, documents))
      .toThrow(/unknown type "ntegral"/)
    // JavaScript callers (or data from JSON) may pass anything: the run-time check answers.
    expect(() => flushColumns(JSON.parse('{"fields": 3}') as Schema, [])).toThrow(/expected an object/)
  })
})
