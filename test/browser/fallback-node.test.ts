/**
 * The pure-TypeScript fallback in Node: WebAssembly is removed before any oixk
 * module loads (this file imports them dynamically afterwards), then the source
 * entry and the browser reader bundle must both fall back under 'auto', read
 * the golden files exactly, and say why 'wasm' is unavailable.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { bundleDirectory, ROOT } from './bundles.js'
import { canonicalJson, dump } from './pages/compare.js'

const removed = (globalThis as { WebAssembly?: unknown }).WebAssembly

const GOLDEN = join(ROOT, 'test/golden')
const names = readdirSync(GOLDEN).filter((file) => file.endsWith('.oixk')).map((file) => file.slice(0, -5)).sort()
type ReaderModule = typeof import('../../src/entry-reader.js')

describe('without WebAssembly (Node)', () => {
  let bundle: ReaderModule
  beforeAll(async () => {
    // Built (when sources changed since the last build) while WebAssembly is here: the build's Zopfli runs on it.
    const directory = await bundleDirectory(['oixk-reader'])
    delete (globalThis as { WebAssembly?: unknown }).WebAssembly
    bundle = (await import(pathToFileURL(join(directory, 'oixk-reader.js')).href)) as ReaderModule
  }, 120_000)

  it('WebAssembly really is gone', () => {
    expect(typeof removed).toBe('object')
    expect(typeof (globalThis as { WebAssembly?: unknown }).WebAssembly).toBe('undefined')
  })

  for (const [label, load] of [
    ['source entry', () => import('../../src/entry-reader.js') as Promise<ReaderModule>],
    ['browser bundle', async () => bundle],
  ] as const) {
    it(`${label}: auto falls back to TypeScript and reads every golden file exactly`, async () => {
      const oixk = await load()
      if (label === 'browser bundle') {
        // The bundle's TypeScript backend is a chunk that initWasm() (or openColumnsAsync) imports when WebAssembly is missing.
        expect(() => oixk.openColumns(null, { maxDoc: 1 })).toThrow('backend "auto" is not available: this JavaScript engine has no WebAssembly; ' +
          'and the browser reader bundle loads the pure-TypeScript backend on demand: await loadTypeScriptBackend() (or use openColumnsAsync) first')
      } else {
        expect(oixk.openColumns(null, { maxDoc: 1 }).backendName).toBe('ts')
      }
      expect(await oixk.initWasm()).toBe(false)
      expect(oixk.wasmUnavailableReason()).toBe('this JavaScript engine has no WebAssembly')
      for (const name of names) {
        const bytes = new Uint8Array(readFileSync(join(GOLDEN, `${name}.oixk`)))
        const expected = canonicalJson(JSON.parse(readFileSync(join(GOLDEN, `${name}.json`), 'utf8')))
        const reader = await oixk.openColumnsAsync(bytes, { fileName: `${name}.oixk` })
        expect(reader.backendName).toBe('ts')
        reader.verify()
        expect(canonicalJson(dump(reader as never))).toBe(expected)
        const synchronous = oixk.openColumns(bytes)
        expect(synchronous.backendName).toBe('ts')
        synchronous.close()
        reader.close()
      }
      await expect(oixk.openColumnsAsync(new Uint8Array(readFileSync(join(GOLDEN, 'multi.oixk'))), { backend: 'wasm' }))
        .rejects.toThrow('backend "wasm" is not available: this JavaScript engine has no WebAssembly')
    })

    it(`${label}: the query API answers under the fallback`, async () => {
      const oixk = await load()
      const reader = oixk.openColumns(new Uint8Array(readFileSync(join(GOLDEN, 'multi.oixk'))))
      expect(reader.backendName).toBe('ts')
      const all = reader.allDocuments()
      expect(all.count()).toBe(reader.maxDoc)
      const keyword = reader.columns.find((column) => column.type === 'keyword')
      expect(keyword).toBeDefined()
      if (keyword !== undefined) {
        // A document counts once per distinct term it holds.
        const expected = new Uint32Array(keyword.dictionary!.termCount)
        for (let document = 0; document < reader.maxDoc; document++) {
          const ordinals = new Set(Array.from({ length: keyword.valueCount(document) }, (_, nth) => keyword.getOrdinal(document, nth)))
          for (const ordinal of ordinals) expected[ordinal]++
        }
        expect([...keyword.facetCounts()]).toEqual([...expected])
      }
      all.release()
      reader.close()
    })
  }
})
