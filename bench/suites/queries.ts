/**
 * Suite "queries": issue 5's questions on flights-3m, and the questions that
 * apply to each other dataset, answered by DuckDB (1 thread and default
 * threads, the table loaded from the same Parquet file), a plain-JS loop over
 * already-decoded typed arrays, and the OIXK query API on both backends, on the format 1 file and on the
 * format 2 file of the same documents (issue 26: v2 beside v1 and DuckDB, one run). Answers
 * are compared before timing; OIXK rows read "not available yet" until the
 * API answers (no figure is made up).
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import { openColumns } from '../../src/index.js'
import { createQueryPool } from '../../src/node/index.js'
import type { ColumnsReader } from '../../src/read/reader.js'
import { datasetsOfRun, formatTwoOf, note, oixkFile, openDuckDB, QUICK, readBytes, sqlString, timeTasks, type TimedTask, writeSuiteResult } from './common.js'
import { datasetFields, queryParquetFile } from './duckdb-data.js'
import { queryApiMissing, probe } from './query-api.js'
import {
  aggregateCase, boundingBoxCase, type CaseContext, decodeNumbers, facetCase, filterThenFacetCase, histogramDayCase, histogramStepCase, type Prepared,
  type PooledSegmentLike, type QueryCase, rangeCase,
} from './query-cases.js'
import { findDataset } from '../../scripts/importers/datasets.js'

const TIME = QUICK ? 60 : 400
const TABLE = 't'
const PARQUET_VIEW = 'pv'
/** Placeholder the cases write for the relation; each DuckDB engine puts its own in. */
const RELATION = '__relation__'
/** Issue 5's check: flights with delay in [10, 60]. */
const FLIGHTS_DELAYED = 657_373
/** Workers of the query pool: one per core of these machines. */
const POOL_THREADS = 2

/**
 * Loads the dataset's Parquet file into table t (flights-3m: with its row number and a
 * fixed 10% sample flag) and defines view pv straight over the file: DuckDB groups
 * Parquet dictionary pages faster than its own in-memory strings, so both are timed.
 */
async function loadTable(connection: DuckDBConnection, name: string, parquet: string): Promise<void> {
  await connection.run(name === 'flights-3m'
    ? `CREATE OR REPLACE TABLE ${TABLE} AS SELECT * EXCLUDE (file_row_number), file_row_number AS doc, hash(file_row_number) % 10 = 0 AS sample FROM read_parquet(${sqlString(parquet)}, file_row_number = true)`
    : `CREATE OR REPLACE TABLE ${TABLE} AS SELECT * FROM read_parquet(${sqlString(parquet)})`)
  await connection.run(`CREATE OR REPLACE VIEW ${PARQUET_VIEW} AS SELECT * FROM read_parquet(${sqlString(parquet)})`)
}

/** Issue 5's list on flights-3m. */
function flightsCases(context: CaseContext): QueryCase[] {
  const field = (name: string) => datasetFields('flights-3m').find((candidate) => candidate.name === name)!
  return [
    { ...facetCase(context, 'origin', false), targetMs: 1.5 },
    facetCase(context, 'origin', true),
    { ...rangeCase(context, field('delay'), 10, 60), targetMs: 1 },
    { ...aggregateCase(context, field('distance')), targetMs: 1 },
    histogramDayCase(context, 'date'),
    histogramStepCase(context, 'delay', -60, 15, 20),
    filterThenFacetCase(context, 'delay', 10, 60, 'origin'),
  ]
}

/** The questions that apply to another dataset: a facet, ranges over the middle half, aggregates, a box. */
function datasetCases(name: string, context: CaseContext): QueryCase[] {
  const fields = datasetFields(name).filter((field) => context.decoder.getColumn(field.name) !== null)
  const schema = findDataset(name).schema.fields
  const cases: QueryCase[] = []
  const facet = fields.find((field) => schema.find((candidate) => candidate.name === field.name)?.facet === true) ?? fields.find((field) => field.type === 'keyword')
  if (facet !== undefined) cases.push(facetCase(context, facet.name, false))
  for (const type of ['integral', 'date'] as const) {
    const field = fields.find((candidate) => candidate.type === type)
    if (field === undefined) continue
    const column = context.decoder.getColumn(field.name)!
    const min = Number(column.minRaw), max = Number(column.maxRaw)
    cases.push(name === 'flights-200k' && field.name === 'delay' ? rangeCase(context, field, 10, 60)
      : rangeCase(context, field, Math.floor(min + (max - min) / 4), Math.floor(min + (3 * (max - min)) / 4)))
    cases.push(aggregateCase(context, field))
  }
  const fractional = fields.find((field) => field.type === 'fractional')
  if (fractional !== undefined) cases.push(aggregateCase(context, fractional))
  const geo = fields.find((field) => field.type === 'geo_point')
  if (geo !== undefined) {
    const column = context.decoder.getColumn(geo.name)!
    const latitudes = decodeNumbers(column, 'latitude'), longitudes = decodeNumbers(column, 'longitude')
    const middle = (values: Float64Array | Int32Array): [number, number] => {
      const sorted = Float64Array.from(values).sort()
      return [sorted[Math.floor(sorted.length / 4)], sorted[Math.floor((3 * sorted.length) / 4)]]
    }
    const [minLatitude, maxLatitude] = middle(latitudes), [minLongitude, maxLongitude] = middle(longitudes)
    cases.push(boundingBoxCase(context, geo.name, { minLatitude, maxLatitude, minLongitude, maxLongitude }))
  }
  return cases
}

/** One engine's row of a query. */
interface EngineRow { engine: string; status: string; medianMs?: number; agrees?: boolean; timesFasterThanDuckDB1?: number; timesFasterThanDuckDBDefault?: number }

const DUCKDB_ENGINES = [
  { engine: 'DuckDB table, 1 thread', threads: 'one', relation: TABLE },
  { engine: 'DuckDB table, default threads', threads: 'all', relation: TABLE },
  { engine: 'DuckDB on Parquet, 1 thread', threads: 'one', relation: PARQUET_VIEW },
  { engine: 'DuckDB on Parquet, default threads', threads: 'all', relation: PARQUET_VIEW },
] as const

/** Checks, times and records one question on every engine. */
async function runCase(
  query: QueryCase, duck: { one: DuckDBConnection; all: DuckDBConnection }, readers: Record<'v1' | 'v2', Record<'wasm' | 'ts', ColumnsReader>>,
  pools: { engine: string; segment: PooledSegmentLike }[],
): Promise<Record<string, unknown>> {
  const sqlOn = (relation: string) => query.sql.replaceAll(RELATION, relation)
  const duckRows = async (connection: DuckDBConnection, relation: string) => (await connection.runAndReadAll(sqlOn(relation))).getRowsJS() as unknown[][]
  const expected = query.duckAnswer(await duckRows(duck.one, TABLE))
  const tasks: TimedTask[] = []
  const rows: EngineRow[] = []
  const add = (engine: string, run: () => unknown, answer: string) => {
    tasks.push({ name: engine, run })
    rows.push({ engine, status: 'ok', agrees: answer === expected })
  }
  for (const { engine, threads, relation } of DUCKDB_ENGINES) {
    // The sample flag exists only in the table: over the file, DuckDB would have to hash every row first.
    if (relation === PARQUET_VIEW && query.sql.includes('sample')) {
      rows.push({ engine, status: 'n/a: the 10% sample flag lives in the table' })
      continue
    }
    const connection = duck[threads]
    const sql = sqlOn(relation)
    add(engine, () => connection.runAndReadAll(sql), query.duckAnswer(await duckRows(connection, relation)))
  }
  if (query.plainJs === null) rows.push({ engine: 'plain JS loop', status: 'n/a: values are not one per document' })
  else {
    query.plainJs.run()
    add('plain JS loop', query.plainJs.run, query.plainJs.answer())
  }
  for (const format of ['v1', 'v2'] as const) {
    for (const backend of ['wasm', 'ts'] as const) {
      const engine = `OIXK ${format === 'v2' ? 'v2 ' : ''}${backend === 'wasm' ? 'WebAssembly' : 'pure TypeScript'}`
      const reader = readers[format][backend]
      const missing = queryApiMissing(reader)
      let prepared: Prepared | null = null
      const failure = missing ?? probe(() => { prepared = query.oixk(reader); prepared.run() })
      if (failure !== null || prepared === null) rows.push({ engine, status: failure ?? 'error: no computation' })
      else add(engine, (prepared as Prepared).run, (prepared as Prepared).answer())
    }
  }
  for (const { engine, segment } of pools) {
    if (query.pooled === undefined) continue
    const prepared = query.pooled(segment)
    try {
      await prepared.run()
      add(engine, prepared.run, prepared.answer())
    } catch (error) {
      rows.push({ engine, status: `error: ${error instanceof Error ? error.message : String(error)}` })
    }
  }
  const timings = await timeTasks(tasks, TIME, 10)
  // Ratios against DuckDB's best way (table or Parquet) at each thread count.
  const best = (threads: string) => Math.min(...timings.filter((timing) => timing.name.startsWith('DuckDB') && timing.name.endsWith(threads)).map((timing) => timing.medianMs))
  const duck1 = best('1 thread'), duckDefault = best('default threads')
  for (const timing of timings) {
    const row = rows.find((candidate) => candidate.engine === timing.name)!
    Object.assign(row, { medianMs: timing.medianMs, timesFasterThanDuckDB1: duck1 / timing.medianMs, timesFasterThanDuckDBDefault: duckDefault / timing.medianMs })
  }
  const wasm = rows.find((row) => row.engine === 'OIXK WebAssembly')
  return {
    id: query.id, description: query.description, sql: sqlOn(TABLE),
    answer: expected.length > 300 ? `${expected.slice(0, 300)}…` : expected,
    targetMs: query.targetMs ?? null,
    met: query.targetMs === undefined || wasm?.medianMs === undefined ? null : wasm.medianMs <= query.targetMs,
    results: rows,
  }
}

const one = await openDuckDB(1)
const all = await openDuckDB('default')
const datasets: Record<string, unknown>[] = []
for (const name of datasetsOfRun()) {
  note(`queries: ${name}`)
  const path = await oixkFile(name)
  const bytes = readBytes(path)
  const v2Bytes = formatTwoOf(bytes, path).bytes
  const readers = {
    v1: { wasm: openColumns(bytes, { backend: 'wasm' }), ts: openColumns(bytes, { backend: 'ts' }) },
    v2: { wasm: openColumns(v2Bytes, { backend: 'wasm' }), ts: openColumns(v2Bytes, { backend: 'ts' }) },
  }
  const decoder = openColumns(bytes, { backend: 'ts' })
  const parquet = await queryParquetFile(one.connection, name)
  await loadTable(one.connection, name, parquet)
  await loadTable(all.connection, name, parquet)
  const context: CaseContext = { table: RELATION, decoder }
  if (name === 'flights-3m') {
    const sample = (await one.connection.runAndReadAll(`SELECT doc FROM ${TABLE} WHERE sample ORDER BY doc`)).getColumnsJS()[0] as bigint[]
    context.sample = Uint32Array.from(sample, Number)
  }
  const cases = name === 'flights-3m' ? flightsCases(context) : datasetCases(name, context)
  // The worker pool (issue 5, "many cores"): the flights files only, where there is enough work to split.
  const poolRuns = name.startsWith('flights') ? await Promise.all((['wasm', 'ts'] as const).map(async (backend) => {
    const pool = createQueryPool({ threads: POOL_THREADS, backend })
    const segment = await pool.open(bytes)
    return { pool, engine: `OIXK pool, ${POOL_THREADS} workers, ${backend === 'wasm' ? 'WebAssembly' : 'pure TypeScript'}`, segment: segment as unknown as PooledSegmentLike }
  })) : []
  const queries = []
  for (const query of cases) {
    const result = await runCase(query, { one: one.connection, all: all.connection }, readers, poolRuns)
    queries.push(result)
    for (const row of result.results as EngineRow[]) {
      note(`  ${query.id.padEnd(34)} ${row.engine.padEnd(36)} ${row.medianMs === undefined ? row.status : `${row.medianMs.toFixed(3).padStart(9)} ms  ${row.timesFasterThanDuckDB1!.toFixed(2)}× vs best DuckDB 1 thread${row.agrees === false ? '  ANSWER DIFFERS' : ''}`}`)
    }
  }
  if (name === 'flights-3m') {
    const range = queries.find((query) => query.id === 'range delay')!
    if (range.answer !== String(FLIGHTS_DELAYED)) throw new Error(`delay in [10, 60] counted ${String(range.answer)}, expected ${FLIGHTS_DELAYED}`)
  }
  datasets.push({ name, rows: decoder.maxDoc, parquetFile: parquet.replace(/^.*node_modules\//, ''), sampleDocuments: context.sample?.length ?? null, queries })
  for (const reader of [readers.v1.wasm, readers.v1.ts, readers.v2.wasm, readers.v2.ts, decoder]) reader.close()
  for (const { pool } of poolRuns) await pool.close()
}
one.close()
all.close()
const path = writeSuiteResult('queries', {
  description: 'Median ms per question. DuckDB: a table loaded from the Parquet file, and a view straight over the same file, each with 1 thread and default threads; time includes materialising the (small) result. Plain JS: a loop over typed arrays decoded beforehand (decode not timed). OIXK: the query API on the open file (v1: format 1; v2: the format 2 file of the same documents, merged from it and verified); OIXK pool: the same questions split across worker_threads over one SharedArrayBuffer (src/node/query-pool.ts), merged. timesFasterThanDuckDB1 = the faster DuckDB 1-thread way (table or Parquet) in ms / this ms (same for default threads). agrees: same answer as the DuckDB table with 1 thread.',
  datasets,
})
note(`wrote ${path}`)
