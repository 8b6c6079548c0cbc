/**
 * Differential comparison of two readers of the same bytes (pure TS and
 * WebAssembly): every accessor, bulk reads into every destination type,
 * verify(). Calls are made pairwise and their outcomes (a value, or an
 * error's class and message) compared exactly; mismatches are collected with
 * enough context to reproduce them, not thrown at the first one.
 */
import type { Column } from '../../src/read/column.js'
import type { ColumnsReader } from '../../src/read/reader.js'

/** A call's result: a value, or the error it threw (class name and message). */
export type Outcome = { ok: true; value: unknown } | { ok: false; kind: string; message: string }

export function attempt(call: () => unknown): Outcome {
  try {
    return { ok: true, value: call() }
  } catch (error) {
    const kind = error instanceof Error ? error.constructor.name : typeof error
    return { ok: false, kind, message: error instanceof Error ? error.message : String(error) }
  }
}

/** Bytes of a typed array (bit-exact comparison: NaN payloads and -0 count). */
function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength)
}

/** A view's class; a Node Buffer counts as the Uint8Array it is (views of a Buffer's file are Buffers). */
function viewClass(view: ArrayBufferView): unknown {
  return Buffer.isBuffer(view) ? Uint8Array : view.constructor
}

function sameValue(a: unknown, b: unknown): boolean {
  if (ArrayBuffer.isView(a) && ArrayBuffer.isView(b)) {
    return viewClass(a) === viewClass(b) && Buffer.from(bytesOf(a)).equals(Buffer.from(bytesOf(b)))
  }
  return Object.is(a, b)
}

export function sameOutcome(a: Outcome, b: Outcome): boolean {
  if (a.ok && b.ok) return sameValue(a.value, b.value)
  return !a.ok && !b.ok && a.kind === b.kind && a.message === b.message
}

function show(outcome: Outcome): string {
  if (!outcome.ok) return `${outcome.kind}: ${outcome.message}`
  const value = outcome.value
  if (typeof value === 'bigint') return `${value}n`
  if (value instanceof Uint8Array) return `bytes [${Array.from(value.subarray(0, 24)).join(' ')}${value.length > 24 ? ' …' : ''}] (${value.length})`
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${(value as unknown as ArrayLike<unknown>).length})`
  return Object.is(value, -0) ? '-0' : String(value)
}

/** Index of the first differing element of two same-typed arrays, or -1. */
function firstDifference(a: ArrayBufferView, b: ArrayBufferView): number {
  const x = bytesOf(a), y = bytesOf(b)
  const size = (a as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT
  for (let index = 0; index < x.length; index++) if (x[index] !== y[index]) return Math.floor(index / size)
  return -1
}

/** Collects mismatches between paired calls. */
export class Duel {
  readonly mismatches: string[] = []
  comparisons = 0
  /** When false, destinations are compared only after successful bulk reads. */
  compareAfterError = false

  /** Calls both, records a mismatch, returns the first call's outcome. */
  check(what: string, first: () => unknown, second: () => unknown): Outcome {
    const a = attempt(first), b = attempt(second)
    this.comparisons++
    if (!sameOutcome(a, b)) this.note(`${what}: ts → ${show(a)}; wasm → ${show(b)}`)
    return a
  }

  note(mismatch: string): void {
    if (this.mismatches.length < 40) this.mismatches.push(mismatch)
    else if (this.mismatches.length === 40) this.mismatches.push('… more mismatches left out')
  }

  /** Bulk read into same-shaped, identically prefilled destinations; compares outcome and contents. */
  readValues(what: string, a: Column, b: Column, first: number, make: () => BigInt64Array | Float64Array | Int32Array, part: 'latitude' | 'longitude'): void {
    const left = make(), right = make()
    const outcome = this.check(what, () => a.readValues(first, left, part), () => b.readValues(first, right, part))
    if (!outcome.ok && !this.compareAfterError) return
    const at = firstDifference(left, right)
    if (at >= 0) {
      this.note(`${what}: destinations differ first at element ${at} (ts ${String(left[at])}, wasm ${String(right[at])})${outcome.ok ? '' : ' after the error'}`)
    }
  }
}

/** Deterministic pseudo-random integers in [0, limit). */
export type Pick = (limit: number) => number

export function picker(random: () => number): Pick {
  return (limit) => Math.floor(random() * limit)
}

const DESTINATIONS = [
  ['BigInt64Array', (n: number) => new BigInt64Array(n).fill(0x5a5a5a5a5a5a5a5an)],
  ['Float64Array', (n: number) => new Float64Array(n).fill(-1234.5)],
  ['Int32Array', (n: number) => new Int32Array(n).fill(0x5a5a5a5a)],
] as const

/** A view at a non-zero offset of a bigger buffer, so destinations need not start at byte 0. */
function offsetDestination(kind: number, length: number): BigInt64Array | Float64Array | Int32Array {
  const whole = DESTINATIONS[kind][1](length + 3)
  return whole.subarray(3, 3 + length)
}

/** Every per-document accessor of one column for one document (and one nth past its values). */
function duelDocument(duel: Duel, where: string, a: Column, b: Column, document: number, all: boolean): void {
  const count = duel.check(`${where} valueCount(${document})`, () => a.valueCount(document), () => b.valueCount(document))
  duel.check(`${where} hasValue(${document})`, () => a.hasValue(document), () => b.hasValue(document))
  duel.check(`${where} firstValueIndex(${document})`, () => a.firstValueIndex(document), () => b.firstValueIndex(document))
  const values = count.ok ? (count.value as number) : 0
  const type = a.type
  const integer = type !== 'fractional' && type !== 'geo_point'
  for (let nth = 0; nth <= values; nth++) {
    const at = `${where} doc ${document} nth ${nth}`
    if (integer || all) {
      duel.check(`${at} getInt64`, () => a.getInt64(document, nth), () => b.getInt64(document, nth))
      duel.check(`${at} getInt64BigInt`, () => a.getInt64BigInt(document, nth), () => b.getInt64BigInt(document, nth))
    }
    if (type === 'fractional' || all) duel.check(`${at} getFloat64`, () => a.getFloat64(document, nth), () => b.getFloat64(document, nth))
    if (type === 'keyword' || all) {
      duel.check(`${at} getOrdinal`, () => a.getOrdinal(document, nth), () => b.getOrdinal(document, nth))
      duel.check(`${at} getKeyword`, () => a.getKeyword(document, nth), () => b.getKeyword(document, nth))
      duel.check(`${at} getKeywordString`, () => a.getKeywordString(document, nth), () => b.getKeywordString(document, nth))
    }
    if (type === 'geo_point' || all) {
      duel.check(`${at} getGeoPoint`, () => a.getGeoPoint(document, nth, new Float64Array(2)), () => b.getGeoPoint(document, nth, new Float64Array(2)))
    }
  }
}

/**
 * Indexes below `count` to check one by one: all of them up to `limit`, else the
 * first and last two of every block plus random ones (bulk reads still cover all).
 */
function sample(count: number, limit: number, pick: Pick): number[] {
  if (count <= limit) return Array.from({ length: count }, (_, index) => index)
  const chosen = new Set<number>()
  for (let start = 0; start < count; start += 1024) for (const index of [start, start + 1, start + 1022, start + 1023]) if (index < count) chosen.add(index)
  while (chosen.size < limit) chosen.add(pick(count))
  return [...chosen].sort((x, y) => x - y)
}

/** Everything a column offers, on both readers. `runs` random bulk reads per destination type and part. */
export function duelColumn(duel: Duel, a: Column, b: Column, pick: Pick, runs: number, limit = 20_000): void {
  const where = `field "${a.name}"`
  const metadata = (column: Column) => JSON.stringify([
    column.name, column.type, column.layout, column.maxDoc, column.documentsWithValue, column.totalValueCount, String(column.minRaw),
    String(column.maxRaw), column.sectionOffset, column.sectionLength, column.dictionary?.termCount, column.values.count, column.values.blockCount,
  ])
  duel.check(`${where} metadata`, () => metadata(a), () => metadata(b))
  duel.check(`${where} valueCount()`, () => a.valueCount(), () => b.valueCount())
  const maxDoc = a.maxDoc, total = a.totalValueCount
  for (const document of sample(maxDoc, limit, pick)) duelDocument(duel, where, a, b, document, document < 3 || document === maxDoc - 1)
  for (const document of [-1, maxDoc, 0.5, Number.NaN]) {
    duel.check(`${where} hasValue(${document})`, () => a.hasValue(document), () => b.hasValue(document))
    duel.check(`${where} getInt64(${document})`, () => a.getInt64(document), () => b.getInt64(document))
  }
  const parts = a.type === 'geo_point' ? (['latitude', 'longitude'] as const) : (['latitude'] as const)
  for (const index of [...sample(total, limit, pick), total]) {
    for (const part of parts) duel.check(`${where} getRawBigInt(${index}, ${part})`, () => a.getRawBigInt(index, part), () => b.getRawBigInt(index, part))
    if (a.type === 'keyword') duel.check(`${where} getOrdinalAt(${index})`, () => a.getOrdinalAt(index), () => b.getOrdinalAt(index))
  }
  duel.check(`${where} getRawBigInt(0, longitude)`, () => a.getRawBigInt(0, 'longitude'), () => b.getRawBigInt(0, 'longitude'))
  const dictionary = a.dictionary
  if (dictionary !== null) {
    for (let ordinal = 0; ordinal <= dictionary.termCount; ordinal++) {
      const term = duel.check(`${where} term(${ordinal})`, () => a.term(ordinal), () => b.term(ordinal))
      if (term.ok) duel.check(`${where} lookupOrdinal(term ${ordinal})`, () => a.lookupOrdinal(term.value as string), () => b.lookupOrdinal(term.value as string))
    }
    duel.check(`${where} lookupOrdinal(absent)`, () => a.lookupOrdinal('\u{10FFFF}absent'), () => b.lookupOrdinal('\u{10FFFF}absent'))
  }
  for (const part of parts) {
    for (let kind = 0; kind < DESTINATIONS.length; kind++) {
      const name = DESTINATIONS[kind][0]
      duel.readValues(`${where} readValues(0, ${name}(${total}), ${part})`, a, b, 0, () => offsetDestination(kind, total), part)
      for (let run = 0; run < runs; run++) {
        const first = pick(total + 1)
        const length = pick(Math.min(total - first, 3000) + 1)
        duel.readValues(`${where} readValues(${first}, ${name}(${length}), ${part})`, a, b, first, () => DESTINATIONS[kind][1](length), part)
      }
      duel.readValues(`${where} readValues(${total}, ${name}(1)) past the end`, a, b, total, () => DESTINATIONS[kind][1](1), part)
    }
  }
}

/** Both readers column by column, then verify(). */
export function duelReaders(duel: Duel, a: ColumnsReader, b: ColumnsReader, pick: Pick, runs = 6, limit = 20_000): void {
  duel.check('maxDoc and column names', () => `${a.maxDoc} ${a.columns.map((c) => c.name).join(',')}`,
    () => `${b.maxDoc} ${b.columns.map((c) => c.name).join(',')}`)
  duel.check('reader bytes', () => a.bytes.slice(), () => b.bytes.slice())
  for (let index = 0; index < Math.min(a.columns.length, b.columns.length); index++) duelColumn(duel, a.columns[index], b.columns[index], pick, runs, limit)
  duel.check('getColumn(missing)', () => a.getColumn('no such field'), () => b.getColumn('no such field'))
  duel.check('verify()', () => a.verify(), () => b.verify())
}
