/**
 * NumberLookup (single reads in JS for dense integer-like columns): every block
 * form answers the exact value or NaN (then getInt64 takes the backend's read),
 * with both backends, across WebAssembly memory growth.
 */
import { describe, expect, it } from 'vitest'
import { wasmRuntime } from '../src/backend/wasm/runtime.js'
import { BLOCK_SHIFT, BLOCK_VALUES } from '../src/format/constants.js'
import type { ColumnsBackend } from '../src/backend/backend.js'
import { NumberLookup } from '../src/read/number-lookup.js'
import { openColumns } from '../src/read/open.js'
import { createValueBuffer } from '../src/read/buffers.js'
import { denseFile, randomInteger } from './helpers/dense-file.js'
import { seededRandom } from './helpers/random.js'
import { ColumnsWriter } from '../src/write/columns-writer.js'
import { signature, summarize } from '../src/cascade/describe.js'

const random = seededRandom(11)
// Block by block: constant, packed w=1..32 (g = 1 and g = 1000), packed w=40, a table, values beyond 2^53, negatives.
const blocks: ((index: number) => number | bigint)[] = [
  () => 42,
  ...Array.from({ length: 32 }, (_, w) => () => randomInteger(random, w + 1)),
  () => 1000 * randomInteger(random, 20) - 5e9,
  () => randomInteger(random, 40),
  (index) => [3e12, -7, 2 ** 40, 12345678901][index % 4],
  () => 2n ** 60n + BigInt(randomInteger(random, 10)),
  () => -(2 ** 31) + randomInteger(random, 31),
  () => 2 ** 53 - 1 - randomInteger(random, 8),
  // The edges of exact numbers: ±(2^53 - 1) read, ±2^53 refused.
  (index) => [2 ** 53 - 1, -(2 ** 53 - 1), 2n ** 53n, -(2n ** 53n)][index % 4],
  // A base of -(2^53 - 1), g = 2^23 - 1, 31-bit fields: every value is safe, but g u passes 2^53 and
  // rounds (declined: read, it gave 9007197098868737 for 9007197098868738, where the backend was right).
  (index) => Number(-(2n ** 53n - 1n) + (2n ** 23n - 1n) * BigInt(index < 3 ? [0, 2 ** 31 - 1, 1][index] : randomInteger(random, 31))),
]
const values = blocks.flatMap((make) => Array.from({ length: 1024 }, (_, index) => make(index))).concat([5, 6, 7])
const bytes = denseFile(values.length, (index) => values[index])

it('NumberLookup.value writes blocks of 1024 values as literals', () => {
  expect([BLOCK_SHIFT, BLOCK_VALUES]).toEqual([10, 1024])
})

describe.each(['ts', 'wasm'] as const)('NumberLookup (%s)', (backend) => {
  it('answers exactly or declines, and getInt64 agrees with getInt64BigInt everywhere that is safe', () => {
    const reader = openColumns(bytes, { backend })
    const column = reader.getColumn('v')!
    const lookup = new NumberLookup(column.values)
    let fast = 0
    for (let index = 0; index < values.length; index++) {
      const exact = BigInt(values[index])
      const value = lookup.value(index)
      if (!Number.isNaN(value)) {
        fast++
        expect(BigInt(value)).toBe(exact)
      }
      if (exact >= -(2n ** 53n) + 1n && exact <= 2n ** 53n - 1n) expect(column.getInt64(index)).toBe(Number(exact))
      else expect(() => column.getInt64(index)).toThrow('is beyond 2^53; use getInt64BigInt')
    }
    // Constant, 32 widths, g = 1000, negatives and near 2^53 are served here; width 40, the table, 2^60, the edges and the rounding products are not.
    expect(fast).toBe(values.length - 5 * 1024)
    reader.close()
  })
})

// Format 2 blocks NumberLookup declines (runs, frequent, patched, linear, dictionary) beside v1's kinds and the edges of 2^53.
const v2Values: (number | bigint)[] = [
  ...Array.from({ length: 1024 }, (_, index) => 5e9 + 3 * (index >> 6)),
  ...Array.from({ length: 1024 }, (_, index) => (index % 97 === 5 ? 1e6 * (index + 1) : 7)),
  ...Array.from({ length: 1024 }, (_, index) => (index % 89 === 3 ? 2 ** 40 + index : index % 8)),
  ...Array.from({ length: 1024 }, (_, index) => 1.6e12 + 60_123 * index + (index * 7) % 16),
  ...Array.from({ length: 1024 }, (_, index) => [3e12, -7, 2 ** 40, 12345678901, 2 ** 53 - 1][index % 5]),
  ...values,
]

describe.each(['ts', 'wasm'] as const)('single reads of format 2 blocks (%s)', (backend) => {
  it('getInt64 and the backend\'s getNumber give every safe value exactly and refuse the rest', () => {
    const writer = new ColumnsWriter({ fields: [{ name: 'v', type: 'integral', column: true }] }, { format: 2 })
    v2Values.forEach((v, document) => writer.addDocument(document, { v }))
    const reader = openColumns(writer.finish(v2Values.length)!, { backend })
    const column = reader.getColumn('v')!
    expect(signature(summarize(column.values, 2))).toMatch(/^blocks\{.*\}$/)
    const kinds = [...summarize(column.values, 2).kinds.keys()]
    for (const kind of ['runs', 'frequent', 'patched', 'linear', 'dictionary']) expect(kinds).toContain(kind)
    for (let index = 0; index < v2Values.length; index++) {
      const exact = BigInt(v2Values[index])
      const safe = exact >= -(2n ** 53n) + 1n && exact <= 2n ** 53n - 1n
      expect((column as unknown as { backend: ColumnsBackend }).backend.getNumber(column.values, index)).toBe(safe ? Number(exact) : NaN)
      if (safe) expect(column.getInt64(index)).toBe(Number(exact))
      else expect(() => column.getInt64(index)).toThrow('is beyond 2^53; use getInt64BigInt')
    }
    reader.close()
  })
})

describe('NumberLookup after WebAssembly memory growth', () => {
  it('reads the live memory after growth, and a closed reader refuses', () => {
    const reader = openColumns(bytes, { backend: 'wasm' })
    const column = reader.getColumn('v')!
    expect(column.getInt64(5)).toBe(Number(values[5]))
    const before = wasmRuntime().kernels.memory.buffer.byteLength
    const big = createValueBuffer('int64', 1 << 24, { backend: 'wasm' })
    expect(wasmRuntime().kernels.memory.buffer.byteLength).toBeGreaterThan(before)
    for (const index of [0, 1030, 20000, values.length - 1]) expect(column.getInt64(index)).toBe(Number(values[index]))
    big.release()
    reader.close()
    expect(() => column.getInt64(5)).toThrow('columns: reader is closed')
  })

  it('reads the live memory when growth comes after getInt64 ran hot (optimised code meets the detached view)', () => {
    const reader = openColumns(bytes, { backend: 'wasm' })
    const column = reader.getColumn('v')!
    const safe = values.map((value, index) => (typeof value === 'number' && Number.isSafeInteger(value) && index < 35 * 1024 ? index : -1)).filter((index) => index >= 0)
    const sum = () => { let total = 0; for (const index of safe) total += column.getInt64(index); return total }
    const expected = safe.reduce((total, index) => total + (values[index] as number), 0)
    for (let round = 0; round < 200; round++) expect(sum()).toBe(expected)
    const big = createValueBuffer('int64', 1 << 25, { backend: 'wasm' })
    expect(sum()).toBe(expected)
    for (const index of safe.slice(0, 3000)) expect(column.getInt64(index)).toBe(values[index])
    big.release()
    reader.close()
    expect(() => column.getInt64(safe[1000])).toThrow('columns: reader is closed')
  })
})

describe('block records checked in place at open, copied at first use', () => {
  it('copies them from the live memory when WebAssembly memory grew between open and the first read', () => {
    const reader = openColumns(bytes, { backend: 'wasm' })
    const column = reader.getColumn('v')!
    const big = createValueBuffer('int64', 1 << 24, { backend: 'wasm' })
    const exact = values.map((value) => BigInt(value))
    for (let index = 0; index < values.length; index += 7) expect(column.getInt64BigInt(index)).toBe(exact[index])
    for (let index = 0; index < 30 * 1024; index += 5) expect(column.getInt64(index)).toBe(values[index])
    expect(column.values.records[6 * 1] >>> 8).toBe(1)
    big.release()
    reader.close()
  })

  it('reads a file at an unaligned offset of its buffer (records copied at open)', () => {
    for (const misalign of [1, 2, 3]) {
      const shifted = new Uint8Array(bytes.length + misalign)
      shifted.set(bytes, misalign)
      const reader = openColumns(shifted.subarray(misalign), { backend: 'ts' })
      const column = reader.getColumn('v')!
      for (let index = 0; index < 30 * 1024; index += 3) expect(column.getInt64(index)).toBe(values[index])
      reader.close()
    }
  })
})

describe.each(['ts', 'wasm'] as const)('getInt64 checks before the lookup (%s)', (backend) => {
  it('refuses documents out of range, non-integers, a missing nth value and a closed reader with the same errors', () => {
    const reader = openColumns(bytes, { backend })
    const column = reader.getColumn('v')!
    for (let round = 0; round < 100; round++) for (let index = 0; index < 2048; index++) column.getInt64(index)
    for (const document of [-1, values.length, values.length + 1, 2 ** 32]) {
      expect(() => column.getInt64(document)).toThrow(`field "v": document ${document} is outside [0, ${values.length})`)
    }
    for (const document of [1.5, NaN, Infinity]) {
      expect(() => column.getInt64(document)).toThrow(`field "v": document ${document} is not an integer in [0, ${values.length})`)
    }
    expect(() => column.getInt64(3, 1)).toThrow('field "v": document 3 has 1 value(s), no value #1')
    expect(column.getInt64(values.length - 1)).toBe(7)
    reader.close()
    expect(() => column.getInt64(0)).toThrow('columns: reader is closed')
    expect(() => column.getInt64(values.length)).toThrow('columns: reader is closed')
  })

  it('builds the lookup at the first getInt64: a reader closed before any read refuses, one read later answers', () => {
    const closed = openColumns(bytes, { backend })
    const unread = closed.getColumn('v')!
    closed.close()
    expect(() => unread.getInt64(0)).toThrow('columns: reader is closed')
    const reader = openColumns(bytes, { backend })
    const column = reader.getColumn('v')!
    expect(column.getInt64(1030)).toBe(values[1030])
    expect(column.getInt64(0)).toBe(42)
    reader.close()
  })
})
