/**
 * Format 2 against its targets (issue: BtrBlocks-style cascades), one run, targets beside each figure:
 * - decode of 65,536 values per encoding, WebAssembly in place (a ValueBuffer) and into a plain
 *   array, pure TypeScript beside it (targets: ≥ 2 G values/s for integer encodings and ≥ 1.5 G/s
 *   for decimals into a Float64Array with WebAssembly, ≥ 150 M/s in TypeScript), then the decimal
 *   and sequence dictionary decodes beside the step each cannot skip, run alone (kernel-bounds.ts);
 * - getInt64 cache-resident, the v2 file beside the v1 file of the same values (≤ 2× v1 for O(1)
 *   encodings, ≤ 60 ns with a binary search);
 * - flights-3m (build/flights-3m.oixk, from `npm start`): the v2 file's size (≤ 12.6 MB), its five
 *   columns into ValueBuffers (≤ 8 ms; also into int32 ones but the date's, as the decode suite reads them), and a v2 flush against a v1 flush of the same documents (≤ 3×).
 * `node --expose-gc --import tsx bench/cascade.bench.ts [--only=decode|latency|flights]`.
 * TypeScript decodes are timed twice: beside WebAssembly in this process, and in a child process
 * that never starts WebAssembly (--ts-alone). Once any ArrayBuffer has been detached in a process
 * (a WebAssembly memory's growth detaches its old buffer), V8 checks for detachment at every
 * typed-array access from then on, so TypeScript code runs slower beside a WebAssembly backend
 * than where it runs alone (docs/performance.md).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { signature, summarize } from '../src/cascade/describe.js'
import { ColumnsWriter, createValueBuffer, flushColumns, openColumns } from '../src/index.js'
import type { Column } from '../src/read/column.js'
import { type Measured, measureRounds, perSecond, printTable, seededRandom } from './common.js'
import { boundSteps } from './kernel-bounds.js'

const VALUES = 1 << 16
const ROUNDS = 3
const only = process.argv.find((argument) => argument.startsWith('--only='))?.slice('--only='.length)

/** An encoding: values built for it, the cascade they must come out as, and whether a single read searches. */
interface Encoding { name: string; values: () => (number | bigint)[]; type: 'integral' | 'fractional'; shape: RegExp; searches: boolean }

function encodings(): Encoding[] {
  const random = seededRandom(2026)
  const int = (below: number) => Math.floor(random() * below)
  const wide = () => int(2 ** 30) * 1024 + int(1024)
  return [
    { name: 'frame (v1 packed, w=20)', type: 'integral', shape: /^blocks\{frame\}$/, searches: false, values: () => Array.from({ length: VALUES }, () => int(1 << 20)) },
    {
      name: 'dictionary blocks (600 of 40 bits)', type: 'integral', shape: /^blocks\{dictionary\}$/, searches: false,
      values: () => { const pools = Array.from({ length: VALUES / 1024 }, () => Array.from({ length: 600 }, wide)); return Array.from({ length: VALUES }, (_, i) => pools[i >> 10][i % 1024 < 600 ? i % 1024 : int(600)]) },
    },
    // 16 runs a block of values near the block's own base: per-block runs beat one run sequence of wide values.
    { name: 'runs blocks (16 per block)', type: 'integral', shape: /^blocks\{runs\}$/, searches: true, values: () => Array.from({ length: VALUES }, (_, i) => (i >> 10) * 1_000_000_007 + ((Math.floor(i / 64) * 37) % 100)) },
    { name: 'frequent blocks', type: 'integral', shape: /^blocks\{frequent\}$/, searches: true, values: () => Array.from({ length: VALUES }, () => (random() < 0.02 ? 1_000_000 * (1 + int(30000)) : 7)) },
    { name: 'patched blocks', type: 'integral', shape: /^blocks\{patched\}$/, searches: true, values: () => Array.from({ length: VALUES }, () => (random() < 0.01 ? 2 ** 36 + int(2 ** 30) : 1 + int(7))) },
    { name: 'linear blocks', type: 'integral', shape: /^blocks\{linear\}$/, searches: false, values: () => Array.from({ length: VALUES }, (_, i) => 1_600_000_000_000 + 60_123 * i + int(16)) },
    {
      name: 'sequence dictionary (by frequency)', type: 'integral', shape: /^dictionary\(\d+ entries, by frequency\)/, searches: false,
      values: () => { const pool = Array.from({ length: 300 }, wide); return Array.from({ length: VALUES }, () => pool[Math.min(299, Math.floor(-Math.log(1 - random()) * 20))]) },
    },
    {
      name: 'sequence runs', type: 'integral', shape: /^runs\(/, searches: true,
      values: () => { const v: number[] = []; while (v.length < VALUES) { const x = wide(), l = 1 + int(1500); for (let r = 0; r < l; r++) v.push(x) } return v.slice(0, VALUES) },
    },
    { name: 'decimal (prices)', type: 'fractional', shape: /^decimal\(n \/ 10\^2, 0 exceptions\)/, searches: false, values: () => Array.from({ length: VALUES }, () => int(1_000_000) / 100) },
  ]
}

/** The column "v" of the values in a file of the given format, opened with a backend. */
function columnOf(encoding: Encoding, values: (number | bigint)[], format: 1 | 2, backend: 'ts' | 'wasm'): Column {
  const bytes = flushColumns({ fields: [{ name: 'v', type: encoding.type, column: true }] }, values.map((v) => ({ v })), { format })!
  return openColumns(bytes, { backend }).getColumn('v')!
}

const TS_ALONE = process.argv.includes('--ts-alone')

/** TypeScript decode rates (values/s by encoding name) from a child process that never starts WebAssembly. */
function tsAloneRates(): Map<string, number> {
  const script = fileURLToPath(import.meta.url)
  const output = execFileSync(process.execPath, [...process.execArgv, script, '--only=decode', '--ts-alone'], { encoding: 'utf8' })
  return new Map(JSON.parse(output.trim().split('\n').pop()!) as [string, number][])
}

/** The child's part: TypeScript reads only, printed as one JSON line. */
async function decodeTypeScriptAlone(): Promise<void> {
  const rates: [string, number][] = []
  for (const encoding of encodings()) {
    const values = encoding.values()
    const ts = columnOf(encoding, values, 2, 'ts')
    const plain = encoding.type === 'fractional' ? new Float64Array(VALUES) : new BigInt64Array(VALUES)
    const [script] = await measureRounds([{ name: 'ts', itemsPerCall: VALUES, run: () => ts.readValues(0, plain) }], ROUNDS, 300)
    rates.push([encoding.name, script.itemsPerSecond])
  }
  console.log(JSON.stringify(rates))
}

async function decode(): Promise<void> {
  if (TS_ALONE) return decodeTypeScriptAlone()
  const alone = tsAloneRates()
  const rows: string[][] = []
  const bounded: { name: string; column: Column; doubles: boolean }[] = []
  for (const encoding of encodings()) {
    const values = encoding.values()
    const wasm = columnOf(encoding, values, 2, 'wasm'), ts = columnOf(encoding, values, 2, 'ts')
    const shape = signature(summarize(wasm.values, 2))
    if (!encoding.shape.test(shape)) throw new Error(`${encoding.name} came out as ${shape}`)
    const doubles = encoding.type === 'fractional'
    const inPlace = createValueBuffer(doubles ? 'float64' : 'int64', VALUES, { backend: 'wasm' })
    const plain = doubles ? new Float64Array(VALUES) : new BigInt64Array(VALUES)
    const tsPlain = doubles ? new Float64Array(VALUES) : new BigInt64Array(VALUES)
    const tasks: Measured[] = [
      { name: 'wasm in place', itemsPerCall: VALUES, run: () => wasm.readValues(0, inPlace.array) },
      { name: 'wasm plain', itemsPerCall: VALUES, run: () => wasm.readValues(0, plain) },
      { name: 'ts', itemsPerCall: VALUES, run: () => ts.readValues(0, tsPlain) },
    ]
    const [place, copy, script] = await measureRounds(tasks, ROUNDS, 300)
    inPlace.release()
    if (encoding.name.startsWith('decimal') || encoding.name.startsWith('sequence dictionary')) bounded.push({ name: encoding.name, column: wasm, doubles })
    const target = doubles ? 1.5e9 : 2e9
    rows.push([
      `${encoding.name} → ${doubles ? 'Float64Array' : 'BigInt64Array'}`, shape.length > 48 ? `${shape.slice(0, 45)}…` : shape,
      perSecond(place.itemsPerSecond), perSecond(copy.itemsPerSecond), place.itemsPerSecond >= target ? 'yes' : 'NO',
      perSecond(script.itemsPerSecond), script.itemsPerSecond >= 150e6 ? 'yes' : 'NO',
      perSecond(alone.get(encoding.name)!), alone.get(encoding.name)! >= 150e6 ? 'yes' : 'NO',
    ])
  }
  printTable(`Decode of ${VALUES} values per encoding (format 2; WASM target ≥ 2 G/s, decimals ≥ 1.5 G/s; TS ≥ 150 M/s; median of ${ROUNDS} rounds)`,
    ['encoding', 'cascade', 'WASM in place', 'WASM plain array', 'met', 'TS beside WASM', 'met', 'TS alone', 'met'], rows)
  await decodeBounds(bounded)
}

/**
 * The decimal and sequence dictionary decodes (in place) beside the one step of each that no
 * decode skips, run alone by bench/kernel-bounds.ts, in the same rounds.
 */
async function decodeBounds(bounded: { name: string; column: Column; doubles: boolean }[]): Promise<void> {
  const steps = await boundSteps(VALUES)
  const buffers = bounded.map(({ doubles }) => createValueBuffer(doubles ? 'float64' : 'int64', VALUES, { backend: 'wasm' }))
  const tasks: Measured[] = [
    ...bounded.map(({ name, column }, index) => ({ name: `${name}, decode in place`, itemsPerCall: VALUES, run: () => column.readValues(0, buffers[index].array) })),
    { name: 'f64x2.div alone (the decimal conversion\'s division)', itemsPerCall: VALUES, run: steps.divide },
    { name: 'byte codes gathered alone (8-byte entries, two a store)', itemsPerCall: VALUES, run: steps.gather },
    { name: 'memory.copy of 8-byte values', itemsPerCall: VALUES, run: steps.copy },
  ]
  const measured = await measureRounds(tasks, ROUNDS, 300)
  printTable(`Decode beside its unavoidable steps, WebAssembly, ${VALUES} values (median of ${ROUNDS} rounds)`,
    ['task', 'values/s'], measured.map((entry) => [entry.name, perSecond(entry.itemsPerSecond)]))
  for (const buffer of buffers) buffer.release()
}

async function latency(): Promise<void> {
  const rows: string[][] = []
  const random = seededRandom(99)
  const order = Int32Array.from({ length: 1 << 20 }, () => Math.floor(random() * VALUES))
  for (const encoding of encodings().filter((e) => e.type === 'integral')) {
    const values = encoding.values()
    const tasks: Measured[] = []
    for (const backend of ['wasm', 'ts'] as const) {
      for (const format of [1, 2] as const) {
        const column = columnOf(encoding, values, format, backend)
        // Chained: each document depends on the last value read, so calls cannot overlap.
        tasks.push({
          name: `${backend} v${format}`, itemsPerCall: order.length,
          run: () => {
            let value = 0
            for (let at = 0; at < order.length; at++) value = column.getInt64((order[at] + (value & 1)) & (VALUES - 1))
            return value
          },
        })
      }
    }
    // A call is 2^20 chained reads (tens of ms): 9 calls a round, not tinybench's default 64.
    const results = await measureRounds(tasks, ROUNDS, 300, 9)
    const ns = results.map((result) => 1e9 / result.itemsPerSecond)
    const limit = (v1: number) => (encoding.searches ? 60 : 2 * v1)
    rows.push([
      encoding.name, ns[0].toFixed(1), ns[1].toFixed(1), (ns[1] / ns[0]).toFixed(2), `≤ ${limit(ns[0]).toFixed(1)}`, ns[1] <= limit(ns[0]) ? 'yes' : 'NO',
      ns[2].toFixed(1), ns[3].toFixed(1), ns[3] <= limit(ns[2]) ? 'yes' : 'NO',
    ])
  }
  printTable('getInt64, cache-resident (65,536 values), chained, ns per call (target: ≤ 2× v1 for O(1) encodings, ≤ 60 ns with a binary search)',
    ['encoding', 'WASM v1', 'WASM v2', 'v2 ÷ v1', 'target', 'met', 'TS v1', 'TS v2', 'met'], rows)
}

async function flights(): Promise<void> {
  const path = 'build/flights-3m.oixk'
  if (!existsSync(path)) {
    console.log(`\n${path} is missing (npm start writes it): flights-3m rows skipped`)
    return
  }
  const v1Bytes = new Uint8Array(readFileSync(path))
  const v1 = openColumns(v1Bytes, { backend: 'wasm' })
  const columns = Object.fromEntries(v1.columns.map((column) => [column.name, column.toArray()]))
  const schema = { fields: [
    { name: 'date', type: 'date', column: true }, { name: 'delay', type: 'integral', column: true },
    { name: 'distance', type: 'integral', column: true }, { name: 'origin', type: 'keyword', facet: true },
    { name: 'destination', type: 'keyword', facet: true },
  ] }
  const flush = (format: 1 | 2): { bytes: Uint8Array; ms: number } => {
    const started = performance.now()
    const writer = new ColumnsWriter(schema, { expectedDocuments: v1.maxDoc, format })
    const document: Record<string, unknown> = { date: null, delay: null, distance: null, origin: null, destination: null }
    for (let row = 0; row < v1.maxDoc; row++) {
      for (const name in document) document[name] = columns[name][row]
      writer.addDocument(row, document)
    }
    const bytes = writer.finish(v1.maxDoc)!
    return { bytes, ms: performance.now() - started }
  }
  const flushes = { 1: [] as number[], 2: [] as number[] }
  let v2Bytes: Uint8Array = new Uint8Array(0)
  for (let round = 0; round < 3; round++) {
    for (const format of [1, 2] as const) {
      const { bytes, ms } = flush(format)
      flushes[format].push(ms)
      if (format === 2) v2Bytes = bytes
    }
  }
  const median = (list: number[]) => list.sort((a, b) => a - b)[1]
  const v2 = openColumns(v2Bytes, { backend: 'wasm' })
  const buffers = (reader: typeof v1) => reader.columns.map((column) => createValueBuffer('int64', column.totalValueCount, { backend: 'wasm' }))
  // The decode suite's kinds: int32 for every column but the date (bench/suites/decode.ts).
  const narrowest = (reader: typeof v1) => reader.columns.map((column) => createValueBuffer(column.type === 'date' ? 'int64' : 'int32', column.totalValueCount, { backend: 'wasm' }))
  const into1 = buffers(v1), into2 = buffers(v2), narrow1 = narrowest(v1), narrow2 = narrowest(v2)
  const [read1, read2, narrowRead1, narrowRead2] = await measureRounds([
    { name: 'v1', itemsPerCall: 1, run: () => v1.columns.forEach((column, index) => column.readValues(0, into1[index].array)) },
    { name: 'v2', itemsPerCall: 1, run: () => v2.columns.forEach((column, index) => column.readValues(0, into2[index].array)) },
    { name: 'v1 narrowest', itemsPerCall: 1, run: () => v1.columns.forEach((column, index) => column.readValues(0, narrow1[index].array)) },
    { name: 'v2 narrowest', itemsPerCall: 1, run: () => v2.columns.forEach((column, index) => column.readValues(0, narrow2[index].array)) },
  ], ROUNDS, 1000)
  const flush1 = median(flushes[1]), flush2 = median(flushes[2])
  printTable('flights-3m, format 2 beside format 1 (one run)', ['measure', 'v1', 'v2', 'v2 ÷ v1', 'target', 'met'], [
    ['file bytes', String(v1Bytes.length), String(v2Bytes.length), (v2Bytes.length / v1Bytes.length).toFixed(3), '≤ 12,600,000', v2Bytes.length <= 12_600_000 ? 'yes' : 'NO'],
    ['five columns into ValueBuffers (ms)', read1.millisecondsPerCall.toFixed(2), read2.millisecondsPerCall.toFixed(2), (read2.millisecondsPerCall / read1.millisecondsPerCall).toFixed(2), '≤ 8 ms', read2.millisecondsPerCall <= 8 ? 'yes' : 'NO'],
    ['the same, int32 but the date (ms)', narrowRead1.millisecondsPerCall.toFixed(2), narrowRead2.millisecondsPerCall.toFixed(2), (narrowRead2.millisecondsPerCall / narrowRead1.millisecondsPerCall).toFixed(2), '', ''],
    ['flush of 3,000,000 documents (ms, median of 3)', flush1.toFixed(0), flush2.toFixed(0), (flush2 / flush1).toFixed(2), '≤ 3× v1', flush2 <= 3 * flush1 ? 'yes' : 'NO'],
  ])
}

if (only === undefined || only === 'decode') await decode()
if (only === undefined || only === 'latency') await latency()
if (only === undefined || only === 'flights') await flights()
