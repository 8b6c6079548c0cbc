/**
 * Corrupt files for the backend duel, built with file-surgery the way
 * corruption-open.test.ts and corruption-full.test.ts build them: one broken
 * rule each, checksum recomputed (but for the checksum case). Rejected at open,
 * at read time (§8.2: ordinals, table indexes) or by verify (§8.3).
 */
import {
  type Block, buildFile, canonicalSequence, col, concat, decodeSequence, type FileModel, fixChecksum, packedBlock, parseFile,
  rich, RICH_MAX_DOC, richBytes, sortable, tableBlock, tableBlockOf, twoBlockBytes, TWO_BLOCK_MAX_DOC, u64Bytes, utf8,
} from './file-surgery.js'

/** A named corrupt file and the maxDoc the caller expects. */
export interface CorruptCase { name: string; bytes: () => Uint8Array; maxDoc: number }

const edited = (edit: (model: FileModel) => void, make: () => FileModel = rich) => () => {
  const model = make()
  edit(model)
  return buildFile(model)
}

const withValues = (name: string, change: (values: bigint[]) => void, part: 'values' | 'longitudes' = 'values') => (m: FileModel) => {
  const values = decodeSequence(col(m, name).section[part]!)
  change(values)
  col(m, name).section[part] = canonicalSequence(values)
}

const withBlock = (name: string, make: (values: bigint[]) => Block) => (m: FileModel) => {
  col(m, name).section.values.blocks[0] = make(decodeSequence(col(m, name).section.values))
}

const withOffsets = (change: (offsets: bigint[]) => void) => (m: FileModel) => {
  const offsets = decodeSequence(col(m, 'multi').section.offsets!)
  change(offsets)
  col(m, 'multi').section.offsets = canonicalSequence(offsets)
}

const intBlock = (m: FileModel) => col(m, 'int').section.values.blocks[0]
const statusBlock = (m: FileModel) => col(m, 'status').section.values.blocks[0]
const STATUS = [200n, 404n, 500n]

/** [name, edit of the rich fixture]: each file still has a valid checksum. */
const RICH_EDITS: [string, (m: FileModel) => void][] = [
  ['header magic', (m) => { m.magic ^= 0x20 }],
  ['version 2', (m) => { m.version = 2 }],
  ['footer magic', (m) => { m.footerMagic ^= 0x20 }],
  ['maxDoc in the file differs', (m) => { m.maxDoc = 102 }],
  ['directory offset 11', (m) => { m.directoryOffset = 11n }],
  ['directory offset beyond 2^32', (m) => { m.directoryOffset = (1n << 32n) + 5000n }],
  ['stray byte after the directory', (m) => { m.directoryExtra = Uint8Array.of(0) }],
  ['column count 0', (m) => { m.columns = [] }],
  ['overlong varuint', (m) => { m.rawColumnCount = [0x89, 0x00] }],
  ['varuint longer than 5 bytes', (m) => { col(m, 'int').raw = { nameLength: [0x83, 0x80, 0x80, 0x80, 0x80, 0x00] } }],
  ['varuint ≥ 2^32', (m) => { col(m, 'int').raw = { valueCount: [0xe5, 0x80, 0x80, 0x80, 0x10] } }],
  ['empty name', (m) => { col(m, 'bool').name = new Uint8Array(0) }],
  ['name not UTF-8', (m) => { col(m, 'bool').name = Uint8Array.of(0x62, 0xed, 0xa0, 0x80) }],
  ['names not increasing', (m) => { m.columns.splice(4, 2, m.columns[5], m.columns[4]) }],
  ['unknown type byte', (m) => { col(m, 'int').type = 7 }],
  ['unknown layout byte', (m) => { col(m, 'int').layout = 3 }],
  ['minRaw > maxRaw', (m) => { Object.assign(col(m, 'int'), { minRaw: 1120n, maxRaw: 1000n }) }],
  ['gap between sections', (m) => { col(m, 'int').gapBefore = Uint8Array.of(0) }],
  ['section length disagrees with its contents', (m) => { col(m, 'int').section.trailing = Uint8Array.of(0) }],
  ['dense layout with missing values', (m) => { const c = col(m, 'frac'); c.layout = 0; delete c.section.bitmap }],
  ['bitmap population differs', (m) => { col(m, 'frac').section.bitmap![0] &= ~1 }],
  ['bitmap bit beyond maxDoc', (m) => { const bitmap = col(m, 'frac').section.bitmap!; bitmap[0] &= ~1; bitmap[12] |= 0x20 }],
  ['offsets decrease', withOffsets((o) => { o[3] = 9n })],
  ['offsets end past valueCount', withOffsets((o) => { o[101] = 171n })],
  ['offset beyond 32 bits', withOffsets((o) => { o[101] = (1n << 32n) + 170n })],
  ['sequence count differs', (m) => { const s = col(m, 'int').section; s.values = canonicalSequence([...decodeSequence(s.values), 1000n]) }],
  ['block count differs', (m) => { col(m, 'int').section.values.blockCount = 2 }],
  ['data length too small', (m) => { col(m, 'int').section.values.padding = new Uint8Array(7) }],
  ['data length too big', (m) => { col(m, 'int').section.values.padding = new Uint8Array(16) }],
  ['padding not zero', (m) => { col(m, 'int').section.values.padding[7] = 1 }],
  ['unknown block kind', (m) => { intBlock(m).kind = 3 }],
  ['reserved bytes set', (m) => { intBlock(m).reserved = 0x100 }],
  ['data offset not the running offset', (m) => { intBlock(m).dataOffset = 1 }],
  ['constant block with width', (m) => { col(m, 'const').section.values.blocks[0].width = 1 }],
  ['packed width 65', (m) => { intBlock(m).width = 65 }],
  ['packed divisor 0', (m) => { intBlock(m).aux = 0n }],
  ['table size 257', (m) => { statusBlock(m).aux = 257n }],
  ['table width wrong', (m) => { statusBlock(m).width = 3 }],
  ['table entries not increasing', withBlock('status', (v) => tableBlock([200n, 500n, 404n], v.map((x) => [200n, 500n, 404n].indexOf(x))))],
  ['table base not the first entry', (m) => { statusBlock(m).base = 199n }],
  ['unused high bits set', (m) => { const data = intBlock(m).data; data[data.length - 1] |= 0x80 }],
  ['dictionary without terms', (m) => { col(m, 'kw').section.dictionary!.termCount = 0 }],
  ['term offsets decrease', (m) => { col(m, 'kw').section.dictionary!.offsets[1] = 11 }],
  ['terms not increasing', (m) => { col(m, 'kw').section.dictionary!.bytes.set(utf8('alpha'), 5) }],
  ['term bytes past the section', (m) => { const d = col(m, 'kw').section.dictionary!; d.totalBytes = 1000; d.offsets[3] = 1000 }],
  ['keyword maxRaw not termCount - 1', (m) => { col(m, 'kw').maxRaw = 3n }],
  // read time (§8.2)
  ['read time: keyword ordinal = termCount', withValues('kw', (v) => { v[0] = 3n })],
  ['read time: keyword ordinal -1', withValues('kw', (v) => { v[0] = -1n })],
  ['read time: keyword ordinal 2^32 + 1', withValues('kw', (v) => { v[7] = (1n << 32n) + 1n })],
  ['read time: multi keyword ordinals out of range', withValues('tags', (v) => { v[5] = 3n; v[v.length - 1] = 1n << 31n })],
  ['read time: table index = entries', withBlock('status', (v) => tableBlock(STATUS, v.map((x, d) => (d === 5 ? 3 : STATUS.indexOf(x)))))],
  ['read time: every table index bad', withBlock('status', (v) => tableBlock(STATUS, v.map(() => 3)))],
  // verify only (§8.3)
  ['verify: term not UTF-8', (m) => { col(m, 'kw').section.dictionary!.bytes[7] = 0xff }],
  ['verify: minRaw not the minimum', (m) => { col(m, 'int').minRaw = 999n }],
  ['verify: maxRaw not the maximum', (m) => { col(m, 'int').maxRaw = 1121n }],
  ['verify: packed where constant', withBlock('const', (v) => packedBlock(v, 7n, 1n, 1))],
  ['verify: packed where table', withBlock('status', (v) => packedBlock(v, 200n, 12n, 5))],
  ['verify: table where packed', withBlock('int', (v) => tableBlockOf(v, Array.from({ length: 13 }, (_, i) => 1000n + 10n * BigInt(i))))],
  ['verify: wrong base', withBlock('int', (v) => packedBlock(v, 990n, 10n, 4))],
  ['verify: width 64 on the longitudes', (m) => {
    const longitudes = col(m, 'geo').section.longitudes!
    longitudes.blocks[0] = packedBlock(decodeSequence(longitudes), longitudes.blocks[0].base - 1n, 1n, 64)
  }],
  ['verify: bool value 2', (m) => { withValues('bool', (v) => { v[1] = 2n })(m); col(m, 'bool').maxRaw = 2n }],
  ['verify: longitude NaN', withValues('geo', (v) => { v[0] = sortable(NaN) }, 'longitudes')],
  ['verify: a term used by no value', (m) => {
    const c = col(m, 'kw')
    c.section.dictionary = { offsets: [0, 5, 10, 17, 22], bytes: utf8('alphabravocharliedelta') }
    c.maxRaw = 3n
    withValues('kw', (v) => v.forEach((ordinal, i) => { if (ordinal === 2n) v[i] = 3n }))(m)
  }],
]

/** Every case: the rich fixture's edits plus frame-level ones. */
export function corruptCases(): CorruptCase[] {
  const cases: CorruptCase[] = RICH_EDITS.map(([name, edit]) => ({ name, bytes: edited(edit), maxDoc: RICH_MAX_DOC }))
  cases.push(
    { name: 'empty file', bytes: () => new Uint8Array(0), maxDoc: RICH_MAX_DOC },
    { name: 'truncated to 31 bytes', bytes: () => richBytes().slice(0, 31), maxDoc: RICH_MAX_DOC },
    { name: 'truncated by 1 byte', bytes: () => richBytes().slice(0, -1), maxDoc: RICH_MAX_DOC },
    {
      name: '32 bytes with an empty directory',
      bytes: () => fixChecksum(concat(utf8('OIXK'), [1, 0, 0, 0], [101, 0, 0, 0], u64Bytes(12n), utf8('KXIO'), new Uint8Array(8))),
      maxDoc: RICH_MAX_DOC,
    },
    { name: 'checksum mismatch (XXH64 of both backends in the message)', bytes: () => { const b = richBytes(); b[100] ^= 1; return b }, maxDoc: RICH_MAX_DOC },
    { name: 'checksum mismatch in a long file', bytes: () => { const b = twoBlockBytes(); b[b.length - 30] ^= 0x40; return b }, maxDoc: TWO_BLOCK_MAX_DOC },
    { name: 'maxDoc differs from the caller\'s', bytes: richBytes, maxDoc: 100 },
    { name: 'second block\'s data offset not running', bytes: edited((m) => { m.columns[0].section.values.blocks[1].dataOffset = 0 }, () => parseFile(twoBlockBytes())), maxDoc: TWO_BLOCK_MAX_DOC },
  )
  return cases
}
