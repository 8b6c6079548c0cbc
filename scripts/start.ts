/**
 * `npm start`: the main job on real data. Imports flights-3m (3 million rows,
 * shipped by vega-datasets), writes its columns file in format 1 and format 2
 * atomically, prints their sizes beside the Parquet file's, reopens and fully
 * verifies each with both backends, prints `oixk inspect` of the format 2 file
 * and the timings side by side, then answers a few questions with the query
 * API on each file and backend and, for comparison, with hyparquet decoding
 * the Parquet file. Every answer must agree.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { describeReader } from '../src/cli/inspect.js'
import { openColumnsFile, writeFileAtomic } from '../src/node/files.js'
import { openColumns } from '../src/read/open.js'
import { mergeColumns } from '../src/write/merge.js'
import { importFlights, vegaDataPath } from './import-flights.js'
import { type Answers, answerWithHyparquet, answerWithOixk, describeAnswers } from './start-questions.js'

const OUTPUT = 'build/flights-3m.oixk'
const OUTPUT_V2 = 'build/flights-3m.v2.oixk'

/** Parquet ZSTD's size of flights-3m as the size benchmark measured it (bench/results/size.json), if there. */
function parquetZstdBytes(): number | null {
  if (!existsSync('bench/results/size.json')) return null
  const { datasets } = JSON.parse(readFileSync('bench/results/size.json', 'utf8')) as { datasets: { name: string; parquetBytes: { zstd: number } }[] }
  return datasets.find((dataset) => dataset.name === 'flights-3m')?.parquetBytes.zstd ?? null
}

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
// Format 2: the same documents through a merge (a flush of them writes the same bytes).
const convertStarted = performance.now()
const v2Bytes = (() => {
  using source = openColumns(imported.bytes)
  const docMap = Int32Array.from({ length: source.maxDoc }, (_, document) => document)
  return mergeColumns([{ reader: source, docMap }], { maxDoc: source.maxDoc, format: 2 })!
})()
const convertMilliseconds = performance.now() - convertStarted
await writeFileAtomic(OUTPUT_V2, v2Bytes)
const size = (bytes: number) => `${bytes.toLocaleString('en-US').padStart(11)} bytes`
const parquetBytes = statSync(vegaDataPath('flights-3m.parquet')).size
const zstd = parquetZstdBytes()
console.log(`  wrote ${OUTPUT.padEnd(24)} (format 1) ${size(imported.bytes.length)}  ${(imported.bytes.length / parquetBytes).toFixed(2)}× the Parquet file`)
console.log(`  wrote ${OUTPUT_V2.padEnd(24)} (format 2) ${size(v2Bytes.length)}  ${(v2Bytes.length / parquetBytes).toFixed(2)}× the Parquet file (converted in ${(convertMilliseconds / 1000).toFixed(2)} s)`)
console.log(`  flights-3m.parquet as shipped            ${size(parquetBytes)}`)
if (zstd !== null) console.log(`  the same columns in Parquet ZSTD         ${size(zstd)}  (bench/results/size.json)`)
// Each file with both backends: open (checksum + structure), full check, and every column decoded.
const timings: string[] = []
const answered: { label: string; answers: Answers; milliseconds: number[] }[] = []
for (const [format, path] of [[1, OUTPUT], [2, OUTPUT_V2]] as const) {
  for (const backend of ['wasm', 'ts'] as const) {
    const openStarted = performance.now()
    using reader = await openColumnsFile(path, { backend })
    const opened = performance.now()
    reader.verify()
    const verified = performance.now()
    // Arrays allocated and touched beforehand: the timed run is the decode, once, without page faults.
    const destinations = reader.columns.map((column) => new BigInt64Array(column.valueCount()).fill(0n))
    const values = destinations.reduce((sum, destination) => sum + destination.length, 0)
    const decodeStarted = performance.now()
    reader.columns.forEach((column, index) => column.readValues(0, destinations[index]))
    const decoded = performance.now()
    const label = `v${format} ${backend}`
    timings.push(`  ${label.padEnd(7)}  open ${(opened - openStarted).toFixed(0).padStart(4)} ms   full check ${(verified - opened).toFixed(0).padStart(5)} ms   decode all ${values.toLocaleString('en-US')} values (one cold run) ${(decoded - decodeStarted).toFixed(1).padStart(6)} ms`)
    if (format === 2 && backend === 'wasm') console.log(describeReader(reader))
    answered.push({ label, ...answerWithOixk(reader) })
  }
}
console.log('\nFiles and backends side by side (each verified ok):')
for (const line of timings) console.log(line)

console.log('\nQuestions (fastest of 20 runs each; the columns file answers from its compressed blocks):')
const parquet = await answerWithHyparquet()
for (const line of describeAnswers(answered[0].answers)) console.log(line)
const agree = answered.every(({ answers }) => JSON.stringify(answers) === JSON.stringify(parquet.answers))
if (!agree) {
  for (const { label, answers } of answered) console.error(`${label}: ${JSON.stringify(answers)}`)
  console.error(`hyparquet: ${JSON.stringify(parquet.answers)}`)
  throw new Error('the answers differ between the columns file and the Parquet file')
}
const cell = (milliseconds: number) => `${milliseconds.toFixed(2)} ms`.padStart(10)
console.log(`\n  ${'question'.padEnd(30)}${answered.map(({ label }) => label.padStart(10)).join('')}`)
const names = ['flights per origin', `delayed flights per origin`, 'flights per month']
names.forEach((name, index) => console.log(`  ${name.padEnd(30)}${answered.map(({ milliseconds }) => cell(milliseconds[index])).join('')}`))
console.log(`  hyparquet on the Parquet file: decode origin, delay, date ${cell(parquet.decodeMilliseconds)}, then all three questions in plain loops ${cell(parquet.loopMilliseconds)}`)
console.log(`  answers agree: ${answered.map(({ label }) => label).join(' = ')} = hyparquet`)
console.log(`\ndone in ${((performance.now() - started) / 1000).toFixed(1)} s`)
