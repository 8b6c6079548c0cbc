// Size budget of the browser reader bundle (JS and inlined WebAssembly kernels):
// at most 25 KB (25,600 bytes) gzip at level 9. Fails as soon as it grows past it;
// prints the sizes either way. Also: one self-contained file, no node: imports, no
// top-level await.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import { bundleDirectory } from './browser/bundles.js'

const BUDGET_BYTES = 25 * 1024

let directory = ''
beforeAll(async () => {
  directory = await bundleDirectory()
}, 120_000)

const gzipped = (code: Buffer) => gzipSync(code, { level: 9 }).length

describe('browser bundles', () => {
  it('the reader bundle is at most 25 KB gzip', () => {
    const code = readFileSync(join(directory, 'oixk-reader.js'))
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

  it('prints the writer and full bundles', () => {
    for (const name of ['oixk-writer', 'oixk']) {
      const code = readFileSync(join(directory, `${name}.js`))
      console.log(`${name}.js: ${code.length} bytes, ${gzipped(code)} bytes gzip`)
      expect(code.length).toBeGreaterThan(1000)
    }
  })

  it('every bundle is one file with no imports and no top-level await', async () => {
    for (const name of ['oixk-reader', 'oixk-writer', 'oixk']) {
      const code = readFileSync(join(directory, `${name}.js`), 'utf8')
      expect(code).not.toMatch(/\bfrom\s*["'][^"']+["']|\bimport\s*\(|\bimport\s*["']/)
      expect(code).not.toContain('node:')
      // A module with top-level await would make every importer wait: the bundles must evaluate synchronously.
      const { parseAst } = await import('rollup/parseAst')
      const program = parseAst(code) as unknown as { body: { type: string; expression?: { type: string }; declarations?: { init?: { type: string } }[] }[] }
      const topLevelAwait = program.body.some((statement) => statement.expression?.type === 'AwaitExpression' ||
        (statement.declarations ?? []).some((declaration) => declaration.init?.type === 'AwaitExpression'))
      expect(topLevelAwait).toBe(false)
    }
  })
})
