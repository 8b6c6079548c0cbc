/**
 * Column.toArray: one entry per document in natural units, what Arrow JS and
 * flechette users reach for. Values are decoded in bulk, then laid out by
 * document: null for a document without values, an array for a multi column.
 */
import type { Column } from './column.js'
import { BEYOND_DOUBLES } from './read-values.js'

/** Options of Column.toArray. */
export interface ToArrayOptions {
  /** Dates as Date objects (default: milliseconds since the epoch as numbers). */
  useDate?: boolean
  /** Every integral and date value as a bigint (default: numbers, with an error beyond 2^53); not with useDate on a date column. */
  useBigInt?: boolean
}

/** The largest magnitude of a Date's time value, in ms (ECMAScript's TimeClip). */
const DATE_LIMIT = 8.64e15

function checkOptions(field: string, options: unknown): void {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`field "${field}": toArray's options must be an object, got ${options === null ? 'null' : typeof options}`)
  }
  for (const name of ['useDate', 'useBigInt'] as const) {
    const value = (options as ToArrayOptions)[name]
    if (value !== undefined && typeof value !== 'boolean') {
      throw new TypeError(`field "${field}": toArray option ${name} must be true or false, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`)
    }
  }
}

/** A date value as a Date, refused where a Date would be invalid (beyond ±8.64e15 ms) rather than returned as one. */
function dateOf(field: string, index: number, ms: number): Date {
  if (!(ms >= -DATE_LIMIT && ms <= DATE_LIMIT)) {
    throw new RangeError(`field "${field}": value ${index} (${ms} ms) is beyond the range of a Date (±8.64e15 ms); toArray() without useDate gives milliseconds`)
  }
  return new Date(ms)
}

/** A document's value in natural units. */
export type ColumnValue = string | number | bigint | boolean | Date | { lat: number; lon: number }

/** Every document's value(s): null without a value, an array of values for a multi column. */
export function columnToArray(column: Column, options: ToArrayOptions = {}): (ColumnValue | ColumnValue[] | null)[] {
  checkOptions(column.name, options)
  if (column.type === 'date' && options.useDate === true && options.useBigInt === true) {
    throw new TypeError(`field "${column.name}": toArray's useDate and useBigInt each choose what a date becomes; give one`)
  }
  const count = column.totalValueCount
  const type = column.type
  let valueAt: (index: number) => ColumnValue
  if (type === 'keyword') {
    const ordinals = new Int32Array(count)
    column.readValues(0, ordinals)
    // Each term is decoded once, then shared by every document that has it.
    const terms: (string | undefined)[] = []
    valueAt = (index) => (terms[ordinals[index]] ??= column.term(ordinals[index]))
  } else if (type === 'geo_point') {
    const lat = new Float64Array(count), lon = new Float64Array(count)
    column.readValues(0, lat)
    column.readValues(0, lon, 'longitude')
    valueAt = (index) => ({ lat: lat[index], lon: lon[index] })
  } else if (options.useBigInt === true && type !== 'fractional' && type !== 'bool') {
    const raw = new BigInt64Array(count)
    column.readValues(0, raw)
    valueAt = (index) => raw[index]
  } else {
    const numbers = new Float64Array(count)
    try {
      column.readValues(0, numbers)
    } catch (error) {
      // readValues' remedy names its own destinations; toArray's is an option.
      if (error instanceof RangeError && error.message.endsWith(BEYOND_DOUBLES)) {
        throw new RangeError(`${error.message.slice(0, -BEYOND_DOUBLES.length)}toArray({ useBigInt: true }) gives bigints`)
      }
      throw error
    }
    valueAt = type === 'bool' ? (index) => numbers[index] === 1
      : type === 'date' && options.useDate === true ? (index) => dateOf(column.name, index, numbers[index]) : (index) => numbers[index]
  }
  const result: (ColumnValue | ColumnValue[] | null)[] = new Array(column.maxDoc)
  if (column.layout === 'dense') {
    for (let document = 0; document < column.maxDoc; document++) result[document] = valueAt(document)
  } else if (column.layout === 'optional') {
    // The presence bitmap gives each document's value index in order: no rank per document.
    const words = column.presence!.words
    for (let document = 0, next = 0; document < column.maxDoc; document++) {
      result[document] = ((words[document >>> 5] >>> (document & 31)) & 1) === 0 ? null : valueAt(next++)
    }
  } else {
    for (let document = 0; document < column.maxDoc; document++) {
      const n = column.valueCount(document), first = column.firstValueIndex(document)
      result[document] = n === 0 ? null : Array.from({ length: n }, (_, nth) => valueAt(first + nth))
    }
  }
  return result
}
