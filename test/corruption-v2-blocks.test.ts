/**
 * Format 2's block record rules (docs/format-v2.md §3; src/cascade/reader/check-block.ts), one
 * edit each: a file of one column per block kind with one field of one record changed (checksum
 * fixed) is refused at open with the exact message, naming the file, the column and the block, on
 * both backends. Where a limit has two sides, the value at the limit opens and the next is refused.
 */
import { describe, expect, it } from 'vitest'
import { sequenceExtent } from '../src/cascade/reader/parse.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { blockKindColumns, cascadeFile } from './helpers/cascade-data.js'
import { blockOf } from './helpers/cascade-duel.js'
import { fixChecksum } from './helpers/file-surgery.js'
import { corruptMessage } from './helpers/dictionary-files.js'

const FILE = 'blocks.oixk'
const BACKENDS = ['ts', 'wasm'] as const

// 5,000 values a column: blocks 0-3 of 1,024 values, block 4 of 904.
const intact = cascadeFile(blockKindColumns())
const intactReader = openColumns(intact, { backend: 'ts' })
const LAST = 4

/** Where block `block` of column `name`'s values sequence (in `file`) has its 24-byte record, and where its data starts. */
function recordOf(name: string, block: number, file = intact): { record: number; data: number } {
  const values = (file === intact ? intactReader : openColumns(file, { backend: 'ts' })).getColumn(name)!.values
  return { record: sequenceExtent(values)[0] + 13 + 24 * block, data: blockOf(values, block).data }
}

/** A copy of the file with `edit` applied to block `block` of column `name`, its checksum fixed. */
function edited(name: string, block: number, edit: (view: DataView, at: { record: number; data: number }) => void): Uint8Array {
  const copy = intact.slice()
  edit(new DataView(copy.buffer, copy.byteOffset), recordOf(name, block))
  return fixChecksum(copy)
}

const setParam = (name: string, block: number, param: number) => edited(name, block, (d, { record }) => d.setUint16(record + 2, param, true))
const setWidth = (name: string, block: number, width: number) => edited(name, block, (d, { record }) => d.setUint8(record + 1, width))
const setAux = (name: string, block: number, aux: bigint) => edited(name, block, (d, { record }) => d.setBigInt64(record + 16, aux, true))
const setKind = (name: string, block: number, kind: number) => edited(name, block, (d, { record }) => d.setUint8(record, kind))

/** The intact record's param and width. */
function fields(name: string, block: number): { param: number; width: number } {
  const { param, width } = blockOf(intactReader.getColumn(name)!.values, block)
  return { param, width }
}

describe.each(BACKENDS)('format 2 block records that break one rule are refused at open (%s)', (backend) => {
  const refused = (bytes: Uint8Array, name: string, block: number, rule: string) => {
    expect(corruptMessage(() => openColumns(bytes, { backend, fileName: FILE }))).toBe(`${FILE}: values of field "${name}": block ${block}: ${rule}`)
  }
  const opens = (bytes: Uint8Array) => expect(openColumns(bytes, { backend, fileName: FILE }).maxDoc).toBe(5000)

  it('the data: the intact file opens', () => {
    opens(intact)
    expect(fields('dictionary', 0)).toEqual({ param: (35 << 10) | 20, width: 5 })
    expect(fields('runs', 0)).toEqual({ param: 24, width: 20 })
    expect(fields('frequentList', 0)).toEqual({ param: 1024 | 5, width: 30 })
    expect(fields('frequentGcd', 0)).toEqual({ param: 2048 | 205, width: 14 })
    expect(fields('patchedList', 0)).toEqual({ param: 1024 | 7, width: 10 })
    expect(fields('linear', 0)).toEqual({ param: 0, width: 3 })
  })

  it('frame and constant blocks have param 0 in format 2', () => {
    refused(setParam('wide', 0, 1), 'wide', 0, 'param is 1, not 0')
    refused(setParam('wide', 1, 0x8000), 'wide', 1, 'param is 32768, not 0')
  })

  it('dictionary blocks: 2..n entries, the index width bits(k - 1), offsets below 2^53', () => {
    // param: k - 1 in bits 0-9, entry width - 1 in bits 10-15 (36-bit entries, 21 of them).
    refused(setParam('dictionary', 0, 35 << 10), 'dictionary', 0, 'dictionary of 1 entries for 1024 values (2..1024)')
    refused(setParam('dictionary', LAST, (35 << 10) | 904), 'dictionary', LAST, 'dictionary of 905 entries for 904 values (2..904)')
    refused(setWidth('dictionary', 0, 6), 'dictionary', 0, 'dictionary index width 6, expected 5 for 21 entries')
    refused(setWidth('dictionary', 0, 4), 'dictionary', 0, 'dictionary index width 4, expected 5 for 21 entries')
    refused(setAux('dictionary', 0, 0n), 'dictionary', 0, 'dictionary divisor 0 outside 1..2^52 - 1')
    // 2^17 × (2^36 - 1) stays below 2^53; one more does not.
    opens(setAux('dictionary', 0, 2n ** 17n))
    refused(setAux('dictionary', 0, 2n ** 17n + 1n), 'dictionary', 0, 'dictionary divisor 131073 and entry width 36 reach 2^53')
    refused(setAux('dictionary', 0, 2n ** 52n), 'dictionary', 0, 'dictionary divisor ≥ 2^52 outside 1..2^52 - 1')
    refused(setAux('dictionary', 0, -1n), 'dictionary', 0, 'dictionary divisor ≥ 2^52 outside 1..2^52 - 1')
    // 2-bit entries: 3 × 3,002,399,751,580,330 stays below 2^53, 3 × one more does not. (The data then takes
    // 6 + 640 bytes where 95 + 640 were written, which the next block's data offset shows.)
    const twoBitEntries = (g: bigint) => edited('dictionary', 0, (d, { record }) => { d.setUint16(record + 2, (1 << 10) | 20, true); d.setBigInt64(record + 16, g, true) })
    refused(twoBitEntries(3_002_399_751_580_330n), 'dictionary', 1, 'data offset 735, expected 646 (blocks\' data is back to back)')
    refused(twoBitEntries(3_002_399_751_580_331n), 'dictionary', 0, 'dictionary divisor 3002399751580331 and entry width 2 reach 2^53')
  })

  it('runs blocks: 2..n runs, a width of 1 bit or more, run values below 2^53', () => {
    refused(setParam('runs', 0, 0), 'runs', 0, '1 runs for 1024 values (2..1024)')
    refused(setParam('runs', LAST, 904), 'runs', LAST, '905 runs for 904 values (2..904)')
    refused(setWidth('runs', 0, 0), 'runs', 0, 'run width 0 and divisor 1 reach 2^53')
    refused(setAux('runs', 0, 0n), 'runs', 0, 'run divisor 0 outside 1..2^52 - 1')
    // A divisor of 2^52 or more is refused whatever the width (1-bit run values would stay below 2^53).
    refused(edited('runs', 0, (d, { record }) => { d.setUint8(record + 1, 1); d.setBigInt64(record + 16, 2n ** 52n, true) }), 'runs', 0, 'run divisor ≥ 2^52 outside 1..2^52 - 1')
    // floor((2^53 - 1) / (2^20 - 1)) = 8,589,942,784: the largest divisor of 20-bit run values.
    opens(setAux('runs', 0, 8_589_942_784n))
    refused(setAux('runs', 0, 8_589_942_785n), 'runs', 0, 'run width 20 and divisor 8589942785 reach 2^53')
    const twoBitRuns = (g: bigint) => edited('runs', 0, (d, { record }) => { d.setUint8(record + 1, 2); d.setBigInt64(record + 16, g, true) })
    refused(twoBitRuns(3_002_399_751_580_330n), 'runs', 1, 'data offset 93, expected 37 (blocks\' data is back to back)')
    refused(twoBitRuns(3_002_399_751_580_331n), 'runs', 0, 'run width 2 and divisor 3002399751580331 reach 2^53')
  })

  it('frequent blocks: known flags, 1..n - 1 exceptions, a divisor in 2..2^52, exceptions below 2^53', () => {
    refused(setParam('frequentList', 0, 0x1000 | 1024 | 5), 'frequentList', 0, 'frequent block param 5125 has unknown flags')
    refused(setParam('frequentList', 0, 1024), 'frequentList', 0, '0 exceptions for 1024 values (1..1023)')
    refused(setParam('frequentList', LAST, 1024 | 904), 'frequentList', LAST, '904 exceptions for 904 values (1..903)')
    // The divisor: the data's first 8 bytes (little-endian), present when param has 2048.
    const divisor = (value: bigint) => edited('frequentGcd', 0, (d, { data }) => d.setBigUint64(data, value, true))
    refused(divisor(1n), 'frequentGcd', 0, 'exceptions\' divisor 1 outside 2..2^52')
    refused(divisor(0n), 'frequentGcd', 0, 'exceptions\' divisor 0 outside 2..2^52')
    refused(divisor(2n ** 52n), 'frequentGcd', 0, 'exceptions\' divisor 4503599627370496 outside 2..2^52')
    refused(setWidth('frequentList', 0, 53), 'frequentList', 0, 'exceptions reach 2^53 from the top value')
  })

  it('patched blocks: known flags, 1..n patches, low and patch widths 1..52 together, offsets below 2^53', () => {
    refused(setParam('patchedList', 0, 2048 | 1024 | 7), 'patchedList', 0, 'patched block param 3079 has unknown flags')
    refused(setParam('patchedList', 0, 1024), 'patchedList', 0, '0 patches for 1024 values (1..1024)')
    // One patch, the least: blocks of 10-bit values with one 41-bit value each open and read back.
    const values = Array.from({ length: 2048 }, (_, i) => (i % 1024 === 500 ? 2 ** 40 + i : (i * 37) % 1000))
    const onePatch = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, values.map((v) => ({ v })), { format: 2 })!
    const column = openColumns(onePatch, { backend, fileName: FILE }).getColumn('v')!
    expect([0, 1].map((block) => blockOf(column.values, block)).map(({ kind, param }) => [kind, param])).toEqual([[6, 1024 | 1], [6, 1024 | 1]])
    expect([column.getInt64(500), column.getInt64(1524), column.getInt64(501)]).toEqual([values[500], values[1524], values[501]])
    refused(setParam('patchedList', LAST, 1024 | 905), 'patchedList', LAST, '905 patches for 904 values (1..904)')
    // The patch width: the data's first byte (35 here, with 10-bit low fields).
    const patchWidth = (value: number) => edited('patchedList', 0, (d, { data }) => d.setUint8(data, value))
    expect(intact[recordOf('patchedList', 0).data]).toBe(35)
    refused(patchWidth(0), 'patchedList', 0, 'patch width 0 with low width 10 (total 1..52)')
    refused(patchWidth(43), 'patchedList', 0, 'patch width 43 with low width 10 (total 1..52)')
    // 42 + 10 = 52 passes the rule: the data then runs longer than the record's (the next block's offset shows it).
    refused(patchWidth(42), 'patchedList', 1, 'data offset 1321, expected 1327 (blocks\' data is back to back)')
    refused(setAux('patchedList', 0, 0n), 'patchedList', 0, 'patched divisor 0 outside 1..2^52 - 1')
    opens(setAux('patchedList', 0, 2n ** 8n))
    refused(setAux('patchedList', 0, 2n ** 8n + 1n), 'patchedList', 0, 'patched divisor 257 and width 45 reach 2^53')
  })

  it('linear blocks: param 0, a width of at most 52 bits, a line below 2^53', () => {
    refused(setParam('linear', 0, 1), 'linear', 0, 'linear block param 1, not 0')
    refused(setWidth('linear', 0, 53), 'linear', 0, 'linear width 53 above 52')
    // 52 passes the rule: 1,024 fields of 52 bits then run past the sequence's data.
    refused(setWidth('linear', 0, 52), 'linear', 0, 'data [0, 6656) plus 8 padding bytes runs past the data length 2139')
    refused(setAux('linear', 0, 2n ** 62n), 'linear', 0, 'linear slope reaches 2^53')
  })

  it('a linear block of one value', () => {
    // 4,097 values: the last block holds one, a constant block; made linear (width 0, param 0).
    const single = cascadeFile(blockKindColumns(4097))
    const { record } = recordOf('linear', 4, single)
    expect(single[record]).toBe(0)
    const copy = single.slice()
    copy[record] = 7
    expect(corruptMessage(() => openColumns(fixChecksum(copy), { backend, fileName: FILE })))
      .toBe(`${FILE}: values of field "linear": block 4: a linear block needs 2 values or more, has 1`)
  })

  it('kind 2 (format 1\'s table) and kinds past 7', () => {
    refused(setKind('frequentList', 0, 2), 'frequentList', 0, 'unknown block kind 2')
    refused(setKind('frequentList', 0, 8), 'frequentList', 0, 'unknown block kind 8')
  })
})
