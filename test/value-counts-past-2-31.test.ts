/**
 * Value and document counts are 32-bit (the format's limit is 2^32 - 1): files whose values or
 * documents go past 2^31 are read right by both backends. The TypeScript backend computed a
 * block's first index as `block << 10`, negative from block 2^21 on, and its bulk read of such a
 * file never returned; its multi-valued filters lost every match past document 2^31 (a bound
 * computed with `<< 5`), a DocSet listed such documents as negative ids, and its multi facets
 * counted a term twice in a document past 2^31 that holds it twice (a stamp kept as int32 and
 * compared with the document's number). The files (50 MB, 2,097,155 block records a sequence)
 * are assembled here: no writer call makes 2^31 documents in a test's time.
 */
import { describe, expect, it } from 'vitest'
import { openColumns } from '../src/index.js'
import { fixChecksum, varuintBytes } from './helpers/file-surgery.js'

const MAX_DOC = 2 ** 31 + 3000
const BLOCKS = Math.ceil(MAX_DOC / 1024)
/** Packed blocks (value = 1000 × block + position, 10 bits); every other block is constant (value = block). */
const PACKED = new Set([0, 2 ** 21 - 1, 2 ** 21, 2 ** 21 + 1, BLOCKS - 1])
const expected = (index: number) => {
  const block = Math.floor(index / 1024)
  return PACKED.has(block) ? 1000 * block + (index % 1024) : block
}

/** Format 1: one dense integral column "i" of MAX_DOC values. */
function hugeFile(): Uint8Array {
  const section = sequenceBytes(MAX_DOC, expected, (block) => !PACKED.has(block))
  return columnsFile([{ name: 'i', type: 2, layout: 0, documentsWithValue: MAX_DOC, valueCount: MAX_DOC, maxRaw: expected(MAX_DOC - 1), section }])
}

interface ColumnBytes { name: string; type: number; layout: number; documentsWithValue: number; valueCount: number; maxRaw: number; section: Uint8Array }

/** A format 1 file of maxDoc MAX_DOC holding the columns (names of one ASCII letter, in order; minRaw 0) in that order. */
function columnsFile(columns: ColumnBytes[]): Uint8Array {
  const directory: number[] = [...varuintBytes(columns.length)], maxRaws: number[] = []
  let sectionAt = 12
  for (const column of columns) {
    directory.push(...varuintBytes(1), column.name.charCodeAt(0), column.type, column.layout, ...varuintBytes(column.documentsWithValue), ...varuintBytes(column.valueCount))
    maxRaws.push(directory.length + 8)
    directory.push(...new Array<number>(16).fill(0), ...varuintBytes(sectionAt), ...varuintBytes(column.section.length))
    sectionAt += column.section.length
  }
  const directoryAt = sectionAt
  const bytes = new Uint8Array(directoryAt + directory.length + 8 + 12), view = new DataView(bytes.buffer)
  bytes.set([0x4f, 0x49, 0x58, 0x4b], 0)
  view.setUint32(4, 1, true)
  view.setUint32(8, MAX_DOC, true)
  let at = 12
  for (const column of columns) {
    bytes.set(column.section, at)
    at += column.section.length
  }
  bytes.set(directory, directoryAt)
  columns.forEach((column, c) => view.setBigInt64(directoryAt + maxRaws[c], BigInt(column.maxRaw), true))
  view.setBigUint64(directoryAt + directory.length, BigInt(directoryAt), true)
  bytes.set([0x4b, 0x58, 0x49, 0x4f], directoryAt + directory.length + 8)
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

/** A format 1 sequence of `count` values: constant blocks where `constant(block)`, else packed (g = 1) over the block's least value. */
function sequenceBytes(count: number, value: (index: number) => number, constant: (block: number) => boolean): Uint8Array {
  const blocks = Math.ceil(count / 1024)
  const parts = Array.from({ length: blocks }, (_, block) => {
    const n = Math.min(1024, count - block * 1024), values = constant(block) ? [] : Array.from({ length: n }, (_, j) => value(block * 1024 + j))
    if (values.length === 0) return { width: 0, base: value(block * 1024), data: new Uint8Array(0) }
    const base = Math.min(...values), width = Math.max(1, 32 - Math.clz32(Math.max(...values) - base))
    const data = new Uint8Array(Math.ceil((n * width) / 8))
    values.forEach((v, j) => {
      for (let bit = 0; bit < width; bit++) if (((v - base) >>> bit) & 1) data[(j * width + bit) >> 3] |= 1 << ((j * width + bit) & 7)
    })
    return { width, base, data }
  })
  const dataBytes = parts.reduce((sum, part) => sum + part.data.length, 0)
  const bytes = new Uint8Array(12 + 24 * blocks + dataBytes + 8), view = new DataView(bytes.buffer)
  view.setUint32(0, count, true)
  view.setUint32(4, blocks, true)
  view.setUint32(8, dataBytes + 8, true)
  let running = 0
  parts.forEach((part, block) => {
    const at = 12 + 24 * block
    bytes[at] = part.width === 0 ? 0 : 1
    bytes[at + 1] = part.width
    view.setUint32(at + 4, running, true)
    view.setBigInt64(at + 8, BigInt(part.base), true)
    if (part.width !== 0) view.setBigInt64(at + 16, 1n, true)
    bytes.set(part.data, 12 + 24 * blocks + running)
    running += part.data.length
  })
  return bytes
}

/**
 * Format 1: two multi columns over MAX_DOC documents whose last 2,000 hold 2 values each: integral
 * "m" (value v = 7v) and keyword "k" (terms a, b, c): document i of them holds ordinal i mod 3
 * twice when i is even, else ordinals i mod 3 and (i + 1) mod 3.
 */
const WITH_VALUES = MAX_DOC - 2000
const offsetAt = (document: number) => 2 * Math.max(0, document - WITH_VALUES)
const ordinalsOf = (document: number) => {
  const i = document - WITH_VALUES
  return i % 2 === 0 ? [i % 3, i % 3] : [i % 3, (i + 1) % 3]
}

function hugeMultiFile(): Uint8Array {
  const valueCount = offsetAt(MAX_DOC)
  const offsets = sequenceBytes(MAX_DOC + 1, offsetAt, (block) => (block + 1) * 1024 - 1 <= WITH_VALUES)
  const values = sequenceBytes(valueCount, (index) => 7 * index, () => false)
  const ordinals = sequenceBytes(valueCount, (index) => ordinalsOf(WITH_VALUES + (index >> 1))[index & 1], () => false)
  // Three terms: count, total bytes, offsets 0..3, "abc".
  const dictionary = new Uint8Array(27), words = new DataView(dictionary.buffer)
  ;[3, 3, 0, 1, 2, 3].forEach((word, at) => words.setUint32(4 * at, word, true))
  dictionary.set([0x61, 0x62, 0x63], 24)
  const multi = { layout: 2, documentsWithValue: MAX_DOC - WITH_VALUES, valueCount }
  return columnsFile([
    { name: 'k', type: 1, ...multi, maxRaw: 2, section: concatenate(dictionary, offsets, ordinals) },
    { name: 'm', type: 2, ...multi, maxRaw: 7 * (valueCount - 1), section: concatenate(offsets, values) },
  ])
}

function concatenate(...parts: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  parts.reduce((at, part) => (bytes.set(part, at), at + part.length), 0)
  return bytes
}

/** Documents per term (a document counts once a term) over the documents with values that `chosen` keeps. */
function facetModel(chosen: (document: number) => boolean): number[] {
  const counts = [0, 0, 0]
  for (let document = WITH_VALUES; document < MAX_DOC; document++) {
    if (chosen(document)) for (const ordinal of new Set(ordinalsOf(document))) counts[ordinal]++
  }
  return counts
}

describe('documents past 2^31', () => {
  const bytes = hugeMultiFile()

  for (const backend of ['wasm', 'ts'] as const) {
    it(`${backend}: multi columns' runs, range and term filters, DocSet ids and facets`, () => {
      const reader = openColumns(bytes, { backend })
      try {
        const column = reader.getColumn('m')!
        for (const document of [0, 2 ** 31, WITH_VALUES - 1, WITH_VALUES, MAX_DOC - 1]) {
          const count = column.valueCount(document), first = column.firstValueIndex(document)
          expect([count, first]).toEqual([offsetAt(document + 1) - offsetAt(document), offsetAt(document)])
          expect(Array.from({ length: count }, (_, nth) => column.getInt64(document, nth))).toEqual(Array.from({ length: count }, (_, nth) => 7 * (first + nth)))
        }
        // Values 0..70: values 0..10, the first six documents with values.
        const matched = column.rangeFilter(0, 70)
        const ids = Array.from({ length: 6 }, (_, k) => WITH_VALUES + k)
        expect([matched.count(), [...matched], Array.from(matched.toArray())]).toEqual([6, ids, ids])
        matched.release()
        // Facets count a term once a document: the first call marks first values, the second reads the marks.
        const keyword = reader.getColumn('k')!
        expect([Array.from(keyword.facetCounts()), Array.from(keyword.facetCounts())]).toEqual([facetModel(() => true), facetModel(() => true)])
        const few = reader.createDocSet(), even = reader.createDocSet()
        for (const document of [0, 2 ** 31, WITH_VALUES, WITH_VALUES + 1, WITH_VALUES + 2, MAX_DOC - 1]) few.add(document)
        for (let document = WITH_VALUES; document < MAX_DOC; document += 2) even.add(document)
        expect(Array.from(keyword.facetCounts(few))).toEqual(facetModel((document) => few.has(document)))
        expect(Array.from(keyword.facetCounts(even))).toEqual(facetModel((document) => document % 2 === WITH_VALUES % 2))
        const withA = keyword.termFilter(['a'])
        expect(withA.count()).toBe(facetModel(() => true)[0])
        withA.release()
      } finally {
        reader.close()
      }
    }, 120_000)
  }
})
