/**
 * In-page comparison helpers (a compact form of test/helpers/duel.ts without
 * Node's Buffer): outcomes of paired calls are rendered to exact strings
 * (bit-exact typed arrays, bigints, DocSets as their ids, error class and message).
 */
import type { ColumnsReader, DocSet } from '../../../src/entry-reader.js'

/** A call's result as an exact string. */
export function outcome(call: () => unknown): string {
  try {
    return render(call())
  } catch (error) {
    // error.name, not the constructor's: minification renames classes, the errors name themselves.
    return error instanceof Error ? `throws ${error.name}: ${error.message}` : `throws ${String(error)}`
  }
}

function render(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value)
  if (value instanceof Uint8Array) return `u8[${value.join(',')}]`
  if (ArrayBuffer.isView(value)) {
    const view = value as unknown as { buffer: ArrayBufferLike; byteOffset: number; byteLength: number }
    return `${value.constructor.name}[${new Uint8Array(view.buffer, view.byteOffset, view.byteLength).join(',')}]`
  }
  if (value !== null && typeof value === 'object' && 'toArray' in value && 'maxDoc' in value) {
    return `DocSet(${(value as DocSet).maxDoc})[${(value as DocSet).toArray().join(',')}]`
  }
  if (Array.isArray(value)) return `[${value.map(render).join(',')}]`
  if (value !== null && typeof value === 'object') return `{${Object.entries(value).map(([key, item]) => `${key}:${render(item)}`).join(',')}}`
  return String(value)
}

/** Collects mismatches between the two readers' answers. */
export class Comparison {
  readonly mismatches: string[] = []
  comparisons = 0

  check(what: string, first: () => unknown, second: () => unknown): string {
    const a = outcome(first), b = outcome(second)
    this.comparisons++
    if (a !== b && this.mismatches.length < 30) this.mismatches.push(`${what}: ts → ${a.slice(0, 200)}; wasm → ${b.slice(0, 200)}`)
    return a
  }
}

/** Opens a dump of a reader in the layout of test/golden/*.json. */
export function dump(reader: ColumnsReader): unknown {
  return {
    maxDoc: reader.maxDoc,
    columns: reader.columns.map((column) => {
      const count = column.valueCount()
      const latitudes = new BigInt64Array(count)
      column.readValues(0, latitudes)
      const longitudes = new BigInt64Array(column.type === 'geo_point' ? count : 0)
      if (column.type === 'geo_point') column.readValues(0, longitudes, 'longitude')
      const raw = []
      for (let d = 0; d < reader.maxDoc; d++) {
        const first = column.firstValueIndex(d), n = column.valueCount(d)
        const values = []
        for (let i = first; i < first + n; i++) {
          values.push(column.type === 'geo_point' ? [String(latitudes[i]), String(longitudes[i])] : String(latitudes[i]))
        }
        raw.push(values)
      }
      const dictionary = column.dictionary
      return {
        name: column.name, type: column.type, layout: column.layout,
        documentsWithValue: column.documentsWithValue, valueCount: count,
        minRaw: String(column.minRaw), maxRaw: String(column.maxRaw),
        ...(dictionary === null ? {} : { terms: Array.from({ length: dictionary.termCount }, (_, o) => column.term(o)) }),
        raw,
      }
    }),
  }
}

/** JSON with object keys sorted, so two dumps compare as strings. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item
    return Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  })
}

/** Publishes the page's result for the test (or the error that stopped it). */
export function publish(run: () => Promise<unknown>): void {
  run().then(
    (result) => { (window as unknown as { testResult: unknown }).testResult = result },
    (error: unknown) => {
      (window as unknown as { testResult: unknown }).testResult = { error: error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error) }
    },
  )
}
