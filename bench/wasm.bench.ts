/**
 * The WebAssembly backend against pure TypeScript and against memcpy, one run,
 * ratios beside the figures: readValues per width and block form (65,536
 * cache-resident values), 32 MiB outputs, getInt64 latency, open + checksum of
 * a 256 MiB file (openColumns, in place, and QueryPool.open with 2 workers);
 * for the two targets a single thread cannot reach, the bound its phases
 * allow, measured apart. Run with --expose-gc so big buffers are freed between
 * cases. Every case runs in rounds (measureRounds), a figure its median round;
 * getInt64's WASM loops run before its TS loops, as their order matters (see
 * latency).
 */
import { LARGE_COPY_VALUES } from '../src/backend/wasm/runtime.js'
import { createFileBuffer, createValueBuffer, openColumns } from '../src/index.js'
import { createQueryPool } from '../src/node/query-pool.js'
import type { Column } from '../src/read/column.js'
import { denseFile, randomInteger, valuesForBytes } from '../test/helpers/dense-file.js'
import { type Measured, measureRounds, perSecond, printTable, seededRandom } from './common.js'

const VALUES = 1 << 16
const LARGE_VALUES = 1 << 22 // 32 MiB of i64
const HUGE_BYTES = 256 * 2 ** 20
/** Rounds of the throughput cases; each figure is a case's median round (measureRounds). */
const ROUNDS = 3

export const WASM_TITLE = 'WebAssembly backend vs pure TypeScript and memcpy (one run; targets beside each figure)'
export const WASM_HEADER = ['case', 'WASM', 'TS or memcpy', 'ratio', 'target', 'met']

type Destination = BigInt64Array | Float64Array | Int32Array
const DESTINATIONS = [
  ['BigInt64Array', (n: number) => new BigInt64Array(n)],
  ['Float64Array', (n: number) => new Float64Array(n)],
  ['Int32Array', (n: number) => new Int32Array(n)],
] as const

/** A block form / width: how values are made and which destinations can hold them. */
interface Case { name: string; make: (index: number) => number | bigint; fits: ('BigInt64Array' | 'Float64Array' | 'Int32Array')[] }

function cases(random: () => number): Case[] {
  const all = ['BigInt64Array', 'Float64Array', 'Int32Array'] as Case['fits']
  const list: Case[] = [1, 3, 8, 13, 17].map((width) => ({ name: `packed w=${width}`, make: () => Math.floor(random() * 2 ** width), fits: all }))
  list.push({ name: 'packed w=32', make: () => Math.floor(random() * 2 ** 32) - 2 ** 31, fits: all })
  list.push({ name: 'packed w=47', make: () => randomInteger(random, 47), fits: ['BigInt64Array', 'Float64Array'] })
  list.push({ name: 'packed w=64', make: (index) => BigInt.asIntN(64, (BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(index & 1)), fits: ['BigInt64Array'] })
  list.push({ name: 'constant', make: () => 7, fits: all })
  // 16 values spread over 31 bits: a table (640 bytes a block) beats packed width 31 (3,968 bytes).
  const entries = Array.from({ length: 16 }, () => randomInteger(random, 31))
  list.push({ name: 'table (16 wide values)', make: () => entries[Math.floor(random() * 16)], fits: all })
  return list
}

/** The column "v" of bytes opened with each backend. */
function pair(bytes: Uint8Array): { wasm: Column; ts: Column; close: () => void } {
  const wasm = openColumns(bytes, { backend: 'wasm' }), ts = openColumns(bytes, { backend: 'ts' })
  return { wasm: wasm.getColumn('v')!, ts: ts.getColumn('v')!, close: () => { wasm.close(); ts.close() } }
}

/** Throws unless every block of the column has the form a case is named after ("packed w=13", "constant", "table"). */
function checkForm(name: string, column: Column): void {
  const records = column.values.records
  const width = /w=(\d+)/.exec(name)?.[1]
  const expected = name.startsWith('constant') ? 'kind 0' : name.startsWith('table') ? 'kind 2' : `kind 1 width ${width}`
  for (let block = 0; block < column.values.blockCount; block++) {
    const kind = records[6 * block] & 0xff
    const actual = kind === 1 ? `kind 1 width ${records[6 * block] >>> 8}` : `kind ${kind}`
    if (actual !== expected) throw new Error(`${name}: block ${block} is ${actual}, not ${expected}`)
  }
}

const met = (ok: boolean) => (ok ? 'yes' : 'NO')
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`
const collect = () => (globalThis as { gc?: () => void }).gc?.()

/** readValues of 65,536 values per case and destination, both backends, plus memcpy of the same 512 KiB. */
async function smallRuns(random: () => number): Promise<string[][]> {
  const tasks: Measured[] = []
  const pairs: { name: string; destination: string }[] = []
  const opened: (() => void)[] = []
  for (const { name, make, fits } of cases(random)) {
    const { wasm, ts, close } = pair(denseFile(VALUES, make))
    opened.push(close)
    checkForm(name, ts)
    for (const [destination, create] of DESTINATIONS) {
      if (!fits.includes(destination)) continue
      const out: Destination = create(VALUES)
      tasks.push({ name: `${name} → ${destination} wasm`, itemsPerCall: VALUES, run: () => { wasm.readValues(0, out) } })
      tasks.push({ name: `${name} → ${destination} ts`, itemsPerCall: VALUES, run: () => { ts.readValues(0, out) } })
      pairs.push({ name, destination })
    }
    for (const [destination, create] of DESTINATIONS) {
      if (!fits.includes(destination)) continue
      // A destination in linear memory: the kernel decodes in place, nothing is copied out.
      const kind = destination === 'BigInt64Array' ? 'int64' : destination === 'Float64Array' ? 'float64' : 'int32'
      const inPlace = createValueBuffer(kind, VALUES, { backend: 'wasm' }), out: Destination = create(VALUES)
      opened.push(() => inPlace.release())
      tasks.push({ name: `${name} → ValueBuffer ${kind} wasm`, itemsPerCall: VALUES, run: () => { wasm.readValues(0, inPlace.array) } })
      tasks.push({ name: `${name} → ${destination} ts (beside ValueBuffer)`, itemsPerCall: VALUES, run: () => { ts.readValues(0, out) } })
      pairs.push({ name, destination: `${destination} in linear memory (ValueBuffer)` })
    }
  }
  const target = new BigInt64Array(VALUES), source = new BigInt64Array(VALUES).fill(3n)
  tasks.push({ name: 'memcpy 512 KiB', itemsPerCall: VALUES, run: () => target.set(source) })
  const results = await measureRounds(tasks, ROUNDS, 150)
  for (const close of opened) close()
  const memcpy = results[results.length - 1].itemsPerSecond
  const rows = pairs.map(({ name, destination }, index) => {
    const wasm = results[2 * index].itemsPerSecond, ts = results[2 * index + 1].itemsPerSecond
    return [`${name} → ${destination}`, perSecond(wasm), perSecond(ts), `${ratio(wasm, ts)} TS, ${((100 * wasm) / memcpy).toFixed(0)}% memcpy`,
      '≥ 2.5 G/s, ≥ 8× TS', met(wasm >= 2.5e9 && wasm >= 8 * ts)]
  })
  rows.push(['TypedArray.set of the same 512 KiB (memcpy)', '', perSecond(memcpy), '', '', ''])
  return rows
}

/**
 * readValues of 4M values (32 MiB of output) against TypedArray.set of 32 MiB, and width 64's two
 * phases measured apart (see phaseTasks).
 */
async function largeRuns(random: () => number): Promise<string[][]> {
  const widths = [8, 17, 64]
  const out = new BigInt64Array(LARGE_VALUES), source = new BigInt64Array(LARGE_VALUES).fill(5n)
  const inPlace = createValueBuffer('int64', LARGE_VALUES, { backend: 'wasm' })
  const tasks: Measured[] = [], closers: (() => void)[] = []
  const columns: Column[] = []
  for (const width of widths) {
    const make = width === 64 ? (index: number) => BigInt.asIntN(64, (BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(index & 1)) : () => Math.floor(random() * 2 ** width)
    const { wasm, close } = pair(denseFile(LARGE_VALUES, make))
    closers.push(close)
    checkForm(`packed w=${width}`, wasm)
    columns.push(wasm)
    tasks.push({ name: `w=${width}`, itemsPerCall: LARGE_VALUES, run: () => { wasm.readValues(0, out) } })
    tasks.push({ name: `w=${width} in place`, itemsPerCall: LARGE_VALUES, run: () => { wasm.readValues(0, inPlace.array) } })
  }
  const phases = phaseTasks(columns[columns.length - 1], out)
  tasks.push(...phases.tasks)
  tasks.push({ name: 'memcpy 32 MiB', itemsPerCall: LARGE_VALUES, run: () => out.set(source) })
  const results = await measureRounds(tasks, ROUNDS, 400)
  for (const close of closers) close()
  inPlace.release()
  phases.release()
  const memcpy = results[results.length - 1].itemsPerSecond
  const rows = widths.flatMap((width, index) => [
    [`32 MiB: packed w=${width} → BigInt64Array (4M values)`, results[2 * index].itemsPerSecond],
    [`32 MiB: packed w=${width} → ValueBuffer, in place (4M values)`, results[2 * index + 1].itemsPerSecond],
  ].map(([name, wasm]) => [name as string, perSecond(wasm as number), perSecond(memcpy), `${((100 * (wasm as number)) / memcpy).toFixed(0)}% memcpy`, '≥ 80% memcpy', met((wasm as number) >= 0.8 * memcpy)]))
  const [decode, copy] = results.slice(-3, -1).map((result) => result.itemsPerSecond)
  const sequential = 1 / (1 / decode + 1 / copy), read = results[2 * (widths.length - 1)].itemsPerSecond
  rows.push(['  w=64 → BigInt64Array\'s two phases apart: decode, copy out (2 MiB steps each)', perSecond(decode), perSecond(copy), '', '', ''])
  rows.push(['  the two one after the other (a one-thread read\'s bound)', '', perSecond(sequential),
    `${((100 * sequential) / memcpy).toFixed(0)}% memcpy; read ${((100 * read) / sequential).toFixed(0)}% of it`, '', ''])
  rows.push(['TypedArray.set of 32 MiB (memcpy)', '', `${perSecond(memcpy)} (${((memcpy * 8) / 1e9).toFixed(1)} GB/s)`, '', '', ''])
  return rows
}

/**
 * The two phases of a long read into an array outside linear memory, as the WebAssembly backend runs
 * them one after the other in steps of LARGE_COPY_VALUES: decoding (in place into one step's
 * ValueBuffer: fields read from memory, values written to cache), and copying a step's values from
 * cache into the 32 MiB array. WebAssembly cannot write the array, so one thread cannot overlap the
 * two as memcpy overlaps its reads and writes.
 */
function phaseTasks(column: Column, out: BigInt64Array): { tasks: Measured[]; release: () => void } {
  const step = createValueBuffer('int64', LARGE_COPY_VALUES, { backend: 'wasm' })
  const staged = new BigInt64Array(LARGE_COPY_VALUES).fill(5n)
  return {
    tasks: [
      { name: 'w=64 decode in steps', itemsPerCall: LARGE_VALUES, run: () => {
        for (let first = 0; first < LARGE_VALUES; first += LARGE_COPY_VALUES) column.readValues(first, step.array)
      } },
      { name: 'copy out in steps', itemsPerCall: LARGE_VALUES, run: () => {
        for (let first = 0; first < LARGE_VALUES; first += LARGE_COPY_VALUES) out.set(staged, first)
      } },
    ],
    release: () => step.release(),
  }
}

/** getInt64 in a caller's loop (its own function, like user code), ns per call. */
async function latency(random: () => number): Promise<string[][]> {
  const { wasm, ts, close } = pair(denseFile(VALUES, () => Math.floor(random() * 2 ** 17)))
  const sink = new Float64Array(1)
  // The tag keeps each loop's source distinct: V8 shares compiled code between functions of equal source.
  const loop = (tag: string) => new Function('column', 'sink', `/* ${tag} */ for (let index = 0; index < ${VALUES}; index++) sink[0] += column.getInt64((index * 40503) & ${VALUES - 1})`) as (column: Column, sink: Float64Array) => void
  const wasmLoop = loop('wasm'), tsLoop = loop('ts'), mixedLoop = loop('wasm after ts')
  // The loop's own cost: the same indexes into a plain Float64Array of the values (sink[0] += is a dependency chain).
  const plain = Float64Array.from({ length: VALUES }, (_, index) => wasm.getInt64(index))
  const floorLoop = new Function('values', 'sink', `for (let index = 0; index < ${VALUES}; index++) sink[0] += values[(index * 40503) & ${VALUES - 1}]`) as (values: Float64Array, sink: Float64Array) => void
  // The same reads summed in a local (no chain through memory), as a user's loop would often sum them.
  const localLoop = (read: string) => new Function('source', 'sink', `let sum = 0; for (let index = 0; index < ${VALUES}; index++) sum += ${read}; sink[0] += sum`)
  const wasmLocal = localLoop(`source.getInt64((index * 40503) & ${VALUES - 1})`) as (column: Column, sink: Float64Array) => void
  const floorLocal = localLoop(`source[(index * 40503) & ${VALUES - 1}]`) as (values: Float64Array, sink: Float64Array) => void
  // WASM first: getInt64 and NumberLookup.value are shared by both backends' columns, and once the
  // TS column's reads have run V8's code for them is slower for every column (about 0.7 ns a
  // call, measured), as in a process that uses both backends; a process using one does not pay it.
  // (A separate measure: tinybench warms every task of a run up before it measures any.)
  const [w, wLocal, floor, floorL] = await measureRounds([
    { name: 'getInt64 wasm', itemsPerCall: VALUES, run: () => wasmLoop(wasm, sink) },
    { name: 'getInt64 wasm, local sum', itemsPerCall: VALUES, run: () => wasmLocal(wasm, sink) },
    { name: 'Float64Array floor', itemsPerCall: VALUES, run: () => floorLoop(plain, sink) },
    { name: 'Float64Array floor, local sum', itemsPerCall: VALUES, run: () => floorLocal(plain, sink) },
  ], ROUNDS, 400)
  const [t, mixed] = await measureRounds([
    { name: 'getInt64 ts', itemsPerCall: VALUES, run: () => tsLoop(ts, sink) },
    { name: 'getInt64 wasm after TS reads', itemsPerCall: VALUES, run: () => mixedLoop(wasm, sink) },
  ], ROUNDS, 400)
  close()
  const ns = (perCall: number) => (perCall * 1e6) / VALUES
  return [['getInt64, dense integral w=17 (ns/call)', `${ns(w.millisecondsPerCall).toFixed(2)} ns`, `${ns(t.millisecondsPerCall).toFixed(2)} ns`,
    `${ratio(t.millisecondsPerCall, w.millisecondsPerCall)} faster`, '≤ 5 ns', met(ns(w.millisecondsPerCall) <= 5)],
  ['  the same loop over a Float64Array of the values (floor)', '', `${ns(floor.millisecondsPerCall).toFixed(2)} ns`, '', '', ''],
  ['  summed in a local variable: getInt64 wasm / the Float64Array floor', `${ns(wLocal.millisecondsPerCall).toFixed(2)} ns`, `${ns(floorL.millisecondsPerCall).toFixed(2)} ns`, '', '', ''],
  ['  getInt64 wasm once the TS column\'s reads ran too (both backends in one process)', `${ns(mixed.millisecondsPerCall).toFixed(2)} ns`, '', '', '', '']]
}

/** openColumns (copy in, XXH64 checksum, structure) + close of a 256 MiB file. */
async function openHuge(random: () => number): Promise<string[][]> {
  // Built once; nothing outside this function keeps it, so it is garbage when the case ends.
  const file = denseFile(valuesForBytes(HUGE_BYTES, 53), () => randomInteger(random, 53))
  const copy = new Uint8Array(file.length)
  const resident = createFileBuffer(file.length, { backend: 'wasm' })
  resident.bytes.set(file)
  // Two workers, as many as this machine has cores: worker 0 hashes each piece while this thread copies the next.
  const pool = createQueryPool({ threads: 2, backend: 'wasm' })
  const results = await measureRounds([
    { name: 'open wasm', itemsPerCall: file.length, run: () => openColumns(file, { backend: 'wasm' }).close() },
    { name: 'open in place wasm', itemsPerCall: file.length, run: () => resident.open().close() },
    { name: 'open ts', itemsPerCall: file.length, run: () => openColumns(file, { backend: 'ts' }).close() },
    { name: 'memcpy', itemsPerCall: file.length, run: () => copy.set(file) },
    { name: 'pool open', itemsPerCall: file.length, run: async () => (await pool.open(file)).close() },
  ], ROUNDS, 400)
  resident.release()
  await pool.close()
  const [wasm, inPlace, ts, memcpy, pooled] = results.map((result) => result.itemsPerSecond / 1e9)
  const sequential = 1 / (1 / memcpy + 1 / inPlace)
  return [
    [`open + checksum, ${(file.length / 2 ** 20).toFixed(0)} MiB (GB/s)`, `${wasm.toFixed(2)} GB/s`, `${ts.toFixed(2)} GB/s`, `${ratio(wasm, ts)} TS`, '≥ 15 GB/s', met(wasm >= 15)],
    [`open + checksum in place (FileBuffer), ${(file.length / 2 ** 20).toFixed(0)} MiB`, `${inPlace.toFixed(2)} GB/s`, `${ts.toFixed(2)} GB/s`, `${ratio(inPlace, ts)} TS`, '≥ 15 GB/s', met(inPlace >= 15)],
    ['TypedArray.set of the same file (memcpy)', '', `${memcpy.toFixed(2)} GB/s`, `open is ${((100 * wasm) / memcpy).toFixed(0)}% of memcpy`, '', ''],
    // Why open from JS bytes cannot reach 15 GB/s: only this thread can read the caller's (unshared) bytes, and
    // WebAssembly cannot read them where they are, so the copy into linear memory and the in-place open (checksum,
    // structure) run one after the other on one thread: their times add up, whatever the size of the pieces.
    ['  copy, then open in place, one after the other (open from bytes\' bound)', '', `${sequential.toFixed(2)} GB/s`,
      `open is ${((100 * wasm) / sequential).toFixed(0)}% of it`, '', ''],
    [`open + checksum by QueryPool.open (2 workers) from JS bytes, ${(file.length / 2 ** 20).toFixed(0)} MiB`, `${pooled.toFixed(2)} GB/s`, '',
      `${((100 * pooled) / memcpy).toFixed(0)}% of memcpy`, '≥ 15 GB/s', met(pooled >= 15)],
  ]
}

/** Runs every case, freeing each case's files before the next; returns the table rows. */
export async function benchWasm(only?: string): Promise<string[][]> {
  const random = seededRandom(42)
  const rows: string[][] = []
  const parts = { small: smallRuns, large: largeRuns, latency, open: openHuge }
  for (const [name, part] of Object.entries(parts)) {
    // A part run alone draws other (equally distributed) random values than in a full run.
    if (only !== undefined && only !== name) continue
    rows.push(...await part(random))
    collect()
  }
  return rows
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // --only=small|large|latency|open runs one part.
  const only = process.argv.find((argument) => argument.startsWith('--only='))?.slice('--only='.length)
  printTable(WASM_TITLE, WASM_HEADER, await benchWasm(only))
}
