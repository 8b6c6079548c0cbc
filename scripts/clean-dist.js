// Before tsc writes dist/: removes its previous output (not dist/browser, which
// `npm run build:bundle` keeps fresh on its own), so that a module deleted or
// renamed in src/ leaves no stale .js or .d.ts behind to be packed.
import { existsSync, readdirSync, rmSync } from 'node:fs'

const dist = new URL('../dist/', import.meta.url)
for (const entry of (existsSync(dist) ? readdirSync(dist, { withFileTypes: true }) : []).filter((entry) => entry.name !== 'browser')) {
  rmSync(new URL(entry.name + (entry.isDirectory() ? '/' : ''), dist), { recursive: true, force: true })
}
