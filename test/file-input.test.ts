/**
 * What openColumns accepts as a file (issue: an ArrayBuffer passed to openColumns put NaN into
 * the WebAssembly allocator's free list, and the next open landed on another reader's memory),
 * and that no wrong argument can touch another reader's values.
 */
import { createContext, runInContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { RegionAllocator } from '../src/backend/wasm/regions.js'
import { wasmRuntime } from '../src/backend/wasm/runtime.js'
import { openColumns } from '../src/read/open.js'
import { openColumnsAsync } from '../src/read/open-async.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { denseFile } from './helpers/dense-file.js'

const schema = { fields: [{ name: 'n', type: 'integral', column: true }, { name: 'k', type: 'keyword', facet: true }] }
const keepValues = Array.from({ length: 5000 }, (_, index) => ((index * 7919) % 1000) - 300)
const keep = flushColumns(schema, keepValues.map((n, index) => ({ n, k: `t${index % 13}` })))!
const small = flushColumns(schema, [{ n: 1, k: 'a' }, { n: 2 }])!

function checkKept(reader: ReturnType<typeof openColumns>): void {
  const column = reader.getColumn('n')!
  const all = new BigInt64Array(keepValues.length)
  column.readValues(0, all)
  expect(Array.from(all, Number)).toEqual(keepValues)
  for (let document = 0; document < keepValues.length; document += 97) expect(column.getInt64(document)).toBe(keepValues[document])
  reader.verify()
  const delayed = column.rangeFilter(0, 100)
  expect(delayed.count()).toBe(keepValues.filter((value) => value >= 0 && value <= 100).length)
  delayed.release()
  expect(Array.from(reader.getColumn('k')!.facetCounts()).reduce((a, b) => a + b, 0)).toBe(keepValues.length)
}

const wrongInputs: [string, unknown, string][] = [
  ['a string', 'columns.bin', 'a string (11 characters)'],
  ['a number', 64, 'number 64'],
  ['an array-like object', { length: 64 }, 'a plain object'],
  ['a DataView', new DataView(new ArrayBuffer(64)), 'a DataView'],
  ['an Int32Array', new Int32Array(16), 'an Int32Array'],
  ['undefined', undefined, 'undefined'],
]

describe.each(['wasm', 'ts'] as const)('openColumns input, backend %s', (backend) => {
  it('opens an ArrayBuffer, a SharedArrayBuffer and a Uint8Array at an offset alike', () => {
    const shared = new SharedArrayBuffer(keep.length)
    new Uint8Array(shared).set(keep)
    const padded = new Uint8Array(keep.length + 3)
    padded.set(keep, 3)
    for (const input of [keep.slice().buffer, shared, padded.subarray(3)]) {
      const reader = openColumns(input, { backend })
      checkKept(reader)
      reader.close()
    }
  })

  it('opens another realm\'s Uint8Array, ArrayBuffer and SharedArrayBuffer (an iframe\'s, a node:vm context\'s)', () => {
    // They were refused as "must be a Uint8Array, ..., got a Uint8Array".
    const context = createContext({ bytes: keep })
    const inputs = runInContext(`
      const view = new Uint8Array(bytes.length + 5); view.set(bytes, 5);
      const shared = new SharedArrayBuffer(bytes.length); new Uint8Array(shared).set(bytes);
      [view.subarray(5), view.slice(5).buffer, shared]`, context) as unknown[]
    for (const input of inputs) {
      expect(input instanceof Uint8Array || input instanceof ArrayBuffer || input instanceof SharedArrayBuffer).toBe(false)
      const reader = openColumns(input as Uint8Array, { backend })
      checkKept(reader)
      reader.close()
    }
    const foreignView = runInContext('new DataView(new ArrayBuffer(8))', context)
    expect(() => openColumns(foreignView as Uint8Array, { backend })).toThrow(/must be a Uint8Array, ArrayBuffer or SharedArrayBuffer, got a DataView/)
  })

  it.each(wrongInputs)('refuses %s with a TypeError naming it, and no other reader is touched', (_name, input, got) => {
    const first = openColumns(small, { backend })
    const kept = openColumns(keep, { backend })
    first.close()
    expect(() => openColumns(input as Uint8Array, { backend })).toThrow(
      new TypeError(`openColumns: the file must be a Uint8Array, ArrayBuffer or SharedArrayBuffer, got ${got}`),
    )
    // The next opens take the freed region and grow memory; the kept reader must not see them.
    const others = [openColumns(small, { backend }), openColumns(denseFile(200_000, (index) => index * 3), { backend })]
    checkKept(kept)
    for (const other of others) other.close()
    kept.close()
  })

  it('a detached ArrayBuffer or Uint8Array is named as detached, not as a corrupt empty file', () => {
    const buffer = keep.slice().buffer
    const view = keep.slice()
    structuredClone([buffer, view.buffer], { transfer: [buffer, view.buffer] })
    const detached = (what: string) => new TypeError(`openColumns: the file's ${what} is detached (transferred, or a view of WebAssembly memory that has grown since); pass the bytes themselves`)
    expect(() => openColumns(buffer, { backend })).toThrow(detached('ArrayBuffer'))
    expect(() => openColumns(view, { backend })).toThrow(detached('Uint8Array'))
    // An empty buffer that was never detached is a file of 0 bytes.
    expect(() => openColumns(new ArrayBuffer(0), { backend })).toThrow(/file is 0 bytes/)
  })

  it('openColumns(null) without maxDoc is a TypeError, and leaves memory alone', () => {
    const kept = openColumns(keep, { backend })
    expect(() => openColumns(null, { backend })).toThrow(new TypeError('openColumns(null) needs options.maxDoc'))
    openColumns(small, { backend }).close()
    checkKept(kept)
    kept.close()
  })

  it('openColumnsAsync refuses the same inputs, and opens an ArrayBuffer', async () => {
    await expect(openColumnsAsync(new DataView(new ArrayBuffer(8)) as unknown as Uint8Array, { backend })).rejects.toThrow(
      new TypeError('openColumnsAsync: the file must be a Uint8Array, ArrayBuffer or SharedArrayBuffer, got a DataView'),
    )
    const reader = await openColumnsAsync(keep.slice().buffer, { backend })
    checkKept(reader)
    reader.close()
  })
})

describe('the region allocator refuses sizes and addresses that are not integers in range', () => {
  it('allocate: NaN, negative, fractional, 4 GiB; free: NaN, negative, fractional; nothing changes', () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 4 })
    const regions = new RegionAllocator(memory, 0, () => {})
    const a = regions.allocate(100)
    for (const length of [NaN, undefined, -1, 1.5, 2 ** 32, Infinity]) {
      expect(() => regions.allocate(length as number)).toThrow(
        new RangeError(`oixk: WebAssembly region length ${length} is not an integer in [0, 4 GiB)`),
      )
    }
    for (const start of [NaN, -16, 0.5]) {
      expect(() => regions.free(start)).toThrow(new Error(`oixk: WebAssembly region ${start} is not allocated`))
    }
    expect(regions.bytesInUse).toBe(112)
    // The free list is intact: the next regions follow the first, and freeing merges back to one range.
    expect(regions.allocate(16)).toBe(112)
    regions.free(a)
    regions.free(112)
    expect(regions.allocate(65536)).toBe(0)
  })

  it('the process runtime\'s allocator refuses a bad length before touching its free list', () => {
    const runtime = wasmRuntime()
    const inUse = runtime.regions.bytesInUse
    expect(() => runtime.regions.allocate(NaN)).toThrow(RangeError)
    expect(runtime.regions.bytesInUse).toBe(inUse)
  })
})
