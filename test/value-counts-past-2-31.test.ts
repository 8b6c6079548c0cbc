/**
 * Value and document counts are 32-bit (the format's limit is 2^32 - 1): a file whose values go
 * past 2^31 is read right by both backends. The TypeScript backend computed a block's first
 * index as `block << 10`, negative from block 2^21 on, and its bulk read of such a file never
 * returned. The file (50 MB: 2,097,155 block records) is assembled here, as no writer call
 * makes 2^31 documents in a test's time.
 */
import { describe, expect, it } from 'vitest'
import { openColumns } from '../src/index.js'
import { fixChecksum, varuintBytes } from './helpers/file-surgery.js'

const MAX_DOC = 2 ** 31 + 3000
const BLOCKS = Math.ceil(MAX_DOC / 1024)
/** Packed blocks (value = 1000 × block + position, 10 bits); every other block is constant (value = block). */
const PACKED = new Set([0, 2 ** 21 - 1, 2 ** 21, 2 ** 21 + 1, BLOCKS - 1])
const valuesIn = (block: number) => Math.min(1024, MAX_DOC - block * 1024)
const expected = (index: number) => {
  const block = Math.floor(index / 1024)
  return PACKED.has(block) ? 1000 * block + (index % 1024) : block
}

/** Format 1: one dense integral column "i" of MAX_DOC values. */
function hugeFile(): Uint8Array {
  let dataBytes = 0
  for (const block of PACKED) dataBytes += Math.ceil((valuesIn(block) * 10) / 8)
  const sectionLength = 12 + 24 * BLOCKS + dataBytes + 8
  const directory = [...varuintBytes(1), ...varuintBytes(1), 0x69, 2, 0, ...varuintBytes(MAX_DOC), ...varuintBytes(MAX_DOC)]
  const tail = [...varuintBytes(12), ...varuintBytes(sectionLength)]
  const directoryAt = 12 + sectionLength
  const length = directoryAt + directory.length + 16 + tail.length + 8 + 12
  const bytes = new Uint8Array(length)
  const view = new DataView(bytes.buffer)
  bytes.set([0x4f, 0x49, 0x58, 0x4b], 0)
  view.setUint32(4, 1, true)
  view.setUint32(8, MAX_DOC, true)
  view.setUint32(12, MAX_DOC, true)
  view.setUint32(16, BLOCKS, true)
  view.setUint32(20, dataBytes + 8, true)
  const dataStart = 24 + 24 * BLOCKS
  let running = 0
  for (let block = 0, at = 24; block < BLOCKS; block++, at += 24) {
    view.setUint32(at + 4, running, true)
    if (!PACKED.has(block)) {
      view.setBigInt64(at + 8, BigInt(block), true)
      continue
    }
    bytes[at] = 1
    bytes[at + 1] = 10
    view.setBigInt64(at + 8, BigInt(1000 * block), true)
    view.setBigInt64(at + 16, 1n, true)
    const n = valuesIn(block)
    for (let position = 0; position < n; position++) {
      for (let bit = 0; bit < 10; bit++) {
        const at = 10 * position + bit
        if ((position >> bit) & 1) bytes[dataStart + running + (at >> 3)] |= 1 << (at & 7)
      }
    }
    running += Math.ceil((n * 10) / 8)
  }
  let at = directoryAt
  bytes.set(directory, at)
  at += directory.length
  view.setBigInt64(at + 8, BigInt(expected(MAX_DOC - 1)), true)
  at += 16
  bytes.set(tail, at)
  at += tail.length
  view.setBigUint64(at, BigInt(directoryAt), true)
  bytes.set([0x4b, 0x58, 0x49, 0x4f], at + 8)
  return fixChecksum(bytes)
}

describe('values past index 2^31', () => {
  const bytes = hugeFile()
  const indexes = [0, 1023, 1024, 2 ** 31 - 1025, 2 ** 31 - 1024, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 2 ** 31 + 1023, 2 ** 31 + 1024, 2 ** 31 + 2048, MAX_DOC - 1]

  for (const backend of ['wasm', 'ts'] as const) {
    it(`${backend}: single reads, bulk reads into every destination, aggregate and topK`, () => {
      const reader = openColumns(bytes, { backend })
      try {
        const column = reader.getColumn('i')!
        expect(reader.maxDoc).toBe(MAX_DOC)
        for (const index of indexes) {
          expect([column.getInt64(index), column.getInt64BigInt(index), column.firstValueIndex(index)]).toEqual([expected(index), BigInt(expected(index)), index])
        }
        for (const first of [2 ** 31 - 1500, 2 ** 31 - 3, MAX_DOC - 1600]) {
          const want = Array.from({ length: 1600 }, (_, k) => expected(first + k))
          const int64 = new BigInt64Array(1600), float64 = new Float64Array(1600), int32 = new Int32Array(1600)
          column.readValues(first, int64)
          column.readValues(first, float64)
          column.readValues(first, int32)
          expect([Array.from(int64, Number), Array.from(float64), Array.from(int32)]).toEqual([want, want, want])
        }
        const summary = column.aggregate()
        expect([summary.count, summary.min, summary.max]).toEqual([MAX_DOC, 0, expected(MAX_DOC - 1)])
        expect(Array.from(column.topK(3, 'descending'))).toEqual([MAX_DOC - 1, MAX_DOC - 2, MAX_DOC - 3])
      } finally {
        reader.close()
      }
    }, 60_000)
  }
})
