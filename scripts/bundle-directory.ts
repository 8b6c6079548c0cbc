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

function newestModification(path: string): number {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestModification(join(path, entry))), stat.mtimeMs)
}

const INPUTS = ['src', 'assembly', 'rollup.config.js', 'scripts/bundle-widths.as', 'asconfig.json']

/** A directory holding up-to-date builds of `names` (each `${name}.js`). */
export async function bundleDirectory(names: readonly BundleName[] = BUNDLE_NAMES): Promise<string> {
  const built = join(ROOT, 'dist/browser')
  const inputs = Math.max(...INPUTS.map((input) => newestModification(join(ROOT, input))))
  const fresh = names.every((name) => {
    const file = join(built, `${name}.js`)
    return existsSync(file) && statSync(file).mtimeMs > inputs
  })
  if (fresh) return built
  const directory = mkdtempSync(join(tmpdir(), 'oixk-bundle-'))
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
  return directory
}
