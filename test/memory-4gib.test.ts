/**
 * WebAssembly memory of exactly 4 GiB (2^32 bytes: the wasm32 limit, which the growth rule reaches
 * from any size above 2.67 GiB): views of the whole memory sized by `byteLength >>> 2` had no words
 * there, so opens failed with false corruption errors and readers opened before answered wrongly
 * (histograms of patched blocks, topK over run bounds). Readers opened before the growth, and files
 * opened after it, answer as the TypeScript backend does. Grown by FileBuffers never written: the
 * pages stay untouched.
 */
import { describe, expect, it } from 'vitest'
import { wasmRuntime, wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { createFileBuffer } from '../src/read/buffers.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { flushColumns } from '../src/write/columns-writer.js'

const N = 30_000
const schema = { fields: [
  { name: 'n', type: 'integral', column: true }, { name: 'k', type: 'keyword', facet: true },
  { name: 'm', type: 'keyword', facet: true, multi: true }, { name: 'x', type: 'fractional', column: true },
  { name: 'r', type: 'integral', column: true }, { name: 'p', type: 'integral', column: true },
] } as const
const documents = Array.from({ length: N }, (_, i) => ({
  n: (i * 7919) % 100_003, k: `t${(i * 13) % 301}`, m: i % 5 === 0 ? [] : [`a${i % 7}`, `b${i % 11}`],
  x: i % 17 === 0 ? Number.NaN : Math.round((i / 7) * 100) / 100, r: Math.floor(i / 700), p: i % 50 === 0 ? 1_000_000 + i : i % 8,
}))
const files = ([1, 2] as const).map((format) => flushColumns(schema, documents, { maxDoc: N, format })!)

const text = (value: unknown) => JSON.stringify(value, (_, x) => (typeof x === 'bigint' ? `${x}n` : ArrayBuffer.isView(x) ? Array.from(x as Int32Array) : x))
/** Questions of every kind over every column, as text. */
function answers(reader: ColumnsReader): string[] {
  const out: string[] = []
  const chosen = reader.getColumn('n')!.rangeFilter(0, 60_000)
  for (const name of ['n', 'x', 'r', 'p']) {
    const column = reader.getColumn(name)!
    out.push(text([...column.rangeFilter(3, 500, chosen)]), text(column.histogram([0, 3, 10, 100, 1000, 50_000], chosen)), text(column.aggregate(chosen)))
    out.push(text(column.topK(20, 'descending')), text(column.topK(20, 'ascending', chosen)), text(column.toArray().slice(0, 50)))
  }
  for (const name of ['k', 'm']) {
    const column = reader.getColumn(name)!
    out.push(text(column.facetCounts()), text(column.facetCounts(chosen)), text([...column.termFilter(['t1', 't5', 'a1', 'b3'], chosen)]))
  }
  out.push(text(Array.from({ length: 100 }, (_, d) => reader.getColumn('p')!.getInt64(d * 299))))
  return out
}

describe.skipIf(wasmUnavailableReason() !== null)('WebAssembly memory at exactly 4 GiB', () => {
  it('readers opened before answer as before, and files open after', () => {
    const expected = files.map((file) => answers(openColumns(file, { backend: 'ts' })))
    const queried = files.map((file) => openColumns(file, { backend: 'wasm' }))
    expect(queried.map(answers)).toEqual(expected)
    const unasked = files.map((file) => openColumns(file, { backend: 'wasm' }))
    const runtime = wasmRuntime()
    const growth = [createFileBuffer(3 * 2 ** 30, { backend: 'wasm' })]
    // Then one buffer more than the largest free range: memory grows to its limit.
    if (runtime.bytes.buffer.byteLength < 2 ** 32) {
      const free = (runtime.regions as unknown as { freeLengths: number[] }).freeLengths
      growth.push(createFileBuffer(Math.max(0, ...free) + 1, { backend: 'wasm' }))
    }
    expect(runtime.bytes.buffer.byteLength).toBe(2 ** 32)
    expect(queried.map(answers)).toEqual(expected)
    expect(unasked.map(answers)).toEqual(expected)
    for (const buffer of growth) buffer.release()
    // Opened at 4 GiB (into the memory the buffers gave back).
    expect(files.map((file) => answers(openColumns(file, { backend: 'wasm' })))).toEqual(expected)
  })
})
