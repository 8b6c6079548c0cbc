/**
 * Corruption the reader finds after open: at read time (docs/format.md §8.2:
 * keyword ordinals, table indexes) and in the full check `verify` (§8.3). Each
 * file opens (it breaks no §8.1 rule) and breaks exactly one rule. Also: the
 * helper reproduces valid files byte for byte, a valid file passes, and random
 * single-byte edits give either a valid file or CorruptIndexException.
 */
import { describe, expect, it } from 'vitest'
import { CorruptIndexException } from '../src/format/errors.js'
import { sortableBitsToFloat64 } from '../src/format/sortable-bits.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { flushColumns } from '../src/write/columns-writer.js'
import {
  buildFile, canonicalSequence, col, decodeSequence, encodeSequence, expectCorrupt, FILE_NAME, type FileModel, fixChecksum,
  open, openModel, packedBlock, parseFile, rich, RICH_MAX_DOC, richBytes, SMALL_MAX_DOC, smallBytes, sortable, tableBlock, tableBlockOf,
  twoBlockBytes, TWO_BLOCK_MAX_DOC, utf8,
} from './helpers/file-surgery.js'

/** The rich fixture after edit; asserts that it still opens. */
function openEdited(edit: (model: FileModel) => void, make: () => FileModel = rich): ColumnsReader {
  const model = make()
  edit(model)
  return openModel(model)
}

/** Opening succeeds, verify() fails with expected, on both backends (the WebAssembly kernel names the canonical block itself). */
function verifyFails(edit: (model: FileModel) => void, expected: string | RegExp, make: () => FileModel = rich): void {
  const reader = openEdited(edit, make)
  expectCorrupt(() => reader.verify(), expected)
  const wasm = openColumns(reader.bytes.slice(), { fileName: FILE_NAME, maxDoc: reader.maxDoc, backend: 'wasm' })
  expectCorrupt(() => wasm.verify(), expected)
}

/** Re-encodes a column's value sequence (canonically) after changing its decoded values. */
const withValues = (name: string, change: (values: bigint[]) => void, part: 'values' | 'longitudes' = 'values') => (m: FileModel) => {
  const values = decodeSequence(col(m, name).section[part]!)
  change(values)
  col(m, name).section[part] = canonicalSequence(values)
}

/** Replaces block 0 of a column's value sequence with the block make() builds from its values. */
const withBlock = (name: string, make: (values: bigint[]) => ReturnType<typeof packedBlock>) => (m: FileModel) => {
  col(m, name).section.values.blocks[0] = make(decodeSequence(col(m, name).section.values))
}

const small = (top: number) => () => parseFile(smallBytes(top))

describe('the helper and valid files', () => {
  it('parse + build reproduces valid files byte for byte, and its canonical encoder matches the writer', () => {
    for (const bytes of [richBytes(), twoBlockBytes(), smallBytes(2 ** 25), smallBytes(2 ** 24)]) {
      const model = parseFile(bytes)
      expect(buildFile(model)).toEqual(bytes)
      for (const column of model.columns) {
        for (const sequence of [column.section.offsets, column.section.values, column.section.longitudes]) {
          if (sequence) expect(encodeSequence(canonicalSequence(decodeSequence(sequence)))).toEqual(encodeSequence(sequence))
        }
      }
    }
  })
  it('a valid file passes open and verify', () => {
    for (const [bytes, maxDoc] of [[richBytes(), RICH_MAX_DOC], [twoBlockBytes(), TWO_BLOCK_MAX_DOC], [smallBytes(2 ** 25), SMALL_MAX_DOC]] as const) {
      const reader = open(bytes, maxDoc)
      expect(() => reader.verify()).not.toThrow()
    }
    const reader = open(richBytes())
    expect(reader.columns.map((c) => c.name)).toEqual(['bool', 'const', 'frac', 'geo', 'int', 'kw', 'multi', 'status', 'tags'])
    expect(reader.getColumn('status')!.getInt64(5)).toBe(500)
    expect(reader.getColumn('kw')!.getKeywordString(0)).toBe('alpha')
  })
})

describe('read time (§8.2)', () => {
  // value 0 (document 0, "alpha") gets ordinal 3 of 3 terms; "alpha" stays used elsewhere
  const badOrdinal = () => openEdited(withValues('kw', (v) => { v[0] = 3n })).getColumn('kw')!
  const ordinalMessage = 'field "kw": value 0 has ordinal 3, not in [0, 3), the term ordinals'
  it('keyword ordinal ≥ termCount: getOrdinal, getKeyword, getKeywordString', () => {
    const kw = badOrdinal()
    expectCorrupt(() => kw.getOrdinal(0), ordinalMessage)
    expectCorrupt(() => kw.getKeyword(0), ordinalMessage)
    expectCorrupt(() => kw.getKeywordString(0), ordinalMessage)
    expectCorrupt(() => kw.getOrdinalAt(0), ordinalMessage)
    expect(kw.getOrdinal(1)).toBe(1)
  })
  it('keyword ordinal ≥ termCount: readValues into Int32Array, BigInt64Array and Float64Array', () => {
    const kw = badOrdinal()
    for (const destination of [new Int32Array(81), new BigInt64Array(81), new Float64Array(81)]) {
      expectCorrupt(() => kw.readValues(0, destination), `values of ${ordinalMessage}`)
    }
    expect(kw.readValues(1, new Int32Array(80))).toBe(80)
  })
  // Ordinals are 64-bit: one whose low word is a term's (1) but whose high word is set is no term's, and a
  // negative one neither; on both backends, through every read.
  for (const [ordinal, shown] of [[2n ** 32n + 1n, '4294967297'], [-1n, '-1']] as const) {
    it(`keyword ordinal ${shown} (high word set), both backends: every single read and readValues into each array type`, () => {
      const model = rich()
      withValues('kw', (v) => { v[0] = ordinal })(model)
      const bytes = buildFile(model)
      for (const backend of ['ts', 'wasm'] as const) {
        const kw = openColumns(bytes, { fileName: FILE_NAME, maxDoc: RICH_MAX_DOC, backend }).getColumn('kw')!
        const message = `field "kw": value 0 has ordinal ${shown}, not in [0, 3), the term ordinals`
        for (const read of [() => kw.getOrdinal(0), () => kw.getKeyword(0), () => kw.getKeywordString(0), () => kw.getOrdinalAt(0)]) expectCorrupt(read, message)
        for (const destination of [new Int32Array(81), new BigInt64Array(81), new Float64Array(81)]) {
          expectCorrupt(() => kw.readValues(0, destination), `values of ${message}`)
        }
        // A facet counts it: refused, not counted as the term its low word names.
        expectCorrupt(() => kw.facetCounts(), `values of field "kw": value 0 is ${shown}, not in [0, 3)`)
        expect(kw.getOrdinal(1)).toBe(1)
      }
    })
  }
  it('keyword ordinal = termCount where the block\'s span ends exactly there: facetCounts (both backends)', () => {
    // kw has 3 terms packed in 2 bits, so base + span = 3: the count kernel must still check the block.
    const model = rich()
    withValues('kw', (v) => { v[0] = 3n })(model)
    for (const backend of ['ts', 'wasm'] as const) {
      const kw = openColumns(buildFile(model), { fileName: FILE_NAME, maxDoc: RICH_MAX_DOC, backend }).getColumn('kw')!
      expectCorrupt(() => kw.facetCounts(), 'values of field "kw": value 0 is 3, not in [0, 3)')
    }
  })
  // document 5 of status (value 500, index 2) gets table index 3 of 3 entries
  const badIndex = withBlock('status', (values) => tableBlock([200n, 404n, 500n], values.map((v, d) => (d === 5 ? 3 : [200n, 404n, 500n].indexOf(v)))))
  const indexMessage = 'values of field "status": block 0 has table index 3, beyond its 3 entries'
  it('table index ≥ table size: getInt64', () => {
    const status = openEdited(badIndex).getColumn('status')!
    expectCorrupt(() => status.getInt64(5), indexMessage)
    expectCorrupt(() => status.getInt64BigInt(5), indexMessage)
    expect(status.getInt64(4)).toBe(404)
  })
  it('table index ≥ table size: readValues', () => {
    const status = openEdited(badIndex).getColumn('status')!
    for (const destination of [new Int32Array(101), new BigInt64Array(101), new Float64Array(101)]) {
      expectCorrupt(() => status.readValues(0, destination), indexMessage)
    }
    expect(status.readValues(0, new Int32Array(5))).toBe(5)
  })
})

describe('full check (§8.3)', () => {
  it('keyword ordinal out of range', () => {
    verifyFails(withValues('kw', (v) => { v[0] = 3n }), 'field "kw": value 0 has ordinal 3, not in [0, 3), the term ordinals')
  })
  it('table index out of range', () => {
    verifyFails(withBlock('status', (values) => tableBlock([200n, 404n, 500n], values.map((v, d) => (d === 5 ? 3 : [200n, 404n, 500n].indexOf(v))))),
      'values of field "status": block 0 has table index 3, beyond its 3 entries')
  })
  it('term not valid UTF-8', () => {
    // "br\xFFvo" still sorts between "alpha" and "delta"
    verifyFails((m) => { col(m, 'kw').section.dictionary!.bytes[7] = 0xff }, 'field "kw": term 1 is not valid UTF-8')
  })
  it('a term used by no value', () => {
    verifyFails((m) => {
      const c = col(m, 'kw')
      c.section.dictionary = { offsets: [0, 5, 10, 17, 22], bytes: utf8('alphabravocharliedelta') }
      c.maxRaw = 3n
      withValues('kw', (v) => v.forEach((ordinal, i) => { if (ordinal === 2n) v[i] = 3n }))(m)
    }, 'field "kw": term 2 is used by no value (the dictionary holds only used terms)')
  })
  it('minRaw not the true minimum', () => verifyFails((m) => { col(m, 'int').minRaw = 999n }, 'field "int": minRaw is 999, but the smallest value is 1000'))
  it('maxRaw not the true maximum', () => {
    verifyFails((m) => { col(m, 'int').maxRaw = 1121n }, 'field "int": maxRaw is 1121, but the largest value is 1120')
  })
  it('geo minRaw/maxRaw are over latitudes only', () => {
    const geo = col(rich(), 'geo'), smallest = (values: bigint[]) => values.reduce((a, b) => (b < a ? b : a))
    const latitudeMin = smallest(decodeSequence(geo.section.values)), longitudeMin = smallest(decodeSequence(geo.section.longitudes!))
    expect(geo.minRaw).toBe(latitudeMin)
    verifyFails((m) => { col(m, 'geo').minRaw = longitudeMin }, `field "geo": minRaw is ${longitudeMin}, but the smallest value is ${latitudeMin}`)
  })

  const canonical = (name: string, stored: string, writes: string, prefix = 'values') =>
    `${prefix} of field "${name}": block 0 is not in canonical form: stored ${stored}, a flush writes ${writes}`
  it('not canonical: packed where constant is chosen', () => {
    verifyFails(withBlock('const', (v) => packedBlock(v, 7n, 1n, 1)), canonical('const', 'packed width 1 base 7 aux 1', 'constant width 0 base 7 aux 0'))
  })
  it('not canonical: packed where table is chosen', () => {
    verifyFails(withBlock('status', (v) => packedBlock(v, 200n, 12n, 5)), canonical('status', 'packed width 5 base 200 aux 12', 'table width 2 base 200 aux 3'))
  })
  it('not canonical: table where packed is chosen (range ≤ 8 bits)', () => {
    const entries = Array.from({ length: 13 }, (_, i) => 1000n + 10n * BigInt(i))
    verifyFails(withBlock('int', (v) => tableBlockOf(v, entries)), canonical('int', 'table width 4 base 1000 aux 13', 'packed width 4 base 1000 aux 10'))
  })
  it('not canonical: table where packed is strictly smaller', () => {
    // 8 values, packed width 25 → 25 bytes < table 3 × 8 + 2 = 26 bytes
    verifyFails(withBlock('n', (v) => tableBlockOf(v, [0n, 1n, 1n << 24n])), canonical('n', 'table width 2 base 0 aux 3', 'packed width 25 base 0 aux 1'), small(2 ** 24))
  })
  it('not canonical: table where packed ties', () => {
    // 8 values, packed width 26 → 26 bytes = table 26 bytes: the table must be strictly smaller
    verifyFails(withBlock('n', (v) => tableBlockOf(v, [0n, 1n, 1n << 25n])), canonical('n', 'table width 2 base 0 aux 3', 'packed width 26 base 0 aux 1'), small(2 ** 25))
  })
  it('not canonical: table with an unused entry', () => {
    verifyFails(withBlock('status', (v) => tableBlockOf(v, [200n, 300n, 404n, 500n])), canonical('status', 'table width 2 base 200 aux 4', 'table width 2 base 200 aux 3'))
  })
  it('not canonical: wrong base', () => {
    verifyFails(withBlock('int', (v) => packedBlock(v, 990n, 10n, 4)), canonical('int', 'packed width 4 base 990 aux 10', 'packed width 4 base 1000 aux 10'))
  })
  it('not canonical: wrong divisor', () => {
    verifyFails(withBlock('int', (v) => packedBlock(v, 1000n, 1n, 7)), canonical('int', 'packed width 7 base 1000 aux 1', 'packed width 4 base 1000 aux 10'))
    verifyFails(withBlock('int', (v) => packedBlock(v, 1000n, 5n, 5)), canonical('int', 'packed width 5 base 1000 aux 5', 'packed width 4 base 1000 aux 10'))
  })
  it('not canonical: wrong width (wider than needed)', () => {
    verifyFails(withBlock('int', (v) => packedBlock(v, 1000n, 10n, 5)), canonical('int', 'packed width 5 base 1000 aux 10', 'packed width 4 base 1000 aux 10'))
  })
  it('not canonical: offsets and longitude sequences are checked too', () => {
    verifyFails((m) => {
      const offsets = col(m, 'multi').section.offsets!
      offsets.blocks[0] = packedBlock(decodeSequence(offsets), 0n, 1n, 9)
    }, canonical('multi', 'packed width 9 base 0 aux 1', 'packed width 8 base 0 aux 1', 'offsets'))
    const base = col(rich(), 'geo').section.longitudes!.blocks[0].base
    verifyFails((m) => {
      const longitudes = col(m, 'geo').section.longitudes!
      longitudes.blocks[0] = packedBlock(decodeSequence(longitudes), base - 1n, 1n, 64)
    }, canonical('geo', `packed width 64 base ${base - 1n} aux 1`, `packed width 64 base ${base} aux 1`, 'longitudes'))
  })
  it('bool value 2', () => {
    verifyFails((m) => { withValues('bool', (v) => { v[1] = 2n })(m); col(m, 'bool').maxRaw = 2n }, 'field "bool": value 1 is 2, not a bool (0 or 1)')
  })
  it('latitude outside [-90, 90]', () => {
    for (const latitude of [91, -90.5, NaN]) {
      verifyFails((m) => {
        withValues('geo', (v) => { v[0] = sortable(latitude) })(m)
        const values = decodeSequence(col(m, 'geo').section.values)
        col(m, 'geo').minRaw = values.reduce((a, b) => (b < a ? b : a))
        col(m, 'geo').maxRaw = values.reduce((a, b) => (b > a ? b : a))
      }, `field "geo": value 0 has latitude ${latitude}, outside [-90, 90]`)
    }
  })
  it('longitude outside [-180, 180]', () => {
    for (const longitude of [-181, 180.5, NaN]) {
      verifyFails(withValues('geo', (v) => { v[0] = sortable(longitude) }, 'longitudes'), `field "geo": value 0 has longitude ${longitude}, outside [-180, 180]`)
    }
  })
})

/** Documents and schema read back from a reader, flushed again. */
function reflush(reader: ColumnsReader): Uint8Array | null {
  const schema = { fields: reader.columns.map((c) => ({ name: c.name, type: c.type, column: true, multi: c.layout === 'multi' })) }
  const docs = Array.from({ length: reader.maxDoc }, (_, d) => {
    const doc: Record<string, unknown> = {}
    for (const c of reader.columns) {
      const first = c.firstValueIndex(d), values: unknown[] = []
      for (let i = first; i < first + c.valueCount(d); i++) {
        const raw = c.getRawBigInt(i)
        switch (c.type) {
          case 'keyword': values.push(c.term(c.getOrdinalAt(i))); break
          case 'bool': values.push(raw === 1n); break
          case 'fractional': values.push({ bits: BigInt.asUintN(64, raw ^ ((raw >> 63n) & 0x7fffffffffffffffn)) }); break
          case 'geo_point': values.push({ lat: sortableBitsToFloat64(raw), lon: sortableBitsToFloat64(c.getRawBigInt(i, 'longitude')) }); break
          default: values.push(raw)
        }
      }
      if (values.length > 0) doc[c.name] = c.layout === 'multi' ? values : values[0]
    }
    return doc
  })
  return flushColumns(schema, docs, { maxDoc: reader.maxDoc })
}

describe('random single-byte changes', () => {
  it('reflush of the rich fixture is the fixture itself', () => {
    expect(reflush(open(richBytes()))).toEqual(richBytes())
  })
  it('100 seeded positions: a valid file (identical to a flush of its dump) or CorruptIndexException', () => {
    let seed = 0x5eed
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
      return seed / 2 ** 32
    }
    const original = richBytes()
    let valid = 0, corrupt = 0
    for (let trial = 0; trial < 100; trial++) {
      const bytes = original.slice()
      const position = Math.floor(random() * (bytes.length - 8))
      bytes[position] ^= 1 + Math.floor(random() * 255)
      fixChecksum(bytes)
      try {
        const reader = open(bytes)
        reader.verify()
        expect(reflush(reader), `position ${position}`).toEqual(bytes)
        valid++
      } catch (error) {
        if (!(error instanceof CorruptIndexException)) throw new Error(`position ${position}: ${String(error)}`, { cause: error })
        expect(error.message.startsWith('corrupt.oixk: ')).toBe(true)
        corrupt++
      }
    }
    expect(valid + corrupt).toBe(100)
    expect(corrupt).toBeGreaterThan(50)
  })
})
