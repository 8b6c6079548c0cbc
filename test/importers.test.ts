/**
 * The vega-datasets importers: every dataset imports, opens and verifies on
 * both backends, both backends decode every column identically, and values
 * checked by hand against the source files come back exactly.
 */
import { describe, expect, it } from 'vitest'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { parseCsv, parseCsvRecords } from '../scripts/importers/csv.js'
import { cleanRecord, Drops } from '../scripts/importers/clean.js'
import { DATASETS, importDataset, movieDateToIso } from '../scripts/importers/datasets.js'

const BACKENDS = ['ts', 'wasm'] as const

/** Every value of every column (geo: both halves), raw and as doubles. */
function allValues(reader: ColumnsReader): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const column of reader.columns) {
    for (const part of column.type === 'geo_point' ? (['latitude', 'longitude'] as const) : (['latitude'] as const)) {
      const raw = new BigInt64Array(column.totalValueCount)
      column.readValues(0, raw, part)
      const doubles = new Float64Array(column.totalValueCount)
      column.readValues(0, doubles, part)
      out[`${column.name}/${part}`] = { raw, doubles }
    }
    if (column.dictionary !== null) {
      out[`${column.name}/terms`] = Array.from({ length: column.dictionary.termCount }, (_, ordinal) => column.term(ordinal))
    }
  }
  return out
}

/** Document of the first row whose keyword field equals value. */
function findDoc(reader: ColumnsReader, field: string, value: string): number {
  const column = reader.getColumn(field)!
  for (let doc = 0; doc < reader.maxDoc; doc++) if (column.hasValue(doc) && column.getKeywordString(doc) === value) return doc
  return -1
}

/** Hand-checked values per dataset (first rows of the source files, read with head). */
const CHECKS: Record<string, (r: ColumnsReader) => void> = {
  airports(r) {
    expect(r.getColumn('iata')!.getKeywordString(0)).toBe('00M')
    expect(r.getColumn('name')!.getKeywordString(0)).toBe('Thigpen')
    expect(r.getColumn('state')!.getKeywordString(0)).toBe('MS')
    expect(Array.from(r.getColumn('location')!.getGeoPoint(0))).toEqual([31.95376472, -89.23450472])
    // A quoted CSV field holding a comma: 35A,"Union County, Troy Shelton",Union,SC,...
    const doc = findDoc(r, 'iata', '35A')
    expect(r.getColumn('name')!.getKeywordString(doc)).toBe('Union County, Troy Shelton')
    expect(r.getColumn('city')!.getKeywordString(doc)).toBe('Union')
  },
  zipcodes(r) {
    expect(r.getColumn('zip_code')!.getKeywordString(0)).toBe('00501')
    expect(Array.from(r.getColumn('location')!.getGeoPoint(0))).toEqual([40.922326, -72.637078])
    expect(r.getColumn('county')!.getKeywordString(0)).toBe('Suffolk')
  },
  movies(r) {
    expect(r.getColumn('Title')!.getKeywordString(0)).toBe('The Land Girls')
    expect(r.getColumn('US Gross')!.getInt64(0)).toBe(146083)
    expect(r.getColumn('Production Budget')!.getInt64(0)).toBe(8000000)
    expect(r.getColumn('Release Date')!.getInt64(0)).toBe(Date.UTC(1998, 5, 12)) // "Jun 12 1998"
    expect(r.getColumn('IMDB Rating')!.getFloat64(0)).toBe(6.1)
    expect(r.getColumn('US DVD Sales')!.hasValue(0)).toBe(false) // null in the source
    expect(r.getColumn('Major Genre')!.getKeywordString(1)).toBe('Drama')
  },
  earthquakes(r) {
    expect(r.getColumn('id')!.getKeywordString(0)).toBe('ci37868143')
    expect(r.getColumn('mag')!.getFloat64(0)).toBe(2)
    expect(r.getColumn('time')!.getInt64(0)).toBe(1517966773840)
    expect(Array.from(r.getColumn('location')!.getGeoPoint(0))).toEqual([34.4945, -118.6671667])
    expect(r.getColumn('depth')!.getFloat64(0)).toBe(26.49)
    expect(r.getColumn('felt')!.hasValue(0)).toBe(false)
  },
  birdstrikes(r) {
    expect(r.getColumn('Airport Name')!.getKeywordString(0)).toBe('BARKSDALE AIR FORCE BASE ARPT')
    expect(r.getColumn('Flight Date')!.getInt64(0)).toBe(Date.UTC(1990, 0, 8))
    expect(r.getColumn('Speed IAS in knots')!.getInt64(0)).toBe(300)
    // 2836 rows leave the speed empty: no value, not zero.
    expect(r.getColumn('Speed IAS in knots')!.documentsWithValue).toBe(10000 - 2836)
  },
  'sp500-2000'(r) {
    expect(r.getColumn('date')!.getInt64(0)).toBe(Date.UTC(2000, 0, 3))
    expect(r.getColumn('close')!.getFloat64(0)).toBe(1455.219971)
    expect(r.getColumn('volume')!.getInt64(0)).toBe(931800000)
  },
  'seattle-weather'(r) {
    expect(r.getColumn('date')!.getInt64(0)).toBe(Date.UTC(2012, 0, 1))
    expect(r.getColumn('precipitation')!.getFloat64(1)).toBe(10.9)
    expect(r.getColumn('weather')!.getKeywordString(0)).toBe('drizzle')
  },
  'flights-200k'(r) {
    expect(r.getColumn('delay')!.getInt64(1)).toBe(171)
    expect(r.getColumn('distance')!.getInt64(1)).toBe(2227)
    expect(r.getColumn('time')!.getFloat64(1)).toBe(0)
  },
}

describe('vega-datasets importers', () => {
  for (const { name, schema } of DATASETS) {
    it(`${name}: imports, verifies on both backends, reads identically, keeps hand-checked values`, () => {
      const { bytes, rowCount, drops } = importDataset(name)
      expect(drops.describe()).toEqual([])
      const readers = BACKENDS.map((backend) => openColumns(bytes, { fileName: `${name}.oixk`, maxDoc: rowCount, backend }))
      try {
        for (const reader of readers) {
          reader.verify()
          expect(reader.maxDoc).toBe(rowCount)
          // Every non-text field of these schemas has values, so each has a column.
          expect(reader.columns.length).toBe(schema.fields.length)
          CHECKS[name](reader)
        }
        expect(readers[1].backendName).toBe('wasm')
        expect(allValues(readers[1])).toEqual(allValues(readers[0]))
      } finally {
        for (const reader of readers) reader.close()
      }
    })
  }

  it('has a hand check for every dataset', () => {
    expect(Object.keys(CHECKS).sort()).toEqual(DATASETS.map((d) => d.name).sort())
  })
})

describe('csv parser', () => {
  it('handles quotes, doubled quotes, commas, CRLF, line breaks in quotes, BOM and a missing final newline', () => {
    expect(parseCsv('\ufeffa,b\r\n"x, y","say ""hi"""\r\n"two\nlines",\n3,4')).toEqual([
      ['a', 'b'], ['x, y', 'say "hi"'], ['two\nlines', ''], ['3', '4'],
    ])
    expect(parseCsvRecords('a,b\n1\n\n2,3\n')).toEqual([{ a: '1', b: '' }, { a: '2', b: '3' }])
  })
})

describe('cleaning', () => {
  it('drops invalid values, counts them and keeps the rest', () => {
    const schema = { fields: [
      { name: 'p', type: 'geo_point', column: true }, { name: 'n', type: 'integral', column: true },
      { name: 'f', type: 'fractional', column: true }, { name: 'd', type: 'date', column: true },
    ] } as const
    const drops = new Drops()
    const document = cleanRecord(schema, { p: { lat: 91, lon: 0 }, n: '12345678901234567890', f: 'abc', d: '2020-13-01' }, drops, {})
    expect(document).toEqual({ p: null, n: null, f: null, d: null })
    expect(drops.total).toBe(4)
    expect(cleanRecord(schema, { p: { lat: '1.5', lon: '-2' }, n: '9007199254740993', f: '1e3', d: '' }, drops, {}))
      .toEqual({ p: { lat: 1.5, lon: -2 }, n: 9007199254740993n, f: 1000, d: null })
    expect(drops.total).toBe(4)
  })

  it('converts movie dates to ISO', () => {
    expect(movieDateToIso('Jun 12 1998')).toBe('1998-06-12')
    expect(movieDateToIso('Foo 12 1998')).toBe('Foo 12 1998')
  })
})
