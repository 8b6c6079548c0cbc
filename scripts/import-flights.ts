/**
 * Imports vega-datasets' flights-3m.parquet (3,000,000 real US flights) into an
 * OIXK columns file: dates as dates, delay and distance as integers, origin
 * and destination as keyword facets.
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { ColumnsWriter } from '../src/index.js'
import { readParquetColumns } from './parquet-columns.js'

/** Where vega-datasets keeps its files (its exports map hides package.json, so resolve the entry). */
export function vegaDataPath(file: string): string {
  const require = createRequire(import.meta.url)
  return join(dirname(require.resolve('vega-datasets')), '..', 'data', file)
}

/** The flights schema, in the CLI's schema JSON shape. */
export const FLIGHTS_SCHEMA = {
  fields: [
    { name: 'date', type: 'date', column: true },
    { name: 'delay', type: 'integral', column: true },
    { name: 'distance', type: 'integral', column: true },
    { name: 'origin', type: 'keyword', facet: true },
    { name: 'destination', type: 'keyword', facet: true },
  ],
} as const

/** What an import produced and how long its two halves took. */
export interface FlightsImport {
  bytes: Uint8Array
  rowCount: number
  parquetMilliseconds: number
  writeMilliseconds: number
}

/** Decodes flights-3m with hyparquet and writes its columns file (progress goes to onProgress). */
export async function importFlights(onProgress?: (done: number, total: number) => void): Promise<FlightsImport> {
  const started = performance.now()
  const names = FLIGHTS_SCHEMA.fields.map((field) => field.name)
  const { rowCount, columns } = await readParquetColumns(vegaDataPath('flights-3m.parquet'), names, onProgress)
  const decoded = performance.now()
  const writer = new ColumnsWriter(FLIGHTS_SCHEMA, { expectedDocuments: rowCount })
  const date = columns.get('date')!, delay = columns.get('delay')!, distance = columns.get('distance')!
  const origin = columns.get('origin')!, destination = columns.get('destination')!
  // One document object, refilled per row: the writer copies values, so nothing is kept per row.
  const document: Record<string, unknown> = { date: null, delay: null, distance: null, origin: null, destination: null }
  for (let row = 0; row < rowCount; row++) {
    document.date = date[row]
    document.delay = delay[row]
    document.distance = distance[row]
    document.origin = origin[row]
    document.destination = destination[row]
    writer.addDocument(row, document)
  }
  const bytes = writer.finish(rowCount)!
  return { bytes, rowCount, parquetMilliseconds: decoded - started, writeMilliseconds: performance.now() - decoded }
}
