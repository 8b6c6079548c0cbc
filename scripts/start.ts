/**
 * `npm start`: the main job on real data. Imports flights-3m (3 million rows,
 * shipped by vega-datasets), writes its columns file atomically, reopens and
 * fully verifies it with both backends, prints `oixk inspect` and the two
 * backends' timings side by side, then answers a few questions with the query
 * API on each backend and, for comparison, with hyparquet decoding the Parquet file.
 */
import { mkdirSync } from 'node:fs'
import { describeReader } from '../src/cli/inspect.js'
import { openColumnsFile, writeFileAtomic } from '../src/node/files.js'
import { importFlights } from './import-flights.js'
import { type Answers, answerWithHyparquet, answerWithOixk, describeAnswers } from './start-questions.js'

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
const answered: { backend: string; answers: Answers; milliseconds: number[] }[] = []
for (const backend of ['wasm', 'ts'] as const) {
  const openStarted = performance.now()
  using reader = await openColumnsFile(OUTPUT, { backend })
  const opened = performance.now()
  reader.verify()
  const verified = performance.now()
  // Arrays allocated and touched beforehand: the timed run is the decode, once, without page faults.
  const destinations = reader.columns.map((column) => new BigInt64Array(column.valueCount()).fill(0n))
  const values = destinations.reduce((sum, destination) => sum + destination.length, 0)
  const decodeStarted = performance.now()
  reader.columns.forEach((column, index) => column.readValues(0, destinations[index]))
  const decoded = performance.now()
  timings.push(`  ${backend.padEnd(4)}  open ${(opened - openStarted).toFixed(0).padStart(4)} ms   full check ${(verified - opened).toFixed(0).padStart(4)} ms   decode all ${values.toLocaleString('en-US')} values (one cold run) ${(decoded - decodeStarted).toFixed(1).padStart(6)} ms`)
  if (backend === 'wasm') console.log(describeReader(reader))
  answered.push({ backend, ...answerWithOixk(reader) })
}
console.log('\nBackends side by side (the same file, verified ok by both):')
for (const line of timings) console.log(line)

console.log('\nQuestions (fastest of 20 runs each; the columns file answers from its compressed blocks):')
const parquet = await answerWithHyparquet()
for (const line of describeAnswers(answered[0].answers)) console.log(line)
const agree = answered.every(({ answers }) => JSON.stringify(answers) === JSON.stringify(parquet.answers))
if (!agree) {
  for (const { backend, answers } of answered) console.error(`${backend}: ${JSON.stringify(answers)}`)
  console.error(`hyparquet: ${JSON.stringify(parquet.answers)}`)
  throw new Error('the answers differ between the columns file and the Parquet file')
}
const cell = (milliseconds: number) => `${milliseconds.toFixed(2)} ms`.padStart(10)
console.log(`\n  ${'question'.padEnd(30)}${'OIXK wasm'.padStart(10)}${'OIXK ts'.padStart(10)}`)
const names = ['flights per origin', `delayed flights per origin`, 'flights per month']
names.forEach((name, index) => console.log(`  ${name.padEnd(30)}${answered.map(({ milliseconds }) => cell(milliseconds[index])).join('')}`))
console.log(`  hyparquet on the Parquet file: decode origin, delay, date ${cell(parquet.decodeMilliseconds)}, then all three questions in plain loops ${cell(parquet.loopMilliseconds)}`)
console.log('  answers agree: OIXK wasm = OIXK ts = hyparquet')
console.log(`\ndone in ${((performance.now() - started) / 1000).toFixed(1)} s`)
