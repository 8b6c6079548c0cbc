/**
 * Merge: reads each live document of the sources through its doc map and
 * writes the result with the flush code, so a merge is byte-identical to a
 * flush of the same documents in the same order.
 */
import type { ColumnType } from '../format/constants.js'
import { CorruptIndexException, InvalidInputError } from '../format/errors.js'
import { typedArrayName } from '../format/brands.js'
import { sortableToFloat64 } from '../format/int64.js'
import { decodeUtf8Strict } from '../format/utf8.js'
import type { Column } from '../read/column.js'
import { type ColumnsReader, MERGE_PROTOCOL, MERGE_PROTOCOL_VERSION } from '../read/reader.js'
import { notABool, outsideDegrees } from '../read/read-values.js'
import { checkMaxDoc, ColumnsWriter, type WriterOptions } from './columns-writer.js'
import { mergeTargets } from './merge-targets.js'
import { describeValue } from './values.js'

/** One input of a merge: a reader and where each of its documents goes (-1 = deleted). */
export interface MergeSource {
  reader: ColumnsReader
  docMap: Int32Array
}

/** Options of mergeColumns. */
export interface MergeOptions extends WriterOptions {
  /** Documents in the merged segment. */
  maxDoc: number
}

/** Merges sources into one columns file (null when no live document has a value). */
export function mergeColumns(sources: readonly MergeSource[], options: MergeOptions): Uint8Array | null {
  if (!Array.isArray(sources as unknown)) throw new InvalidInputError(`merge: sources must be an array of { reader, docMap }, got ${describeValue(sources)}`)
  if (typeof options !== 'object' || options === null) throw new InvalidInputError(`merge: options must be an object with maxDoc, got ${describeValue(options)}`)
  const { maxDoc } = options
  checkMaxDoc(maxDoc, 'merge: ')
  const docMaps = Array.from(sources, (input, source) => {
    if (typeof input !== 'object' || input === null) throw new InvalidInputError(`merge: source ${source} must be { reader, docMap }, got ${describeValue(input)}`)
    const { reader, docMap } = input
    // Branded, not instanceof: a reader of another copy of this version (the browser's reader bundle) is welcome.
    const protocol = typeof reader === 'object' && reader !== null ? (reader as unknown as Record<symbol, unknown>)[MERGE_PROTOCOL] : undefined
    if (protocol !== MERGE_PROTOCOL_VERSION) {
      const got = protocol === undefined ? describeValue(reader) : 'a ColumnsReader of another oixk version'
      throw new InvalidInputError(`merge: source ${source} reader must be a ColumnsReader (openColumns makes one; a pool's segment is not one), got ${got}`)
    }
    if (reader.isClosed) throw new InvalidInputError(`merge: source ${source} (${reader.fileName}) is a closed reader`)
    if (typedArrayName(docMap) !== 'Int32Array') throw new InvalidInputError(`merge: source ${source} docMap must be an Int32Array, got ${describeValue(docMap)}`)
    if (docMap.length !== reader.maxDoc) {
      throw new InvalidInputError(`merge: source ${source} (${reader.fileName}) has ${reader.maxDoc} documents but its docMap has ${docMap.length} entries`)
    }
    return docMap
  })
  const { count, order, targets, sources: sourceOf, olds } = mergeTargets(docMaps, maxDoc)
  const types = new Map<string, { type: ColumnType; source: number }>()
  sources.forEach(({ reader }, source) => {
    for (const column of reader.columns) {
      const known = types.get(column.name)
      if (known === undefined) types.set(column.name, { type: column.type, source })
      else if (known.type !== column.type) {
        throw new InvalidInputError(`merge: field "${column.name}" is ${known.type} in source ${known.source} but ${column.type} in source ${source}`)
      }
    }
  })
  const fields = [...types].map(([name, { type }]) => ({ name, type, column: true, multi: true }))
  const writer = new ColumnsWriter({ fields }, options)
  const inputs = sources.map(({ reader }) => reader.columns.map((column) => ({
    column,
    builder: writer.columnBuilder(column.name)!,
    terms: column.dictionary === null ? null : new Array<string | undefined>(column.dictionary.termCount),
  })))
  for (let next = 0; next < count; next++) {
    const live = order === null ? next : order[next]
    const target = targets[live], source = sourceOf[live], old = olds[live]
    writer.beginDocument(target)
    for (const { column, builder, terms } of inputs[source]) {
      const count = column.valueCount(old)
      if (count === 0) continue
      const first = column.firstValueIndex(old)
      const runStart = builder.valueCount
      for (let index = first; index < first + count; index++) {
        if (terms !== null) {
          builder.appendTerm(termOf(column, terms, column.getOrdinalAt(index), sources[source].reader.fileName), target)
          continue
        }
        // The words come back from the reader's copy of the library, which may not be this one.
        let raw = column.loadRaw(index)
        if (column.type === 'bool' && !(raw[1] === 0 && (raw[0] === 0 || raw[0] === 1))) {
          outOfDomain(sources[source].reader.fileName, column, notABool(index, raw[0], raw[1]))
        }
        builder.values.push(raw[0], raw[1])
        if (column.longitudes !== null) {
          checkDegrees(sources[source].reader.fileName, column, index, 'latitude', 90, raw)
          raw = column.loadRaw(index, 'longitude')
          checkDegrees(sources[source].reader.fileName, column, index, 'longitude', 180, raw)
          builder.longitudes.push(raw[0], raw[1])
        }
      }
      builder.endDocument(target, runStart)
    }
    writer.endRawDocument(target)
  }
  return writer.finish(maxDoc)
}

/**
 * A value a flush could not have written (a source that opens but would fail its full check): the
 * merge refuses it, with the full check's words, rather than write a file that fails that check.
 */
function outOfDomain(fileName: string, column: Column, detail: string): never {
  throw new CorruptIndexException(fileName, `field "${column.name}": ${detail}`)
}

/** The geo part in raw (SortableBits words) within [-bound, bound] degrees (NaN is not), or the merge refuses it. */
function checkDegrees(fileName: string, column: Column, index: number, part: 'latitude' | 'longitude', bound: number, raw: Int32Array): void {
  const degrees = sortableToFloat64(raw[0], raw[1])
  if (!(degrees >= -bound && degrees <= bound)) outOfDomain(fileName, column, outsideDegrees(index, part, degrees, bound))
}

/** A source term as a string, decoded once per ordinal. */
function termOf(column: Column, terms: (string | undefined)[], ordinal: number, fileName: string): string {
  let term = terms[ordinal]
  if (term === undefined) {
    const decoded = decodeUtf8Strict(column.dictionary!.termBytes(ordinal))
    if (decoded === null) throw new CorruptIndexException(fileName, `field "${column.name}": term ${ordinal} is not valid UTF-8`)
    term = decoded
    terms[ordinal] = term
  }
  return term
}
