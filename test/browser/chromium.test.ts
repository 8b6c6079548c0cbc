/**
 * The browser bundles in real Chromium (headless, /usr/bin/chromium, driven by
 * playwright-core): the backend duel and the golden files with WebAssembly (SIMD)
 * and pure TypeScript, and the fallback when a Content-Security-Policy blocks
 * WebAssembly or the engine has none. Skipped, with the reason printed, only
 * when Chromium is not installed (.ci/run installs it).
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleDirectory, ROOT } from './bundles.js'
import { chromiumMissing, launchChromium, runPage, startServer, type StaticServer } from './harness.js'

if (chromiumMissing !== null) console.warn(chromiumMissing)

const GOLDEN = readdirSync(join(ROOT, 'test/golden')).filter((file) => file.endsWith('.oixk')).map((file) => file.slice(0, -5)).sort()

interface GoldenResult {
  wasmReady: boolean; reason: string | null; hasWebAssembly: boolean
  files: { name: string; backend: string; used: string; verify: string; matches: boolean }[]
}

describe.skipIf(chromiumMissing !== null)('in Chromium', () => {
  let server: StaticServer
  let browser: Awaited<ReturnType<typeof launchChromium>>
  beforeAll(async () => {
    server = await startServer(await bundleDirectory(['oixk-reader', 'oixk-writer']))
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('the backend duel: random files written in the page read identically with WebAssembly (SIMD) and TypeScript', async () => {
    const result = await runPage<{
      wasmReady: boolean; reason: string | null; simd: boolean; comparisons: number; mismatches: string[]
      opened: { maxDoc: number; bytes: number; backends: string[] }[]
    }>(browser.context, `${server.origin}/test/browser/pages/duel.html?files=5&seed=7`)
    expect(result.reason).toBeNull()
    expect(result.wasmReady).toBe(true)
    expect(result.simd).toBe(true)
    expect(result.opened.map((file) => file.backends)).toEqual(Array(5).fill(['ts', 'wasm']))
    expect(result.opened.map((file) => file.maxDoc)).toEqual([1, 2, 700, 2500, 5000])
    expect(result.mismatches).toEqual([])
    expect(result.comparisons).toBeGreaterThan(1000)
    console.log(`Chromium duel: ${result.comparisons} comparisons over files of ${result.opened.map((file) => `${file.bytes} bytes`).join(', ')}`)
  })

  it('with WebAssembly running, the page never fetches the pure-TypeScript chunk', async () => {
    const requested: string[] = []
    const result = await runPage<GoldenResult>(
      browser.context, `${server.origin}/test/browser/pages/golden.html?names=${GOLDEN.join(',')}&backends=auto,wasm`, 45_000, requested,
    )
    expect(result.files.map((file) => `${file.name} ${file.backend}→${file.used} ${file.verify} ${file.matches}`))
      .toEqual(GOLDEN.flatMap((name) => [`${name} auto→wasm undefined true`, `${name} wasm→wasm undefined true`]))
    expect(requested.filter((path) => path.startsWith('/bundle/'))).toEqual(['/bundle/oixk-reader.js'])
  })

  it('the golden files read as their JSON with both backends (backend ts loads the chunk)', async () => {
    const requested: string[] = []
    const result = await runPage<GoldenResult>(browser.context, `${server.origin}/test/browser/pages/golden.html?names=${GOLDEN.join(',')}`, 45_000, requested)
    // The pure-TypeScript chunk, with the v2 block modules it shares with the format 2 full check.
    expect(requested.filter((path) => path.startsWith('/bundle/'))).toEqual(['/bundle/oixk-reader.js', '/bundle/oixk-reader-ts.js', '/bundle/oixk-reader-shared.js'])
    expect(result.wasmReady).toBe(true)
    expect(result.files.map((file) => `${file.name} ${file.backend}→${file.used} ${file.verify} ${file.matches}`))
      .toEqual(GOLDEN.flatMap((name) => [`${name} wasm→wasm undefined true`, `${name} ts→ts undefined true`]))
  })

  it('format 2 golden files read as their v1 twins\' JSON with both backends; verify loads the full check\'s chunk', async () => {
    const requested: string[] = []
    const names = GOLDEN.map((name) => `v2/${name}`)
    const result = await runPage<GoldenResult>(browser.context, `${server.origin}/test/browser/pages/golden.html?names=${names.join(',')}`, 45_000, requested)
    expect(requested.filter((path) => path.startsWith('/bundle/')).sort()).toEqual(
      ['/bundle/oixk-reader-shared.js', '/bundle/oixk-reader-ts.js', '/bundle/oixk-reader-verify.js', '/bundle/oixk-reader.js'])
    expect(result.files.map((file) => `${file.name} ${file.backend}→${file.used} ${file.verify} ${file.matches}`))
      .toEqual(names.flatMap((name) => [`${name} wasm→wasm undefined true`, `${name} ts→ts undefined true`]))
  })

  it('a Content-Security-Policy without wasm-unsafe-eval: backend auto falls back to TypeScript, same results', async () => {
    const requested: string[] = []
    const result = await runPage<GoldenResult>(
      browser.context, `${server.origin}/strict/test/browser/pages/golden.html?names=${GOLDEN.join(',')}&backends=auto,ts`, 45_000, requested,
    )
    // The fallback is the chunk the bundle imports once the CSP has refused its kernels (and the modules it shares).
    expect(requested.filter((path) => path.startsWith('/bundle/'))).toEqual(['/bundle/oixk-reader.js', '/bundle/oixk-reader-ts.js', '/bundle/oixk-reader-shared.js'])
    expect(result.hasWebAssembly).toBe(true)
    expect(result.wasmReady).toBe(false)
    console.log(`Chromium with CSP: ${result.reason}`)
    expect(result.reason).toMatch(/^the kernels did not compile here \(.*Content Security Policy.*\); a Content-Security-Policy blocks WebAssembly \(allow it with 'wasm-unsafe-eval' in script-src\)$/)
    expect(result.files.map((file) => `${file.name} ${file.backend}→${file.used} ${file.verify} ${file.matches}`))
      .toEqual(GOLDEN.flatMap((name) => [`${name} auto→ts undefined true`, `${name} ts→ts undefined true`]))
  })

  it('no WebAssembly at all: backend auto is TypeScript, backend wasm says why', async () => {
    const context = browser.context
    await context.addInitScript(() => { if (location.search.includes('nowasm')) delete (globalThis as { WebAssembly?: unknown }).WebAssembly })
    const result = await runPage<GoldenResult>(context, `${server.origin}/test/browser/pages/golden.html?names=${GOLDEN.join(',')}&backends=auto,wasm&nowasm`)
    expect(result.hasWebAssembly).toBe(false)
    expect(result.wasmReady).toBe(false)
    expect(result.reason).toBe('this JavaScript engine has no WebAssembly')
    expect(result.files.map((file) => `${file.name} ${file.backend}→${file.used} ${file.verify} ${file.matches}`)).toEqual(GOLDEN.flatMap((name) => [
      `${name} auto→ts undefined true`,
      `${name} wasm→throws BackendUnavailableError: ${'backend "wasm" is not available: this JavaScript engine has no WebAssembly'}  false`,
    ]))
  })
})
