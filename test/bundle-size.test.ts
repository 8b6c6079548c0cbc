// Size budget of the browser reader bundle: its main file (the JavaScript and the
// inlined WebAssembly kernels: everything a page with WebAssembly downloads) at most
// 25 KB (25,600 bytes) gzip at level 9. Its pure-TypeScript fallback is a separate
// chunk (oixk-reader-ts.js), imported only where WebAssembly cannot run or backend
// 'ts' is asked for, with its own budget: 12 KB gzip, and the two together at most
// 37 KB. Fails as soon as a file grows past its budget; prints the sizes either way.
// Also: no node: imports, no top-level await, no import but the reader's own chunk.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import { BUNDLE_NAMES, bundleDirectory, bundleFiles, LAZY_CHUNK_FILES } from './browser/bundles.js'

const BUDGET_BYTES = 25 * 1024
const FALLBACK_BUDGET_BYTES = 12 * 1024
const TOGETHER_BUDGET_BYTES = 37 * 1024

let directory = ''
beforeAll(async () => {
  directory = await bundleDirectory()
}, 120_000)

const gzipped = (code: Buffer) => gzipSync(code, { level: 9 }).length
const read = (file: string) => readFileSync(join(directory, file))

describe('browser bundles', () => {
  it('the reader bundle is at most 25 KB gzip (JavaScript and kernels)', () => {
    const code = read('oixk-reader.js')
    const size = gzipped(code)
    const kernels = /"(H4sI[A-Za-z0-9+/=]+)"|'(H4sI[A-Za-z0-9+/=]+)'/.exec(code.toString('utf8'))
    const kernelText = kernels === null ? '' : (kernels[1] ?? kernels[2])
    console.log(
      `oixk-reader.js: ${code.length} bytes, ${size} bytes gzip (budget ${BUDGET_BYTES}); ` +
      `inlined kernels ${kernelText.length} base64 characters, ${gzipped(Buffer.from(kernelText))} bytes gzip alone`,
    )
    expect(kernelText.length).toBeGreaterThan(0)
    expect(size).toBeLessThanOrEqual(BUDGET_BYTES)
  })

  it('its pure-TypeScript fallback chunk is at most 12 KB gzip, and both together at most 37 KB', () => {
    const main = gzipped(read('oixk-reader.js'))
    const fallback = read('oixk-reader-ts.js')
    const size = gzipped(fallback)
    console.log(
      `oixk-reader-ts.js: ${fallback.length} bytes, ${size} bytes gzip (budget ${FALLBACK_BUDGET_BYTES}); ` +
      `reader without WebAssembly (both files) ${main + size} bytes gzip (budget ${TOGETHER_BUDGET_BYTES})`,
    )
    // The fallback really is the TypeScript backend: its decoder's and checksum's messages are there, not in the main file.
    expect(fallback.toString('utf8')).toContain('xxh64: range')
    expect(read('oixk-reader.js').toString('utf8')).not.toContain('xxh64: range')
    expect(size).toBeLessThanOrEqual(FALLBACK_BUDGET_BYTES)
    expect(main + size).toBeLessThanOrEqual(TOGETHER_BUDGET_BYTES)
  })

  it('prints the writer and full bundles', () => {
    for (const name of ['oixk-writer', 'oixk']) {
      const code = read(`${name}.js`)
      console.log(`${name}.js: ${code.length} bytes, ${gzipped(code)} bytes gzip`)
      expect(code.length).toBeGreaterThan(1000)
    }
  })

  it('the lazy chunks are the ones rollup.config.js writes, and nothing else is written', async () => {
    const config = (await import('../rollup.config.js' as string)) as { LAZY_CHUNKS: Record<string, string[]> }
    expect(LAZY_CHUNK_FILES).toEqual(config.LAZY_CHUNKS)
    const written = readdirSync(directory).filter((file) => file.endsWith('.js')).sort()
    expect(written).toEqual(BUNDLE_NAMES.flatMap(bundleFiles).sort())
  })

  it('no node: imports, no top-level await; the reader and its chunk import only each other', async () => {
    const { parseAst } = await import('rollup/parseAst')
    const allowed: Record<string, string[]> = {
      'oixk-reader.js': ['./oixk-reader-ts.js'], 'oixk-reader-ts.js': ['./oixk-reader.js'], 'oixk-writer.js': [], 'oixk.js': [],
    }
    for (const file of BUNDLE_NAMES.flatMap(bundleFiles)) {
      const code = read(file).toString('utf8')
      expect(code).not.toContain('node:')
      const specifiers = [...code.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|\bimport\s*["']([^"']+)["']/g)]
        .map((match) => match[1] ?? match[2] ?? match[3])
      expect(new Set(specifiers), file).toEqual(new Set(allowed[file]))
      // A module with top-level await would make every importer wait: the bundles must evaluate synchronously.
      const program = parseAst(code) as unknown as { body: { type: string; expression?: { type: string }; declarations?: { init?: { type: string } }[] }[] }
      const topLevelAwait = program.body.some((statement) => statement.expression?.type === 'AwaitExpression' ||
        (statement.declarations ?? []).some((declaration) => declaration.init?.type === 'AwaitExpression'))
      expect(topLevelAwait).toBe(false)
    }
  })
})
