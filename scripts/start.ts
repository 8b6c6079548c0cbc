/**
 * `npm start`: the main job on real data. Imports flights-3m (3 million rows,
 * shipped by vega-datasets), writes its columns file atomically, reopens and
 * fully verifies it with both backends, prints `oixk inspect` and the two
 * backends' timings side by side.
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
// Both backends on the same file: open (checksum + structure), full check, and every column decoded.
const timings: string[] = []
for (const backend of ['wasm', 'ts'] as const) {
  const openStarted = performance.now()
  using reader = await openColumnsFile(OUTPUT, { backend })
  const opened = performance.now()
  reader.verify()
  const verified = performance.now()
  let values = 0
  for (const column of reader.columns) {
    const destination = new BigInt64Array(column.valueCount())
    column.readValues(0, destination)
    values += destination.length
  }
  const decoded = performance.now()
  timings.push(`  ${backend.padEnd(4)}  open ${(opened - openStarted).toFixed(0).padStart(4)} ms   full check ${(verified - opened).toFixed(0).padStart(4)} ms   decode all ${values.toLocaleString('en-US')} values ${(decoded - verified).toFixed(1).padStart(6)} ms`)
  if (backend === 'wasm') console.log(describeReader(reader))
}
console.log('\nBackends side by side (the same file, verified ok by both):')
for (const line of timings) console.log(line)
console.log(`\ndone in ${((performance.now() - started) / 1000).toFixed(1)} s`)
