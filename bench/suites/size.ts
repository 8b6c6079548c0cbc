/**
 * Suite "size": per dataset, the OIXK v1 and v2 files against the original
 * vega-datasets file, Parquet written by DuckDB (UNCOMPRESSED, SNAPPY, ZSTD),
 * Arrow IPC (apache-arrow, no compression) and DuckDB's own database file
 * (duckdb-storage.ts), all from the same rows; per
 * column too, with the block kinds `oixk inspect` reports for v1 and each v2
 * sequence's cascade. The v2 file is the v1 file merged into format 2 (a merge
 * writes what a flush of the same documents writes); it must pass the full
 * check before its sizes count. The JSON carries the format 2 size targets.
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { type DuckDBConnection } from '@duckdb/node-api'
import {
  Bool, Float64, Int64, Struct, Field, Table, TimestampMillisecond, Utf8, tableToIPC, vectorFromArray, type Vector,
} from 'apache-arrow'
import { describeReader } from '../../src/cli/inspect.js'
import { openColumns, type ColumnsReader } from '../../src/index.js'
import type { SequenceView } from '../../src/backend/backend.js'
import { signature, summarize } from '../../src/cascade/describe.js'
import { DATASET_NAMES, datasetsOfRun, formatTwoOf, note, oixkFile, openDuckDB, originalFile, readBytes, SCRATCH_DIR, sqlName, sqlString, writeSuiteResult } from './common.js'
import { type BenchField, datasetFields, loadDataset, writeParquet } from './duckdb-data.js'
import { duckdbStorage } from './duckdb-storage.js'

const CODECS = ['uncompressed', 'snappy', 'zstd'] as const

/** Block kinds of one sequence, as `oixk inspect` counts them: % of values per kind. */
interface SequenceKinds { sequence: string; values: number; blocks: number; bytes: number; percentOfValues: Record<string, number> }

/** Reads the per-column sequence lines out of describeReader's report (the one place that computes them). */
export function blockKindsFromInspect(report: string): Map<string, SequenceKinds[]> {
  const byColumn = new Map<string, SequenceKinds[]>()
  let current: SequenceKinds[] = []
  let pending: SequenceKinds | null = null
  for (const line of report.split('\n')) {
    const column = /^column (".*")$/.exec(line)
    if (column !== null) byColumn.set(JSON.parse(column[1]) as string, current = [])
    const sequence = /^ {2}(values|latitudes|longitudes|offsets) +(\d+) values? in (\d+) blocks?, (\d+) bytes$/.exec(line)
    if (sequence !== null) {
      pending = { sequence: sequence[1], values: Number(sequence[2]), blocks: Number(sequence[3]), bytes: Number(sequence[4]), percentOfValues: {} }
      current.push(pending)
    }
    const kinds = /^ {4}block kinds +(.*)$/.exec(line)
    if (kinds !== null && pending !== null) {
      for (const [, kind, , percent] of kinds[1].matchAll(/(\w+) (\d+) \(([\d.]+)%/g)) pending.percentOfValues[kind] = Number(percent)
    }
  }
  return byColumn
}

/** Each sequence of a v2 column by role: its cascade signature (e.g. "dictionary(867 entries, by frequency)[…]") and bytes. */
function v2Sequences(reader: ColumnsReader, name: string): { cascades: Record<string, string>; bytes: Record<string, number> } {
  const column = reader.getColumn(name)
  const cascades: Record<string, string> = {}, bytes: Record<string, number> = {}
  if (column === null) return { cascades, bytes }
  const add = (role: string, view: SequenceView) => {
    const summary = summarize(view, 2)
    cascades[role] = signature(summary)
    bytes[role] = summary.bytes
  }
  if (column.offsets !== null) add('offsets', column.offsets)
  add(column.longitudes === null ? 'values' : 'latitudes', column.values)
  if (column.longitudes !== null) add('longitudes', column.longitudes)
  return { cascades, bytes }
}

/** Compressed bytes per top-level column of a Parquet file (struct children summed). */
async function parquetColumnBytes(connection: DuckDBConnection, path: string): Promise<Record<string, number>> {
  const reader = await connection.runAndReadAll(
    `SELECT path_in_schema, total_compressed_size FROM parquet_metadata(${sqlString(path)})`)
  const sizes: Record<string, number> = {}
  for (const [schemaPath, bytes] of reader.getRowsJS() as [string, bigint | number][]) {
    // Nested paths read "location, lat"; field names here contain no ", ".
    const top = schemaPath.split(', ')[0]
    sizes[top] = (sizes[top] ?? 0) + Number(bytes)
  }
  return sizes
}

/** An Arrow vector of one field from DuckDB's JS values (dates as ms, geo as struct of two doubles). */
function arrowVector(field: BenchField, values: unknown[]): Vector {
  switch (field.type) {
    case 'keyword': case 'text': return vectorFromArray(values as (string | null)[], new Utf8())
    case 'integral': return vectorFromArray(values as (bigint | null)[], new Int64())
    case 'fractional': return vectorFromArray(values as (number | null)[], new Float64())
    case 'bool': return vectorFromArray(values as (boolean | null)[], new Bool())
    case 'date': return vectorFromArray(values.map((value) => value === null ? null : (value as Date).getTime()), new TimestampMillisecond())
    case 'geo_point': {
      const type = new Struct([new Field('lat', new Float64(), true), new Field('lon', new Float64(), true)])
      return vectorFromArray(values as ({ lat: number; lon: number } | null)[], type)
    }
  }
}

/** Arrow IPC (file format, uncompressed) of the table: total bytes and bytes of each column's buffers. */
async function arrowSizes(connection: DuckDBConnection, table: string, fields: BenchField[]): Promise<{ bytes: number; columns: Record<string, number> }> {
  const reader = await connection.runAndReadAll(`SELECT * FROM ${sqlName(table)}`)
  const columns = reader.getColumnsJS() as unknown[][]
  const vectors: Record<string, Vector> = {}
  fields.forEach((field, index) => { vectors[field.name] = arrowVector(field, columns[index]) })
  const arrow = new Table(vectors)
  const perColumn: Record<string, number> = {}
  for (const field of fields) perColumn[field.name] = vectors[field.name].byteLength
  return { bytes: tableToIPC(arrow, 'file').byteLength, columns: perColumn }
}

/** Sizes of one dataset in every format, whole and per column. */
async function measureDataset(connection: DuckDBConnection, name: string): Promise<Record<string, unknown>> {
  const fields = datasetFields(name)
  const oixkPath = await oixkFile(name)
  const bytes = readBytes(oixkPath)
  const reader = openColumns(bytes, { backend: 'ts', fileName: oixkPath })
  const kinds = blockKindsFromInspect(describeReader(reader))
  const { bytes: v2Bytes, mergeMilliseconds: v2Milliseconds } = formatTwoOf(bytes, oixkPath)
  const v2 = openColumns(v2Bytes, { backend: 'ts', fileName: `${oixkPath} (v2)` })
  const table = 'rows'
  await loadDataset(connection, name, table)
  const rowCount = Number((await connection.runAndReadAll(`SELECT count(*) FROM ${sqlName(table)}`)).getRowsJS()[0][0])
  const parquet: Record<string, number> = {}
  const parquetColumns: Record<string, Record<string, number>> = {}
  for (const codec of CODECS) {
    const path = join(SCRATCH_DIR, `${name}.${codec}.parquet`)
    await writeParquet(connection, name, path, codec)
    parquet[codec] = statSync(path).size
    parquetColumns[codec] = await parquetColumnBytes(connection, path)
  }
  const arrow = await arrowSizes(connection, table, fields)
  const duckdb = await duckdbStorage(connection, table, fields.map((field) => field.name), name)
  const columns = fields.map((field) => {
    const column = reader.getColumn(field.name)
    const sequences = v2Sequences(v2, field.name)
    const dictionary = v2.getColumn(field.name)?.dictionary ?? null
    return {
      name: field.name, type: field.type,
      layout: column?.layout ?? null,
      oixkBytes: column?.sectionLength ?? 0,
      oixkV2Bytes: v2.getColumn(field.name)?.sectionLength ?? 0,
      v2Cascades: sequences.cascades,
      v2SequenceBytes: sequences.bytes,
      // Keyword terms are stored as they are in both formats: their UTF-8 bytes tell how much of a column they are.
      dictionaryTerms: dictionary === null ? null : { count: dictionary.termCount, bytes: dictionary.totalBytes },
      sequences: kinds.get(field.name) ?? [],
      parquetBytes: Object.fromEntries(CODECS.map((codec) => [codec, parquetColumns[codec][field.name] ?? 0])),
      arrowBufferBytes: arrow.columns[field.name],
      duckdbStorage: duckdb.columns[field.name],
    }
  })
  reader.close()
  v2.close()
  return {
    name, rows: rowCount, maxDoc: reader.maxDoc,
    originalFile: originalFile(name).replace(/^.*node_modules\//, ''), originalBytes: statSync(originalFile(name)).size,
    oixkBytes: bytes.length, oixkV2Bytes: v2Bytes.length, oixkV2MergeMilliseconds: Math.round(v2Milliseconds),
    parquetBytes: parquet, arrowIpcBytes: arrow.bytes,
    duckdbStorage: { version: duckdb.version, blockSize: duckdb.blockSize, usedBlockBytes: duckdb.usedBlockBytes, fileBytes: duckdb.fileBytes },
    columns,
  }
}

const { connection, close } = await openDuckDB('default')
const datasets: Record<string, unknown>[] = []
for (const name of datasetsOfRun()) {
  note(`size: ${name}`)
  datasets.push(await measureDataset(connection, name))
}
close()
const path = writeSuiteResult('size', {
  // The format 2 size targets of the issue (MB = 10^6 bytes); the report measures them from the figures below.
  targets: { flights3mV2Bytes: 12_600_000, nonKeywordV2Bytes: 8_500_000, nonKeywordDatasets: DATASET_NAMES },
  description: 'Bytes per dataset: OIXK v1 and v2 (format 2, cascading encodings) vs the original file, Parquet written by DuckDB from the same rows (uncompressed, snappy, zstd), Arrow IPC file (apache-arrow, uncompressed, strings as plain Utf8), DuckDB\'s own storage (the table in a DuckDB database file, default block size, checkpointed: blocks in use × block size). Per column: OIXK v1 and v2 section bytes, v1 block kinds (% of values), v2 cascades and sequence bytes, keyword terms, Parquet column-chunk bytes, Arrow buffer bytes, DuckDB segment bytes and compressions (pragma_storage_info). Each v2 file passes the full check (verify) before it is measured; its merge time is one run.',
  datasets,
})
note(`wrote ${path}`)
