/**
 * Plumbing shared by the real-data suites: machine description, result files,
 * median timings (tinybench, sync and async tasks), the datasets and their
 * OIXK files, and DuckDB instances.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { Bench } from 'tinybench'
import { vegaDataPath } from '../../scripts/import-flights.js'
import { DATASETS } from '../../scripts/importers/datasets.js'
import { mergeColumns, openColumns } from '../../src/index.js'

import { QUICK_RESULTS_DIR, RESULTS_DIR } from './paths.js'

export { QUICK_RESULTS_DIR, RESULTS_DIR, SCRATCH_DIR } from './paths.js'

/** True when the suite runs CI-sized (`--quick`). */
export const QUICK = process.argv.includes('--quick')

/** Every dataset the importers handle; flights-3m comes from scripts/import-flights.ts. */
export const DATASET_NAMES: readonly string[] = ['flights-3m', ...DATASETS.map((dataset) => dataset.name)]
/** The datasets quick runs use: all but flights-3m (its import alone takes seconds). */
export const QUICK_DATASET_NAMES: readonly string[] = DATASET_NAMES.filter((name) => name !== 'flights-3m')

/** The datasets of this run (`--only=NAME,...` narrows them, for trying one suite on one dataset). */
export function datasetsOfRun(): readonly string[] {
  const only = process.argv.find((argument) => argument.startsWith('--only='))?.slice('--only='.length).split(',')
  const names = QUICK ? QUICK_DATASET_NAMES : DATASET_NAMES
  return only === undefined ? names : names.filter((name) => only.includes(name))
}

/** The machine and run a result was measured on. */
export interface MachineInfo {
  cpuModel: string
  cores: number
  memoryBytes: number
  node: string
  platform: string
  date: string
  quick: boolean
}

/** Describes this machine and run. */
export function machineInfo(): MachineInfo {
  return {
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryBytes: totalmem(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    date: new Date().toISOString(),
    quick: QUICK,
  }
}

/** Writes a suite's JSON (machine info first) where this run's results go; returns the path. */
export function writeSuiteResult(suite: string, payload: Record<string, unknown>): string {
  const directory = QUICK ? QUICK_RESULTS_DIR : RESULTS_DIR
  mkdirSync(directory, { recursive: true })
  const path = join(directory, `${suite}.json`)
  const text = JSON.stringify({ suite, machine: machineInfo(), ...payload }, (_key, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value, 2)
  writeFileSync(path, text + '\n')
  return path
}

/** A timed task: sync or async; its result may be checked by the caller. */
export interface TimedTask {
  name: string
  run: () => unknown
}

/** Median, mean and sample count of one task, in milliseconds. */
export interface Timing {
  name: string
  medianMs: number
  meanMs: number
  samples: number
}

/**
 * Runs tasks one after another in one tinybench run and reports medians. `time`
 * is the budget per task in ms; at least `iterations` samples are taken, after
 * `warmupIterations` unmeasured calls (slow decoders get 1).
 */
export async function timeTasks(tasks: TimedTask[], time: number, iterations = 5, warmupIterations = 2): Promise<Timing[]> {
  const bench = new Bench({ time, iterations, warmup: true, warmupTime: Math.min(100, time / 4), warmupIterations })
  for (const task of tasks) bench.add(task.name, task.run as () => void)
  await bench.run()
  return tasks.map((task, index) => {
    const result = bench.tasks[index].result
    if (result === undefined || !('latency' in result)) throw new Error(`benchmark ${task.name} failed: ${String((result as { error?: unknown } | undefined)?.error ?? JSON.stringify(result))}`)
    return { name: task.name, medianMs: result.latency.p50 ?? result.latency.mean, meanMs: result.latency.mean, samples: result.latency.samples?.length ?? 0 }
  })
}

/** The OIXK file of a dataset (build/NAME.oixk), importing it first when missing. */
export async function oixkFile(name: string): Promise<string> {
  const path = join('build', `${name}.oixk`)
  if (existsSync(path)) return path
  mkdirSync('build', { recursive: true })
  if (name === 'flights-3m') {
    const { importFlights } = await import('../../scripts/import-flights.js')
    writeFileSync(path, (await importFlights()).bytes)
  } else {
    const { importDataset } = await import('../../scripts/importers/datasets.js')
    writeFileSync(path, importDataset(name).bytes)
  }
  return path
}

/**
 * The format 2 file of the same documents: the format 1 file merged with format 2
 * (a merge writes what a flush writes), refused unless it passes the full check.
 */
export function formatTwoOf(bytes: Uint8Array, fileName: string): { bytes: Uint8Array; mergeMilliseconds: number } {
  using reader = openColumns(bytes, { backend: 'ts', fileName })
  const started = performance.now()
  const v2 = mergeColumns([{ reader, docMap: Int32Array.from({ length: reader.maxDoc }, (_, doc) => doc) }], { maxDoc: reader.maxDoc, format: 2 })!
  const mergeMilliseconds = performance.now() - started
  using check = openColumns(v2, { backend: 'ts', fileName: `${fileName} (v2)` })
  // Figures of a file that is not format 2, or not what a flush writes, would mean nothing.
  if (check.format !== 2) throw new Error(`${fileName}: the merge with format 2 wrote a format ${check.format} file`)
  check.verify()
  return { bytes: v2, mergeMilliseconds }
}

/** Reads a file into a Uint8Array backed by its own ArrayBuffer. */
export function readBytes(path: string): Uint8Array {
  const buffer = readFileSync(path)
  return new Uint8Array(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength))
}

/** The original file of a dataset in vega-datasets. */
export function originalFile(name: string): string {
  return vegaDataPath(name === 'flights-3m' ? 'flights-3m.parquet' : DATASETS.find((dataset) => dataset.name === name)!.file)
}

/** A DuckDB instance and connection; threads: a number, or 'default' for DuckDB's own choice (all cores). */
export async function openDuckDB(threads: number | 'default'): Promise<{ connection: DuckDBConnection; close: () => void }> {
  const options: Record<string, string> = threads === 'default' ? {} : { threads: String(threads) }
  const instance = await DuckDBInstance.create(':memory:', options)
  const connection = await instance.connect()
  return { connection, close: () => { connection.closeSync(); instance.closeSync() } }
}

/** A SQL string literal. */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`
}

/** A SQL identifier (field names have spaces and $ signs). */
export function sqlName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

/** The memcpy baseline: ms to copy `bytes` with TypedArray.set (median), and the rate in GB/s. */
export async function memcpyBaseline(bytes: number, time: number): Promise<{ bytes: number; medianMs: number; gigabytesPerSecond: number }> {
  const source = new Uint8Array(bytes).fill(7)
  const target = new Uint8Array(bytes)
  const [timing] = await timeTasks([{ name: 'memcpy', run: () => target.set(source) }], time)
  return { bytes, medianMs: timing.medianMs, gigabytesPerSecond: bytes / timing.medianMs / 1e6 }
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so runs pick the same documents. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Prints a one-line progress note to stderr (the JSON is the result; this is for the person waiting). */
export function note(text: string): void {
  process.stderr.write(`  ${text}\n`)
}
