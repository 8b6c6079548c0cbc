/**
 * Table of vega-datasets files and how each becomes an OIXK columns file:
 * its schema (field names kept exactly as the dataset spells them) and its
 * raw rows, which importDataset cleans by field type and writes.
 */
import { readFileSync } from 'node:fs'
import { ColumnsWriter, type Schema, type SchemaField } from '../../src/index.js'
import { vegaDataPath } from '../import-flights.js'
import { cleanRecord, Drops } from './clean.js'
import { parseCsvRecords } from './csv.js'

/** One importable dataset. */
export interface Dataset {
  name: string
  /** File name inside vega-datasets' data/ folder. */
  file: string
  schema: Schema
  /** Raw rows keyed by schema field name; values may be strings, numbers, null or {lat, lon}. */
  rows(): Iterable<Record<string, unknown>>
}

/** What importing a dataset produced. */
export interface DatasetImport {
  schema: Schema
  bytes: Uint8Array
  rowCount: number
  drops: Drops
}

// Schema shorthands: every non-text field gets a column; facet marks low-cardinality keywords.
const keyword = (name: string): SchemaField => ({ name, type: 'keyword', column: true })
const facet = (name: string): SchemaField => ({ name, type: 'keyword', facet: true })
const integral = (name: string): SchemaField => ({ name, type: 'integral', column: true })
const fractional = (name: string): SchemaField => ({ name, type: 'fractional', column: true })
const date = (name: string): SchemaField => ({ name, type: 'date', column: true })
const geo = (name: string): SchemaField => ({ name, type: 'geo_point', column: true })

const readText = (file: string): string => readFileSync(vegaDataPath(file), 'utf8')
const readJson = (file: string): unknown => JSON.parse(readText(file))

/** CSV rows with a geo point `location` built from the latitude and longitude columns. */
function* withLocation(records: Iterable<Record<string, unknown>>): Iterable<Record<string, unknown>> {
  for (const record of records) yield { ...record, location: { lat: record.latitude, lon: record.longitude } }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** movies.json dates look like "Jun 12 1998"; anything else is passed on unchanged (and dropped by the cleaner). */
export function movieDateToIso(text: unknown): unknown {
  const match = typeof text === 'string' ? /^([A-Z][a-z]{2}) (\d{1,2}) (\d{4})$/.exec(text.trim()) : null
  const month = match === null ? -1 : MONTHS.indexOf(match[1])
  if (match === null || month < 0) return text
  return `${match[3]}-${String(month + 1).padStart(2, '0')}-${match[2].padStart(2, '0')}`
}

/** The datasets, in the order run.ts imports them. */
export const DATASETS: readonly Dataset[] = [
  {
    name: 'airports',
    file: 'airports.csv',
    schema: { fields: [
      keyword('iata'), keyword('name'), keyword('city'), facet('state'), facet('country'),
      fractional('latitude'), fractional('longitude'), geo('location'),
    ] },
    rows: () => withLocation(parseCsvRecords(readText('airports.csv'))),
  },
  {
    name: 'zipcodes',
    file: 'zipcodes.csv',
    // zip_code is a keyword: as a number it would lose its leading zeros (00501).
    schema: { fields: [
      keyword('zip_code'), fractional('latitude'), fractional('longitude'), geo('location'),
      keyword('city'), facet('state'), keyword('county'),
    ] },
    rows: () => withLocation(parseCsvRecords(readText('zipcodes.csv'))),
  },
  {
    name: 'movies',
    file: 'movies.json',
    schema: { fields: [
      keyword('Title'), integral('US Gross'), integral('Worldwide Gross'), integral('US DVD Sales'),
      integral('Production Budget'), date('Release Date'), facet('MPAA Rating'), integral('Running Time min'),
      facet('Distributor'), facet('Source'), facet('Major Genre'), facet('Creative Type'), keyword('Director'),
      fractional('Rotten Tomatoes Rating'), fractional('IMDB Rating'), integral('IMDB Votes'),
    ] },
    * rows() {
      for (const movie of readJson('movies.json') as Record<string, unknown>[]) {
        yield { ...movie, 'Release Date': movieDateToIso(movie['Release Date']) }
      }
    },
  },
  {
    name: 'earthquakes',
    file: 'earthquakes.json',
    schema: { fields: [
      keyword('id'), geo('location'), fractional('depth'), fractional('mag'), facet('magType'), keyword('place'),
      date('time'), date('updated'), integral('tz'), integral('felt'), fractional('cdi'), fractional('mmi'),
      facet('alert'), facet('status'), integral('tsunami'), integral('sig'), facet('net'), keyword('code'),
      integral('nst'), fractional('dmin'), fractional('rms'), fractional('gap'), facet('type'), keyword('title'),
    ] },
    * rows() {
      const collection = readJson('earthquakes.json') as { features?: unknown[] }
      for (const feature of collection.features ?? []) {
        const { id, properties, geometry } = (feature ?? {}) as {
          id?: unknown; properties?: Record<string, unknown>; geometry?: { type?: unknown; coordinates?: unknown }
        }
        // GeoJSON order is [longitude, latitude, depth in km]; only Points have one position.
        const position = geometry?.type === 'Point' && Array.isArray(geometry.coordinates) ? geometry.coordinates : []
        const located = position.length >= 2 ? { lat: position[1], lon: position[0] } : null
        yield { ...properties, id, location: located, depth: position[2] ?? null }
      }
    },
  },
  {
    name: 'birdstrikes',
    file: 'birdstrikes.csv',
    schema: { fields: [
      keyword('Airport Name'), keyword('Aircraft Make Model'), facet('Effect Amount of damage'), date('Flight Date'),
      facet('Aircraft Airline Operator'), facet('Origin State'), facet('Phase of flight'), facet('Wildlife Size'),
      keyword('Wildlife Species'), facet('Time of day'), integral('Cost Other'), integral('Cost Repair'),
      integral('Cost Total $'), integral('Speed IAS in knots'),
    ] },
    rows: () => parseCsvRecords(readText('birdstrikes.csv')),
  },
  {
    name: 'sp500-2000',
    file: 'sp500-2000.csv',
    schema: { fields: [
      date('date'), fractional('open'), fractional('high'), fractional('low'), fractional('close'),
      fractional('adjclose'), integral('volume'),
    ] },
    rows: () => parseCsvRecords(readText('sp500-2000.csv')),
  },
  {
    name: 'seattle-weather',
    file: 'seattle-weather.csv',
    schema: { fields: [
      date('date'), fractional('precipitation'), fractional('temp_max'), fractional('temp_min'), fractional('wind'),
      facet('weather'),
    ] },
    rows: () => parseCsvRecords(readText('seattle-weather.csv')),
  },
  {
    name: 'flights-200k',
    file: 'flights-200k.json',
    // time is the hour of day as a decimal (0.0 … 24.0), not a date.
    schema: { fields: [integral('delay'), integral('distance'), fractional('time')] },
    rows: () => readJson('flights-200k.json') as Record<string, unknown>[],
  },
]

/** The dataset of that name, or an error listing the names. */
export function findDataset(name: string): Dataset {
  const dataset = DATASETS.find((candidate) => candidate.name === name)
  if (dataset === undefined) throw new Error(`unknown dataset "${name}"; known: ${DATASETS.map((d) => d.name).join(', ')}`)
  return dataset
}

/** Reads, cleans and writes one dataset; documents are numbered by row, from 0. */
export function importDataset(name: string): DatasetImport {
  const { schema, rows } = findDataset(name)
  const records = [...rows()]
  const drops = new Drops()
  const writer = new ColumnsWriter(schema, { expectedDocuments: records.length })
  const document: Record<string, unknown> = {}
  records.forEach((record, row) => writer.addDocument(row, cleanRecord(schema, record, drops, document)))
  // finish gives null when no field has a value; an empty dataset still imports, as zero bytes.
  const bytes = writer.finish(records.length) ?? new Uint8Array(0)
  return { schema, bytes, rowCount: records.length, drops }
}
