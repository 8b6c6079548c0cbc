// Round trip of every type × layout through flushColumns → openColumns → every accessor.
// Expected raw values are computed here independently of src/ (own SortableBits, own UTF-8 order).
import { describe, expect, it } from 'vitest'
import { seededRandom } from './helpers/random.js'
import { ColumnsWriter, flushColumns, float64ToSortableBits, openColumns, type Column } from '../src/index.js'

type Kind = 'keyword' | 'integral' | 'fractional' | 'date' | 'bool' | 'geo_point'
type Raw = bigint | [bigint, bigint]

const f64 = new Float64Array(1)
const u64 = new BigUint64Array(f64.buffer)
/** IEEE 754 bits of a double as an unsigned bigint. */
function ieee(x: number): bigint {
  f64[0] = x
  return u64[0]
}
/** SortableBits.Encode from IEEE bits, written from the spec's formula. */
function sortable(bits: bigint): bigint {
  const b = BigInt.asIntN(64, bits)
  return b < 0n ? b ^ 0x7fffffffffffffffn : b
}
const utf8 = (s: string) => new TextEncoder().encode(s)
const byUtf8 = (a: string, b: string) => Buffer.compare(Buffer.from(utf8(a)), Buffer.from(utf8(b)))

/** IEEE bits a fractional input stands for. */
function fractionalBits(v: unknown): bigint {
  if (typeof v === 'object' && v !== null) return BigInt('0x' + (v as { bits: string }).bits)
  return ieee(typeof v === 'string' ? Number(v) : (v as number))
}

function rawOf(type: Kind, v: unknown): Raw {
  switch (type) {
    case 'integral': return BigInt(v as number | bigint)
    case 'date':
      if (v instanceof Date) return BigInt(v.getTime())
      if (typeof v === 'string') return BigInt(Date.parse(v))
      return BigInt(v as number | bigint)
    case 'bool': return v ? 1n : 0n
    case 'fractional': return sortable(fractionalBits(v))
    case 'geo_point': {
      const { lat, lon } = v as { lat: number; lon: number }
      return [sortable(ieee(lat)), sortable(ieee(lon))]
    }
    case 'keyword': throw new Error('keywords are mapped through the dictionary')
  }
}

const POOLS: Record<Kind, unknown[]> = {
  integral: [0, 1, -1, 42, 2 ** 31 - 1, -(2 ** 31), 2 ** 53 - 1, -(2 ** 53 - 1), 2n ** 63n - 1n, -(2n ** 63n), 1n << 40n, 2n ** 53n + 1n],
  fractional: [0, -0, 1.5, -1, 0.1, Infinity, -Infinity, NaN, 'NaN', '-0', 'Infinity', 5e-324, -Number.MAX_VALUE,
    { bits: 'fff8000000000123' }, { bits: '7ff8000000000abc' }, { bits: 'FFF0000000000001' }, { bits: '8000000000000000' }],
  date: [0, -1, 1700000000000, 1700000000000n, '2024-02-29T12:34:56.789Z', '0001-01-01T00:00:00Z', new Date(86400000), 8.64e15, -8.64e15],
  bool: [true, false],
  keyword: ['', 'a', 'A', 'b', 'zz', 'é', '\u{1F600}', '\uFFFD', 'a\u0000', 'x'.repeat(300)],
  geo_point: [{ lat: 0, lon: 0 }, { lat: -0, lon: -0 }, { lat: -90, lon: -180 }, { lat: 90, lon: 180 },
    { lat: 45.5, lon: -122.25 }, { lat: 1e-300, lon: 179.99999999 }],
}
const KINDS = Object.keys(POOLS) as Kind[]

type Shape = 'dense' | 'optional' | 'multi'
interface FieldCase { name: string; type: Kind; shape: Shape }

/** Builds documents: dense fields always have one value, optional ones skip some docs, multi ones hold 0–4 (with repeats). */
function makeDocs(fields: FieldCase[], count: number, seed: number): Record<string, unknown>[] {
  const random = seededRandom(seed)
  const docs: Record<string, unknown>[] = []
  for (let d = 0; d < count; d++) {
    const doc: Record<string, unknown> = {}
    for (const { name, type, shape } of fields) {
      const pool = POOLS[type]
      const pick = () => pool[Math.floor(random() * pool.length)]
      if (shape === 'dense') doc[name] = pool[d % pool.length]
      else if (shape === 'optional') {
        const r = random()
        if (r < 0.2) doc[name] = null
        else if (r < 0.3) doc[name] = undefined
        else if (r >= 0.4) doc[name] = pick()
      } else {
        const n = d === 1 ? 3 : Math.floor(random() * 5)
        const values = Array.from({ length: n }, pick)
        if (d === 1) values[2] = values[0] // a duplicate, kept in place
        if (n > 0 || random() < 0.5) doc[name] = values
      }
    }
    docs.push(doc)
  }
  return docs
}

/** Values of a field per document, as given (null/absent → []). */
function valuesOf(docs: readonly Record<string, unknown>[], name: string, maxDoc: number): unknown[][] {
  return Array.from({ length: maxDoc }, (_, d) => {
    const v = docs[d]?.[name]
    return v === null || v === undefined ? [] : Array.isArray(v) ? v : [v]
  })
}

/** Checks every accessor and readValues of one column against the input values. */
function checkColumn(column: Column, type: Kind, perDoc: unknown[][], maxDoc: number): void {
  const isKeyword = type === 'keyword'
  const terms = isKeyword ? [...new Set(perDoc.flat() as string[])].sort(byUtf8) : []
  const raws: Raw[][] = perDoc.map((values) => values.map((v) => (isKeyword ? BigInt(terms.indexOf(v as string)) : rawOf(type, v))))
  const flat = raws.flat()
  const lat = (r: Raw) => (Array.isArray(r) ? r[0] : r)
  const docsWith = perDoc.filter((v) => v.length > 0).length
  const expectedLayout = perDoc.some((v) => v.length > 1) ? 'multi' : docsWith === maxDoc ? 'dense' : 'optional'
  expect(column.type).toBe(type)
  expect(column.layout).toBe(expectedLayout)
  expect(column.documentsWithValue).toBe(docsWith)
  expect(column.valueCount()).toBe(flat.length)
  expect(column.minRaw).toBe(flat.map(lat).reduce((a, b) => (b < a ? b : a)))
  expect(column.maxRaw).toBe(flat.map(lat).reduce((a, b) => (b > a ? b : a)))
  if (isKeyword) {
    expect(column.dictionary!.termCount).toBe(terms.length)
    terms.forEach((term, ordinal) => {
      expect(column.term(ordinal)).toBe(term)
      expect(column.lookupOrdinal(term)).toBe(ordinal)
      expect(column.lookupOrdinal(utf8(term))).toBe(ordinal)
    })
    expect(column.lookupOrdinal('not a term')).toBe(-1)
    expect(column.lookupOrdinal('a\u0001')).toBe(-1)
  }
  const point = new Float64Array(2)
  let index = 0
  for (let d = 0; d < maxDoc; d++) {
    expect(column.hasValue(d)).toBe(perDoc[d].length > 0)
    expect(column.valueCount(d)).toBe(perDoc[d].length)
    if (perDoc[d].length > 0) expect(column.firstValueIndex(d)).toBe(index)
    perDoc[d].forEach((input, nth) => {
      const raw = raws[d][nth]
      if (type === 'geo_point') {
        const [latRaw, lonRaw] = raw as [bigint, bigint]
        const { lat: la, lon: lo } = input as { lat: number; lon: number }
        column.getGeoPoint(d, nth, point)
        expect(Object.is(point[0], la) && Object.is(point[1], lo)).toBe(true)
        expect(column.getRawBigInt(index)).toBe(latRaw)
        expect(column.getRawBigInt(index, 'longitude')).toBe(lonRaw)
      } else if (type === 'fractional') {
        f64[0] = column.getFloat64(d, nth)
        expect(u64[0]).toBe(fractionalBits(input))
        expect(column.getRawBigInt(index)).toBe(raw)
      } else {
        expect(column.getInt64BigInt(d, nth)).toBe(raw)
        expect(column.getRawBigInt(index)).toBe(raw)
        const asNumber = Number(raw)
        if (Number.isSafeInteger(asNumber)) expect(column.getInt64(d, nth)).toBe(asNumber)
        else expect(() => column.getInt64(d, nth)).toThrow(RangeError)
        if (isKeyword) {
          expect(column.getOrdinal(d, nth)).toBe(asNumber)
          expect(column.getKeywordString(d, nth)).toBe(input)
          expect([...column.getKeyword(d, nth)]).toEqual([...utf8(input as string)])
        }
      }
      index++
    })
    expect(() => column.getRawBigInt(-1)).toThrow(RangeError)
  }
  expect(index).toBe(flat.length)
  expect(() => column.hasValue(maxDoc)).toThrow(RangeError)
  expect(() => column.valueCount(-1)).toThrow(RangeError)
  // Bulk reads: every allowed destination, whole and partial.
  const count = flat.length
  const big = new BigInt64Array(count)
  expect(column.readValues(0, big)).toBe(count)
  expect([...big]).toEqual(flat.map(lat))
  if (count > 2) {
    const part = new BigInt64Array(count - 2)
    column.readValues(1, part)
    expect([...part]).toEqual(flat.map(lat).slice(1, count - 1))
  }
  expect(() => column.readValues(1, new BigInt64Array(count))).toThrow(RangeError)
  const padded = new BigInt64Array(count + 3).fill(-5n) // a destination view that starts mid-buffer
  column.readValues(0, padded.subarray(2, 2 + count))
  expect([...padded]).toEqual([-5n, -5n, ...flat.map(lat), -5n])
  const doubles = new Float64Array(count)
  const doubleBits = new BigUint64Array(doubles.buffer)
  const ints = new Int32Array(count)
  if (type === 'fractional' || type === 'geo_point') {
    column.readValues(0, doubles)
    expect([...doubleBits]).toEqual(flat.map((r) => BigInt.asUintN(64, sortable(BigInt.asUintN(64, lat(r))))))
    if (type === 'geo_point') {
      column.readValues(0, big, 'longitude')
      expect([...big]).toEqual(flat.map((r) => (r as [bigint, bigint])[1]))
      column.readValues(0, doubles, 'longitude')
      expect([...doubles]).toEqual(perDoc.flat().map((p) => (p as { lon: number }).lon))
    }
    expect(() => column.readValues(0, ints)).toThrow(TypeError)
  } else {
    const values = flat.map(lat)
    if (values.every((v) => Number.isSafeInteger(Number(v)))) {
      column.readValues(0, doubles)
      expect([...doubles]).toEqual(values.map(Number))
    } else {
      expect(() => column.readValues(0, doubles)).toThrow(/beyond 2\^53; read into a BigInt64Array/)
    }
    if (values.every((v) => v >= -(2n ** 31n) && v < 2n ** 31n)) {
      column.readValues(0, ints)
      expect([...ints]).toEqual(values.map(Number))
    } else {
      expect(() => column.readValues(0, ints)).toThrow(/does not fit an Int32Array/)
    }
  }
}

function schemaOf(fields: FieldCase[]) {
  return { fields: fields.map(({ name, type, shape }) => ({ name, type, column: true, multi: shape === 'multi' })) }
}

describe('round trip, every type × layout', () => {
  const fields: FieldCase[] = KINDS.flatMap((type) => (['dense', 'optional', 'multi'] as Shape[]).map((shape) => ({ name: `${type}_${shape}`, type, shape })))
  const cases = [
    { title: 'maxDoc = documents given', count: 150, maxDoc: 150 },
    { title: 'trailing documents without values', count: 66, maxDoc: 200 },
  ]
  for (const { title, count, maxDoc } of cases) {
    it(title, () => {
      const docs = makeDocs(fields, count, 20240501 + maxDoc)
      const bytes = flushColumns(schemaOf(fields), docs, { maxDoc })!
      expect([...bytes.subarray(0, 12)]).toEqual([0x4f, 0x49, 0x58, 0x4b, 1, 0, 0, 0, maxDoc & 0xff, maxDoc >>> 8, 0, 0])
      expect(String.fromCharCode(...bytes.subarray(bytes.length - 12, bytes.length - 8))).toBe('KXIO')
      const reader = openColumns(bytes, { maxDoc })
      reader.verify()
      expect(reader.columns.map((c) => c.name)).toEqual(fields.map((f) => f.name).sort())
      for (const field of fields) {
        const column = reader.getColumn(field.name)!
        expect(column).not.toBeNull()
        checkColumn(column, field.type, valuesOf(docs, field.name, maxDoc), maxDoc)
        if (maxDoc > count) {
          expect(column.layout).not.toBe('dense')
          for (let d = count; d < maxDoc; d++) expect(column.hasValue(d)).toBe(false)
        }
      }
    })
  }

  it('a multi field whose documents all hold exactly one value is dense; order and duplicates kept', () => {
    const f: FieldCase[] = [{ name: 'm', type: 'integral', shape: 'multi' }, { name: 'k', type: 'keyword', shape: 'multi' }]
    const docs = [{ m: [5], k: ['b'] }, { m: 7, k: 'a' }, { m: [5], k: ['b'] }]
    const reader = openColumns(flushColumns(schemaOf(f), docs)!)
    reader.verify()
    expect(reader.getColumn('m')!.layout).toBe('dense')
    checkColumn(reader.getColumn('m')!, 'integral', valuesOf(docs, 'm', 3), 3)
    const multi = [{ m: [3, 1, 3, 2], k: ['z', 'a', 'z'] }, { m: [] }, { m: [9, 9], k: [''] }]
    const multiReader = openColumns(flushColumns(schemaOf(f), multi)!)
    const m = multiReader.getColumn('m')!
    expect([0, 1, 2, 3].map((n) => m.getInt64(0, n))).toEqual([3, 1, 3, 2])
    expect(m.valueCount(1)).toBe(0)
    expect([m.getInt64(2, 0), m.getInt64(2, 1)]).toEqual([9, 9])
    const k = multiReader.getColumn('k')!
    expect([0, 1, 2].map((n) => k.getOrdinal(0, n))).toEqual([2, 1, 2]) // '' < 'a' < 'z'
    expect(k.getKeywordString(2)).toBe('')
    expect(k.hasValue(1)).toBe(false)
    expect(() => m.getInt64(1)).toThrow(RangeError)
  })
})

describe('exact values', () => {
  const schema = { fields: [
    { name: 'f', type: 'fractional', column: true },
    { name: 'i', type: 'integral', column: true },
    { name: 'none', type: 'keyword', column: true },
    { name: 't', type: 'text', column: true },
    { name: 'plain', type: 'integral' },
  ] }

  it('documented SortableBits values', () => {
    expect(float64ToSortableBits(1)).toBe(4607182418800017408n)
    expect(float64ToSortableBits(-1)).toBe(-4607182418800017409n)
    expect(float64ToSortableBits(-0)).toBe(-1n)
    expect(float64ToSortableBits(Infinity)).toBe(9218868437227405312n)
    expect(sortable(0xfff8000000000000n)).toBe(-9221120237041090561n)
  })

  it('NaN payloads, -0 and +0, infinities keep their bits and raw forms', () => {
    const docs = [
      { f: { bits: 'fff8000000000123' }, i: 2n ** 63n - 1n },
      { f: { bits: '7ff8000000000abc' }, i: -(2n ** 63n) },
      { f: -0, i: 2n ** 53n },
      { f: 0, i: 0n },
      { f: Infinity, i: -(2n ** 53n) - 1n },
      { f: '-Infinity', i: 1n },
    ]
    const reader = openColumns(flushColumns(schema, docs)!)
    reader.verify()
    const f = reader.getColumn('f')!
    expect(f.getRawBigInt(0)).toBe(BigInt.asIntN(64, 0xfff8000000000123n) ^ 0x7fffffffffffffffn)
    expect(f.getRawBigInt(0)).toBe(-0x7ff8000000000124n)
    expect(f.getRawBigInt(1)).toBe(0x7ff8000000000abcn)
    expect(f.getRawBigInt(2)).toBe(-1n)
    expect(f.getRawBigInt(3)).toBe(0n)
    expect(f.getRawBigInt(4)).toBe(0x7ff0000000000000n)
    expect(f.minRaw).toBe(-0x7ff8000000000124n)
    expect(f.maxRaw).toBe(0x7ff8000000000abcn)
    const bits = [0xfff8000000000123n, 0x7ff8000000000abcn, 0x8000000000000000n, 0n, 0x7ff0000000000000n, 0xfff0000000000000n]
    bits.forEach((b, d) => {
      f64[0] = f.getFloat64(d)
      expect(u64[0]).toBe(b)
    })
    expect(Object.is(f.getFloat64(2), -0)).toBe(true)
    expect(Object.is(f.getFloat64(3), 0)).toBe(true)
    const out = new Float64Array(6)
    f.readValues(0, out)
    expect([...new BigUint64Array(out.buffer)]).toEqual(bits)
    const i = reader.getColumn('i')!
    expect(i.getInt64BigInt(0)).toBe(9223372036854775807n)
    expect(i.getInt64BigInt(1)).toBe(-9223372036854775808n)
    expect(i.minRaw).toBe(-(2n ** 63n))
    expect(i.maxRaw).toBe(2n ** 63n - 1n)
    expect(() => i.getInt64(0)).toThrow(RangeError)
    expect(() => i.getInt64(0)).toThrow(/9223372036854775807 is beyond 2\^53; use getInt64BigInt/)
    expect(() => i.getInt64(2)).toThrow(/use getInt64BigInt/) // 2^53 itself is not safe
    expect(() => i.getInt64(4)).toThrow(/use getInt64BigInt/)
    expect(i.getInt64(3)).toBe(0)
    expect(i.getInt64(5)).toBe(1)
    expect(() => i.readValues(0, new Float64Array(6))).toThrow(RangeError)
    expect(() => i.readValues(2, new Float64Array(1))).toThrow('field "i": value 2 (9007199254740992) is beyond 2^53; read into a BigInt64Array')
    const one = new Float64Array(1)
    i.readValues(3, one)
    expect(one[0]).toBe(0)
    expect(() => f.getInt64(0)).toThrow(TypeError)
    expect(() => i.getFloat64(0)).toThrow(TypeError)
    expect(() => i.getOrdinal(0)).toThrow(TypeError)
  })

  it('Int32Array bounds: 2^31 - 1 and -2^31 fit, 2^31 and -2^31 - 1 do not', () => {
    const reader = openColumns(flushColumns(schema, [{ i: 2 ** 31 - 1 }, { i: -(2 ** 31) }, { i: 2 ** 31 }, { i: -(2 ** 31) - 1 }])!)
    const i = reader.getColumn('i')!
    const two = new Int32Array(2)
    i.readValues(0, two)
    expect([...two]).toEqual([2147483647, -2147483648])
    expect(() => i.readValues(2, new Int32Array(1))).toThrow('field "i": value 2 (2147483648) does not fit an Int32Array; use a Float64Array or BigInt64Array')
    expect(() => i.readValues(3, new Int32Array(1))).toThrow(RangeError)
  })

  it('fields without values, text and non-column fields get no column; no qualifying field → no file', () => {
    const reader = openColumns(flushColumns(schema, [{ i: 1, t: 'text', plain: 5 }, { none: null }])!, { maxDoc: 2 })
    expect(reader.columns.map((c) => c.name)).toEqual(['i'])
    expect(reader.getColumn('none')).toBeNull()
    expect(reader.getColumn('t')).toBeNull()
    expect(reader.getColumn('plain')).toBeNull()
    expect(flushColumns(schema, [{ t: 'x', plain: 1 }, {}, null, { none: null, f: undefined }], { maxDoc: 9 })).toBeNull()
    expect(flushColumns({ fields: [] }, [])).toBeNull()
    const empty = openColumns(null, { maxDoc: 9 })
    expect(empty.maxDoc).toBe(9)
    expect(empty.columns).toEqual([])
    expect(empty.getColumn('i')).toBeNull()
    empty.verify()
  })

  it('is deterministic: same input → same bytes, regardless of schema order, key order or writer API', () => {
    const fields: FieldCase[] = KINDS.map((type) => ({ name: type, type, shape: 'multi' as Shape }))
    const docs = makeDocs(fields, 300, 7)
    const first = flushColumns(schemaOf(fields), docs)!
    const second = flushColumns(schemaOf(fields), docs)!
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true)
    const reversed = { fields: [...schemaOf(fields).fields].reverse() }
    const reordered = docs.map((doc) => Object.fromEntries(Object.entries(doc).reverse()))
    expect(Buffer.from(flushColumns(reversed, reordered)!).equals(Buffer.from(first))).toBe(true)
    const writer = new ColumnsWriter(schemaOf(fields))
    docs.forEach((doc, d) => writer.addDocument(d, doc))
    expect(Buffer.from(writer.finish(300)!).equals(Buffer.from(first))).toBe(true)
  })
})
