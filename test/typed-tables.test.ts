/**
 * The WebAssembly typed and raw decoders' table paths (assembly/typed-table.ts,
 * table-planes.ts): entries converted once per block, indexes validated before
 * anything of their chunk is written, byte planes for up to 16 entries. Every
 * case is read by both backends, plain and in place, against the BigInt model,
 * or must fail with the same error having written the same values.
 */
import { describe, expect, it } from 'vitest'
import { createValueBuffer } from '../src/read/buffers.js'
import { openColumns } from '../src/read/open.js'
import { denseFile } from './helpers/dense-file.js'
import { buildFile, col, expectCorrupt, FILE_NAME, parseFile, tableBlock } from './helpers/file-surgery.js'
import { duel, fitsDouble, fitsInt32, INT32_MAX, INT32_MIN, random, SAFE } from './helpers/typed-duel.js'

describe('table blocks into int32 and doubles: entries converted once, indexes validated first', () => {
  const tableValues = (entries: bigint[], n: number) => Array.from({ length: n }, (_, index) => entries[index < entries.length ? index : Math.floor(random() * entries.length)])
  const int32Entries = Array.from({ length: 10 }, () => BigInt(Math.floor(random() * 2 ** 32) - 2 ** 31))
  const fullEntries = Array.from({ length: 16 }, () => BigInt(Math.floor(random() * 2 ** 32) - 2 ** 31))
  const wideEntries = Array.from({ length: 12 }, (_, index) => (index === 0 ? -SAFE : index === 1 ? SAFE : BigInt(Math.floor(random() * 2 ** 52))))
  it('10 and 16 entries (index width 4) to Int32Array, whole and from inside blocks', () => {
    for (const entries of [int32Entries, fullEntries]) {
      const values = tableValues(entries, 3000)
      duel(values, 'int32', fitsInt32)
      duel(values, 'int32', fitsInt32, 1000, 1500)
    }
  })
  it('index widths 1-4 to Int32Array (byte planes, 16 values a group): runs starting and ending inside groups', () => {
    // Table blocks built by hand: the writer stores two distinct values as a packed block of width 1.
    for (const [count, W] of [[2, 1], [3, 2], [4, 2], [7, 3], [8, 3], [12, 4]]) {
      const entries = Array.from({ length: count }, (_, index) => (index === 0 ? INT32_MIN : index === 1 ? INT32_MAX : BigInt(Math.floor(random() * 2 ** 32) - 2 ** 31)))
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      const model = parseFile(denseFile(3000, () => 0n))
      const sequence = col(model, 'v').section.values
      const indexes = Array.from({ length: 3000 }, () => Math.floor(random() * count))
      sequence.blocks = [0, 1, 2].map((block) => tableBlock(entries, indexes.slice(1024 * block, 1024 * (block + 1)), W))
      const bytes = buildFile(model)
      const wasm = openColumns(bytes, { backend: 'wasm' }).getColumn('v')!
      for (const [first, n] of [[0, 3000], [5, 2990], [1000, 37], [2043, 16]]) {
        const expected = indexes.slice(first, first + n).map((index) => Number(entries[index]))
        const buffer = createValueBuffer('int32', n, { backend: 'wasm' })
        const plain = new Int32Array(n)
        wasm.readValues(first, plain)
        wasm.readValues(first, buffer.array)
        expect([W, Array.from(plain)]).toEqual([W, expected])
        expect(Array.from(buffer.array)).toEqual(expected)
        buffer.release()
      }
    }
  })
  it('entries at ±(2^53 - 1) to Float64Array', () => {
    const values = tableValues(wideEntries, 3000)
    duel(values, 'float64', fitsDouble)
    duel(values, 'float64', fitsDouble, 517, 2000)
  })
  it('index width 4 to Float64Array and BigInt64Array (pairs of entries, kept while blocks share their entries): blocks whose entries differ only in the last', () => {
    const sorted = (values: bigint[]) => values.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    const a = sorted(Array.from({ length: 16 }, () => BigInt(Math.floor(random() * 2 ** 52)) - 2n ** 51n))
    const b = [...a.slice(0, 15), a[15] + 1n], c = a.slice(0, 10)
    const tables = [a, a, b, a, c, b]
    const model = parseFile(denseFile(1024 * tables.length - 100, () => 0n))
    const indexes = tables.flatMap((entries, block) => Array.from({ length: block === tables.length - 1 ? 924 : 1024 }, () => Math.floor(random() * entries.length)))
    col(model, 'v').section.values.blocks = tables.map((entries, block) => tableBlock(entries, indexes.slice(1024 * block, 1024 * (block + 1)), 4))
    const bytes = buildFile(model)
    const wasm = openColumns(bytes, { backend: 'wasm' }).getColumn('v')!, ts = openColumns(bytes, { backend: 'ts' }).getColumn('v')!
    for (const [first, n] of [[0, indexes.length], [3, 3000], [2048 + 700, 400], [4096 + 7, 300], [5000, 100]]) {
      const expected = indexes.slice(first, first + n).map((index, at) => Number(tables[(first + at) >>> 10][index]))
      const buffer = createValueBuffer('float64', n, { backend: 'wasm' }), plain = new Float64Array(n), model = new Float64Array(n)
      wasm.readValues(first, plain)
      wasm.readValues(first, buffer.array)
      ts.readValues(first, model)
      expect(Array.from(plain)).toEqual(expected)
      expect(Array.from(buffer.array)).toEqual(expected)
      expect(Array.from(model)).toEqual(expected)
      buffer.release()
      const raw = new BigInt64Array(n), rawBuffer = createValueBuffer('int64', n, { backend: 'wasm' })
      wasm.readValues(first, raw)
      wasm.readValues(first, rawBuffer.array)
      const expectedRaw = indexes.slice(first, first + n).map((index, at) => tables[(first + at) >>> 10][index])
      expect(Array.from(raw)).toEqual(expectedRaw)
      expect(Array.from(rawBuffer.array as BigInt64Array)).toEqual(expectedRaw)
      rawBuffer.release()
    }
  })
  it('an entry beyond the output (int32; 2^53) takes the checked path: refused at its first use', () => {
    const values = tableValues([...int32Entries, 2n ** 40n], 3000)
    duel(values, 'int32', fitsInt32)
    duel(values.map((value) => (value === 2n ** 40n ? SAFE + 1n : value)), 'float64', fitsDouble)
  })
  it('a table index beyond the entries: same error, and nothing of its chunk written, plain or in place', () => {
    const values = tableValues(int32Entries, 3072)
    const model = parseFile(denseFile(values.length, (index) => values[index]))
    const sequence = col(model, 'v').section.values
    const sorted = [...int32Entries].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) // table entries ascend
    const indexes = values.slice(1024, 2048).map((value) => sorted.indexOf(value))
    indexes[700] = 12 // beyond the 10 entries, below 2^4
    sequence.blocks[1] = tableBlock(sorted, indexes, 4)
    const bytes = buildFile(model)
    const wasm = openColumns(bytes, { backend: 'wasm', fileName: FILE_NAME }).getColumn('v')!
    const ts = openColumns(bytes, { backend: 'ts', fileName: FILE_NAME }).getColumn('v')!
    for (const kind of ['int32', 'float64'] as const) {
      const Kind = kind === 'int32' ? Int32Array : Float64Array
      const buffer = createValueBuffer(kind, 3072, { backend: 'wasm' })
      const outputs = [new Kind(3072).fill(-7), new Kind(3072).fill(-7), buffer.array.fill(-7)]
      const message = 'values of field "v": block 1 has table index 12, beyond its 10 entries'
      expectCorrupt(() => ts.readValues(0, outputs[0]), message)
      expectCorrupt(() => wasm.readValues(0, outputs[1]), message)
      expectCorrupt(() => wasm.readValues(0, outputs[2]), message)
      // Chunks of 1,024 from the run's start: the first is written, the failing one not at all.
      const expected = [...values.slice(0, 1024).map(Number), ...new Array(2048).fill(-7)]
      for (const output of outputs) expect(Array.from(output)).toEqual(expected)
      buffer.release()
    }
    // Raw values: everything before the bad index is written, by the TS backend and so by WASM, copied or in place.
    const buffer = createValueBuffer('int64', 3072, { backend: 'wasm' })
    const raws = [new BigInt64Array(3072).fill(-7n), new BigInt64Array(3072).fill(-7n), buffer.array.fill(-7n)]
    raws.forEach((output, index) => expectCorrupt(() => (index === 0 ? ts : wasm).readValues(0, output), 'values of field "v": block 1 has table index 12, beyond its 10 entries'))
    const expected = [...values.slice(0, 1024 + 700), ...new Array(3072 - 1724).fill(-7n)]
    for (const output of raws) expect(Array.from(output)).toEqual(expected)
    buffer.release()
  })
})

describe('raw table blocks of up to 16 entries spanning less than 2^32: 16 values a group through byte planes', () => {
  /** A file of three table blocks (index width W) over entries, built by hand, and the indexes it holds. */
  function tableFile(entries: bigint[], W: number, indexes: number[]): Uint8Array {
    const model = parseFile(denseFile(indexes.length, () => 0n))
    const sequence = col(model, 'v').section.values
    sequence.blocks = [0, 1, 2].map((block) => tableBlock(entries, indexes.slice(1024 * block, 1024 * (block + 1)), W))
    return buildFile(model)
  }
  it('index widths 1-4, spans 2^32 - 1 (planes) and 2^32 (lane loads), runs starting and ending inside groups', () => {
    for (const [count, W, span] of [[2, 1, 2n ** 32n - 1n], [3, 2, 2n ** 32n - 1n], [7, 3, 2n ** 32n - 1n], [12, 4, 2n ** 32n - 1n], [16, 4, 2n ** 32n - 1n], [16, 4, 2n ** 32n]] as const) {
      const base = -(2n ** 40n) + 3n
      const entries = Array.from({ length: count }, (_, index) => base + (index === count - 1 ? span : BigInt(Math.floor(random() * Number(span)))))
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      entries[0] = base
      const indexes = Array.from({ length: 3000 }, () => Math.floor(random() * count))
      const wasm = openColumns(tableFile(entries, W, indexes), { backend: 'wasm' }).getColumn('v')!
      for (const [first, n] of [[0, 3000], [5, 2990], [1000, 37], [2043, 16]]) {
        const expected = indexes.slice(first, first + n).map((index) => entries[index])
        const buffer = createValueBuffer('int64', n, { backend: 'wasm' })
        const plain = new BigInt64Array(n)
        wasm.readValues(first, plain)
        wasm.readValues(first, buffer.array)
        expect([W, span, Array.from(plain)]).toEqual([W, span, expected])
        expect(Array.from(buffer.array as BigInt64Array)).toEqual(expected)
        buffer.release()
      }
    }
  })
  it('index 12 of 12 entries inside a group of 16: the values before it written, as by the TS backend', () => {
    const entries = Array.from({ length: 12 }, (_, index) => 1000n * BigInt(index) - 5n)
    const indexes = Array.from({ length: 3000 }, (_, index) => (index === 1024 + 16 * 3 + 5 ? 12 : index % 12))
    const bytes = tableFile(entries, 4, indexes)
    const message = 'values of field "v": block 1 has table index 12, beyond its 12 entries'
    const outputs = [new BigInt64Array(3000).fill(-1n), new BigInt64Array(3000).fill(-1n)]
    expectCorrupt(() => openColumns(bytes, { backend: 'ts', fileName: FILE_NAME }).getColumn('v')!.readValues(0, outputs[0]), message)
    expectCorrupt(() => openColumns(bytes, { backend: 'wasm', fileName: FILE_NAME }).getColumn('v')!.readValues(0, outputs[1]), message)
    const expected = [...indexes.slice(0, 1024 + 53).map((index) => entries[index]), ...new Array(3000 - 1077).fill(-1n)]
    for (const output of outputs) expect(Array.from(output)).toEqual(expected)
  })
})
