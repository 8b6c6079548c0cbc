// Bad writer input: exact error messages, and a failing addDocument leaves no trace in the file.
import { describe, expect, it } from 'vitest'
import { ColumnsWriter, flushColumns, InvalidInputError, openColumns, type Schema } from '../src/index.js'
import { BAD_VALUES, GOOD, SCHEMA, TRACE } from './helpers/bad-input-table.js'

const EXPECTED = flushColumns(SCHEMA, GOOD, { maxDoc: 4 })!

/** Runs fn, expecting an InvalidInputError with exactly this message. */
function expectError(fn: () => unknown, message: string): void {
  let caught: unknown = null
  try { fn() } catch (error) { caught = error }
  expect(caught).toBeInstanceOf(InvalidInputError)
  expect((caught as Error).message).toBe(message)
}

describe('bad values: exact message, and the document leaves no trace', () => {
  for (const [title, bad, message] of BAD_VALUES) {
    it(title, () => {
      const writer = new ColumnsWriter(SCHEMA)
      writer.addDocument(0, GOOD[0])
      expectError(() => writer.addDocument(1, { ...TRACE, ...bad }), message)
      writer.addDocument(1, GOOD[1]) // the failed id may be used again
      writer.addDocument(2, GOOD[2])
      const bytes = writer.finish(4)!
      expect(Buffer.from(bytes).equals(Buffer.from(EXPECTED))).toBe(true)
      const k = openColumns(bytes).getColumn('k')!
      expect(k.lookupOrdinal('only-in-bad')).toBe(-1)
    })
  }

  it('geo points JSON cannot write: a lat present but undefined, and a lat of -0 in the message', () => {
    const schema = { fields: [{ name: 'g', type: 'geo_point', column: true }] }
    const writer = new ColumnsWriter(schema)
    // Present but undefined is not "missing": the key is there.
    expectError(() => writer.addDocument(0, { g: { lat: undefined, lon: 2 } }), 'field "g" of document 0: geo point {lat: undefined, lon: 2}: lat is undefined, not a number')
    expectError(() => writer.addDocument(0, { g: { lat: -0, lon: 200 } }), 'field "g" of document 0: geo point {lat: -0, lon: 200}: lon 200 is outside [-180, 180]')
  })

  it('a term first offered by a failed document gets its right ordinal when a later document uses it', () => {
    const schema = { fields: [{ name: 'k', type: 'keyword', facet: true }, { name: 'i', type: 'integral', column: true }] }
    const writer = new ColumnsWriter(schema)
    writer.addDocument(0, { k: 'm' })
    expectError(() => writer.addDocument(1, { k: 'fresh', i: 'x' }), 'field "i" of document 1: expected an integer (number or bigint), got the string "x"')
    writer.addDocument(1, { k: 'other' })
    writer.addDocument(2, { k: 'fresh' })
    const bytes = writer.finish(3)!
    expect(Buffer.from(bytes).equals(Buffer.from(flushColumns(schema, [{ k: 'm' }, { k: 'other' }, { k: 'fresh' }])!))).toBe(true)
    expect([0, 1, 2].map((d) => openColumns(bytes).getColumn('k')!.getKeywordString(d))).toEqual(['m', 'other', 'fresh'])
  })

  it('a document that is not an object', () => {
    const writer = new ColumnsWriter(SCHEMA)
    expectError(() => writer.addDocument(0, 5 as never), 'document 0: expected an object of field values, got the number 5')
    expectError(() => writer.addDocument(0, [] as never), 'document 0: expected an object of field values, got an array')
    GOOD.forEach((doc, d) => writer.addDocument(d, doc))
    expect(Buffer.from(writer.finish(4)!).equals(Buffer.from(EXPECTED))).toBe(true)
  })

  it('a document\'s values are its own properties: inherited ones are not values', () => {
    const schema = { fields: [{ name: 'i', type: 'integral', column: true }] }
    expect(flushColumns(schema, [Object.create({ i: 5 })])).toBeNull()
    const bytes = flushColumns(schema, [Object.assign(Object.create({ i: 5 }), { i: 6 })])!
    expect(openColumns(bytes).getColumn('i')!.getInt64(0)).toBe(6)
  })

  it('values of text and non-column fields are not checked', () => {
    const schema = { fields: [...SCHEMA.fields, { name: 'plain', type: 'integral' }] }
    const bytes = flushColumns(schema, GOOD.map((doc) => ({ ...doc, t: 12, plain: 'not an integer' })), { maxDoc: 4 })!
    expect(Buffer.from(bytes).equals(Buffer.from(EXPECTED))).toBe(true)
  })
})

describe('documents that are no objects of field values', () => {
  it('a Map is refused: its entries are no properties, so it was taken as a document without values', () => {
    const writer = new ColumnsWriter(SCHEMA)
    expectError(() => writer.addDocument(0, new Map([['k', 'a']]) as unknown as Record<string, unknown>), 'document 0: expected an object of field values, got a Map (Object.fromEntries(map) makes one)')
    expectError(() => writer.addDocument(0, [1] as unknown as Record<string, unknown>), 'document 0: expected an object of field values, got an array')
  })

  it('other built-ins whose data is no property are refused too; objects of a class of their own are documents', () => {
    const writer = new ColumnsWriter(SCHEMA)
    for (const [value, shown] of [[new Set(['a']), 'a Set'], [new Date(0), 'a Date'], [/k/, 'a RegExp'], [Object(1), 'a Number'], [new Uint8Array(1), 'a Uint8Array']] as const) {
      expectError(() => writer.addDocument(0, value as unknown as Record<string, unknown>), `document 0: expected an object of field values, got ${shown}`)
    }
    class Flight { k = 'SEA' }
    writer.addDocument(0, new Flight() as unknown as Record<string, unknown>)
    expect(openColumns(writer.finish(1)!).column('k').getKeywordString(0)).toBe('SEA')
  })
})

describe('the call itself', () => {
  it('names a format that is not the number 1 or 2, and docs that are not an array', () => {
    // '2' was reported as "format 2 is not 1 or 2".
    expectError(() => flushColumns(SCHEMA, GOOD, { format: '2' as unknown as 2 }), 'format must be 1 or 2, got the string "2"')
    expectError(() => flushColumns(SCHEMA, GOOD, { format: 3 as unknown as 2 }), 'format must be 1 or 2, got the number 3')
    // A non-array was reported as "maxDoc undefined must be an integer".
    expectError(() => flushColumns(SCHEMA, 5 as unknown as []), 'flushColumns: docs must be an array (docs[i] is document i; null for none), got the number 5')
    expectError(() => flushColumns(SCHEMA, new Set(GOOD) as unknown as []), 'flushColumns: docs must be an array (docs[i] is document i; null for none), got an object')
    // '5' was printed as 5 ("maxDoc 5 must be an integer"); a limit of '10' was taken as 10, and -1 failed inside.
    expectError(() => flushColumns(SCHEMA, GOOD, { maxDoc: '5' as unknown as number }), 'maxDoc must be an integer in [0, 2^32 - 1], got the string "5"')
    expectError(() => flushColumns(SCHEMA, GOOD, { maxResidentFileBytes: '10' as unknown as number }), 'maxResidentFileBytes must be a positive integer, got the string "10"')
    expectError(() => flushColumns(SCHEMA, GOOD, { maxResidentFileBytes: -1 }), 'maxResidentFileBytes must be a positive integer, got the number -1')
    expectError(() => flushColumns(SCHEMA, GOOD, { maxResidentFileBytes: 0 }), 'maxResidentFileBytes must be a positive integer, got the number 0')
    // 1 is a limit like any other: no document with values fits it, and none is needed for null.
    expect(flushColumns(SCHEMA, [null, {}], { maxResidentFileBytes: 1 })).toBeNull()
    // These failed reading a property of null, or were taken for a capacity.
    expectError(() => flushColumns(SCHEMA, GOOD, null as unknown as {}), 'flushColumns: options must be an object, got null')
    expectError(() => new ColumnsWriter(SCHEMA, null as unknown as {}), 'writer options must be an object, got null')
    for (const [expected, shown] of [['x', 'the string "x"'], [NaN, 'the number NaN'], [-5, 'the number -5'], [1.5, 'the number 1.5']] as const) {
      expectError(() => new ColumnsWriter(SCHEMA, { expectedDocuments: expected as number }), `expectedDocuments must be a non-negative integer, got ${shown}`)
    }
    expect(new ColumnsWriter(SCHEMA, { expectedDocuments: 0 }).finish(0)).toBeNull()
  })
})

describe('document ids and maxDoc', () => {
  it('ids must be increasing integers in [0, 2^32 - 2]', () => {
    const writer = new ColumnsWriter(SCHEMA)
    expectError(() => writer.addDocument(-1, {}), 'document -1: doc ids are integers in [0, 2^32 - 2]')
    expectError(() => writer.addDocument(0.5, {}), 'document 0.5: doc ids are integers in [0, 2^32 - 2]')
    expectError(() => writer.addDocument(NaN, {}), 'document NaN: doc ids are integers in [0, 2^32 - 2]')
    expectError(() => writer.addDocument(2 ** 32 - 1, {}), 'document 4294967295: doc ids are integers in [0, 2^32 - 2]')
    // The document in place of its id (a one-argument call) was named "document [object Object]".
    expectError(() => writer.addDocument(GOOD[0] as unknown as number, {}), 'a doc id must be an integer in [0, 2^32 - 2], got an object')
    expectError(() => writer.addDocument('3' as unknown as number, {}), 'a doc id must be an integer in [0, 2^32 - 2], got the string "3"')
    writer.addDocument(0, GOOD[0])
    expectError(() => writer.addDocument(0, GOOD[1]), 'document 0: doc ids must increase (previous was 0)')
    writer.addDocument(2, GOOD[2])
    expectError(() => writer.addDocument(1, GOOD[1]), 'document 1: doc ids must increase (previous was 2)')
    expectError(() => writer.finish(2), 'maxDoc 2 must be greater than the last doc id 2')
    expectError(() => writer.finish(2 ** 32), 'maxDoc 4294967296 must be an integer in [0, 2^32 - 1]')
    expectError(() => writer.finish(-1), 'maxDoc -1 must be an integer in [0, 2^32 - 1]')
    expectError(() => writer.finish(3.5), 'maxDoc 3.5 must be an integer in [0, 2^32 - 1]')
    const bytes = writer.finish(3)! // a failed finish leaves the writer usable
    expect(openColumns(bytes).maxDoc).toBe(3)
    expectError(() => writer.finish(3), 'writer: finish() was already called')
    expectError(() => writer.addDocument(5, {}), 'writer: finish() was already called')
  })

  it('flushColumns checks maxDoc against the documents given', () => {
    expectError(() => flushColumns(SCHEMA, GOOD, { maxDoc: 2 }), 'maxDoc 2 is smaller than the 3 documents given')
    expectError(() => flushColumns(SCHEMA, GOOD, { maxDoc: 2 ** 32 }), 'maxDoc 4294967296 must be an integer in [0, 2^32 - 1]')
    expectError(() => flushColumns(SCHEMA, [], { maxDoc: -1 }), 'maxDoc -1 must be an integer in [0, 2^32 - 1]')
    expect(flushColumns(SCHEMA, [], { maxDoc: 2 ** 32 - 1 })).toBeNull() // the largest maxDoc is accepted
  })

  it('names a multi-valued column whose offsets at this maxDoc are more than an array can hold', () => {
    // 8 bytes a document: at maxDoc 2^32 - 1 the engine refuses the array's length (was: a bare RangeError).
    expectError(() => flushColumns({ fields: [{ name: 'tags', type: 'keyword', facet: true, multi: true }] }, [{ tags: ['a', 'b'] }], { maxDoc: 2 ** 32 - 1 }),
      'field "tags": maxDoc 4294967295: a multi-valued column\'s offsets (8 bytes a document) take 34359738368 bytes in memory, more than this process can allocate (Invalid typed array length: 8589934592)')
  })
})

describe('the incremental writer misused', () => {
  it('addDocument from a getter of another document\'s values is refused, and neither document stays', () => {
    const writer = new ColumnsWriter(SCHEMA)
    writer.addDocument(0, GOOD[0])
    // Before, the inner call took over the outer's marks: values landed on other documents and the file verified.
    const reentrant = { i: 5, get k() { writer.addDocument(7, { i: 70 }); return 'x' } }
    expectError(() => writer.addDocument(5, reentrant as never), 'document 7: addDocument was called while document 5 was being added (from a getter of its values?)')
    writer.addDocument(1, GOOD[1])
    writer.addDocument(2, GOOD[2])
    expect(Buffer.from(writer.finish(4)!).equals(Buffer.from(EXPECTED))).toBe(true)
  })

  it('a finish() that failed says so when the writer is used again', () => {
    const writer = new ColumnsWriter({ fields: [{ name: 'tags', type: 'keyword', facet: true, multi: true }] })
    writer.addDocument(0, { tags: ['a', 'b'] })
    expect(() => writer.finish(2 ** 32 - 1)).toThrow(InvalidInputError)
    expectError(() => writer.finish(1), 'writer: finish() failed (field "tags": maxDoc 4294967295: a multi-valued column\'s offsets (8 bytes a document) take 34359738368 bytes in memory, more than this process can allocate (Invalid typed array length: 8589934592)); its documents are gone: make a new writer')
  })

  it('typed arrays and Sets for a multi-valued field are named, with the remedy', () => {
    expectError(() => flushColumns(SCHEMA, [{ im: new Int32Array([1, 2]) }] as never), 'field "im" of document 0: a multi-valued field takes a plain array, got an Int32Array (Array.from makes one)')
    expectError(() => flushColumns(SCHEMA, [{ km: new Set(['a']) }] as never), 'field "km" of document 0: a multi-valued field takes a plain array, got a Set (Array.from makes one)')
  })

  it('enumerable properties put on Object.prototype are no values of plain documents', () => {
    const prototype = Object.prototype as Record<string, unknown>
    prototype.i = 5
    try {
      const bytes = flushColumns(SCHEMA, [{ k: 'a' }, { i: 2 }])!
      expect(openColumns(bytes).getColumn('i')!.toArray()).toEqual([null, 2])
    } finally {
      delete prototype.i
    }
  })

  it('expectedDocuments presizes within bounds: 100 fields and a hint of a billion build a small file', () => {
    const fields = Array.from({ length: 100 }, (_, f) => ({ name: `f${f}`, type: 'integral' as const, column: true }))
    const before = process.memoryUsage().arrayBuffers
    const writer = new ColumnsWriter({ fields }, { expectedDocuments: 1e9 })
    // 128 MiB a field were reserved (12.5 GiB here), failing where memory is committed at once.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(256 * 2 ** 20)
    writer.addDocument(0, { f0: 1 })
    expect(openColumns(writer.finish(1)!).getColumn('f0')!.getInt64(0)).toBe(1)
  })
})

describe('schemas', () => {
  const cases: [string, unknown, string][] = [
    ['not an object', null, 'schema: expected an object {"fields": [...]}'],
    ['fields not an array', { fields: {} }, 'schema: expected an object {"fields": [...]}'],
    ['field not an object', { fields: [null] }, 'schema: field #0 is not an object'],
    ['unknown type', { fields: [{ name: 'x', type: 'float', column: true }] }, 'schema: field "x" has unknown type "float"; expected one of keyword, integral, fractional, date, bool, geo_point, text'],
    ['missing type', { fields: [{ name: 'x' }] }, 'schema: field "x" has no "type"; expected one of keyword, integral, fractional, date, bool, geo_point, text'],
    ['duplicate name', { fields: [{ name: 'a', type: 'bool' }, { name: 'a', type: 'date' }] }, 'schema: duplicate field name "a"'],
    ['empty name', { fields: [{ name: 'a', type: 'bool' }, { name: '', type: 'bool' }] }, 'schema: field #1 needs a non-empty string "name"'],
    ['name not a string', { fields: [{ name: 5, type: 'bool' }] }, 'schema: field #0 needs a non-empty string "name"'],
    ['name with a lone surrogate', { fields: [{ name: '\uD800', type: 'bool' }] }, 'schema: field name "\\ud800" has a lone surrogate and cannot be stored as UTF-8'],
    ['flag not a boolean', { fields: [{ name: 'a', type: 'bool', column: 'yes' }] }, 'schema: field "a" flag "column" must be a boolean, got "yes"'],
    ['facet flag not a boolean', { fields: [{ name: 'a', type: 'keyword', facet: 1 }] }, 'schema: field "a" flag "facet" must be a boolean, got 1'],
    ['multi flag not a boolean', { fields: [{ name: 'a', type: 'bool', column: true, multi: 'yes' }] }, 'schema: field "a" flag "multi" must be a boolean, got "yes"'],
  ]
  for (const [title, schema, message] of cases) {
    it(title, () => {
      // Wrong on purpose: typed as a Schema only to reach the run-time check.
      expectError(() => new ColumnsWriter(schema as Schema), message)
      expectError(() => flushColumns(schema as Schema, []), message)
    })
  }
})

describe('size limits', () => {
  it('a file over maxResidentFileBytes is refused; exactly at the limit is accepted', () => {
    const size = EXPECTED.length
    const reader = openColumns(EXPECTED)
    const largest = reader.columns.reduce((a, b) => (a.sectionLength >= b.sectionLength ? a : b))
    expect(largest.name).toBe('gm')
    expect(reader.getColumn('dm')!.layout).toBe('optional')
    const atLimit = flushColumns(SCHEMA, GOOD, { maxDoc: 4, maxResidentFileBytes: size })!
    expect(Buffer.from(atLimit).equals(Buffer.from(EXPECTED))).toBe(true)
    expectError(() => flushColumns(SCHEMA, GOOD, { maxDoc: 4, maxResidentFileBytes: size - 1 }),
      `the columns file would be ${size} bytes, over the resident limit of ${size - 1} bytes (largest column: "gm", ${largest.sectionLength} bytes)`)
    // Far over the limit, the writer stops after the first section that crosses it.
    const crossing = reader.columns.findIndex((column) => column.sectionOffset + column.sectionLength + 20 > 100)
    const first = reader.columns[crossing]
    expect(crossing).toBe(1)
    expectError(() => flushColumns(SCHEMA, GOOD, { maxDoc: 4, maxResidentFileBytes: 100 }),
      `the columns file would be over the resident limit of 100 bytes: ${first.sectionOffset + first.sectionLength} bytes already after field "${first.name}" (2 of ${reader.columns.length} columns)`)
  })

  // 16 terms sliced from one shared string (no copies: ~40 MB resident), 2 UTF-8 bytes per 'é' (Latin-1, 1 byte in memory).
  // Term i = letters i..16 ("A".."Q", 17 − i bytes) + (L − 17 + i) × 'é' (2 bytes each), L = 2^25 + 4 characters:
  // Σ bytes = Σ_i (2L − 17 + i) = 16·(2L − 17) + 120 = 32L − 152 = 2^30 − 24. Runs in a few seconds (utf8Length scans 2^29 characters).
  it('the keyword dictionary is capped at 1 GiB of term bytes', () => {
    const L = 2 ** 25 + 4
    const base = 'ABCDEFGHIJKLMNOPQ' + '\u00e9'.repeat(L)
    const writer = new ColumnsWriter({ fields: [{ name: 'k', type: 'keyword', facet: true, multi: true }] })
    for (let i = 0; i < 16; i++) writer.addDocument(i, { k: base.slice(i, i + L) })
    const message = (document: number) => `field "k" of document ${document}: the dictionary would exceed 1073741824 bytes (1 GiB) of keyword bytes`
    expectError(() => writer.addDocument(16, { k: ['fits', 'y'.repeat(25)] }), message(16)) // 2^30 − 24 + 4 + 25 > 2^30
    writer.addDocument(16, { k: ['x'.repeat(24), base.slice(3, 3 + L)] }) // exactly 2^30; a known term costs nothing
    expectError(() => writer.addDocument(17, { k: 'z' }), message(17))
    writer.addDocument(17, { k: ['x'.repeat(24), ''] }) // the empty term adds no bytes
  }, 60_000)
})

it('names input of any length in at most 80 characters', () => {
  const schema = { fields: [{ name: 'n', type: 'integral', column: true }] } as const
  expectError(() => flushColumns(schema, [{ n: 10n ** 100_000n }]),
    `field "n" of document 0: integer 1${'0'.repeat(79)}…n is outside the signed 64-bit range [-2^63, 2^63 - 1]`)
  expectError(() => flushColumns(schema as Schema, [{ ['x'.repeat(100_000)]: 1 }]), `document 0: unknown field "${'x'.repeat(80)}…" (not in the schema)`)
})
