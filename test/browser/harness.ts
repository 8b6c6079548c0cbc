/**
 * What the Chromium tests share: a static server on 127.0.0.1 (random port)
 * and a headless Chromium driven by playwright-core.
 *
 * The server maps
 *   /bundle/NAME.js   → the browser bundles (test/browser/bundles.ts)
 *   /test/…, /demo/…  → files of the package; a .js that does not exist but whose .ts
 *                       does is transpiled on the fly, and imports of src/entry-reader.js
 *                       and src/entry-writer.js become the bundles, so page scripts are
 *                       type-checked TypeScript that runs against the real bundles
 *   /build/NAME.oixk  → data files of build/ (the demo's flights)
 * Every path can be prefixed with /strict: then HTML pages carry
 * `Content-Security-Policy: script-src 'self'`, which forbids compiling WebAssembly.
 */
import { createServer, type Server } from 'node:http'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { extname, join, normalize } from 'node:path'
import ts from 'typescript'
import { ROOT } from './bundles.js'

export const CHROMIUM = '/usr/bin/chromium'
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run', '--disable-quic',
]
/** Why the Chromium tests are skipped, or null when they run. */
export const chromiumMissing: string | null = existsSync(CHROMIUM)
  ? null : `${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it): Chromium tests skipped`

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.json': 'application/json',
  '.css': 'text/css', '.oixk': 'application/octet-stream', '.svg': 'image/svg+xml',
}
const ALLOWED = ['test/', 'demo/', 'build/']
export const STRICT_CSP = "script-src 'self'"

/** The page-script form of a TypeScript file (bundle imports rewritten to the bundles). */
function transpile(file: string): string {
  const output = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
    fileName: file,
  }).outputText
  return output.replace(/(["'])(?:\.\.\/)+src\/entry-(reader|writer)\.js\1/g, "'/bundle/oixk-$2.js'")
}

/** A running static server. */
export interface StaticServer {
  readonly origin: string
  close(): Promise<void>
}

/** Serves the package on 127.0.0.1 at a random port; `extra` answers paths first (return false to pass). */
export async function startServer(
  bundleDir: string, extra?: (path: string, respond: (type: string, body: Buffer | string) => void) => boolean,
): Promise<StaticServer> {
  const server: Server = createServer((request, response) => {
    let path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname)
    const strict = path.startsWith('/strict/')
    if (strict) path = path.slice('/strict'.length)
    const respond = (type: string, body: Buffer | string) => {
      const headers: Record<string, string> = { 'Content-Type': type, 'Cache-Control': 'no-store' }
      if (strict && type.startsWith('text/html')) headers['Content-Security-Policy'] = STRICT_CSP
      response.writeHead(200, headers)
      response.end(body)
    }
    try {
      if (extra?.(path, respond)) return
      const bundle = /^\/bundle\/(oixk(?:-reader|-writer)?)\.js$/.exec(path)
      if (bundle !== null) return respond(TYPES['.js'], readFileSync(join(bundleDir, `${bundle[1]}.js`)))
      const relative = normalize(path).replace(/^\/+/, '')
      if (!ALLOWED.some((prefix) => relative.startsWith(prefix)) || relative.includes('..')) throw new Error('not served')
      const file = join(ROOT, relative)
      if (extname(file) === '.js' && !existsSync(file) && existsSync(file.replace(/\.js$/, '.ts'))) {
        return respond(TYPES['.js'], transpile(file.replace(/\.js$/, '.ts')))
      }
      if (!statSync(file).isFile()) throw new Error('not a file')
      respond(TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(file))
    } catch {
      response.writeHead(404, { 'Content-Type': 'text/plain' })
      response.end(`not found: ${path}`)
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A headless Chromium with a fresh profile; close() also removes the profile. */
export async function launchChromium() {
  const { chromium } = await import('playwright-core')
  const profile = mkdtempSync(join(tmpdir(), 'oixk-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS,
  })
  return {
    context,
    async close() {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}

/** Opens `url`, waits for the page script to publish window.testResult, returns it (page errors fail). */
export async function runPage<Result>(context: Awaited<ReturnType<typeof launchChromium>>['context'], url: string, timeout = 45_000): Promise<Result> {
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()) })
  try {
    await page.goto(url)
    try {
      await page.waitForFunction(() => (window as unknown as { testResult?: unknown }).testResult !== undefined, null, { timeout })
    } catch (error) {
      throw new Error(`${url}: no result (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); page errors: ${errors.join('; ')}`)
    }
    const result = await page.evaluate(() => (window as unknown as { testResult: Result }).testResult) as Result & { error?: string }
    if (result.error !== undefined) throw new Error(`${url}: ${result.error}`)
    return result
  } finally {
    await page.close()
  }
}
