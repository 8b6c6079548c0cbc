/**
 * Suite "decode": every column of flights-3m (quick: flights-200k) into typed
 * arrays, by OIXK (WebAssembly and pure TypeScript, into preallocated arrays),
 * hyparquet and parquet-wasm (from the Parquet file) and DuckDB (read_parquet,
 * numbers copied out of its vectors, strings read per row), beside a memcpy of
 * the same number of output bytes.
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import { tableFromIPC } from 'apache-arrow'
import { parquetMetadata, parquetRead } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'
import { readParquet } from 'parquet-wasm/node'
import { createValueBuffer, openColumns, type ValueBuffer } from '../../src/index.js'
import type { Column } from '../../src/read/column.js'
import { memcpyBaseline, note, oixkFile, openDuckDB, QUICK, readBytes, sqlString, timeTasks, type TimedTask, writeSuiteResult } from './common.js'
import { queryParquetFile } from './duckdb-data.js'

const DATASET = QUICK ? 'flights-200k' : 'flights-3m'
const TIME = QUICK ? 300 : 1500
const SLOW_TIME = QUICK ? 300 : 3000

type Destination = BigInt64Array | Float64Array | Int32Array
const INT32_MIN = -(2n ** 31n), INT32_MAX = 2n ** 31n - 1n

/** The narrowest typed array readValues fills for the column: ints that fit → Int32Array, doubles → Float64Array, else raw i64. */
function destinationsFor(column: Column): { part: 'latitude' | 'longitude'; array: Destination }[] {
  const count = column.totalValueCount
  if (column.type === 'geo_point') return [{ part: 'latitude', array: new Float64Array(count) }, { part: 'longitude', array: new Float64Array(count) }]
  if (column.type === 'fractional') return [{ part: 'latitude', array: new Float64Array(count) }]
  const fits = column.type !== 'date' && column.minRaw >= INT32_MIN && column.maxRaw <= INT32_MAX
  return [{ part: 'latitude', array: fits ? new Int32Array(count) : new BigInt64Array(count) }]
}

/** An OIXK decode task: open once, then every column into arrays allocated once. */
function oixkTask(bytes: Uint8Array, backend: 'wasm' | 'ts'): { task: TimedTask; values: number; outputBytes: number; kinds: string[] } {
  const reader = openColumns(bytes, { backend })
  const targets = reader.columns.flatMap((column) => destinationsFor(column).map((target) => ({ column, ...target })))
  const run = (): void => {
    for (const { column, part, array } of targets) column.readValues(0, array, part)
  }
  return {
    task: { name: `OIXK ${backend === 'wasm' ? 'WebAssembly' : 'pure TypeScript'}`, run },
    values: targets.reduce((sum, target) => sum + target.array.length, 0),
    outputBytes: targets.reduce((sum, target) => sum + target.array.byteLength, 0),
    kinds: targets.map(({ column, part, array }) => `${column.name}${column.type === 'geo_point' ? `.${part}` : ''}: ${array.constructor.name}`),
  }
}

/**
 * OIXK WebAssembly decoding into ValueBuffers: the arrays live in linear memory,
 * so the kernels write them in place and nothing is copied out.
 */
function oixkInPlaceTask(bytes: Uint8Array): TimedTask {
  const buffers: { column: Column; part: 'latitude' | 'longitude'; buffer: ValueBuffer<'int64' | 'float64' | 'int32'> }[] = []
  const reader = openColumns(bytes, { backend: 'wasm' })
  for (const column of reader.columns) {
    for (const { part, array } of destinationsFor(column)) {
      const kind = array instanceof Int32Array ? 'int32' : array instanceof Float64Array ? 'float64' : 'int64'
      buffers.push({ column, part, buffer: createValueBuffer(kind, array.length, { backend: 'wasm' }) })
    }
  }
  return {
    name: 'OIXK WebAssembly into ValueBuffers',
    // .array is re-read per call: memory growth elsewhere would detach a kept view.
    run: () => { for (const { column, part, buffer } of buffers) column.readValues(0, buffer.array, part) },
  }
}

/** hyparquet: every column chunk of every row group, kept as hyparquet returns it. */
function hyparquetTask(file: ArrayBuffer): TimedTask {
  const metadata = parquetMetadata(file)
  return {
    name: 'hyparquet',
    run: async () => {
      let cells = 0
      await parquetRead({ file, metadata, compressors, onChunk: ({ columnData }) => { cells += columnData.length } })
      if (cells === 0) throw new Error('hyparquet decoded nothing')
    },
  }
}

/** parquet-wasm: to an Arrow table (typed buffers; strings as offsets + bytes), then opened by apache-arrow. */
function parquetWasmTask(bytes: Uint8Array): TimedTask {
  return {
    name: 'parquet-wasm (to Arrow)',
    run: () => {
      const table = tableFromIPC(readParquet(bytes).intoIPCStream())
      if (table.numRows === 0) throw new Error('parquet-wasm decoded nothing')
    },
  }
}

/** DuckDB decoding alone: read_parquet materialised in its own vectors, nothing read into JS. */
function duckdbNativeTask(connection: DuckDBConnection, path: string, rows: number, label: string): TimedTask {
  return {
    name: `DuckDB ${label}, no copy to JS`,
    run: async () => {
      const result = await connection.run(`SELECT * FROM read_parquet(${sqlString(path)})`)
      let row = 0
      for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) row += chunk.rowCount
      if (row !== rows) throw new Error(`DuckDB read ${row} rows, expected ${rows}`)
    },
  }
}

/** DuckDB: read_parquet, then numbers copied from each chunk's vector memory, strings read per row. */
function duckdbTask(connection: DuckDBConnection, path: string, rows: number, label: string): TimedTask {
  return {
    name: `DuckDB ${label}`,
    run: async () => {
      const result = await connection.run(`SELECT * FROM read_parquet(${sqlString(path)})`)
      const outputs: (ArrayBufferView | unknown[])[] = []
      let row = 0
      for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
        for (let index = 0; index < chunk.columnCount; index++) {
          const vector = chunk.getColumnVector(index)
          // Fixed-width vectors keep their values in a typed view of DuckDB's memory (a private field): copy it whole.
          const items = (vector as unknown as { items?: BigInt64Array | Float64Array | Int32Array }).items
          if (items instanceof BigInt64Array || items instanceof Float64Array || items instanceof Int32Array) {
            const Kind = items.constructor as new (length: number) => BigInt64Array | Float64Array | Int32Array
            outputs[index] ??= new Kind(rows)
            ;(outputs[index] as BigInt64Array | Float64Array | Int32Array).set(items.subarray(0, chunk.rowCount) as never, row)
          } else {
            const strings = (outputs[index] ??= new Array<unknown>(rows)) as unknown[]
            for (let item = 0; item < chunk.rowCount; item++) strings[row + item] = vector.getItem(item)
          }
        }
        row += chunk.rowCount
      }
      if (row !== rows) throw new Error(`DuckDB read ${row} rows, expected ${rows}`)
    },
  }
}

note(`decode: ${DATASET}`)
const oixkBytes = readBytes(await oixkFile(DATASET))
const wasm = oixkTask(oixkBytes, 'wasm')
const ts = oixkTask(oixkBytes, 'ts')
const rows = openColumns(oixkBytes, { backend: 'ts' }).maxDoc
const one = await openDuckDB(1)
const parquetPath = await queryParquetFile(one.connection, DATASET)
const parquetBytes = readBytes(parquetPath)
const all = await openDuckDB('default')
const fast = await timeTasks([wasm.task, ts.task, oixkInPlaceTask(oixkBytes)], TIME)
note('decode: OIXK done')
const slow = await timeTasks([
  hyparquetTask(parquetBytes.buffer as ArrayBuffer), parquetWasmTask(parquetBytes),
  duckdbTask(one.connection, parquetPath, rows, '1 thread'), duckdbTask(all.connection, parquetPath, rows, 'default threads'),
  duckdbNativeTask(one.connection, parquetPath, rows, '1 thread'), duckdbNativeTask(all.connection, parquetPath, rows, 'default threads'),
], SLOW_TIME, QUICK ? 3 : 3, 1)
one.close()
all.close()
const memcpy = await memcpyBaseline(wasm.outputBytes, TIME)
const wasmMs = fast[0].medianMs
const results = [...fast, ...slow].map((timing) => ({
  ...timing,
  valuesPerSecond: wasm.values / timing.medianMs * 1000,
  timesOixkWasm: timing.medianMs / wasmMs,
  memcpyFraction: memcpy.medianMs / timing.medianMs,
}))
const path = writeSuiteResult('decode', {
  description: 'Decode every column to typed arrays, median ms per full decode. OIXK reads into arrays allocated once (kinds listed), and (WebAssembly) into ValueBuffers in linear memory, where no copy out is needed; hyparquet and parquet-wasm decode the Parquet file (parquet-wasm to an Arrow table of typed buffers, strings as offsets + bytes; hyparquet to its own arrays, strings as JS strings); DuckDB runs read_parquet and copies numbers out of its vectors, strings per row (the \"no copy to JS\" rows only fetch its chunks: its decode with the values left in DuckDB). memcpyFraction = memcpy of the OIXK output bytes / this time.',
  dataset: DATASET, rows, parquetFile: parquetPath.replace(/^.*node_modules\//, ''), parquetBytes: parquetBytes.length, oixkBytes: oixkBytes.length,
  oixkOutputs: wasm.kinds, values: wasm.values, outputBytes: wasm.outputBytes,
  memcpy,
  targets: { oixkWasmMs: 10, oixkTsFasterThanParquetWasm: true },
  met: { oixkWasmMs: wasmMs <= 10, oixkTsFasterThanParquetWasm: fast[1].medianMs < slow[1].medianMs },
  results,
})
note(`wrote ${path}`)
for (const result of results) note(`${result.name.padEnd(28)} ${result.medianMs.toFixed(2).padStart(9)} ms  ${result.timesOixkWasm.toFixed(1)}× OIXK WASM`)
