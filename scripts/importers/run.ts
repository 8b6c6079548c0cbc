/**
 * Imports vega-datasets files into build/<name>.oixk and verifies each:
 * `node --import tsx scripts/importers/run.ts [NAME...]` (all when no name).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openColumns } from '../../src/index.js'
import { DATASETS, findDataset, importDataset } from './datasets.js'

const names = process.argv.slice(2)
// Resolve every name first so a typo fails before any work is done.
const datasets = names.length > 0 ? names.map(findDataset) : DATASETS
mkdirSync('build', { recursive: true })
for (const { name } of datasets) {
  const started = performance.now()
  const { bytes, rowCount, drops } = importDataset(name)
  const path = join('build', `${name}.oixk`)
  writeFileSync(path, bytes)
  const reader = openColumns(bytes, { fileName: path, maxDoc: rowCount })
  reader.verify()
  const columns = reader.columns.length
  reader.close()
  const ms = Math.round(performance.now() - started)
  console.log(`${name.padEnd(16)} ${String(rowCount).padStart(7)} rows ${String(columns).padStart(3)} columns ${String(bytes.length).padStart(9)} bytes ${String(ms).padStart(6)} ms  dropped ${drops.total}`)
  for (const line of drops.describe()) console.log(`  ${line}`)
}
