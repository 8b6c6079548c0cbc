// Browser bundles (npm run build:bundle): self-contained ES modules with the
// WebAssembly kernels inlined (a size build of assembly/, gzipped: see
// browserWasm and browserKernelBytes), no node: imports, no top-level await, minified.
//   dist/browser/oixk-reader.js  open, read and query (size budget: 25 KB gzip)
//   dist/browser/oixk-writer.js  write and merge
//   dist/browser/oixk.js         everything (the "browser" condition of ".")
// Tests build the same bundles into a temporary directory through bundleOptions().
import { execFileSync } from 'node:child_process'
import { copyFileSync, cpSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import typescript from '@rollup/plugin-typescript'
import terser from '@rollup/plugin-terser'

const root = fileURLToPath(new URL('.', import.meta.url))

/**
 * The kernels for browsers: assembly/ compiled with scripts/bundle-widths.as in
 * place of assembly/widths.ts (generic unpacking except the SIMD paths of widths
 * 1, 2, 4 and 8; see that file). Compiled once per process into build/.
 */
let browserKernels = null
export function browserWasm() {
  if (browserKernels !== null) return browserKernels
  const sources = `${root}build/browser-assembly`
  rmSync(sources, { recursive: true, force: true })
  cpSync(`${root}assembly`, sources, { recursive: true })
  copyFileSync(`${root}scripts/bundle-widths.as`, `${sources}/widths.ts`)
  execFileSync(process.execPath, [
    `${root}node_modules/assemblyscript/bin/asc.js`, `${sources}/index.ts`, '--config', 'asconfig.json', '--target', 'release',
    '-O3', '--runtime', 'stub', '--enable', 'simd', '--outFile', 'build/oixk-browser.wasm',
  ], { cwd: root, stdio: 'inherit' })
  return (browserKernels = readFileSync(`${root}build/oixk-browser.wasm`))
}

/**
 * The browser's kernel-bytes module: the size-built kernels gzipped, in base64
 * (6.7 KB gzip in the bundle, against 7.0 KB for one character per byte and 9.5 KB
 * for plain base64), inflated by DecompressionStream. Asynchronous only, which a
 * page's main thread needs anyway; synchronous callers get the reason instead.
 */
function browserKernelBytes() {
  return {
    name: 'oixk-browser-kernel-bytes',
    load(id) {
      if (!id.replaceAll('\\', '/').endsWith('src/backend/wasm/kernel-bytes.ts')) return null
      const gzipped = gzipSync(browserWasm(), { level: 9 }).toString('base64')
      return `
const GZIPPED = '${gzipped}'
export function kernelBytesSync() {
  return 'the browser bundle compiles the WebAssembly kernels asynchronously: await initWasm() (or use openColumnsAsync) first'
}
export async function kernelBytes() {
  const binary = atob(GZIPPED)
  const bytes = new Uint8Array(binary.length)
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
  const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))
  return new Uint8Array(await new Response(inflated).arrayBuffer())
}
`
    },
  }
}

/** Bundle name → entry module. */
export const BUNDLES = {
  'oixk-reader': 'src/entry-reader.ts',
  'oixk-writer': 'src/entry-writer.ts',
  oixk: 'src/browser.ts',
}

/** Rollup options for one bundle written to `outDir` (one file each: no shared chunks). */
export function bundleOptions(name, outDir = `${root}dist/browser`) {
  return {
    input: `${root}${BUNDLES[name]}`,
    treeshake: { moduleSideEffects: false },
    plugins: [
      browserKernelBytes(),
      typescript({
        tsconfig: false,
        include: [`${root}src/**/*.ts`],
        compilerOptions: {
          target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2023', 'ESNext.Disposable', 'DOM'],
          strict: true, isolatedModules: true, verbatimModuleSyntax: true, skipLibCheck: true, types: [],
          declaration: false, sourceMap: false, noEmitOnError: false, noCheck: true,
        },
      }),
      terser({ ecma: 2020, module: true, compress: { passes: 2 }, format: { comments: false } }),
    ],
    output: { file: `${outDir}/${name}.js`, format: 'es', inlineDynamicImports: true },
    onwarn(warning, warn) {
      // A node: import would break the bundle in browsers: fail the build.
      if (warning.code === 'UNRESOLVED_IMPORT' || warning.code === 'MISSING_EXPORT') throw new Error(warning.message)
      warn(warning)
    },
  }
}

export default Object.keys(BUNDLES).map((name) => bundleOptions(name))
