/**
 * Turns the values users give (numbers, bigints, Dates, ISO strings, IEEE bit
 * patterns, geo objects) into raw i64 words, refusing anything that would be
 * stored inexactly. Errors name the field and the document.
 */
import { isDate } from '../format/brands.js'
import { clipped, InvalidInputError } from '../format/errors.js'
import { bigIntToInt64, float64ToSortable, int64Result, MAX_INT64, MIN_INT64, numberToInt64, sortableFromIeeeWords } from '../format/int64.js'
import { parseIsoDateMillis } from '../format/iso-date.js'

/** Raises the writer's error for a value of field in document. */
export function invalidValue(field: string, document: number, problem: string): never {
  throw new InvalidInputError(`field "${field}" of document ${document}: ${problem}`)
}

/** The remedies of integer numbers beyond 2^53 (the CLI, whose input has no bigints, words its own). */
export const BIGINT_REMEDY = 'use bigint for exact 64-bit values'
export const DATE_BIGINT_REMEDY = 'use bigint beyond 2^53'

/** Short description of a value for error messages (never the whole value). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (isDate(value)) return 'a Date'
  switch (typeof value) {
    case 'string': return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`
    case 'number': return `the number ${String(value)}`
    case 'bigint': return `the bigint ${value}n`
    case 'boolean': return `the boolean ${value}`
    case 'object': return 'an object'
    case 'undefined': return 'undefined'
    default: return `a ${typeof value}`
  }
}

function bigIntToRaw(field: string, document: number, value: bigint, what: string): void {
  if (value < MIN_INT64 || value > MAX_INT64) {
    invalidValue(field, document, `${what} ${clipped(String(value))}n is outside the signed 64-bit range [-2^63, 2^63 - 1]`)
  }
  bigIntToInt64(value)
}

/** Raw form of an integral value into int64Result. */
export function integralToRaw(field: string, document: number, value: unknown): void {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return numberToInt64(value)
    if (Number.isInteger(value)) {
      invalidValue(field, document, `integer ${value} is not a safe integer (beyond 2^53 a number may already be rounded); ${BIGINT_REMEDY}`)
    }
    invalidValue(field, document, `integral value ${describeValue(value)} is not an integer`)
  }
  if (typeof value === 'bigint') return bigIntToRaw(field, document, value, 'integer')
  invalidValue(field, document, `expected an integer (number or bigint), got ${describeValue(value)}`)
}

/** Raw form (milliseconds since the epoch) of a date value into int64Result. */
export function dateToRaw(field: string, document: number, value: unknown): void {
  if (isDate(value)) {
    const millis = value.getTime()
    if (Number.isNaN(millis)) invalidValue(field, document, 'invalid date (the Date holds NaN)')
    return numberToInt64(millis)
  }
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return numberToInt64(value)
    invalidValue(field, document, `invalid date: ${describeValue(value)} is not a whole number of milliseconds in the safe range; ${DATE_BIGINT_REMEDY}`)
  }
  if (typeof value === 'bigint') return bigIntToRaw(field, document, value, 'date in milliseconds')
  if (typeof value === 'string') {
    const millis = parseIsoDateMillis(value)
    if (typeof millis === 'string') invalidValue(field, document, `invalid date: ${describeValue(value)}: ${millis}`)
    return numberToInt64(millis)
  }
  invalidValue(field, document, `expected a date (Date, milliseconds as number or bigint, or an ISO-8601 string), got ${describeValue(value)}`)
}

const HEX_BITS = /^[0-9a-fA-F]{16}$/

/** Raw form (sortable bits) of a fractional value into int64Result. */
export function fractionalToRaw(field: string, document: number, value: unknown): void {
  if (typeof value === 'number') return float64ToSortable(value)
  if (typeof value === 'string') {
    switch (value) {
      case 'NaN': return float64ToSortable(NaN)
      case 'Infinity': return float64ToSortable(Infinity)
      case '-Infinity': return float64ToSortable(-Infinity)
      case '-0': return float64ToSortable(-0)
    }
    invalidValue(field, document, `expected a number, "NaN", "Infinity", "-Infinity", "-0" or {bits}, got ${describeValue(value)}`)
  }
  // Integer literals beyond 2^53 parse as bigint; as a double they round the way JSON.parse would, but an
  // integer beyond every double is refused rather than stored as an infinity (as the CLI refuses 1e400).
  if (typeof value === 'bigint') {
    const rounded = Number(value)
    if (rounded === Infinity || rounded === -Infinity) invalidValue(field, document, `${value < 0n ? 'a negative integer' : 'an integer'} of ${String(value < 0n ? -value : value).length} digits is beyond the largest double (about 1.8e308)`)
    return float64ToSortable(rounded)
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'bits' in value) {
    const bits = (value as { bits: unknown }).bits
    let ieee: bigint
    if (typeof bits === 'bigint') {
      if (bits < 0n || bits > 0xffffffffffffffffn) invalidValue(field, document, `IEEE bits ${bits}n are not an unsigned 64-bit pattern`)
      ieee = bits
    } else if (typeof bits === 'string' && HEX_BITS.test(bits)) {
      ieee = BigInt('0x' + bits)
    } else {
      invalidValue(field, document, `{bits} must hold 16 hex digits or a bigint, got ${describeValue(bits)}`)
    }
    // Other keys (a scale, a unit) would be dropped unseen, as a geo point's would.
    const extra = Object.keys(value).filter((name) => name !== 'bits')
    if (extra.length > 0) invalidValue(field, document, `{bits} with unknown key${extra.length > 1 ? 's' : ''} ${extra.map((name) => JSON.stringify(name)).join(', ')} (a raw double is {bits} alone)`)
    bigIntToInt64(ieee)
    return sortableFromIeeeWords(int64Result[0], int64Result[1])
  }
  invalidValue(field, document, `expected a fractional number, got ${describeValue(value)}`)
}

/** Raw form (0 or 1) of a bool value into int64Result. */
export function boolToRaw(field: string, document: number, value: unknown): void {
  if (typeof value !== 'boolean') invalidValue(field, document, `expected a boolean, got ${describeValue(value)}`)
  int64Result[0] = value ? 1 : 0
  int64Result[1] = 0
}

/**
 * Latitude and longitude of a geo point, checked; returns [lat, lon] in the
 * given array. Errors show the value given and name each wrong coordinate.
 */
export function checkGeoPoint(field: string, document: number, value: unknown, out: Float64Array): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    invalidValue(field, document, `expected a geo point {lat, lon}, got ${Array.isArray(value) ? `an array ${brief(value, 0)}` : describeValue(value)}`)
  }
  const { lat, lon } = value as { lat?: unknown; lon?: unknown }
  // One test on the common path; the message is worked out only for a bad point.
  if (!(typeof lat === 'number' && lat >= -90 && lat <= 90 && typeof lon === 'number' && lon >= -180 && lon <= 180)) {
    if (isDate(value)) invalidValue(field, document, 'expected a geo point {lat, lon}, got a Date')
    invalidValue(field, document, `geo point ${brief(value, 0)}: ${geoProblem(value, lat, lon)}`)
  }
  // Keys beyond lat and lon (an altitude, a GeoJSON-style type) would be dropped unseen, as unknown fields would be.
  // Own keys only, as for documents' fields (an inherited key was refused in a message listing none).
  for (const key in value) if (key !== 'lat' && key !== 'lon' && Object.hasOwn(value, key)) {
    const extra = Object.keys(value).filter((name) => name !== 'lat' && name !== 'lon')
    invalidValue(field, document, `geo point ${brief(value, 0)}: unknown key${extra.length > 1 ? 's' : ''} ${extra.map((name) => JSON.stringify(name)).join(', ')} (a geo point is {lat, lon})`)
  }
  out[0] = lat
  out[1] = lon
}

/** What is wrong with a geo object's lat and lon: "lon is missing", "lat 91 is outside [-90, 90]"... */
function geoProblem(point: object, lat: unknown, lon: unknown): string {
  const latAbsent = lat === undefined && !Object.hasOwn(point, 'lat')
  const lonAbsent = lon === undefined && !Object.hasOwn(point, 'lon')
  if (latAbsent && lonAbsent) return 'lat and lon are missing'
  const problems = [coordinateProblem('lat', lat, latAbsent, 90), coordinateProblem('lon', lon, lonAbsent, 180)]
  return problems.filter((problem) => problem !== null).join('; ')
}

/** Why one coordinate is unusable, or null when it is a number within ±limit. */
function coordinateProblem(name: string, value: unknown, absent: boolean, limit: number): string | null {
  const range = `[-${limit}, ${limit}]`
  if (absent) return `${name} is missing`
  if (value === null || value === undefined) return `${name} is ${value}, not a number`
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return `${name} is NaN; it must be in ${range}`
    return value >= -limit && value <= limit ? null : `${name} ${value} is outside ${range}`
  }
  // A JSON integer beyond 2^53 arrives as a bigint: far outside any range, which is the real problem.
  if (typeof value === 'bigint' && (value < -limit || value > limit)) return `${name} ${value} is outside ${range}`
  const kind = Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`
  return `${name} is ${kind}, not a number`
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/
/** Entries shown of an object or array in a message; the rest is "…". */
const BRIEF_ENTRIES = 4

/**
 * A value as JavaScript would write it, cut short: `{lat: "a", lon: 2}`,
 * `[1, 2]`; containers inside containers as `{…}` and `[…]`, long strings cut.
 */
function brief(value: unknown, depth: number): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 24 ? value.slice(0, 24) + '…' : value)
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value)
  if (typeof value === 'bigint') return `${value}n`
  if (value === null || typeof value !== 'object') return String(value)
  if (isDate(value)) return 'a Date'
  const entries = Array.isArray(value) ? value : Object.keys(value)
  if (entries.length === 0) return Array.isArray(value) ? '[]' : '{}'
  if (depth > 0) return Array.isArray(value) ? '[…]' : '{…}'
  const shown = entries.slice(0, BRIEF_ENTRIES).map((entry) => {
    if (Array.isArray(value)) return brief(entry, depth + 1)
    const key = entry as string
    return `${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${brief((value as Record<string, unknown>)[key], depth + 1)}`
  })
  if (entries.length > BRIEF_ENTRIES) shown.push('…')
  return Array.isArray(value) ? `[${shown.join(', ')}]` : `{${shown.join(', ')}}`
}
