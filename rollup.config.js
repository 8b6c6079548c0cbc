// Browser bundles (npm run build:bundle): self-contained ES modules with the
// WebAssembly kernels inlined (a size build of assembly/, gzipped: see
// browserWasm and browserKernelBytes), no node: imports, no top-level await, minified.
//   dist/browser/oixk-reader.js  open, read and query (size ceilings: test/bundle-size.test.ts)
//   dist/browser/oixk-reader-ts.js  its pure-TypeScript backend, imported on demand
//   dist/browser/oixk-writer.js  write and merge
//   dist/browser/oixk.js         everything (the "browser" condition of ".")
// Tests build the same bundles into a temporary directory through bundleOptions().
import { execFileSync } from 'node:child_process'
import { copyFileSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import typescript from '@rollup/plugin-typescript'
import terser from '@rollup/plugin-terser'

const root = fileURLToPath(new URL('.', import.meta.url))

/**
 * The kernels for browsers: assembly/ compiled with scripts/bundle-widths.as in
 * place of assembly/widths.ts (generic unpacking except the SIMD path of width 1,
 * one generic table loop; see that file). Compiled once per process into build/.
 * --shrinkLevel 1 (less inlining) trades a little kernel time on the demo's queries
 * for bytes, which paid for the byte-compare and sparse-histogram paths of the
 * cross-filtered demo (docs/browser.md, "Size budget").
 */
let browserKernels = null
export function browserWasm() {
  if (browserKernels !== null) return browserKernels
  const sources = `${root}build/browser-assembly`
  rmSync(sources, { recursive: true, force: true })
  cpSync(`${root}assembly`, sources, { recursive: true })
  copyFileSync(`${root}scripts/bundle-widths.as`, `${sources}/widths.ts`)
  // The v2 kernels' per-width loops likewise: one generic gather, no fused line loops (see that file).
  copyFileSync(`${root}scripts/bundle-cascade-widths.as`, `${sources}/cascade/widths.ts`)
  // No two-pass decoder of short terms: dictionaries decode a term at a time (see that file).
  copyFileSync(`${root}scripts/bundle-terms-short.as`, `${sources}/strings/terms-short.ts`)
  // Histograms: no counting over a range of values shared by blocks (the per-block paths count alike).
  copyFileSync(`${root}scripts/bundle-histogram-range.as`, `${sources}/query-histogram-range.ts`)
  // Hashing in pieces serves Node's worker pool only: not exported, fewer bytes.
  const index = `${sources}/index.ts`, exported = readFileSync(index, 'utf8')
  const wholeHashOnly = exported.replace('export { xxh64, xxh64Finish, xxh64Start, xxh64Update } from', 'export { xxh64 } from')
  if (wholeHashOnly === exported) throw new Error('rollup.config.js: assembly/index.ts no longer exports the XXH64 pieces as expected')
  writeFileSync(index, wholeHashOnly)
  execFileSync(process.execPath, [
    `${root}node_modules/assemblyscript/bin/asc.js`, `${sources}/index.ts`, '--config', 'asconfig.json', '--target', 'release',
    '-O3', '--shrinkLevel', '1', '--converge', '--runtime', 'stub', '--enable', 'simd', '--outFile', 'build/oixk-browser.wasm',
  ], { cwd: root, stdio: 'inherit' })
  return (browserKernels = readFileSync(`${root}build/oixk-browser.wasm`))
}

/**
 * The browser's kernel-bytes module: the size-built kernels gzipped, in base64
 * (smaller in the gzipped bundle than one character per byte or plain base64 of the
 * raw kernels), inflated by DecompressionStream. Asynchronous only, which a
 * page's main thread needs anyway; synchronous callers get the reason instead.
 * The base64 text is a placeholder until kernelsLast() puts it at the end.
 */
const KERNELS_PLACEHOLDER = '@@oixk-kernels@@'
function browserKernelBytes() {
  return {
    name: 'oixk-browser-kernel-bytes',
    load(id) {
      if (!id.replaceAll('\\', '/').endsWith('src/backend/wasm/kernel-bytes.ts')) return null
      return `
export function kernelBytesSync() {
  return 'the browser bundle compiles the WebAssembly kernels asynchronously: await initWasm() (or use openColumnsAsync) first'
}
export async function kernelBytes() {
  const gzipped = Uint8Array.from(atob('${KERNELS_PLACEHOLDER}'), (character) => character.charCodeAt(0))
  const inflated = new Blob([gzipped]).stream().pipeThrough(new DecompressionStream('gzip'))
  return new Uint8Array(await new Response(inflated).arrayBuffer())
}
`
    },
  }
}

/**
 * Reads into arrays outside linear memory without the Node build's constant-span fills
 * (src/backend/wasm/constant-spans.ts): the stub's functions only decode, since the
 * reader's size budget has no room for the fills.
 */
function browserConstantSpans() {
  return {
    name: 'oixk-browser-constant-spans',
    load(id) {
      if (!id.replaceAll('\\', '/').endsWith('src/backend/wasm/constant-spans.ts')) return null
      return 'export const rawSpans = (s, f, c, d, i, run) => run(f, c), float64Spans = (s, f, c, m, d, i, run) => run(f, c), int32Spans = float64Spans\n'
    },
  }
}

/**
 * Plain WebAssembly instantiation in place of src/backend/wasm/instantiate.ts, which goes
 * through @assemblyscript/loader: the loader would add its own size to the reader
 * bundle, and the kernels import nothing for it to provide.
 */
function browserInstantiate() {
  return {
    name: 'oixk-browser-instantiate',
    load(id) {
      if (!id.replaceAll('\\', '/').endsWith('src/backend/wasm/instantiate.ts')) return null
      return 'export const instantiateKernelsSync = (b, i = {}) => new WebAssembly.Instance(new WebAssembly.Module(b), i)\n'
        + 'export const instantiateKernels = async (b, i = {}) => (await WebAssembly.instantiate(b, i)).instance\n'
    },
  }
}

/**
 * The browser kernels gzipped by Zopfli, in base64: the same gzip format, 7,331 bytes
 * against zlib's 7,645 at level 9, about 315 bytes less in the reader bundle's gzip.
 * Compressed once per process.
 */
let kernelsText = null
function browserKernelsBase64() {
  kernelsText ??= import('@gfx/zopfli').then(({ gzipAsync }) => gzipAsync(browserWasm(), { numiterations: 15 })).then((gzipped) => Buffer.from(gzipped).toString('base64'))
  return kernelsText
}

/**
 * After minification: the kernels' base64 text as a constant at the very end of
 * the file (read only when kernelBytes() runs, after the module has evaluated).
 * In one run at the end it costs about 290 bytes less gzip than in the middle of
 * the code, where deflate blocks mix it with JavaScript.
 */
function kernelsLast() {
  return {
    name: 'oixk-kernels-last',
    async renderChunk(code) {
      const quoted = new RegExp(`(["'\`])${KERNELS_PLACEHOLDER}\\1`)
      if (!quoted.test(code)) return null
      const gzipped = await browserKernelsBase64()
      return { code: `${code.replace(quoted, 'OIXK_KERNELS')}\nconst OIXK_KERNELS="${gzipped}";\n`, map: null }
    },
  }
}

/**
 * The reader bundle's pure-TypeScript backend on demand: src/backend/ts-backend.ts
 * (a static import) becomes ts-backend-lazy.ts, whose dynamic import rollup
 * writes as the chunk oixk-reader-ts.js next to the bundle.
 */
function lazyTypeScriptBackend() {
  return {
    name: 'oixk-lazy-ts-backend',
    async resolveId(source, importer, options) {
      if (!source.endsWith('/ts-backend.js')) return null
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true })
      if (resolved === null || !resolved.id.replaceAll('\\', '/').endsWith('src/backend/ts-backend.ts')) return resolved
      return `${root}src/backend/ts-backend-lazy.ts`
    },
  }
}

/**
 * The reader bundle's format 2 full check on demand: canonical-loader.ts (a static import)
 * becomes canonical-loader-lazy.ts, whose dynamic import rollup writes as the chunk
 * oixk-reader-verify.js (the writer's encoders) next to the bundle.
 */
function lazyFullCheck() {
  return {
    name: 'oixk-lazy-full-check',
    async resolveId(source, importer, options) {
      if (!source.endsWith('/canonical-loader.js')) return null
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true })
      if (resolved === null || !resolved.id.replaceAll('\\', '/').endsWith('src/cascade/reader/canonical-loader.ts')) return resolved
      return `${root}src/cascade/reader/canonical-loader-lazy.ts`
    },
  }
}

/** Bundle name → entry module. */
export const BUNDLES = {
  'oixk-reader': 'src/entry-reader.ts',
  'oixk-writer': 'src/entry-writer.ts',
  oixk: 'src/browser.ts',
}

/** Chunks a bundle loads on demand, written next to it: bundle name → file names. */
export const LAZY_CHUNKS = {
  'oixk-reader': ['oixk-reader-ts.js', 'oixk-reader-verify.js', 'oixk-reader-shared.js'],
  'oixk-writer': [],
  oixk: [],
}

/**
 * Rollup options for one bundle written to `outDir`: one file each, except the
 * reader, whose pure-TypeScript backend is its own chunk (LAZY_CHUNKS).
 */
export function bundleOptions(name, outDir = `${root}dist/browser`) {
  const lazy = LAZY_CHUNKS[name].length > 0
  return {
    input: { [name]: `${root}${BUNDLES[name]}` },
    treeshake: { moduleSideEffects: false },
    // The entry may also export the internals its lazy chunk imports from it (else rollup adds a facade file).
    preserveEntrySignatures: 'allow-extension',
    plugins: [
      ...(lazy ? [lazyTypeScriptBackend(), lazyFullCheck()] : []),
      browserKernelBytes(),
      browserConstantSpans(),
      browserInstantiate(),
      typescript({
        tsconfig: false,
        include: [`${root}src/**/*.ts`],
        compilerOptions: {
          target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2023', 'ESNext.Disposable', 'DOM'],
          strict: true, isolatedModules: true, verbatimModuleSyntax: true, skipLibCheck: true, types: [],
          declaration: false, sourceMap: false, noEmitOnError: false, noCheck: true, useDefineForClassFields: false,
        },
      }),
      // pure_getters: oixk's getters (reader.bytes, DocSet.words, ...) are read for their values, never for side
      // effects. No unsafe* options: unsafe_comps negates comparisons (wrong for NaN), unsafe turns String(x) into
      // ""+x (throws for symbols); together they saved under 40 bytes.
      terser({
        ecma: 2020, module: true, toplevel: true,
        compress: { passes: 3, pure_getters: true },
        format: { comments: false },
      }),
      kernelsLast(),
    ],
    output: lazy
      ? {
        dir: outDir, format: 'es', entryFileNames: '[name].js',
        // The pure-TypeScript backend, the format 2 full check, and the v2 block modules both use.
        chunkFileNames: (chunk) => {
          const facade = (chunk.facadeModuleId ?? '').replaceAll('\\', '/')
          return facade.endsWith('src/backend/ts/index.ts') ? LAZY_CHUNKS[name][0]
            : facade.endsWith('src/cascade/reader/canonical.ts') ? LAZY_CHUNKS[name][1] : LAZY_CHUNKS[name][2]
        },
      }
      : { dir: outDir, format: 'es', entryFileNames: '[name].js', inlineDynamicImports: true },
    onwarn(warning, warn) {
      // A node: import would break the bundle in browsers: fail the build.
      if (warning.code === 'UNRESOLVED_IMPORT' || warning.code === 'MISSING_EXPORT') throw new Error(warning.message)
      warn(warning)
    },
  }
}

export default Object.keys(BUNDLES).map((name) => bundleOptions(name))
