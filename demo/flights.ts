/**
 * The demo's data: build/flights-3m.oixk (format 1), imported from
 * vega-datasets' flights-3m.parquet first (the importer of npm start) when it
 * is missing; build/flights-3m.v2.oixk, the same documents in format 2, which
 * the page downloads; and build/flights-3m.sizes.json, the sizes the page
 * shows beside it (format 1, format 2, the Parquet file, Parquet ZSTD).
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../src/node/files.js'
import { openColumns } from '../src/read/open.js'
import { mergeColumns } from '../src/write/merge.js'
import { importFlights, vegaDataPath } from '../scripts/import-flights.js'
import { ROOT } from '../scripts/bundle-directory.js'

/** The sizes the page compares (bytes); parquetZstd is null without bench/results/size.json. */
export interface DemoSizes {
  v1: number
  v2: number
  parquet: number
  parquetZstd: number | null
}

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

/** The format 2 file the page downloads (converted from the format 1 file when missing or older) and the sizes file; returns its path. */
export async function ensureDemoFiles(): Promise<{ v2Path: string; sizes: DemoSizes }> {
  const v1Path = await ensureFlights()
  const v2Path = join(ROOT, 'build/flights-3m.v2.oixk')
  if (!existsSync(v2Path) || statSync(v2Path).mtimeMs < statSync(v1Path).mtimeMs) {
    using source = openColumns(new Uint8Array(readFileSync(v1Path)))
    const docMap = Int32Array.from({ length: source.maxDoc }, (_, document) => document)
    await writeFileAtomic(v2Path, mergeColumns([{ reader: source, docMap }], { maxDoc: source.maxDoc, format: 2 })!)
    console.log(`wrote build/flights-3m.v2.oixk (${statSync(v2Path).size.toLocaleString('en-US')} bytes)`)
  }
  const sizes: DemoSizes = {
    v1: statSync(v1Path).size, v2: statSync(v2Path).size, parquet: statSync(vegaDataPath('flights-3m.parquet')).size, parquetZstd: parquetZstdBytes(),
  }
  writeFileSync(join(ROOT, 'build/flights-3m.sizes.json'), JSON.stringify(sizes))
  return { v2Path, sizes }
}

/** Parquet ZSTD's size of flights-3m as the size benchmark measured it, if there. */
function parquetZstdBytes(): number | null {
  const path = join(ROOT, 'bench/results/size.json')
  if (!existsSync(path)) return null
  const { datasets } = JSON.parse(readFileSync(path, 'utf8')) as { datasets: { name: string; parquetBytes: { zstd: number } }[] }
  return datasets.find((dataset) => dataset.name === 'flights-3m')?.parquetBytes.zstd ?? null
}
