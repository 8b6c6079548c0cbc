/**
 * The package's entries agree: code written against one runs against another.
 * `oixk` in Node (src/index.ts) has every name of `oixk/reader` and
 * `oixk/writer`, the same names as `oixk` under the browser condition
 * (src/browser.ts), and `oixk/node` adds the file helpers and the query pool.
 */
import { describe, expect, it } from 'vitest'
import * as browser from '../src/browser.js'
import * as reader from '../src/entry-reader.js'
import * as writer from '../src/entry-writer.js'
import * as main from '../src/index.js'
import * as node from '../src/node/index.js'

const names = (entry: object) => Object.keys(entry).sort()

describe('package entries', () => {
  it('oixk in Node exports every name of oixk/reader and oixk/writer', () => {
    expect(names(reader).filter((name) => !(name in main))).toEqual([])
    expect(names(writer).filter((name) => !(name in main))).toEqual([])
  })

  it('oixk exports the same names in Node and under the browser condition', () => {
    expect(names(browser)).toEqual(names(main))
  })

  it('oixk/node is oixk plus the file helpers and the query pool', () => {
    expect(names(node).filter((name) => !(name in main))).toEqual(['PooledSegment', 'QueryPool', 'createQueryPool', 'openColumnsFile', 'writeFileAtomic'])
    expect(names(main).filter((name) => !(name in node))).toEqual([])
  })

  it('openColumnsFromUrl is in oixk, oixk/reader (the browser reader bundle too) and oixk/node; createFileBuffer is not in oixk/reader', () => {
    for (const entry of [main, reader, browser, node]) expect(typeof entry.openColumnsFromUrl).toBe('function')
    // Over the reader bundle's size budget: test/bundle-size.test.ts prints what it would cost.
    expect('createFileBuffer' in reader).toBe(false)
    expect(typeof main.createFileBuffer).toBe('function')
  })

  it('openColumnsAsync and initWasm from oixk work in Node', async () => {
    const bytes = main.flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, [{ n: 5 }, { n: -7 }])!
    expect(await main.initWasm()).toBe(main.wasmUnavailableReason() === null)
    for (const backend of ['auto', 'ts'] as const) {
      const opened = await main.openColumnsAsync(bytes, { backend })
      expect([opened.getColumn('n')!.getInt64(0), opened.getColumn('n')!.getInt64(1)]).toEqual([5, -7])
      opened.close()
    }
    expect(await main.loadTypeScriptBackend()).toBe(main.typeScriptBackend)
  })
})
