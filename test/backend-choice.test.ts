/**
 * What `backend` accepts: a name, or a backend object of this copy of the library. Another copy's
 * backend hands its results through that copy's module words, which this copy never reads: a
 * reader opened with it read multi columns as empty and merged them to nothing, with no error.
 */
import { describe, expect, it, vi } from 'vitest'
import { createFileBuffer, createValueBuffer, flushColumns, openColumns, typeScriptBackend } from '../src/index.js'

const bytes = flushColumns({ fields: [{ name: 'm', type: 'integral', column: true, multi: true }] }, [{ m: [3, 1] }, {}, { m: [2] }])!
const copy = 'another copy of oixk (its files loaded twice: under two URLs, as a query string or a redirect makes, or from two node_modules paths)'

describe('backend objects', () => {
  it('takes this copy\'s backend objects, a spread of one too', () => {
    for (const backend of [typeScriptBackend, { ...typeScriptBackend }]) {
      expect(openColumns(bytes, { backend }).getColumn('m')!.toArray()).toEqual([[3, 1], null, [2]])
    }
  })

  it('refuses another copy\'s backend, null and objects that are no backend, by name', async () => {
    vi.resetModules()
    const other = await import('../src/index.js')
    expect(other.typeScriptBackend).not.toBe(typeScriptBackend)
    const refused = (got: string) => new TypeError(`backend must be "ts", "wasm", "auto" or a backend object of this oixk, got ${got}`)
    expect(() => openColumns(bytes, { backend: other.typeScriptBackend })).toThrow(refused(`a backend object of ${copy}; pass "ts" or "wasm"`))
    expect(() => createValueBuffer('int64', 8, { backend: other.typeScriptBackend })).toThrow(refused(`a backend object of ${copy}; pass "ts" or "wasm"`))
    // These threw "Cannot read properties of null (reading 'load')" and "backend.load is not a function".
    expect(() => openColumns(bytes, { backend: null as never })).toThrow(refused('null'))
    expect(() => openColumns(bytes, { backend: {} as never })).toThrow(refused('an object that is no backend'))
    // The other copy answers with its own backend.
    expect(other.openColumns(bytes, { backend: other.typeScriptBackend }).getColumn('m')!.toArray()).toEqual([[3, 1], null, [2]])
  })
})

describe('arrays of another copy\'s WebAssembly memory', () => {
  it('a reader of one copy refuses a released ValueBuffer\'s array of another, and a view over its FileBuffer', async () => {
    // Each copy kept its own registry of linear memory: a reader of one wrote into another copy's released
    // ValueBuffer array, over the file a FileBuffer of that copy then held (its reader read 4000012 for 7).
    vi.resetModules()
    const other = await import('../src/index.js')
    const schema = { fields: [{ name: 'n', type: 'integral', column: true }] }
    const n = 4096
    const file = flushColumns(schema, Array.from({ length: n }, (_, i) => ({ n: i * 1000003 })), { maxDoc: n })!
    const victimBytes = flushColumns(schema, Array.from({ length: n }, () => ({ n: 7 })), { maxDoc: n })!
    const values = other.createValueBuffer('int64', Math.ceil(victimBytes.length / 8) + 16, { backend: 'wasm' })
    const stale = values.array
    values.release()
    const fileBuffer = other.createFileBuffer(victimBytes.length, { backend: 'wasm' })
    fileBuffer.bytes.set(victimBytes)
    const victim = fileBuffer.open({ maxDoc: n })
    const byHand = new BigInt64Array(fileBuffer.bytes.buffer, fileBuffer.bytes.byteOffset, 8)
    for (const backend of ['wasm', 'ts'] as const) {
      const reader = openColumns(file, { backend })
      expect(() => reader.getColumn('n')!.readValues(0, stale)).toThrow('field "n": readValues destination is the array of a released ValueBuffer')
      expect(() => reader.getColumn('n')!.readValues(0, byHand)).toThrow('field "n": readValues destination is WebAssembly memory outside every live ValueBuffer')
      reader.close()
    }
    expect(victim.getColumn('n')!.getInt64(5)).toBe(7)
    victim.verify()
    // A live ValueBuffer of the other copy is written as one of this copy's is.
    const live = other.createValueBuffer('int64', n, { backend: 'wasm' })
    openColumns(file, { backend: 'wasm' }).getColumn('n')!.readValues(0, live.array)
    expect(live.array[3]).toBe(3000009n)
    live.release()
    fileBuffer.release()
  })
})

describe('DocSets of another copy', () => {
  it('are named as such, not as "not a DocSet"', async () => {
    vi.resetModules()
    const other = await import('../src/index.js')
    const reader = openColumns(bytes, { backend: 'ts' }), otherReader = other.openColumns(bytes, { backend: 'ts' })
    const foreign = otherReader.allDocuments()
    const message = `is a DocSet of ${copy}: make it with this reader`
    expect(() => reader.getColumn('m')!.aggregate(foreign as never)).toThrow(new TypeError(`field "m": docs ${message}`))
    expect(() => reader.allDocuments().and(foreign as never)).toThrow(new TypeError(`the set given ${message}`))
    expect(() => reader.allDocuments().and({} as never)).toThrow(new TypeError('(a plain object) is not a DocSet'))
  })
})

describe('a TypeScript reader over WebAssembly memory', () => {
  it('copies a FileBuffer\'s bytes at open, so the memory growing later does not detach them', () => {
    // It read them in place, and threw "Cannot perform DataView constructor on a detached ArrayBuffer" after growth.
    const fileBuffer = createFileBuffer(bytes.length, { backend: 'wasm' })
    fileBuffer.bytes.set(bytes)
    const reader = openColumns(fileBuffer.bytes, { backend: 'ts' })
    const grown = createValueBuffer('int64', (64 << 20) >> 3, { backend: 'wasm' })
    expect(reader.getColumn('m')!.toArray()).toEqual([[3, 1], null, [2]])
    grown.release()
    fileBuffer.release()
  })
})

describe('pools of two copies', () => {
  it('a segment of one copy\'s pool opened over another copy\'s segment bytes keeps its file', async () => {
    // Which memory pools reuse was known to each copy alone: the second copy adopted the first's bytes,
    // and answered with the next file the first pool put there.
    const { createQueryPool } = await import('../src/node/index.js')
    vi.resetModules()
    const other = await import('../src/node/index.js')
    const schema = { fields: [{ name: 'n', type: 'integral', column: true }] }
    const fileOf = (from: number) => flushColumns(schema, Array.from({ length: 100 }, (_, i) => ({ n: from + i })))!
    await using pool = createQueryPool({ threads: 1, backend: 'ts' })
    await using second = other.createQueryPool({ threads: 1, backend: 'ts' })
    const first = await pool.open(fileOf(1000))
    const adopted = await second.open(first.bytes)
    await first.close()
    await pool.open(fileOf(5000))
    expect(await adopted.aggregate('n')).toMatchObject({ count: 100, min: 1000, max: 1099 })
  })
})

describe('a TypeScript reader over a resizable buffer', () => {
  it('copies it at open, so the caller shrinking it later changes no answer', () => {
    // It read the bytes in place: after a shrink, reads gave zeros and empty terms, silently.
    type Resizable = ArrayBuffer & { resize(length: number): void }
    const buffer = new (ArrayBuffer as unknown as new (length: number, options: { maxByteLength: number }) => Resizable)(bytes.length, { maxByteLength: 2 * bytes.length })
    new Uint8Array(buffer).set(bytes)
    const reader = openColumns(new Uint8Array(buffer), { backend: 'ts' })
    buffer.resize(8)
    expect(reader.getColumn('m')!.toArray()).toEqual([[3, 1], null, [2]])
  })
})
