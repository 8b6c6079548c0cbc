/**
 * Format 2's keyword dictionaries against their targets (issue 25), one run:
 * - per dataset, the v2 file (a merge of build/<dataset>.oixk into format 2) against Parquet ZSTD
 *   (bench/results/size.json): every dataset ≤ 1×, total ≤ 14.4 MB, geometric mean ≤ 0.82;
 * - zipcodes zip_code's column ≤ 1.3× its Parquet ZSTD chunk; airports name/city, movies
 *   Title/Director, earthquakes place/title dictionaries ≤ 0.55× their v1 bytes;
 * - the dictionary decode at open (WebAssembly, decoded bytes per second: ≥ 1 GB/s), with the
 *   TypeScript backend beside it; the open of every v2 file ≤ 2× its v1 file's, and the v2 open
 *   without its dictionary decodes.
 * `node --import tsx bench/dictionary.bench.ts [--quick]` (quick: no flights-3m).
 */
import { existsSync, readFileSync } from 'node:fs'
import { mergeColumns, openColumns } from '../src/index.js'
import type { ColumnsBackend } from '../src/backend/backend.js'
import { typeScriptBackend } from '../src/backend/ts/index.js'
import { createWasmBackend } from '../src/backend/wasm/index.js'
import { parseDictionaryV2 } from '../src/dictionary/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'

const DATASETS = ['flights-3m', 'airports', 'zipcodes', 'movies', 'earthquakes', 'birdstrikes', 'sp500-2000', 'seattle-weather', 'flights-200k']
const NAMED: [string, string][] = [['airports', 'name'], ['airports', 'city'], ['movies', 'Title'], ['movies', 'Director'], ['earthquakes', 'place'], ['earthquakes', 'title']]
const quick = process.argv.includes('--quick')

interface SizeEntry { name: string; parquetBytes: { zstd: number }; columns: { name: string; parquetBytes: { zstd: number } }[] }
const sizes = (JSON.parse(readFileSync('bench/results/size.json', 'utf8')) as { datasets: SizeEntry[] }).datasets

/** The median of `runs` timings of `task` in milliseconds (after one warm-up). */
function median(runs: number, task: () => void): number {
  task()
  const times: number[] = []
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    task()
    times.push(performance.now() - started)
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]
}

/**
 * Milliseconds per call of each task, the tasks taking turns: a sample repeats one task for at least
 * 2 ms (and once more before the first sample, to warm up); the median of `samples` samples per
 * task. `extra`, read after each sample of the last task, gives a third median (its own measure).
 */
function interleaved(samples: number, tasks: (() => void)[], extra: () => number): number[] {
  for (const task of tasks) { const until = performance.now() + 2; do task(); while (performance.now() < until) }
  extra()
  const times: number[][] = tasks.map(() => []), extras: number[] = []
  for (let sample = 0; sample < samples; sample++) {
    tasks.forEach((task, index) => {
      let calls = 0
      const started = performance.now()
      do { task(); calls++ } while (performance.now() - started < 2)
      times[index].push((performance.now() - started) / calls)
    })
    extras.push(extra())
  }
  const middle = (list: number[]) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]
  return [...times.map(middle), middle(extras)]
}

const v1DictionaryBytes = (reader: ColumnsReader, column: string) => {
  const dictionary = reader.getColumn(column)!.dictionary!
  return 8 + 4 * (dictionary.termCount + 1) + dictionary.totalBytes
}
const v2DictionaryBytes = (reader: ColumnsReader, column: string) => {
  const encoding = reader.getColumn(column)!.dictionary!.encoding!
  return encoding.end - encoding.start
}

const wasm = createWasmBackend()
const rows: string[] = []
let total = 0, logSum = 0, datasets = 0
const decodeTotals = new Map<string, { bytes: number; wasmMs: number; tsMs: number }>()
const opens: string[] = []
const v2Files = new Map<string, { v1: ColumnsReader; v2: ColumnsReader }>()
for (const name of DATASETS) {
  if (quick && name === 'flights-3m') continue
  const path = `build/${name}.oixk`
  if (!existsSync(path)) {
    console.log(`${name}: ${path} missing (npm run import; npm start for flights-3m)`)
    continue
  }
  const v1Bytes = new Uint8Array(readFileSync(path))
  const v1 = openColumns(v1Bytes, { backend: 'ts' })
  const v2Bytes = mergeColumns([{ reader: v1, docMap: Int32Array.from({ length: v1.maxDoc }, (_, d) => d) }], { maxDoc: v1.maxDoc, format: 2 })!
  const v2 = openColumns(v2Bytes, { backend: 'ts' })
  v2.verify()
  v2Files.set(name, { v1, v2 })
  const zstd = sizes.find((entry) => entry.name === name)!.parquetBytes.zstd
  total += v2Bytes.length
  logSum += Math.log(v2Bytes.length / zstd)
  datasets++
  const forms = v2.columns.filter((column) => column.dictionary !== null).map((column) => column.dictionary!.encoding!.formName)
  rows.push(`${name.padEnd(16)} v1 ${String(v1Bytes.length).padStart(9)}  v2 ${String(v2Bytes.length).padStart(9)}  ZSTD ${String(zstd).padStart(9)}  v2/ZSTD ${(v2Bytes.length / zstd).toFixed(3)} ${v2Bytes.length <= zstd ? 'ok' : 'OVER'}  dictionaries: ${forms.join(', ') || '-'}`)

  // Decode of each compressed dictionary alone (parse, lists, kernels, order check), per backend.
  for (const [backend, label] of [[wasm, 'wasmMs'], [typeScriptBackend, 'tsMs']] as [ColumnsBackend, 'wasmMs' | 'tsMs'][]) {
    const file = backend.load(v2Bytes)
    for (const column of v2.columns) {
      const encoding = column.dictionary?.encoding
      if (encoding === undefined || encoding === null || encoding.form === 0) continue
      const runs = Math.max(5, Math.min(200, Math.ceil(2e7 / Math.max(1, column.dictionary!.totalBytes))))
      // The buffer's words made again for each decode: one may grow the backend's memory.
      const ms = median(runs, () => parseDictionaryV2(file, new Int32Array(file.bytes.buffer, 0, file.bytes.buffer.byteLength >>> 2), backend, 'bench', column.name, encoding.start, encoding.end, { used: 0, limit: Infinity }))
      const entry = decodeTotals.get(encoding.formName) ?? { bytes: 0, wasmMs: 0, tsMs: 0 }
      if (label === 'wasmMs') entry.bytes += column.dictionary!.totalBytes
      entry[label] += ms
      decodeTotals.set(encoding.formName, entry)
    }
    file.release()
  }

  // Opens: v1 and v2 on each backend, taking turns (small files open in microseconds: each sample
  // repeats an open for 2 ms), and the v2 open less its dictionary decodes (their mean in each sample).
  for (const backend of ['wasm', 'ts'] as const) {
    let decodeSum = 0, decodeCount = 0
    const [v1Ms, v2Ms, decodeMs] = interleaved(v1Bytes.length > 4e6 ? 7 : 21, [
      () => openColumns(v1Bytes, { backend }).close(),
      () => {
        const reader = openColumns(v2Bytes, { backend })
        decodeSum += reader.columns.reduce((sum, column) => sum + (column.dictionary?.encoding?.decodeMilliseconds ?? 0), 0)
        decodeCount++
        reader.close()
      },
    ], () => {
      const mean = decodeSum / Math.max(1, decodeCount)
      decodeSum = decodeCount = 0
      return mean
    })
    opens.push(`${name.padEnd(16)} ${backend.padEnd(4)}  v1 ${v1Ms.toFixed(3).padStart(8)} ms  v2 ${v2Ms.toFixed(3).padStart(8)} ms  v2/v1 ${(v2Ms / v1Ms).toFixed(2)} ${v2Ms <= 2 * v1Ms ? 'ok' : 'OVER'}  (v2 dictionary decode ${decodeMs.toFixed(3)} ms, v2 without it ${(v2Ms - decodeMs).toFixed(3)} ms)`)
  }
}

console.log('Sizes against Parquet ZSTD (targets: each ≤ 1, total ≤ 14.4 MB, geometric mean ≤ 0.82)')
for (const row of rows) console.log('  ' + row)
console.log(`  total ${(total / 1e6).toFixed(2)} MB over ${datasets} datasets; geometric mean of v2/ZSTD ${Math.exp(logSum / datasets).toFixed(3)}`)

console.log('\nNamed columns')
const zip = v2Files.get('zipcodes')
if (zip !== undefined) {
  const column = zip.v2.getColumn('zip_code')!
  const chunk = sizes.find((entry) => entry.name === 'zipcodes')!.columns.find((entry) => entry.name === 'zip_code')!.parquetBytes.zstd
  console.log(`  zipcodes zip_code column: ${column.sectionLength} bytes (dictionary ${column.dictionary!.encoding!.formName}, ${v2DictionaryBytes(zip.v2, 'zip_code')} bytes) vs Parquet ZSTD ${chunk}: ${(column.sectionLength / chunk).toFixed(2)}× (target ≤ 1.3)`)
}
for (const [dataset, name] of NAMED) {
  const files = v2Files.get(dataset)
  if (files === undefined) continue
  const v1 = v1DictionaryBytes(files.v1, name), v2 = v2DictionaryBytes(files.v2, name)
  console.log(`  ${dataset} ${name} dictionary: v1 ${v1} bytes, v2 ${v2} bytes (${files.v2.getColumn(name)!.dictionary!.encoding!.formName}): ${(v2 / v1).toFixed(3)}× (target ≤ 0.55)`)
}

console.log('\nDictionary decode at open, decoded bytes per second (target ≥ 1 GB/s with WebAssembly)')
let bytes = 0, wasmMs = 0, tsMs = 0
for (const [form, entry] of decodeTotals) {
  bytes += entry.bytes; wasmMs += entry.wasmMs; tsMs += entry.tsMs
  console.log(`  ${form.padEnd(11)} ${String(entry.bytes).padStart(9)} bytes: wasm ${(entry.bytes / entry.wasmMs / 1e6).toFixed(2)} GB/s, ts ${(entry.bytes / entry.tsMs / 1e6).toFixed(2)} GB/s`)
}
console.log(`  all        ${String(bytes).padStart(9)} bytes: wasm ${(bytes / wasmMs / 1e6).toFixed(2)} GB/s, ts ${(bytes / tsMs / 1e6).toFixed(2)} GB/s`)

console.log('\nOpen (median; target v2 ≤ 2× v1)')
for (const row of opens) console.log('  ' + row)
