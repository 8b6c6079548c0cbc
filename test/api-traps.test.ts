/**
 * Calls that looked right and answered silently wrong (issue: a new user's first hour), each
 * with its exact answer or error, on both backends; and DocSets' lifetime: closing a reader
 * frees every DocSet made from it.
 */
import { describe, expect, it } from 'vitest'
import { wasmRuntime } from '../src/backend/wasm/runtime.js'
import { createFileBuffer, createValueBuffer } from '../src/read/buffers.js'
import { openColumnsFromUrl } from '../src/read/open-url.js'
import { openColumnsFile } from '../src/node/files.js'
import { ResidentLimitError } from '../src/format/errors.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { writeFileSync } from 'node:fs'
import { tempDirectory } from './helpers/temp-directory.js'

const schema = { fields: [
  { name: 'city', type: 'keyword', facet: true },
  { name: 'n', type: 'integral', column: true },
  { name: 'price', type: 'fractional', column: true },
  { name: 'when', type: 'date', column: true },
] } as const
const bytes = flushColumns(schema, [
  { city: 'SEA', n: 1, price: 1, when: '2024-01-01T00:00:00Z' },
  { city: 'LAX', n: 2, price: 2.5, when: '2024-01-02T00:00:00Z' },
  { city: 'SEA', n: 3, price: 1n, when: '2024-01-03T12:00:00+02:00' },
], { maxDoc: 4 })!

describe.each(['ts', 'wasm'] as const)('answers that were silently wrong (%s)', (backend) => {
  it('termFilter takes one term as one term, and refuses non-terms', () => {
    const reader = openColumns(bytes, { backend, fileName: 'seg.columns' })
    const city = reader.column('city')
    expect(city.termFilter('SEA').toArray()).toEqual(Uint32Array.of(0, 2))
    expect(city.termFilter(['SEA', 'LAX']).toArray()).toEqual(Uint32Array.of(0, 1, 2))
    expect(city.termFilter(new Set(['LAX'])).toArray()).toEqual(Uint32Array.of(1))
    expect(() => city.termFilter([83 as unknown as string])).toThrow(
      new TypeError('field "city": a term must be a string or UTF-8 bytes (Uint8Array), got number 83'),
    )
    expect(() => city.termFilter(null as unknown as string)).toThrow(
      new TypeError('field "city": terms must be a string, a Uint8Array or an iterable of them, got null'),
    )
    // Array-likes and plain objects matched nothing; a String object matched its characters' terms.
    for (const [terms, shown] of [[{ term: 'SEA' }, 'a plain object'], [{ length: 1, 0: 'SEA' }, 'a plain object'], [new Date(0), 'a Date'], [new String('SEA'), 'a String']] as const) {
      expect(() => city.termFilter(terms as unknown as string)).toThrow(
        new TypeError(`field "city": terms must be a string, a Uint8Array or an iterable of them, got ${shown}`),
      )
    }
    reader.close()
  })

  it('a fileName that is not a string is refused (errors named the file "[object Object]")', () => {
    for (const [fileName, shown] of [[{}, 'a plain object'], [42, 'number 42'], [null, 'null']] as const) {
      expect(() => openColumns(bytes, { backend, fileName: fileName as unknown as string })).toThrow(new TypeError(`options.fileName must be a string, not ${shown}`))
    }
  })

  it('fractional bounds mean what the writer\'s input means; raw bounds are explicit', () => {
    const reader = openColumns(bytes, { backend })
    const price = reader.column('price')
    expect(price.rangeFilter(1n, 2n).toArray()).toEqual(Uint32Array.of(0, 2))
    expect(price.rangeFilter(1, 2.5).toArray()).toEqual(Uint32Array.of(0, 1, 2))
    expect(price.rangeFilter({ raw: 0n }, { raw: 2n ** 63n - 1n }).toArray()).toEqual(Uint32Array.of(0, 1, 2))
    expect(() => price.rangeFilter({ raw: 1.5 as unknown as bigint }, 2)).toThrow(
      new RangeError('field "price": { raw } must hold a bigint in the i64 range, got 1.5 (rangeFilter\'s lo)'),
    )
    // A key beside raw was dropped unseen; a bound with no prototype could not be named ("Cannot convert object to primitive value").
    expect(() => price.rangeFilter({ raw: 0n, bits: 1n } as unknown as { raw: bigint }, 2)).toThrow(
      new TypeError('field "price": a { raw } bound holds raw alone, got also "bits" (rangeFilter\'s lo)'),
    )
    const bare = Object.create(null) as number
    expect(() => price.rangeFilter(bare, 2)).toThrow(new TypeError('field "price": bound (a plain object) is not a number or bigint (or { raw: SortableBits }) (rangeFilter\'s lo)'))
    expect(() => price.rangeFilter(2, NaN)).toThrow(new RangeError('field "price": NaN is not a bound (use { raw: SortableBits } bounds to select NaNs) (rangeFilter\'s hi)'))
    expect(() => reader.column('n').histogram([bare, 2])).toThrow(new TypeError('field "n": bound (a plain object) is not a number, bigint, Date, ISO date string or { raw } (histogram edge 0)'))
    expect(() => price.topK(bare, 'ascending')).toThrow(new RangeError('field "price": k must be a non-negative integer, got (a plain object)'))
    expect(() => reader.column('city').topTerms(bare)).toThrow(new RangeError('field "city": k must be a non-negative integer, got (a plain object)'))
    expect(() => reader.column('city').termFilter([bare as unknown as string])).toThrow(
      new TypeError('field "city": a term must be a string or UTF-8 bytes (Uint8Array), got a plain object'),
    )
    reader.close()
  })

  it('date bounds and edges take ISO-8601 strings, parsed as the writer parses them', () => {
    const reader = openColumns(bytes, { backend })
    const when = reader.column('when')
    expect(when.rangeFilter('2024-01-02', '2024-01-03T10:00:00Z').toArray()).toEqual(Uint32Array.of(1, 2))
    expect(when.rangeFilter('2024-01-03T10:00:01Z', Infinity).toArray()).toEqual(Uint32Array.of())
    expect(when.histogram(['2024-01-01', '2024-01-02', new Date('2024-01-04')])).toEqual(Uint32Array.of(1, 2))
    expect(() => when.rangeFilter('2024-02-30', 0)).toThrow(
      new RangeError('field "when": invalid date bound "2024-02-30": day 30 does not exist in February (rangeFilter\'s lo)'),
    )
    expect(() => reader.column('n').rangeFilter('1', 2)).toThrow(
      new TypeError('field "n" is integral; string bounds are ISO-8601 dates, for date columns (rangeFilter\'s lo)'),
    )
    reader.close()
  })

  it('reader.column names a missing field and lists the columns; getColumn still answers null', () => {
    const reader = openColumns(bytes, { backend, fileName: 'seg.columns' })
    expect(reader.getColumn('typo')).toBeNull()
    expect(() => reader.column('typo')).toThrow(new RangeError(
      'seg.columns: no column for field "typo" (a field no document has a value for has none); columns: "city", "n", "price", "when"',
    ))
    expect(() => openColumns(null, { maxDoc: 3, backend }).column('x')).toThrow(
      'columns: no column for field "x" (a field no document has a value for has none); columns: none',
    )
    // A name that is no string was looked up as another ("0" for 0, "undefined" for a symbol).
    expect(() => reader.column(0 as unknown as string)).toThrow(new TypeError('seg.columns: a field name must be a string, got number 0'))
    expect(() => reader.getColumn(new String('n') as unknown as string)).toThrow(new TypeError('seg.columns: a field name must be a string, got a String'))
    reader.close()
    // Names clipped to 80 characters and at most 50 listed: 100 names of 10,000 characters made a message of a megabyte.
    const long = (i: number) => `${i}`.padStart(10_000, 'x')
    const wide = flushColumns({ fields: Array.from({ length: 100 }, (_, i) => ({ name: long(i), type: 'integral' as const, column: true })) },
      [Object.fromEntries(Array.from({ length: 100 }, (_, i) => [long(i), i]))])!
    const message = (() => { try { openColumns(wide, { backend }).column(long(1000)) } catch (error) { return (error as Error).message } })()!
    expect(message.length).toBeLessThan(5000)
    expect(message).toMatch(/^columns: no column for field "x{80}…" \(a field no document has a value for has none\); columns: "x{80}…", /)
    expect(message).toMatch(/, and 50 more$/)
  })

  it('messages name the method called and say what is wrong', () => {
    const reader = openColumns(bytes, { backend, fileName: 'seg.columns' })
    expect(() => reader.column('n').getKeywordString(0)).toThrow(new TypeError('field "n" is integral; getKeywordString reads keyword columns'))
    expect(() => reader.column('n').getInt64(1.5)).toThrow(new RangeError('field "n": document 1.5 is not an integer in [0, 4)'))
    // A string was printed as the number it spells, "document 1 is not an integer" or "is outside [0, 4)".
    expect(() => reader.column('n').getInt64('1' as unknown as number)).toThrow(new RangeError('field "n": document "1" is not an integer in [0, 4)'))
    expect(() => reader.column('city').term('0' as unknown as number)).toThrow(new RangeError('field "city": ordinal "0" is not an integer in [0, 2)'))
    expect(() => reader.column('n').getInt64(0, '1' as unknown as number)).toThrow(new RangeError('field "n": document 0 has 1 value(s), no value #"1"'))
    expect(() => reader.column('n').getInt64(0, new Float64Array(2) as unknown as number)).toThrow(new RangeError('field "n": document 0 has 1 value(s), no value #(a Float64Array)'))
    expect(() => reader.column('n').getInt64(Object.create(null) as number)).toThrow(new RangeError('field "n": document (a plain object) is not an integer in [0, 4)'))
    const set = reader.createDocSet()
    expect(() => set.has('1' as unknown as number)).toThrow(new RangeError('document "1" is not an integer in [0, 4)'))
    expect(() => set.add(1.5)).toThrow(new RangeError('document 1.5 is not an integer in [0, 4)'))
    expect(() => set.add(4)).toThrow(new RangeError('document 4 is outside [0, 4)'))
    expect(() => set.or(null as unknown as typeof set)).toThrow(new TypeError('null is not a DocSet'))
    expect(() => reader.column('n').getInt64(4)).toThrow(new RangeError('field "n": document 4 is outside [0, 4)'))
    // BigInts reached arithmetic first: "Cannot mix BigInt and other types", naming nothing.
    const bigintId = 1n as unknown as number
    for (const [field, call] of [
      ['n', () => reader.column('n').getInt64(bigintId)], ['city', () => reader.column('city').getOrdinal(bigintId)],
      ['n', () => reader.column('n').hasValue(bigintId)], ['price', () => reader.column('price').valueCount(bigintId)],
      ['price', () => reader.column('price').getFloat64(bigintId)],
    ] as const) expect(call, String(call)).toThrow(new RangeError(`field "${field}": document 1n is a bigint; documents are numbers in [0, 4)`))
    expect(() => set.add(bigintId)).toThrow(new RangeError('document 1n is a bigint; documents are numbers in [0, 4)'))
    expect(() => DocSet.fromDocuments(reader, [bigintId])).toThrow(new RangeError('document 1n is a bigint; documents are numbers in [0, 4)'))
    expect(() => DocSet.fromDocuments(null as never, [1])).toThrow(new TypeError('DocSet.fromDocuments needs a reader or a pool\'s segment, got null'))
    expect(() => reader.column('city').term(bigintId)).toThrow(new RangeError('field "city": ordinal 1n is not an integer in [0, 2)'))
    expect(() => reader.column('city').topTerms(bigintId)).toThrow(new RangeError('field "city": k must be a non-negative integer, got 1n'))
    // A string first value was concatenated: "values [1, 11) are outside [0, 4)".
    expect(() => reader.column('n').readValues('1' as unknown as number, new BigInt64Array(2))).toThrow(
      new RangeError('field "n": readValues\' first value "1" is not an integer number'))
    expect(() => reader.column('n').readValues(bigintId, new BigInt64Array(2))).toThrow(
      new RangeError('field "n": readValues\' first value 1n is not an integer number'))
    // From 2^53 on the end rounded onto the start: "values [9007199254740992, 9007199254740992)".
    expect(() => reader.column('n').readValues(2 ** 53, new BigInt64Array(1))).toThrow(
      new RangeError('field "n": values 1 from 9007199254740992 are outside [0, 3)'))
    expect(() => reader.column('n').readValues(2, new BigInt64Array(2))).toThrow(new RangeError('field "n": values [2, 4) are outside [0, 3)'))
    expect(() => openColumns(bytes, { backend, maxDoc: 10 })).toThrow(
      "columns: the file's maxDoc is 4, but the segment has 10 documents (options.maxDoc)",
    )
    // A count of the wrong kind was a CorruptIndexException: "maxDoc is 4, but the segment has 4 documents".
    expect(() => openColumns(bytes, { backend, maxDoc: '4' as unknown as number })).toThrow(
      new RangeError('columns: options.maxDoc must be an integer in [0, 2^32 - 1], not "4"'),
    )
    expect(() => openColumns(null, { backend, maxDoc: -1 })).toThrow(new RangeError('columns: options.maxDoc must be an integer in [0, 2^32 - 1], not -1'))
    expect(() => openColumns(bytes, null as unknown as undefined)).toThrow(new TypeError('openColumns: options must be an object, not null'))
    reader.close()
  })

  it('a part other than latitude or longitude, a destination of another kind and a non-term are refused', () => {
    const geo = flushColumns({ fields: [{ name: 'at', type: 'geo_point', column: true }] }, [{ at: { lat: 47.5, lon: -122.25 } }])!
    const reader = openColumns(geo, { backend })
    const at = reader.column('at'), into = new Float64Array(1)
    // 'lat' read the latitudes before, as any string but 'longitude' did.
    expect(() => at.readValues(0, into, 'lat' as 'latitude')).toThrow(new TypeError('field "at": part must be \'latitude\' or \'longitude\', got "lat"'))
    expect(() => at.getRawBigInt(0, 'lon' as 'longitude')).toThrow(new TypeError('field "at": part must be \'latitude\' or \'longitude\', got "lon"'))
    expect(at.readValues(0, into, 'longitude')).toBe(1)
    expect(into[0]).toBe(-122.25)
    reader.close()
    const other = openColumns(bytes, { backend })
    expect(() => other.column('n').readValues(0, new Uint32Array(3) as unknown as Int32Array)).toThrow(
      new TypeError('field "n": readValues needs a BigInt64Array, Float64Array or Int32Array destination, got a Uint32Array'),
    )
    using values = createValueBuffer('int64', 3, { backend })
    expect(() => other.column('n').readValues(0, values as unknown as BigInt64Array)).toThrow(
      new TypeError('field "n": readValues needs a BigInt64Array, Float64Array or Int32Array destination, got a ValueBuffer (pass its .array)'),
    )
    expect(() => other.column('n').readValues(0, undefined as unknown as Int32Array)).toThrow(
      new TypeError('field "n": readValues needs a BigInt64Array, Float64Array or Int32Array destination, got undefined'),
    )
    expect(() => other.column('city').facetCounts([0, 2] as unknown as undefined)).toThrow(
      new TypeError('field "city": docs is not a DocSet; DocSet.fromDocuments(reader, ids) makes one of ids'),
    )
    expect(() => other.column('n').aggregate({} as unknown as undefined)).toThrow(new TypeError('field "n": docs is not a DocSet'))
    // A number is not a term: it answered -1 (absent) before.
    expect(() => other.column('city').lookupOrdinal(0 as unknown as string)).toThrow(
      new TypeError('field "city": a term must be a string or UTF-8 bytes (Uint8Array), got number 0'),
    )
    other.close()
  })
})

describe.each(['ts', 'wasm'] as const)('DocSet lifetime (%s)', (backend) => {
  it('closing a reader releases the DocSets made from it; ValueBuffers stay', () => {
    const reader = openColumns(bytes, { backend })
    const kept = createValueBuffer('int64', 3, { backend })
    reader.column('n').readValues(0, kept.array)
    const made = [reader.createDocSet(), reader.allDocuments(), reader.column('n').rangeFilter(1, 2), reader.column('city').termFilter('SEA')]
    made.push(made[1].clone())
    reader.close()
    for (const set of made) expect(() => set.count()).toThrow('DocSet was released')
    made[0].release()
    expect(Array.from(kept.array)).toEqual([1n, 2n, 3n])
    kept.release()
  })

  it('sets dropped without release() give their memory back when the reader closes', () => {
    const big = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, Array.from({ length: 300_000 }, (_, v) => ({ v })))!
    const inUse = () => (backend === 'wasm' ? wasmRuntime().regions.bytesInUse : 0)
    const reader = openColumns(big, { backend })
    const before = inUse()
    for (let round = 0; round < 200; round++) reader.column('v').rangeFilter(round, round + 1000)
    if (backend === 'wasm') expect(inUse()).toBeGreaterThan(before + 150 * 37_500)
    reader.close()
    const after = openColumns(big, { backend })
    // The file's own region is all that is in use again: no dropped set is left.
    expect(inUse()).toBe(before)
    after.close()
  })
})

describe.each(['ts', 'wasm'] as const)('DocSet words and ids (%s)', (backend) => {
  const many = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }, { name: 'k', type: 'keyword', facet: true }] },
    Array.from({ length: 5000 }, (_, d) => ({ v: d % 100, k: `t${d % 7}` })))!

  it('words kept after their DocSet is dropped keep its memory: never the next set\'s or file\'s', async () => {
    const reader = openColumns(many, { backend })
    const words = (() => reader.column('v').rangeFilter(0, 9).words)()
    const bits = Array.from(words)
    // The set is garbage now; its memory was freed when collected, with the view still showing it.
    for (let round = 0; round < 20; round++) {
      gc!()
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    using other = openColumns(many, { backend })
    const sets = Array.from({ length: 20 }, () => other.column('v').rangeFilter(50, 99))
    expect(Array.from(words)).toEqual(bits)
    words.fill(0)
    expect(sets.every((set) => set.count() === 2500)).toBe(true)
    expect(Array.from(other.column('k').facetCounts())).toEqual([715, 715, 714, 714, 714, 714, 714])
    reader.close()
  })

  it('facetCounts\' counts over the words of the DocSet it counts are refused', () => {
    using reader = openColumns(many, { backend })
    const docs = reader.column('v').rangeFilter(0, 9)
    const counts = new Uint32Array(docs.words.buffer, docs.words.byteOffset, 7)
    expect(() => reader.column('k').facetCounts(docs, counts)).toThrow(RangeError)
    expect(docs.count()).toBe(500)
  })

  it('a symbol or an object with no prototype as a document is named', () => {
    using reader = openColumns(many, { backend })
    const set = reader.createDocSet()
    expect(() => set.add(Symbol('d') as unknown as number)).toThrow(new RangeError('document Symbol(d) is not an integer in [0, 5000)'))
    expect(() => set.has(Object.create(null) as number)).toThrow(new RangeError('document (a plain object) is not an integer in [0, 5000)'))
  })
})

describe.each(['ts', 'wasm'] as const)('column.toArray (%s)', (backend) => {
  it('gives one entry per document in natural units: null without a value, arrays for multi', () => {
    const file = flushColumns({ fields: [
      { name: 'k', type: 'keyword', facet: true },
      { name: 'tags', type: 'keyword', facet: true, multi: true },
      { name: 'n', type: 'integral', column: true },
      { name: 'big', type: 'integral', column: true },
      { name: 'x', type: 'fractional', column: true },
      { name: 'd', type: 'date', column: true },
      { name: 'ok', type: 'bool', column: true },
      { name: 'at', type: 'geo_point', column: true },
    ] }, [
      { k: 'b', tags: ['y', 'x', 'y'], n: 5, big: 2n ** 60n, x: -0, d: 86_400_000, ok: true, at: { lat: 1.5, lon: -2 } },
      null,
      { k: 'a', tags: [], n: -7, big: 1, x: NaN, d: '1970-01-01T00:00:01Z', ok: false },
    ])!
    const reader = openColumns(file, { backend })
    expect(reader.column('k').toArray()).toEqual(['b', null, 'a'])
    expect(reader.column('tags').toArray()).toEqual([['y', 'x', 'y'], null, null])
    expect(reader.column('n').toArray()).toEqual([5, null, -7])
    expect(() => reader.column('big').toArray()).toThrow(new RangeError('field "big": value 0 (1152921504606846976) is beyond 2^53; toArray({ useBigInt: true }) gives bigints'))
    expect(reader.column('big').toArray({ useBigInt: true })).toEqual([2n ** 60n, null, 1n])
    const doubles = reader.column('x').toArray()
    expect(Object.is(doubles[0], -0) && doubles[1] === null && Number.isNaN(doubles[2])).toBe(true)
    expect(reader.column('d').toArray()).toEqual([86_400_000, null, 1000])
    expect(reader.column('d').toArray({ useDate: true })).toEqual([new Date(86_400_000), null, new Date(1000)])
    expect(reader.column('ok').toArray()).toEqual([true, null, false])
    expect(reader.column('at').toArray()).toEqual([{ lat: 1.5, lon: -2 }, null, null])
    expect(() => reader.column('n').toArray({ useBigInt: 'yes' } as never)).toThrow(
      new TypeError('field "n": toArray option useBigInt must be true or false, got "yes"'))
    expect(() => reader.column('d').toArray({ useDate: 1 } as never)).toThrow(new TypeError('field "d": toArray option useDate must be true or false, got 1'))
    expect(() => reader.column('d').toArray(null as never)).toThrow(new TypeError('field "d": toArray\'s options must be an object, got null'))
    reader.close()
  })

  it('refuses dates a Date cannot hold rather than giving Invalid Date', () => {
    // ±8.64e15 ms are the last a Date holds; the writer takes dates up to 2^53 - 1 ms (and beyond, as bigints).
    for (const format of [1, 2] as const) {
      const file = flushColumns({ fields: [{ name: 'd', type: 'date', column: true }] },
        [{ d: 8.64e15 }, { d: -8.64e15 }, { d: 8.64e15 + 1 }, { d: 2 ** 53 - 1 }], { maxDoc: 4, format })!
      using reader = openColumns(file, { backend })
      expect(reader.column('d').toArray()).toEqual([8.64e15, -8.64e15, 8.64e15 + 1, 2 ** 53 - 1])
      expect(() => reader.column('d').toArray({ useDate: true })).toThrow(new RangeError(
        'field "d": value 2 (8640000000000001 ms) is beyond the range of a Date (±8.64e15 ms); toArray() without useDate gives milliseconds'))
      const edges = flushColumns({ fields: [{ name: 'd', type: 'date', column: true }] }, [{ d: 8.64e15 }, { d: -8.64e15 }], { maxDoc: 2, format })!
      using edgeReader = openColumns(edges, { backend })
      expect(edgeReader.column('d').toArray({ useDate: true })).toEqual([new Date(8.64e15), new Date(-8.64e15)])
    }
  })
})

describe.each(['ts', 'wasm'] as const)('the readers\' maxResidentFileBytes (%s)', (backend) => {
  const file = flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, [{ n: 1 }], { maxDoc: 1 })!
  it('is a positive integer, or a RangeError naming the file and the option, before anything is read', async () => {
    // A string switched the limit off; -1, 0 and 1.5 were reported as files over a limit of -1 bytes.
    for (const limit of ['x', -1, 0, 1.5, NaN, 2 ** 53] as unknown as number[]) {
      const refused = new RangeError(`seg.oixk: options.maxResidentFileBytes must be a positive integer, not ${typeof limit === 'string' ? '"x"' : String(limit)}`)
      const options = { backend, fileName: 'seg.oixk', maxResidentFileBytes: limit }
      expect(() => openColumns(file, options)).toThrow(refused)
      using buffer = createFileBuffer(file.length, { backend })
      buffer.bytes.set(file)
      expect(() => buffer.open(options)).toThrow(refused)
      await expect(openColumnsFromUrl('http://127.0.0.1:1/never-fetched', options)).rejects.toThrow(refused)
      await expect(openColumnsFile('/no/such/file', options)).rejects.toThrow(refused)
    }
    // The smallest limit is 1 byte; the file's own size passes.
    expect(() => openColumns(file, { backend, maxResidentFileBytes: 1 })).toThrow(ResidentLimitError)
    openColumns(file, { backend, maxResidentFileBytes: file.length }).close()
  })
})

describe.each(['ts', 'wasm'] as const)('DocSet words past maxDoc (%s)', (backend) => {
  it('are no documents: count(), iteration and toArray() pass them over, as queries do', () => {
    for (const maxDoc of [33, 64, 100]) {
      using reader = openColumns(null, { maxDoc, backend })
      using set = reader.createDocSet()
      set.add(0).add(maxDoc - 1)
      const words = set.words
      // Every bit a caller can reach past the last document, padding words included.
      for (let word = maxDoc >>> 5; word < words.length; word++) words[word] |= (maxDoc & 31) !== 0 && word === maxDoc >>> 5 ? -1 << (maxDoc & 31) : -1
      expect(set.count(), `maxDoc ${maxDoc}`).toBe(2)
      expect([...set]).toEqual([0, maxDoc - 1])
      expect(Array.from(set.toArray())).toEqual([0, maxDoc - 1])
    }
  })
})

describe.each(['ts', 'wasm'] as const)('a lone surrogate as a term (%s)', (backend) => {
  it('matches nothing: encoded it would read as U+FFFD, a term the column has', () => {
    for (const format of [1, 2] as const) {
      const file = flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, [{ k: '\uFFFD' }, { k: 'a' }, { k: '\u{1F600}' }], { format })!
      using reader = openColumns(file, { backend })
      const column = reader.column('k')
      expect([column.lookupOrdinal('\uFFFD'), column.lookupOrdinal('\uD800'), column.lookupOrdinal('\uDE00'), column.lookupOrdinal('\uD83D\uDE00')]).toEqual([1, -1, -1, 2])
      expect(Array.from(column.termFilter('\uD800').toArray())).toEqual([])
      expect(Array.from(column.termFilter(['\uDFFF', 'a']).toArray())).toEqual([1])
    }
  })
})

// Options are read by name everywhere, as openColumns and the writer read them: inherited ones and
// getters count. Spreads (own properties only) dropped them in openColumnsFile, openColumnsFromUrl and
// flushColumns, so an inherited maxDoc went unchecked and an inherited format unwritten.
describe('options inherited or given by getters', () => {
  const { path } = tempDirectory('oixk-options-')
  const small = flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, [{ n: 1 }, { n: 2 }, { n: 3 }])!

  it('flushColumns writes the format an options prototype gives', () => {
    const written = flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, [{ n: 1 }], Object.create({ format: 2 }))!
    expect(openColumns(written).format).toBe(2)
  })

  it('openColumnsFile checks an inherited maxDoc and decodedCodes', async () => {
    writeFileSync(path('small.oixk'), small)
    await expect(openColumnsFile(path('small.oixk'), Object.create({ maxDoc: 5 }))).rejects.toThrow('the file\'s maxDoc is 3, but the segment has 5 documents (options.maxDoc)')
    await expect(openColumnsFile(path('small.oixk'), Object.create({ decodedCodes: 'no' }))).rejects.toThrow('options.decodedCodes must be true or false, not no')
  })

  it('a geo point\'s inherited keys are ignored, as a document\'s are (refused in a message naming none)', () => {
    const point = Object.assign(Object.create({ alt: 3 }), { lat: 1, lon: 2 }) as { lat: number; lon: number }
    const written = flushColumns({ fields: [{ name: 'g', type: 'geo_point', column: true }] }, [{ g: point }])!
    expect(Array.from(openColumns(written).column('g').getGeoPoint(0))).toEqual([1, 2])
  })
})
