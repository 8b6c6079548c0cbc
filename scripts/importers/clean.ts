/**
 * Turns raw dataset values (CSV strings, JSON numbers) into values the
 * ColumnsWriter accepts, by field type. Anything invalid becomes null (no
 * value) and is counted, so a real file never stops an import.
 */
import type { Schema, SchemaField } from '../../src/index.js'
import { parseIsoDateMillis } from '../../src/format/iso-date.js'
import { findLoneSurrogate } from '../../src/format/utf8.js'

/** Values dropped per field, with a few examples for the report. */
export class Drops {
  readonly byField = new Map<string, { count: number; examples: string[] }>()

  /** Records that field's value could not be kept, and why. */
  add(field: string, value: unknown, why: string): void {
    let entry = this.byField.get(field)
    if (entry === undefined) this.byField.set(field, entry = { count: 0, examples: [] })
    entry.count++
    if (entry.examples.length < 3) entry.examples.push(`${JSON.stringify(value)} (${why})`)
  }

  get total(): number {
    let total = 0
    for (const entry of this.byField.values()) total += entry.count
    return total
  }

  /** One line per field, e.g. `location: 2 dropped, e.g. {"lat":91,"lon":0} (latitude outside [-90, 90])`. */
  describe(): string[] {
    return [...this.byField].map(([field, { count, examples }]) => `${field}: ${count} dropped, e.g. ${examples.join('; ')}`)
  }
}

const INTEGER = /^[+-]?\d+$/
// Decimal numbers only: Number() would also take '0x1f', 'Infinity' and '' (as 0).
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

/** Empty strings are how CSV spells "no value"; they are missing, not dropped. */
function isMissing(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '')
}

function keyword(field: string, value: unknown, drops: Drops): unknown {
  if (typeof value === 'string') {
    // The writer refuses lone surrogates; the UTF-8 files here cannot produce them, but JSON escapes could.
    if (findLoneSurrogate(value) < 0) return value
    drops.add(field, value, 'lone surrogate')
    return null
  }
  // movies.json has numeric titles (e.g. 1776, 9): a keyword is their text.
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  drops.add(field, value, 'not a string')
  return null
}

function integral(field: string, value: unknown, drops: Drops): unknown {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return value
    drops.add(field, value, Number.isInteger(value) ? 'beyond 2^53, already rounded' : 'not an integer')
    return null
  }
  if (typeof value === 'string' && INTEGER.test(value.trim())) {
    // Big integers stay exact as bigint; the writer refuses only beyond 64 bits.
    const big = BigInt(value.trim())
    if (big >= -(2n ** 63n) && big < 2n ** 63n) return Number.isSafeInteger(Number(big)) ? Number(big) : big
    drops.add(field, value, 'outside 64 bits')
    return null
  }
  drops.add(field, value, 'not an integer')
  return null
}

function fractional(field: string, value: unknown, drops: Drops): unknown {
  const number = typeof value === 'string' && DECIMAL.test(value.trim()) ? Number(value) : value
  if (typeof number === 'number' && Number.isFinite(number)) return number
  drops.add(field, value, 'not a finite number')
  return null
}

function date(field: string, value: unknown, drops: Drops): unknown {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return value
    drops.add(field, value, 'not whole milliseconds')
    return null
  }
  if (typeof value === 'string') {
    // The writer's own parser, so every string kept here is one the writer accepts.
    const millis = parseIsoDateMillis(value.trim())
    if (typeof millis === 'number') return millis
    drops.add(field, value, millis)
    return null
  }
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.getTime()
  drops.add(field, value, 'not a date')
  return null
}

function bool(field: string, value: unknown, drops: Drops): unknown {
  if (typeof value === 'boolean') return value
  const text = String(value).trim().toLowerCase()
  if (text === 'true' || text === '1') return true
  if (text === 'false' || text === '0') return false
  drops.add(field, value, 'not a boolean')
  return null
}

function geoPoint(field: string, value: unknown, drops: Drops): unknown {
  const { lat, lon } = (value ?? {}) as { lat?: unknown; lon?: unknown }
  const la = typeof lat === 'string' && DECIMAL.test(lat.trim()) ? Number(lat) : lat
  const lo = typeof lon === 'string' && DECIMAL.test(lon.trim()) ? Number(lon) : lon
  if (typeof la !== 'number' || typeof lo !== 'number' || !Number.isFinite(la) || !Number.isFinite(lo)) {
    // A point with both halves missing is simply no value.
    if (isMissing(lat) && isMissing(lon)) return null
    drops.add(field, value, 'needs numeric lat and lon')
    return null
  }
  if (!(la >= -90 && la <= 90)) drops.add(field, value, 'latitude outside [-90, 90]')
  else if (!(lo >= -180 && lo <= 180)) drops.add(field, value, 'longitude outside [-180, 180]')
  else return { lat: la, lon: lo }
  return null
}

const CLEANERS: Record<SchemaField['type'], (field: string, value: unknown, drops: Drops) => unknown> = {
  keyword, integral, fractional, date, bool, geo_point: geoPoint,
  // Text fields get no column; the writer only needs a string.
  text: keyword,
}

/**
 * Cleans one raw record into a document of the schema's fields, in place of
 * `into` (reused across rows so a large import allocates no document per row).
 */
export function cleanRecord(schema: Schema, raw: Record<string, unknown>, drops: Drops, into: Record<string, unknown>): Record<string, unknown> {
  for (const field of schema.fields) {
    const value = raw[field.name]
    into[field.name] = isMissing(value) ? null : CLEANERS[field.type](field.name, value, drops)
  }
  return into
}
