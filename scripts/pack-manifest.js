// `prepack` / `postpack`: the packed package.json without `prepare`.
//
// A clone needs `prepare` (npm ci builds dist/ and the kernels with it), but the
// tarball already holds a built dist/, and npm 11 lists a `prepare` of a package
// installed from a tarball (or a file or git spec) among the "install scripts not
// yet covered by allowScripts" it warns about. npm packs package.json from disk
// after `prepack` and runs `postpack` once the tarball is written, so `strip`
// takes `prepare` out of the file for that moment and `restore` puts the file back
// byte for byte. Without `prepare` in the file, npm pack does not run it (prepack
// has just built).
//
//   node scripts/pack-manifest.js strip | restore
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const manifest = fileURLToPath(new URL('../package.json', import.meta.url))
const saved = fileURLToPath(new URL('../build/package.json.prepack', import.meta.url))
/** Lifecycle scripts npm may list or run when a package is installed. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare']

const command = process.argv[2]
if (command === 'strip') {
  // A saved copy means an earlier pack stopped between strip and restore: its package.json is the true one.
  if (existsSync(saved)) {
    console.error(`pack-manifest: ${saved} is left from an interrupted npm pack; check package.json, then run node scripts/pack-manifest.js restore`)
    process.exit(1)
  }
  const text = readFileSync(manifest, 'utf8')
  const json = JSON.parse(text)
  const removed = INSTALL_SCRIPTS.filter((name) => json.scripts?.[name] !== undefined)
  mkdirSync(fileURLToPath(new URL('../build', import.meta.url)), { recursive: true })
  writeFileSync(saved, text)
  for (const name of removed) delete json.scripts[name]
  writeFileSync(manifest, `${JSON.stringify(json, null, 2)}\n`)
  console.log(`pack-manifest: packing without ${removed.join(', ') || 'any install script'}`)
} else if (command === 'restore') {
  if (existsSync(saved)) renameSync(saved, manifest)
} else {
  console.error('usage: node scripts/pack-manifest.js strip | restore')
  process.exit(2)
}
