/**
 * A small static server on 127.0.0.1 (random or given port) for the demo and
 * the Chromium tests. It maps
 *   /bundle/NAME.js   → the browser bundles and their lazy chunks (scripts/bundle-directory.ts)
 *   /test/…, /demo/…  → files of the package; a .js that does not exist but whose .ts
 *                       does is transpiled on the fly, and imports of src/entry-reader.js
 *                       and src/entry-writer.js become the bundles, so page scripts are
 *                       type-checked TypeScript that runs against the real bundles
 *   /build/NAME.oixk  → data files of build/ (the demo's flights)
 *   /                 → the demo page
 * Every path can be prefixed with /strict: then HTML pages carry
 * `Content-Security-Policy: script-src 'self'`, which forbids compiling WebAssembly.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { extname, join, normalize } from 'node:path'
import ts from 'typescript'
import { ROOT } from '../scripts/bundle-directory.js'

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
  bundleDir: string, port = 0, extra?: (path: string, respond: (type: string, body: Buffer | string) => void) => boolean,
): Promise<StaticServer> {
  const server: Server = createServer((request, response) => {
    let path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname)
    if (path === '/' || path === '/strict/') path += 'demo/index.html'
    const strict = path.startsWith('/strict/')
    if (strict) path = path.slice('/strict'.length)
    const respond = (type: string, body: Buffer | string) => {
      // Content-Length lets the demo show download progress.
      const headers: Record<string, string> = {
        'Content-Type': type, 'Cache-Control': 'no-store', 'Content-Length': String(Buffer.byteLength(body)),
      }
      if (strict && type.startsWith('text/html')) headers['Content-Security-Policy'] = STRICT_CSP
      response.writeHead(200, headers)
      response.end(body)
    }
    try {
      if (extra?.(path, respond)) return
      // oixk-reader-{ts,shared,verify}.js: the reader's lazy chunks (the pure-TypeScript backend, the v2 block
      // modules it shares with the format 2 full check, that check), which it imports on demand.
      const bundle = /^\/bundle\/(oixk(?:-reader(?:-ts|-shared|-verify)?|-writer)?)\.js$/.exec(path)
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
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

