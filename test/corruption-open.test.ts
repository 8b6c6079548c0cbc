/**
 * One test per rule that docs/format.md §8.1 checks at open: each builds a file
 * (valid XXH64, except for the checksum rule itself) that breaks exactly that
 * rule and asserts CorruptIndexException naming corrupt.oixk and the problem.
 */
import { describe, expect, it } from 'vitest'
import { readVarUint } from '../src/format/varuint.js'
import { xxh64 } from '../src/format/xxh64.js'
import { flushColumns } from '../src/write/columns-writer.js'
import {
  build, canonicalSequence, col, concat, decodeSequence, expectCorrupt, expectOpenFails, type FileModel, fixChecksum,
  open, openModel, parseFile, rich, richBytes, tableBlock, twoBlockBytes, TWO_BLOCK_MAX_DOC, u64Bytes, utf8, varuintBytes,
} from './helpers/file-surgery.js'

/** Opening the rich fixture after `edit` fails with `expected`. */
function fails(edit: (model: FileModel) => void, expected: string | RegExp, make: () => FileModel = rich): void {
  const model = make()
  edit(model)
  expectOpenFails(model, expected)
}

const valid = build(rich())
const sectionOf = (name: string) => valid.sections[rich().columns.findIndex((c) => new TextDecoder().decode(c.name) === name)]
const L = valid.bytes.length
const TILE = '(sections tile the file in directory order)'
const twoBlock = () => parseFile(twoBlockBytes())

describe('frame', () => {
  it('file shorter than the minimum', () => {
    // header + maxDoc + trailer with an empty directory: 32 bytes, valid checksum
    const file = fixChecksum(concat(utf8('OIXK'), [1, 0, 0, 0], [101, 0, 0, 0], u64Bytes(12n), utf8('KXIO'), new Uint8Array(8)))
    expectCorrupt(() => open(file), 'file is 32 bytes, shorter than the smallest columns file (33)')
    expectCorrupt(() => open(richBytes().slice(0, 31)), 'file is 31 bytes, shorter than the smallest columns file (33)')
    expectCorrupt(() => open(new Uint8Array(0)), 'file is 0 bytes, shorter than the smallest columns file (33)')
  })
  it('header magic', () => fails((m) => { m.magic ^= 0x20 }, 'bad header magic 6f 49 58 4b (expected "OIXK")'))
  it('version', () => {
    fails((m) => { m.version = 3 }, 'unsupported format version 3 (this reader knows 1 and 2)')
    fails((m) => { m.version = 0 }, 'unsupported format version 0 (this reader knows 1 and 2)')
  })
  it('footer magic', () => fails((m) => { m.footerMagic ^= 0x20 }, 'bad footer magic 6b 58 49 4f (expected "KXIO"); the file may be truncated'))
  it('checksum mismatch (not recomputed)', () => {
    const bytes = richBytes()
    const stored = new DataView(bytes.buffer).getBigUint64(L - 8, true)
    bytes[100] ^= 1
    const hex = (value: bigint) => value.toString(16).padStart(16, '0')
    expectCorrupt(() => open(bytes), `checksum mismatch: stored ${hex(stored)}, computed ${hex(xxh64(bytes, 0, L - 8))}`)
  })
  it('maxDoc differs from the caller\'s document count', () => {
    expectCorrupt(() => open(richBytes(), 100), "the file's maxDoc is 101, but the segment has 100 documents (options.maxDoc)")
    const model = rich()
    model.maxDoc = 102
    expectOpenFails(model, "the file's maxDoc is 102, but the segment has 101 documents (options.maxDoc)", 101)
  })
})

describe('directory', () => {
  const D = valid.directoryOffset
  it('directory offset out of range', () => {
    fails((m) => { m.directoryOffset = 11n }, `directory offset 11 is outside [12, ${L - 20})`)
    fails((m) => { m.directoryOffset = BigInt(L - 19) }, `directory offset ${L - 19} is outside [12, ${L - 20})`)
    // docs allow D = L - 20 (then the empty directory has no column count); the reader rejects it here already
    fails((m) => { m.directoryOffset = BigInt(L - 20) }, `directory offset ${L - 20} is outside [12, ${L - 20})`)
  })
  it('directory offset high word non-zero', () => {
    fails((m) => { m.directoryOffset = (1n << 32n) + BigInt(D) }, `directory offset beyond 2^32 is outside [12, ${L - 20})`)
  })
  it('directory does not end exactly at length - 20', () => {
    fails((m) => { m.directoryExtra = Uint8Array.of(0) }, `directory ends at ${L - 20}, but the directory area ends at ${L - 19}`)
  })
  it('column count 0', () => {
    fails((m) => { m.columns = [] }, 'directory lists no columns (a segment without columns has no columns file)')
  })
  it('overlong (non-minimal) varuint', () => {
    const why = 'overlong (non-minimal) varuint'
    fails((m) => { m.rawColumnCount = [0x89, 0x00] }, `directory: column count: ${why}`)
    fails((m) => { col(m, 'int').raw = { nameLength: [0x83, 0x00] } }, `directory: directory entry 4 name length: ${why}`)
    fails((m) => { col(m, 'bool').raw = { documentsWithValue: [0xe5, 0x80, 0x00] } }, `directory: field "bool" documentsWithValue: ${why}`)
    fails((m) => { col(m, 'int').raw = { valueCount: [0xe5, 0x00] } }, `directory: field "int" valueCount: ${why}`)
    fails((m) => { col(m, 'bool').raw = { sectionOffset: [0x8c, 0x00] } }, `directory: field "bool" section offset: ${why}`)
    const length = [...varuintBytes(sectionOf('tags').length), 0x00]
    length[length.length - 2] |= 0x80
    fails((m) => { col(m, 'tags').raw = { sectionLength: length } }, `directory: field "tags" section length: ${why}`)
  })
  it('varuint longer than 5 bytes', () => {
    fails((m) => { col(m, 'int').raw = { nameLength: [0x83, 0x80, 0x80, 0x80, 0x80, 0x00] } }, 'directory: directory entry 4 name length: varuint longer than 5 bytes')
  })
  it('varuint: the largest legal value, 2^32 - 1, reads back; 2^32 does not', () => {
    const cursor = { value: -1, offset: 0 }
    expect(readVarUint(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x0f), 5, cursor)).toBeNull()
    expect(cursor).toEqual({ value: 2 ** 32 - 1, offset: 5 })
    expect(varuintBytes(2 ** 32 - 1)).toEqual([0xff, 0xff, 0xff, 0xff, 0x0f])
    expect(readVarUint(Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x10), 5, { value: -1, offset: 0 })).toBe('varuint exceeds 2^32 - 1')
  })
  it('varuint value ≥ 2^32', () => {
    fails((m) => { col(m, 'int').raw = { valueCount: [0xe5, 0x80, 0x80, 0x80, 0x10] } }, 'directory: field "int" valueCount: varuint exceeds 2^32 - 1')
    fails((m) => { col(m, 'kw').raw = { documentsWithValue: [0xff, 0xff, 0xff, 0xff, 0x1f] } }, 'directory: field "kw" documentsWithValue: varuint exceeds 2^32 - 1')
  })
  it('varuint truncated at the end of the directory', () => {
    const length = varuintBytes(sectionOf('tags').length)
    length[length.length - 1] |= 0x80
    fails((m) => { col(m, 'tags').raw = { sectionLength: length } }, 'directory: field "tags" section length: varuint runs past its area')
  })
  it('empty name', () => fails((m) => { col(m, 'bool').name = new Uint8Array(0) }, 'directory entry 0: empty field name'))
  it('name not valid UTF-8', () => {
    for (const name of [[0x62, 0xff], [0x62, 0xc0, 0x80], [0x62, 0xed, 0xa0, 0x80], [0x62, 0xe2, 0x82], [0x62, 0xf4, 0x90, 0x80, 0x80]]) {
      fails((m) => { col(m, 'bool').name = Uint8Array.from(name) }, 'directory entry 0: field name is not valid UTF-8')
    }
  })
  it('names not strictly increasing (decreasing)', () => {
    fails((m) => { m.columns.splice(4, 2, m.columns[5], m.columns[4]) }, 'field "int": field names are not strictly increasing (after "kw")')
  })
  it('names not strictly increasing (equal)', () => {
    fails((m) => { col(m, 'int').name = utf8('geo') }, 'field "geo": field names are not strictly increasing (after "geo")')
  })
  it('names are ordered by UTF-16 code units, not UTF-8 bytes', () => {
    const schema = { fields: [{ name: '\uFFFD', type: 'integral', column: true }, { name: '\u{1F600}', type: 'integral', column: true }] }
    const model = parseFile(flushColumns(schema, [{ '\uFFFD': 1, '\u{1F600}': 2 }])!)
    expect(openModel(model).columns.map((c) => c.name)).toEqual(['\u{1F600}', '\uFFFD'])
    model.columns.reverse() // UTF-8 byte order: EF BF BD < F0 9F 98 80
    expectOpenFails(model, 'field "\u{1F600}": field names are not strictly increasing (after "\uFFFD")')
  })
  it('unknown type byte (0 and 7)', () => {
    fails((m) => { col(m, 'int').type = 0 }, 'field "int": unknown type byte 0')
    fails((m) => { col(m, 'int').type = 7 }, 'field "int": unknown type byte 7')
  })
  it('unknown layout byte', () => {
    fails((m) => { col(m, 'int').layout = 3 }, 'field "int": unknown layout byte 3')
    fails((m) => { col(m, 'int').layout = 255 }, 'field "int": unknown layout byte 255')
  })
  it('minRaw > maxRaw', () => {
    fails((m) => { Object.assign(col(m, 'int'), { minRaw: 1120n, maxRaw: 1000n }) }, 'field "int": minRaw is greater than maxRaw')
    // The two compare as signed 64-bit: high words that differ decide.
    fails((m) => { col(m, 'int').maxRaw = -1n }, 'field "int": minRaw is greater than maxRaw')
    fails((m) => { col(m, 'int').minRaw = 2n ** 32n + 1000n }, 'field "int": minRaw is greater than maxRaw')
  })
})

describe('sections tile [12, D)', () => {
  const int = sectionOf('int'), tags = sectionOf('tags')
  it('gap between sections', () => {
    fails((m) => { col(m, 'int').gapBefore = Uint8Array.of(0) }, `field "int": section starts at ${int.offset + 1}, expected ${int.offset} ${TILE}`)
  })
  it('overlapping sections', () => {
    fails((m) => { Object.assign(col(m, 'int'), { sectionOffset: int.offset - 1, sectionLength: int.length + 1 }) },
      `field "int": section starts at ${int.offset - 1}, expected ${int.offset} ${TILE}`)
  })
  it('first section not at 12', () => {
    fails((m) => { col(m, 'bool').gapBefore = Uint8Array.of(0) }, `field "bool": section starts at 13, expected 12 ${TILE}`)
  })
  it('sections end before the directory', () => {
    fails((m) => { m.gapAfterSections = Uint8Array.of(0) }, `sections end at ${valid.directoryOffset}, but the directory starts at ${valid.directoryOffset + 1}`)
  })
  it('last section runs into the directory', () => {
    fails((m) => { col(m, 'tags').sectionLength = tags.length + 1 },
      `field "tags": section [${tags.offset}, ${tags.offset + tags.length + 1}) runs into the directory at ${valid.directoryOffset}`)
  })
  it('section length disagrees with its contents', () => {
    fails((m) => { col(m, 'int').section.trailing = Uint8Array.of(0) }, `field "int": section length ${int.length + 1} disagrees with its contents, which end 1 byte early`)
    // one byte short: the value sequence's data (59 bytes) no longer fits
    fails((m) => { Object.assign(col(m, 'int').section.values, { padding: new Uint8Array(7), dataLength: 59 }) },
      'values of field "int": data (59 bytes) runs past the end of the section')
  })
})

describe('layout and counts', () => {
  it('layout not the cheapest: dense while documentsWithValue < maxDoc', () => {
    fails((m) => { const c = col(m, 'frac'); c.layout = 0; delete c.section.bitmap },
      'field "frac": dense layout needs one value per document: documentsWithValue 51, valueCount 51, maxDoc 101')
  })
  it('layout not the cheapest: optional while every document has one value', () => {
    fails((m) => { const c = col(m, 'int'); c.layout = 1; c.section.bitmap = concat(new Array(8).fill(0xff), [0xff, 0xff, 0xff, 0xff, 0x1f, 0, 0, 0]) },
      'field "int": optional layout needs valueCount = documentsWithValue < maxDoc: documentsWithValue 101, valueCount 101, maxDoc 101')
  })
  it('layout not the cheapest: multi while no document has two values', () => {
    fails((m) => { const c = col(m, 'int'); c.layout = 2; c.section.offsets = canonicalSequence(Array.from({ length: 102 }, (_, d) => BigInt(d))) },
      'field "int": multi layout needs some document with several values, but valueCount 101 ≤ documentsWithValue 101')
  })
  it('valueCount 0 (an empty column is never written)', () => {
    fails((m) => {
      Object.assign(col(m, 'frac'), { documentsWithValue: 0, valueCount: 0, minRaw: 0n, maxRaw: 0n })
      Object.assign(col(m, 'frac').section, { bitmap: new Uint8Array(16), values: canonicalSequence([]) })
    }, 'field "frac": column has no values (such a column is not written)')
  })
  it('dense: valueCount differs from maxDoc', () => {
    // the value sequence really holds 100 values: only the layout rule is broken
    fails((m) => { const c = col(m, 'int'); c.valueCount = 100; c.section.values = canonicalSequence(decodeSequence(c.section.values).slice(0, 100)) },
      'field "int": dense layout needs one value per document: documentsWithValue 101, valueCount 100, maxDoc 101')
  })
  it('optional: documentsWithValue differs from valueCount', () => {
    fails((m) => { col(m, 'frac').documentsWithValue = 50 },
      'field "frac": optional layout needs valueCount = documentsWithValue < maxDoc: documentsWithValue 50, valueCount 51, maxDoc 101')
  })
  it('optional: bitmap population differs from valueCount', () => {
    fails((m) => { col(m, 'frac').section.bitmap![0] &= ~1 }, 'field "frac": presence bitmap has 50 documents, but valueCount is 51')
    fails((m) => { col(m, 'frac').section.bitmap![0] |= 2 }, 'field "frac": presence bitmap has 52 documents, but valueCount is 51')
  })
  it('optional: bitmap bits set at or after maxDoc', () => {
    for (const bit of [101, 127]) { // doc 0 loses its bit, so the population still equals valueCount
      fails((m) => { const bitmap = col(m, 'frac').section.bitmap!; bitmap[0] &= ~1; bitmap[bit >> 3] |= 1 << (bit & 7) },
        'field "frac": presence bitmap has bits set at or beyond maxDoc 101')
    }
    // maxDoc 3: the last word's stray bits are in its high half (bit 40) as well as its low half (bit 3).
    const small = () => parseFile(flushColumns({ fields: [{ name: 's', type: 'integral', column: true }] }, [{ s: 5 }, null, { s: 7 }], { maxDoc: 3 })!)
    for (const bit of [3, 40, 63]) {
      fails((m) => { const bitmap = col(m, 's').section.bitmap!; bitmap[0] &= ~1; bitmap[bit >> 3] |= 1 << (bit & 7) },
        'field "s": presence bitmap has bits set at or beyond maxDoc 3', small)
    }
  })
  const withOffsets = (change: (offsets: bigint[]) => void) => (m: FileModel) => {
    const offsets = decodeSequence(col(m, 'multi').section.offsets!)
    change(offsets)
    col(m, 'multi').section.offsets = canonicalSequence(offsets)
  }
  it('multi: documentsWithValue differs from the offsets\' non-empty runs', () => {
    fails((m) => { col(m, 'multi').documentsWithValue = 69 }, 'field "multi": offsets give 68 documents with values, but documentsWithValue is 69')
  })
  it('multi: offsets do not start at 0', () => {
    fails(withOffsets((o) => { o[0] = 1n }), 'field "multi": offsets start at 1, not 0') // doc 0 keeps 2 of its 3 values
  })
  it('multi: offsets decrease', () => {
    fails(withOffsets((o) => { expect(o.slice(0, 5)).toEqual([0n, 3n, 5n, 5n, 8n]); o[3] = 9n }), 'field "multi": offsets decrease at document 4 (9 then 8)')
  })
  it('multi: offsets do not end at valueCount', () => {
    fails(withOffsets((o) => { o[101] = 169n }), 'field "multi": offsets end at 169, but valueCount is 170') // doc 100 keeps 1 of 2
    fails(withOffsets((o) => { o[101] = 171n }), 'field "multi": offsets end at 171, but valueCount is 170')
  })
  it('multi: offsets past the first 8,192 (checked a chunk at a time)', () => {
    // 20,000 documents of d % 3 values: offsets 8,192 at a time, the previous one carried between chunks.
    const many = () => parseFile(flushColumns({ fields: [{ name: 'many', type: 'integral', column: true, multi: true }] },
      Array.from({ length: 20_000 }, (_, d) => ({ many: Array.from({ length: d % 3 }, (_, i) => d + i) })))!)
    const edit = (change: (offsets: bigint[]) => void) => (m: FileModel) => {
      const offsets = decodeSequence(col(m, 'many').section.offsets!)
      change(offsets)
      col(m, 'many').section.offsets = canonicalSequence(offsets)
    }
    expect(openModel(many()).getColumn('many')!.documentsWithValue).toBe(13_333)
    // Offset 8,192 is the second chunk's first, below the first chunk's last.
    fails(edit((o) => { expect(o.slice(8191, 8193)).toEqual([8190n, 8191n]); o[8191] = 8192n }), 'field "many": offsets decrease at document 8192 (8192 then 8191)', many)
    fails(edit((o) => { expect(o.slice(12_345, 12_347)).toEqual([12_345n, 12_345n]); o[12_346] = 12_344n }), 'field "many": offsets decrease at document 12346 (12345 then 12344)', many)
    fails(edit((o) => { expect(o[19_000]).toBe(18_999n); o[19_000] += 1n << 32n }), 'field "many": offset of document 19000 is 4294986295, beyond 32 bits', many)
    fails((m) => { col(m, 'many').documentsWithValue = 13_334 }, 'field "many": offsets give 13333 documents with values, but documentsWithValue is 13334', many)
  })
  it('multi: an offset ≥ 2^32 (reported as a decrease)', () => {
    fails(withOffsets((o) => { o[101] = (1n << 32n) + 170n }), 'field "multi": offset of document 101 is 4294967466, beyond 32 bits')
  })
})

describe('integer sequences', () => {
  const intValues = (m: FileModel) => col(m, 'int').section.values
  const intBlock = (m: FileModel) => intValues(m).blocks[0]
  const statusBlock = (m: FileModel) => col(m, 'status').section.values.blocks[0]
  it('sequence count differs from what its position requires', () => {
    // each sequence is well formed, with one value too many or too few for its position
    fails((m) => { const s = col(m, 'int').section; s.values = canonicalSequence([...decodeSequence(s.values), 1000n]) },
      'values of field "int": sequence holds 102 values, expected 101')
    fails((m) => { const s = col(m, 'multi').section; s.offsets = canonicalSequence(decodeSequence(s.offsets!).slice(0, 101)) },
      'offsets of field "multi": sequence holds 101 values, expected 102')
    fails((m) => { const s = col(m, 'geo').section; s.longitudes = canonicalSequence(decodeSequence(s.longitudes!).slice(0, 75)) },
      'longitudes of field "geo": sequence holds 75 values, expected 76')
  })
  it('blockCount is not ceil(count / 1024)', () => {
    fails((m) => { intValues(m).blockCount = 2 }, 'values of field "int": block count 2 does not match 101 values (expected 1)')
    fails((m) => { m.columns[0].section.values.blockCount = 1 }, `values of field "n": block count 1 does not match ${TWO_BLOCK_MAX_DOC} values (expected 2)`, twoBlock)
  })
  it('dataLength too small', () => {
    fails((m) => { intValues(m).padding = new Uint8Array(7) }, 'values of field "int": block 0: data [0, 51) plus 8 padding bytes runs past the data length 58')
    fails((m) => { col(m, 'const').section.values.padding = new Uint8Array(4) }, 'values of field "const": data length 4 is shorter than the 8 padding bytes')
  })
  it('dataLength too big', () => {
    fails((m) => { intValues(m).padding = new Uint8Array(16) }, 'values of field "int": data length 67 does not match the blocks\' 51 bytes plus 8 padding')
  })
  it('padding bytes non-zero', () => {
    fails((m) => { intValues(m).padding[7] = 1 }, 'values of field "int": padding bytes after the last block are not zero')
    fails((m) => { col(m, 'const').section.values.padding[0] = 0x80 }, 'values of field "const": padding bytes after the last block are not zero')
  })
  it('block kind unknown', () => {
    fails((m) => { intBlock(m).kind = 3 }, 'values of field "int": block 0: unknown block kind 3')
    fails((m) => { intBlock(m).kind = 255 }, 'values of field "int": block 0: unknown block kind 255')
  })
  it('reserved u16 non-zero', () => {
    fails((m) => { intBlock(m).reserved = 1 }, 'values of field "int": block 0: reserved bytes are 1, not 0')
    fails((m) => { intBlock(m).reserved = 0x100 }, 'values of field "int": block 0: reserved bytes are 256, not 0')
  })
  it('dataOffset not the running offset', () => {
    fails((m) => { intBlock(m).dataOffset = 1 }, 'values of field "int": block 0: data offset 1, expected 0 (blocks\' data is back to back)')
    // a constant block has no data but still records the running offset (384 after block 0's packed data)
    fails((m) => { m.columns[0].section.values.blocks[1].dataOffset = 0 }, 'values of field "n": block 1: data offset 0, expected 384 (blocks\' data is back to back)', twoBlock)
  })
  it('constant block with width or aux not 0', () => {
    const constant = (m: FileModel) => col(m, 'const').section.values.blocks[0]
    fails((m) => { constant(m).width = 1 }, 'values of field "const": block 0: constant block with width 1, not 0')
    fails((m) => { constant(m).aux = 1n }, 'values of field "const": block 0: constant block with aux 1, not 0')
    fails((m) => { constant(m).aux = 1n << 32n }, 'values of field "const": block 0: constant block with aux 4294967296, not 0')
  })
  it('packed width 0 and 65', () => {
    fails((m) => { intBlock(m).width = 0 }, 'values of field "int": block 0: packed width 0 outside 1..64')
    fails((m) => { intBlock(m).width = 65 }, 'values of field "int": block 0: packed width 65 outside 1..64')
  })
  it('packed divisor 0', () => fails((m) => { intBlock(m).aux = 0n }, 'values of field "int": block 0: packed block with divisor 0'))
  it('table size 1 and 257', () => {
    for (const aux of [1n, 257n, (1n << 32n) + 3n, 0n]) fails((m) => { statusBlock(m).aux = aux }, `values of field "status": block 0: table size ${aux} outside 2..256`)
  })
  it('table width not bits(n - 1)', () => {
    fails((m) => { statusBlock(m).width = 3 }, 'values of field "status": block 0: table index width 3, expected 2 for 3 entries')
    fails((m) => { statusBlock(m).width = 1 }, 'values of field "status": block 0: table index width 1, expected 2 for 3 entries')
  })
  const statusAsTable = (entries: bigint[]) => (m: FileModel) => {
    const values = decodeSequence(col(m, 'status').section.values)
    col(m, 'status').section.values.blocks[0] = tableBlock(entries, values.map((v) => entries.indexOf(v)))
  }
  it('table entries not strictly increasing (decreasing)', () => {
    fails(statusAsTable([200n, 500n, 404n]), 'values of field "status": block 0: table entries are not strictly increasing at entry 2')
  })
  it('table entries not strictly increasing (equal)', () => {
    fails(statusAsTable([200n, 404n, 404n, 500n]), 'values of field "status": block 0: table entries are not strictly increasing at entry 2')
  })
  it('table base is not the first entry', () => {
    fails((m) => { statusBlock(m).base = 199n }, 'values of field "status": block 0: base is not the first table entry')
    fails((m) => { statusBlock(m).base = 200n + 2n ** 32n }, 'values of field "status": block 0: base is not the first table entry')
  })
  it('unused high bits of the last data byte non-zero', () => {
    const why = 'block 0: unused bits of the last data byte are not zero'
    fails((m) => { const data = intBlock(m).data; data[data.length - 1] |= 0x80 }, `values of field "int": ${why}`) // 404 bits
    fails((m) => { const data = statusBlock(m).data; data[data.length - 1] |= 0x04 }, `values of field "status": ${why}`) // 202 index bits
    fails((m) => { const data = col(m, 'bool').section.values.blocks[0].data; data[12] |= 0x20 }, `values of field "bool": ${why}`) // 101 bits
  })
})

describe('keyword dictionary', () => {
  const dictionary = (m: FileModel) => col(m, 'kw').section.dictionary!
  const where = 'dictionary of field "kw"'
  it('termCount 0', () => fails((m) => { dictionary(m).termCount = 0 }, `${where}: no terms in a column that has values`))
  it('offsets[0] not 0', () => fails((m) => { dictionary(m).offsets[0] = 1 }, `${where}: first term offset is 1, not 0`))
  it('offsets decrease', () => {
    fails((m) => { expect(dictionary(m).offsets).toEqual([0, 5, 10, 15]); dictionary(m).offsets[1] = 11 }, `${where}: term offsets decrease at term 2`)
  })
  it('last offset is not totalBytes', () => fails((m) => { dictionary(m).offsets[3] = 14 }, `${where}: last term offset is 14, not the total 15 bytes`))
  const setTerm = (ordinal: number, term: string) => (m: FileModel) => dictionary(m).bytes.set(utf8(term), 5 * ordinal)
  it('terms not strictly increasing (equal)', () => fails(setTerm(1, 'alpha'), `${where}: terms are not strictly increasing at ordinal 1`))
  it('terms not strictly increasing (decreasing)', () => fails(setTerm(1, 'Bravo'), `${where}: terms are not strictly increasing at ordinal 1`))
  it('term bytes past the section', () => {
    fails((m) => { dictionary(m).totalBytes = 1000; dictionary(m).offsets[3] = 1000 }, `${where}: 1000 term bytes run past the end of the section`)
    fails((m) => { dictionary(m).termCount = 1_000_000 }, `${where}: 1000001 term offsets run past the end of the section`)
    fails((m) => { dictionary(m).totalBytes = 2 ** 30 + 1 }, `${where}: 1073741825 term bytes exceed the 1 GiB limit`)
  })
  it('keyword minRaw/maxRaw not 0 / termCount - 1', () => {
    const why = 'field "kw": keyword minRaw/maxRaw must be 0 and 2 (the ordinals of the first and last term)'
    fails((m) => { col(m, 'kw').maxRaw = 1n }, why)
    fails((m) => { col(m, 'kw').minRaw = 1n }, why)
    fails((m) => { col(m, 'kw').maxRaw = 3n }, why)
    // Ordinals are 64-bit: a high word set is no ordinal of a term.
    fails((m) => { col(m, 'kw').minRaw = -(2n ** 32n) }, why)
    fails((m) => { col(m, 'kw').maxRaw = 2n ** 32n + 2n }, why)
  })
})
