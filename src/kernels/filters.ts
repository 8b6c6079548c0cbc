/**
 * rangeFilter, termFilter and boundingBoxFilter: value matches from the
 * matchRange kernel, mapped to documents per layout (multi: any value, in the
 * matchAny kernel).
 */
import type { ColumnsBackend, SequenceView } from '../backend/backend.js'
import type { BitsetMemory } from '../backend/query-kernels.js'
import { CorruptIndexException } from '../format/errors.js'
import { bigIntToInt64, int64Result, int64ToBigInt } from '../format/int64.js'
import type { Column } from '../read/column.js'
import { describeInput, shown } from '../read/file-input.js'
import { expectType, filterOf, outputOf } from './common.js'
import type { DocSet } from './doc-set.js'
import { anyBitInRange, releaseSelection, selectValues, valuesToDocuments, type ValueSelection } from './layout.js'
import { isPlainObject, rangeBound, rawBound, type NaturalValue } from './natural-units.js'
import { wordsFor } from '../backend/bits.js'

/** A geo bounding box in degrees; minLongitude > maxLongitude crosses the antimeridian. */
export interface BoundingBox {
  minLatitude: number
  maxLatitude: number
  minLongitude: number
  maxLongitude: number
}

/** Raw [lo, hi] pairs (inclusive) a filter ORs together. */
type RawRanges = [bigint, bigint][]

const bounds = new Int32Array(4)

/** [lo, hi] as matchRange's four words (one shared array: use it before the next call). */
export function boundsOf(lo: bigint, hi: bigint): Int32Array {
  bigIntToInt64(lo)
  bounds[0] = int64Result[0]; bounds[1] = int64Result[1]
  bigIntToInt64(hi)
  bounds[2] = int64Result[0]; bounds[3] = int64Result[1]
  return bounds
}

/** Runs fill on `out` or a new DocSet; a DocSet made here is released if fill throws (its memory may be WebAssembly's). */
function intoOutput(column: Column, backend: ColumnsBackend, out: DocSet | undefined, fill: (result: DocSet) => void): DocSet {
  const result = outputOf(column, backend, out)
  try {
    fill(result)
  } catch (error) {
    if (result !== out) result.release()
    throw error
  }
  return result
}

/** Sets the bits of values in any of the ranges (selected by `selection`) in `out`. */
function matchRanges(
  backend: ColumnsBackend, sequence: SequenceView, ranges: RawRanges, selection: BitsetMemory | null, out: BitsetMemory,
): void {
  const valid = ranges.filter(([lo, hi]) => lo <= hi)
  const query = backend.query
  if (valid.length > 1 && query.matchRanges !== undefined) {
    // Several ranges in one pass where the encoding allows (format 2 dictionaries).
    const all = new Int32Array(4 * valid.length)
    valid.forEach(([lo, hi], index) => all.set(boundsOf(lo, hi), 4 * index))
    query.matchRanges(sequence, 0, sequence.count, all, selection, 0, out, 0)
    return
  }
  for (const [lo, hi] of valid) query.matchRange(sequence, 0, sequence.count, boundsOf(lo, hi), selection, 0, out, 0)
}

/**
 * Documents whose values (in `sequence`, then through `second` when given: both
 * must match for the same value) fall in the ranges; the shared layout mapping.
 */
function filterDocuments(
  column: Column, backend: ColumnsBackend, docs: DocSet | null | undefined, out: DocSet | undefined,
  ranges: RawRanges, second: { sequence: SequenceView; ranges: RawRanges } | null,
): DocSet {
  const filter = filterOf(column, backend, docs)
  return intoOutput(column, backend, out, (result) => fillRanges(column, backend, filter, result, ranges, second))
}

function fillRanges(
  column: Column, backend: ColumnsBackend, filter: DocSet | null, result: DocSet,
  ranges: RawRanges, second: { sequence: SequenceView; ranges: RawRanges } | null,
): void {
  // out may be the filter itself: a dense selection must not be cleared under the kernel.
  const selectionSource = filter !== null && filter === result && column.layout === 'dense' && second === null ? filter.clone() : filter
  const selected: ValueSelection = selectValues(column, backend, selectionSource)
  const temporaries: BitsetMemory[] = []
  const valueWords = wordsFor(column.totalValueCount)
  try {
    let selection = selected.selection
    if (second !== null) {
      const first = backend.query.allocateBitset(valueWords)
      temporaries.push(first)
      matchRanges(backend, column.values, ranges, selection, first)
      selection = first
      ranges = second.ranges
    }
    const sequence = second === null ? column.values : second.sequence
    if (column.layout === 'dense') {
      result.clear()
      matchRanges(backend, sequence, ranges, selection, result.memory)
    } else {
      const matches = backend.query.allocateBitset(valueWords)
      temporaries.push(matches)
      matchRanges(backend, sequence, ranges, selection, matches)
      result.clear()
      valuesToDocuments(column, backend, matches, result)
    }
  } finally {
    releaseSelection(selected)
    for (const temporary of temporaries) temporary.release()
    if (selectionSource !== filter) selectionSource!.release()
  }
}

/** Documents with a value in [lo, hi] (inclusive, natural units); see Column.rangeFilter. */
export function rangeFilter(
  column: Column, backend: ColumnsBackend, lo: NaturalValue, hi: NaturalValue, docs?: DocSet | null, out?: DocSet,
): DocSet {
  expectType(column, 'rangeFilter', column.type !== 'geo_point', 'integral/date/fractional/bool/keyword')
  const rawLo = rangeBound(column.name, column.type, lo, 'lo')
  const rawHi = rangeBound(column.name, column.type, hi, 'hi')
  const ranges: RawRanges = rawLo === null || rawHi === null ? [] : [[rawLo, rawHi]]
  return filterDocuments(column, backend, docs, out, ranges, null)
}

/** One term, or several. */
export type Terms = string | Uint8Array | Iterable<string | Uint8Array>

/** The terms as a list: a string or Uint8Array is one term (iterating it would give characters or bytes); each checked. */
export function termList(field: string, terms: Terms): (string | Uint8Array)[] {
  // Not an iterable (a plain object, a Date) and not a String object, whose iteration gives characters.
  if (terms === null || typeof terms !== 'object' && typeof terms !== 'string' || terms instanceof String
    || typeof terms === 'object' && typeof (terms as Iterable<unknown>)[Symbol.iterator] !== 'function') {
    throw new TypeError(`field "${field}": terms must be a string, a Uint8Array or an iterable of them, got ${typeof terms === 'object' && terms !== null ? describeInput(terms) : String(terms)}`)
  }
  const list = typeof terms === 'string' || terms instanceof Uint8Array ? [terms] : Array.from(terms)
  for (const term of list) checkTerm(field, term)
  return list
}

/** Throws a TypeError naming the field unless `term` is a string or UTF-8 bytes. */
export function checkTerm(field: string, term: unknown): asserts term is string | Uint8Array {
  if (typeof term !== 'string' && !(term instanceof Uint8Array)) {
    throw new TypeError(`field "${field}": a term must be a string or UTF-8 bytes (Uint8Array), got ${describeInput(term)}`)
  }
}

/** Documents with any of the terms (unknown terms match nothing); see Column.termFilter. */
export function termFilter(
  column: Column, backend: ColumnsBackend, terms: Terms, docs?: DocSet | null, out?: DocSet,
): DocSet {
  expectType(column, 'termFilter', column.type === 'keyword', 'keyword')
  const ordinals: number[] = []
  for (const term of termList(column.name, terms)) {
    const ordinal = column.dictionary!.lookupOrdinal(term)
    if (ordinal >= 0) ordinals.push(ordinal)
  }
  ordinals.sort((a, b) => a - b)
  // Consecutive ordinals share one range: one kernel pass per run of terms.
  const ranges: RawRanges = []
  for (const ordinal of ordinals) {
    const last = ranges[ranges.length - 1]
    if (last !== undefined && BigInt(ordinal) <= last[1] + 1n) last[1] = BigInt(ordinal)
    else ranges.push([BigInt(ordinal), BigInt(ordinal)])
  }
  if (!membersPass(column, backend, ranges.length)) return filterDocuments(column, backend, docs, out, ranges, null)
  return memberFilter(column, backend, new Set(ordinals), docs, out)
}

/** Above this many separate ordinal runs, one pass testing decoded ordinals beats a kernel pass per run. */
const MAX_TERM_RANGES = 8

/**
 * Whether a termFilter's `runs` runs of consecutive ordinals take one membership pass rather
 * than a pass per run: above 8 runs, or above 1 where the ordinals are v1 blocks (format 1, or
 * format 2's codes decoded as the ordinals), which WebAssembly's membership kernel reads. Not a
 * choice by backend: the pass checks each ordinal against the term count, a pass per run does
 * not, and both backends must refuse the same files.
 */
export function membersPass(column: Column, backend: ColumnsBackend, runs: number): boolean {
  if (runs > MAX_TERM_RANGES) return true
  return runs > 1 && (backend.query.plainSequence?.(column.values) ?? column.values).cascade === null
}

const ORDINAL_CHUNK = 4096
const ordinalScratch = new Int32Array(ORDINAL_CHUNK)

/**
 * termFilter for several runs of terms: each selected ordinal looked up in a membership table,
 * by the backend's kernel, or (a cascade, or an ordinal the kernel refused) decoded in chunks
 * (chunks without a selected value skipped), where the refused one is named.
 */
function memberFilter(column: Column, backend: ColumnsBackend, ordinals: Set<number>, docs: DocSet | null | undefined, out: DocSet | undefined): DocSet {
  const filter = filterOf(column, backend, docs)
  return intoOutput(column, backend, out, (result) => fillMembers(column, backend, ordinals, filter, result))
}

function fillMembers(column: Column, backend: ColumnsBackend, ordinals: Set<number>, filter: DocSet | null, result: DocSet): void {
  const termCount = column.dictionary!.termCount
  const member = new Uint8Array(termCount)
  for (const ordinal of ordinals) member[ordinal] = 1
  const selected = selectValues(column, backend, filter)
  const matches = backend.query.allocateBitset(wordsFor(column.totalValueCount))
  try {
    // Format 2: the codes decoded once, where they are the ordinals (made now, before any view below).
    const sequence = backend.query.plainSequence?.(column.values) ?? column.values
    // One kernel pass where the backend has one (-1: a value it cannot vouch for, found again below).
    const found = sequence.cascade === null
      ? backend.query.matchOrdinals(sequence, 0, sequence.count, member, selected.selection, 0, matches, 0) : -1
    // Views after the kernel, which may grow memory.
    const selection = selected.selection === null ? null : selected.selection.words
    const matchWords = matches.words
    for (let start = 0; found < 0 && start < sequence.count; start += ORDINAL_CHUNK) {
      const count = Math.min(ORDINAL_CHUNK, sequence.count - start)
      if (selection !== null && !anyBitInRange(selection, start, start + count)) continue
      const bad = backend.decodeInt32(sequence, start, count, termCount, ordinalScratch, 0)
      if (bad >= 0) {
        // Named as the column's own values read it.
        backend.getRaw(column.values, start + bad)
        throw new CorruptIndexException(column.values.fileName, `${column.values.label}: value ${start + bad} is ${int64ToBigInt(int64Result[0], int64Result[1])}, not in [0, ${termCount})`)
      }
      // A word of matches at a time (chunks start on a word): one store per 32 values, masked
      // by the selection and, in the last word, by the count.
      for (let index = 0; index < count; index += 32) {
        const word = (start + index) >>> 5, take = Math.min(32, count - index)
        let bits = 0
        for (let bit = 0; bit < take; bit++) bits |= member[ordinalScratch[index + bit]] << bit
        matchWords[word] = selection === null ? bits : bits & selection[word]
      }
    }
    if (column.layout === 'dense') result.words.set(matchWords)
    else {
      result.clear()
      valuesToDocuments(column, backend, matches, result)
    }
  } finally {
    releaseSelection(selected)
    matches.release()
  }
}

/** Documents with a point inside the box (inclusive); see Column.boundingBoxFilter. */
export function boundingBoxFilter(column: Column, backend: ColumnsBackend, box: BoundingBox, docs?: DocSet | null, out?: DocSet): DocSet {
  const [latitudes, longitudes] = boxRanges(column, box)
  return filterDocuments(column, backend, docs, out, latitudes, { sequence: column.longitudes!, ranges: longitudes })
}

const BOX_KEYS = ['minLatitude', 'maxLatitude', 'minLongitude', 'maxLongitude']

/** The box as raw latitude ranges, then longitude ranges (two across the antimeridian); checks the column and the box. */
export function boxRanges(column: Column, box: BoundingBox): [RawRanges, RawRanges] {
  expectType(column, 'boundingBoxFilter', column.type === 'geo_point', 'geo_point')
  if (box === null || typeof box !== 'object') {
    throw new TypeError(`field "${column.name}": box must be an object { minLatitude, maxLatitude, minLongitude, maxLongitude }, got ${shown(box)}`)
  }
  // A misspelt key beside the four (maxLongtitude) was dropped unseen, the box then unbounded there.
  const others = isPlainObject(box) ? Object.keys(box).filter((key) => !BOX_KEYS.includes(key)) : []
  if (others.length !== 0) throw new TypeError(`field "${column.name}": a box holds ${BOX_KEYS.join(', ')} alone, got also ${others.map((key) => JSON.stringify(key)).join(', ')}`)
  const degrees = (value: unknown, name: string): number => {
    if (typeof value !== 'number') throw new TypeError(`field "${column.name}": box.${name} must be a number, got ${shown(value)}`)
    if (Number.isNaN(value)) throw new RangeError(`field "${column.name}": box.${name} must be a number, got NaN`)
    return value
  }
  const bound = (value: number, side: 'lower' | 'upper'): bigint => rawBound(column.name, 'geo_point', value, side)!
  const minLatitude = degrees(box.minLatitude, 'minLatitude'), maxLatitude = degrees(box.maxLatitude, 'maxLatitude')
  const minLongitude = degrees(box.minLongitude, 'minLongitude'), maxLongitude = degrees(box.maxLongitude, 'maxLongitude')
  const latitudes: RawRanges = minLatitude <= maxLatitude ? [[bound(minLatitude, 'lower'), bound(maxLatitude, 'upper')]] : []
  const longitudes: RawRanges = minLongitude <= maxLongitude
    ? [[bound(minLongitude, 'lower'), bound(maxLongitude, 'upper')]]
    : [[bound(minLongitude, 'lower'), bound(Infinity, 'upper')], [bound(-Infinity, 'lower'), bound(maxLongitude, 'upper')]]
  return [latitudes, longitudes]
}
