/**
 * `npm start`: the main job on real data. Imports flights-3m (3 million rows,
 * shipped by vega-datasets), writes its columns file atomically, reopens and
 * fully verifies it, and prints `oixk inspect`.
 */
import { mkdirSync } from 'node:fs'
import { describeReader } from '../src/cli/inspect.js'
import { openColumnsFile, writeFileAtomic } from '../src/node/files.js'
import { importFlights } from './import-flights.js'

const OUTPUT = 'build/flights-3m.oixk'

function progressBar(done: number, total: number): void {
  if (!process.stderr.isTTY && done < total) return
  const width = 30
  const filled = Math.round((Math.min(done, total) / total) * width)
  process.stderr.write(`\r  decoding parquet [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.min(done, total).toLocaleString('en-US')} / ${total.toLocaleString('en-US')} rows`)
  if (done >= total) process.stderr.write('\n')
}

const started = performance.now()
console.log('oixk: flights-3m.parquet (vega-datasets) → OIXK columns file\n')
const imported = await importFlights(progressBar)
console.log(`  decoded ${imported.rowCount.toLocaleString('en-US')} rows with hyparquet in ${(imported.parquetMilliseconds / 1000).toFixed(1)} s`)
console.log(`  flushed 5 columns (${(imported.rowCount * 5).toLocaleString('en-US')} values) in ${(imported.writeMilliseconds / 1000).toFixed(2)} s`)
mkdirSync('build', { recursive: true })
await writeFileAtomic(OUTPUT, imported.bytes)
console.log(`  wrote ${OUTPUT}: ${imported.bytes.length.toLocaleString('en-US')} bytes`)
const openStarted = performance.now()
using reader = await openColumnsFile(OUTPUT)
const opened = performance.now()
reader.verify()
const verified = performance.now()
console.log(`  opened (checksum + structure) in ${(opened - openStarted).toFixed(0)} ms; full check (every value) in ${(verified - opened).toFixed(0)} ms: ok\n`)
console.log(describeReader(reader))
console.log(`\ndone in ${((performance.now() - started) / 1000).toFixed(1)} s`)
