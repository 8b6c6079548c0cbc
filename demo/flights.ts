/**
 * The demo's data: build/flights-3m.oixk, imported from vega-datasets'
 * flights-3m.parquet first (the importer of npm start) when it is missing.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../src/node/files.js'
import { importFlights } from '../scripts/import-flights.js'
import { ROOT } from '../scripts/bundle-directory.js'

/** build/flights-3m.oixk, imported from vega-datasets' parquet first if missing. */
export async function ensureFlights(): Promise<string> {
  const path = join(ROOT, 'build/flights-3m.oixk')
  if (existsSync(path)) return path
  console.log('build/flights-3m.oixk is missing: importing flights-3m.parquet (takes a little while)…')
  const imported = await importFlights()
  mkdirSync(join(ROOT, 'build'), { recursive: true })
  await writeFileAtomic(path, imported.bytes)
  console.log(`wrote build/flights-3m.oixk (${imported.bytes.length.toLocaleString('en-US')} bytes)`)
  return path
}
