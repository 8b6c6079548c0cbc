/**
 * Puts a dataset into DuckDB with the same rows and types the OIXK file holds,
 * so sizes and queries compare like with like: flights-3m straight from its
 * Parquet file; the others from the importer's cleaned rows (an NDJSON file
 * read with explicit column types). Dates become TIMESTAMP (ms), geo points
 * STRUCT(lat, lon), keywords VARCHAR, integers BIGINT, fractions DOUBLE.
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cleanRecord, Drops } from '../../scripts/importers/clean.js'
import { findDataset } from '../../scripts/importers/datasets.js'
import type { SchemaField } from '../../src/index.js'
import { originalFile, SCRATCH_DIR, sqlName, sqlString } from './common.js'

/** A column as the benchmark sees it: name and OIXK field type. */
export interface BenchField {
  name: string
  type: SchemaField['type']
}

/** The fields of a dataset that have a column (text fields have none). */
export function datasetFields(name: string): BenchField[] {
  if (name === 'flights-3m') {
    return [
      { name: 'date', type: 'date' }, { name: 'delay', type: 'integral' }, { name: 'distance', type: 'integral' },
      { name: 'origin', type: 'keyword' }, { name: 'destination', type: 'keyword' },
    ]
  }
  return findDataset(name).schema.fields.filter((field) => field.type !== 'text').map(({ name: field, type }) => ({ name: field, type }))
}

const JSON_TYPES: Record<SchemaField['type'], string> = {
  keyword: 'VARCHAR', text: 'VARCHAR', integral: 'BIGINT', fractional: 'DOUBLE', date: 'BIGINT', bool: 'BOOLEAN',
  geo_point: 'STRUCT(lat DOUBLE, lon DOUBLE)',
}

/** One JSON value; bigints (integers beyond 2^53) are written as exact digits. */
function jsonValue(value: unknown): string {
  return typeof value === 'bigint' ? value.toString() : JSON.stringify(value)
}

/** Writes the cleaned rows of an imported dataset as NDJSON (cached); returns its path. */
function cleanedRowsFile(name: string): string {
  const path = join(SCRATCH_DIR, `${name}.ndjson`)
  if (existsSync(path)) return path
  mkdirSync(SCRATCH_DIR, { recursive: true })
  const { schema, rows } = findDataset(name)
  const fields = datasetFields(name)
  const drops = new Drops()
  const document: Record<string, unknown> = {}
  const lines: string[] = []
  for (const raw of rows()) {
    cleanRecord(schema, raw, drops, document)
    // Fields in a fixed order, so the file is the same on every run.
    lines.push(`{${fields.map((field) => `${JSON.stringify(field.name)}:${jsonValue(document[field.name] ?? null)}`).join(',')}}`)
  }
  writeFileSync(path, lines.join('\n') + '\n')
  return path
}

/** The source expression (a FROM clause body) that yields the dataset's rows, typed. */
function sourceQuery(name: string): string {
  if (name === 'flights-3m') return `SELECT * FROM read_parquet(${sqlString(originalFile(name))})`
  const fields = datasetFields(name)
  const columns = fields.map((field) => `${sqlString(field.name)}: ${sqlString(JSON_TYPES[field.type])}`).join(', ')
  const select = fields.map((field) => field.type === 'date'
    ? `epoch_ms(${sqlName(field.name)}) AS ${sqlName(field.name)}` : sqlName(field.name)).join(', ')
  return `SELECT ${select} FROM read_json(${sqlString(cleanedRowsFile(name))}, format = 'newline_delimited', columns = {${columns}})`
}

/** Creates table `table` holding the dataset's rows. */
export async function loadDataset(connection: DuckDBConnection, name: string, table: string): Promise<void> {
  await connection.run(`CREATE OR REPLACE TABLE ${sqlName(table)} AS ${sourceQuery(name)}`)
}

/**
 * The Parquet file the query suite loads into DuckDB: the original for
 * flights-3m, else the cleaned rows written with ZSTD (cached).
 */
export async function queryParquetFile(connection: DuckDBConnection, name: string): Promise<string> {
  if (name === 'flights-3m') return originalFile(name)
  const path = join(SCRATCH_DIR, `${name}.zstd.parquet`)
  if (!existsSync(path)) await writeParquet(connection, name, path, 'zstd')
  return path
}

/** Writes the dataset's rows as Parquet with a compression codec (uncompressed, snappy, zstd). */
export async function writeParquet(connection: DuckDBConnection, name: string, path: string, compression: string): Promise<void> {
  mkdirSync(SCRATCH_DIR, { recursive: true })
  await connection.run(`COPY (${sourceQuery(name)}) TO ${sqlString(path)} (FORMAT parquet, COMPRESSION ${compression})`)
}
