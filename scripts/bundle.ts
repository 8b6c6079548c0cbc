/**
 * `npm run build:bundle`: the browser bundles into dist/browser (see
 * rollup.config.js), skipped when they are newer than everything they are
 * built from (so `prepare` then `pretest` build them once); --force rebuilds.
 */
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { readFileSync } from 'node:fs'
import { BUNDLE_NAMES, buildBundles, bundleFiles, bundlesFresh, ROOT } from './bundle-directory.js'

const directory = join(ROOT, 'dist/browser')
if (!process.argv.includes('--force') && bundlesFresh()) {
  console.log('build:bundle: dist/browser is up to date')
} else {
  await buildBundles(directory)
  for (const file of BUNDLE_NAMES.flatMap(bundleFiles)) {
    const code = readFileSync(join(directory, file))
    console.log(`build:bundle: dist/browser/${file} ${code.length} bytes, ${gzipSync(code, { level: 9 }).length} bytes gzip`)
  }
}
