/**
 * The browser bundles that tests and the demo server use: dist/browser when it
 * is newer than everything it is built from (npm test builds it first, in
 * pretest), else a fresh build into a temporary directory, so nothing ever
 * measures or loads a stale bundle.
 */
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const BUNDLE_NAMES = ['oixk-reader', 'oixk-writer', 'oixk'] as const
export type BundleName = (typeof BUNDLE_NAMES)[number]
/** Files a bundle imports on demand, written next to it (LAZY_CHUNKS of rollup.config.js; the bundle-size test checks they agree). */
export const LAZY_CHUNK_FILES: Readonly<Record<BundleName, readonly string[]>> = {
  'oixk-reader': ['oixk-reader-ts.js', 'oixk-reader-verify.js', 'oixk-reader-shared.js'],
  'oixk-writer': [],
  oixk: [],
}

/** Every file a bundle consists of: `${name}.js` and its lazy chunks. */
export function bundleFiles(name: BundleName): string[] {
  return [`${name}.js`, ...LAZY_CHUNK_FILES[name]]
}

/** What the bundles are built from (the freshness check); every scripts/*.as: rollup.config.js copies them over kernels of assembly/ for browsers. */
export const BUNDLE_INPUTS = ['src', 'assembly', 'rollup.config.js', 'asconfig.json', ...readdirSync(join(ROOT, 'scripts')).filter((name) => name.endsWith('.as')).map((name) => `scripts/${name}`)]
// Rewritten by every npm run build:wasm, and not part of the browser bundles (their kernels come from rollup.config.js).
const NOT_INPUTS = new Set([join(ROOT, 'src/backend/wasm/module-bytes.ts')])

function newestInput(path: string): number {
  if (NOT_INPUTS.has(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestInput(join(path, entry))), stat.mtimeMs)
}

/** Whether dist/browser holds builds of `names` newer than everything they are built from. */
export function bundlesFresh(names: readonly BundleName[] = BUNDLE_NAMES): boolean {
  const inputs = Math.max(...BUNDLE_INPUTS.map((input) => newestInput(join(ROOT, input))))
  return names.flatMap(bundleFiles).every((fileName) => {
    const file = join(ROOT, 'dist/browser', fileName)
    return existsSync(file) && statSync(file).mtimeMs > inputs
  })
}

/** Builds `names` into `directory` with rollup.config.js. */
export async function buildBundles(directory: string, names: readonly BundleName[] = BUNDLE_NAMES): Promise<void> {
  const { rollup } = await import('rollup')
  const config = (await import(pathToFileURL(join(ROOT, 'rollup.config.js')).href)) as {
    bundleOptions(name: string, outDir: string): import('rollup').RollupOptions & { output: import('rollup').OutputOptions }
  }
  for (const name of names) {
    const options = config.bundleOptions(name, directory)
    const bundle = await rollup(options)
    await bundle.write(options.output)
    await bundle.close()
  }
}

/** A directory holding up-to-date builds of `names` (each `${name}.js` and its lazy chunks). */
export async function bundleDirectory(names: readonly BundleName[] = BUNDLE_NAMES): Promise<string> {
  if (bundlesFresh(names)) return join(ROOT, 'dist/browser')
  const directory = mkdtempSync(join(tmpdir(), 'oixk-bundle-'))
  await buildBundles(directory, names)
  return directory
}
