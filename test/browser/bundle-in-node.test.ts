/**
 * The browser bundle's kernels (a size build with generic unpacking, see
 * scripts/bundle-widths.as) give exactly the pure-TypeScript results: the full
 * backend duel of test/helpers/duel.ts, in Node, on readers from the reader
 * bundle, over random files of every type and layout and every block shape.
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ColumnsReader } from '../../src/read/reader.js'
import { xxh64 } from '../../src/format/xxh64.js'
import { flushColumns } from '../../src/write/columns-writer.js'
import { Duel, duelReaders, picker } from '../helpers/duel.js'
import { randomDocuments } from '../helpers/random-columns.js'
import { seededRandom } from '../helpers/random.js'
import { bundleDirectory } from './bundles.js'

type ReaderModule = typeof import('../../src/entry-reader.js')

describe('the browser bundle in Node', () => {
  let oixk: ReaderModule
  beforeAll(async () => {
    oixk = (await import(pathToFileURL(join(await bundleDirectory(['oixk-reader']), 'oixk-reader.js')).href)) as ReaderModule
  }, 120_000)

  it('compiles its kernels only asynchronously and loads its TypeScript backend on demand', async () => {
    const asynchronousKernels = 'the browser bundle compiles the WebAssembly kernels asynchronously: await initWasm() (or use openColumnsAsync) first'
    const onDemand = 'the browser reader bundle loads the pure-TypeScript backend on demand: await loadTypeScriptBackend() (or use openColumnsAsync) first'
    expect(oixk.wasmUnavailableReason()).toBe(asynchronousKernels)
    expect(() => oixk.openColumns(null, { maxDoc: 1, backend: 'wasm' })).toThrow(`backend "wasm" is not available: ${asynchronousKernels}`)
    expect(() => oixk.openColumns(null, { maxDoc: 1, backend: 'ts' })).toThrow(`backend "ts" is not available: ${onDemand}`)
    // Before either is ready, 'auto' has neither, and says how to get both.
    expect(() => oixk.openColumns(null, { maxDoc: 1 })).toThrow(`backend "auto" is not available: ${asynchronousKernels}; and ${onDemand}`)
    expect(await oixk.initWasm()).toBe(true)
    expect(oixk.wasmUnavailableReason()).toBeNull()
    expect(oixk.openColumns(null, { maxDoc: 1 }).backendName).toBe('wasm')
    // WebAssembly running does not load the fallback: only asking for it does.
    expect(() => oixk.openColumns(null, { maxDoc: 1, backend: 'ts' })).toThrow(`backend "ts" is not available: ${onDemand}`)
    expect((await oixk.openColumnsAsync(null, { maxDoc: 1, backend: 'ts' })).backendName).toBe('ts')
    expect((await oixk.loadTypeScriptBackend()).name).toBe('ts')
    expect(oixk.openColumns(null, { maxDoc: 1, backend: 'ts' }).backendName).toBe('ts')
  })

  it('imported by a second URL, it refuses its chunks bound to the first copy instead of answering wrongly', async () => {
    // The chunks import what they share from ./oixk-reader.js: under '?v=2' that is another copy, whose
    // result words the second copy never read (multi columns read empty, verify() saw corruption).
    const url = pathToFileURL(join(await bundleDirectory(['oixk-reader']), 'oixk-reader.js'))
    url.search = '?v=2'
    const second = (await import(url.href)) as ReaderModule
    expect(second.openColumns).not.toBe(oixk.openColumns)
    const copy = 'another copy of oixk (its files loaded twice: under two URLs, as a query string or a redirect makes, or from two node_modules paths)'
    await expect(second.loadTypeScriptBackend()).rejects.toThrow(`the TypeScript backend's chunk runs with ${copy}: import oixk-reader.js by the URL it is served from`)
    await expect(second.loadFullCheck()).rejects.toThrow(`the full check's chunk runs with ${copy}: import oixk-reader.js by the URL it is served from`)
    // A synchronous open after the refusal says why, not "load it first".
    expect(() => second.openColumns(null, { maxDoc: 1, backend: 'ts' })).toThrow(`backend "ts" is not available: the TypeScript backend's chunk runs with ${copy}`)
    // The first copy's TypeScript backend, handed over, is refused too; the second copy's WebAssembly answers.
    const backend = await oixk.loadTypeScriptBackend()
    expect(() => second.openColumns(null, { maxDoc: 1, backend })).toThrow(`backend must be "ts", "wasm", "auto" or a backend object of this oixk, got a backend object of ${copy}; pass "ts" or "wasm"`)
    expect(await second.initWasm()).toBe(true)
    const bytes = flushColumns({ fields: [{ name: 'm', type: 'integral', column: true, multi: true }] }, [{ m: [3, 1] }, {}, { m: [2] }])!
    expect(second.openColumns(bytes, { backend: 'wasm' }).getColumn('m')!.toArray()).toEqual([[3, 1], null, [2]])
  })

  it('its XXH64 (the compact stripe loop of scripts/bundle-widths.as) verifies files of 70 sizes and catches a flipped byte', async () => {
    await oixk.initWasm()
    for (let maxDoc = 1; maxDoc <= 70; maxDoc++) {
      const bytes = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, Array.from({ length: maxDoc }, (_, index) => ({ v: index * 977 })), { maxDoc })!
      const reader = oixk.openColumns(bytes, { backend: 'wasm' })
      expect(reader.getColumn('v')!.getInt64(maxDoc - 1)).toBe((maxDoc - 1) * 977)
      reader.close()
      const stored = new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(bytes.length - 8, true)
      bytes[bytes.length >> 1] ^= 1
      const computed = xxh64(bytes, 0, bytes.length - 8).toString(16).padStart(16, '0')
      expect(() => oixk.openColumns(bytes, { backend: 'wasm' })).toThrow(`checksum mismatch: stored ${stored.toString(16).padStart(16, '0')}, computed ${computed}`)
    }
  })

  for (const seed of [1, 2, 3, 4]) {
    it(`random file ${seed}: WebAssembly and TypeScript answer identically`, async () => {
      await oixk.initWasm()
      await oixk.loadTypeScriptBackend()
      const random = seededRandom(5000 + seed)
      const maxDoc = [3000, 1500, 4100, 2][seed - 1]
      const { schema, docs } = randomDocuments(random, maxDoc)
      const bytes = flushColumns(schema, docs, { maxDoc })!
      const ts = oixk.openColumns(bytes, { backend: 'ts' }) as unknown as ColumnsReader
      const wasm = oixk.openColumns(bytes, { backend: 'wasm' }) as unknown as ColumnsReader
      expect([ts.backendName, wasm.backendName]).toEqual(['ts', 'wasm'])
      const duel = new Duel()
      duelReaders(duel, ts, wasm, picker(random), 4, 3000)
      ts.close()
      wasm.close()
      expect(duel.mismatches).toEqual([])
      expect(duel.comparisons).toBeGreaterThan(1000)
    })
  }
})
