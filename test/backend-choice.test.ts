/**
 * What `backend` accepts: a name, or a backend object of this copy of the library. Another copy's
 * backend hands its results through that copy's module words, which this copy never reads: a
 * reader opened with it read multi columns as empty and merged them to nothing, with no error.
 */
import { describe, expect, it, vi } from 'vitest'
import { createValueBuffer, flushColumns, openColumns, typeScriptBackend } from '../src/index.js'

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
