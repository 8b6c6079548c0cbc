/**
 * What a reader makes of a file that opens, checked or not by verify: every read and a fixed set of
 * questions per column, each call's outcome (its answer, or the error it raised) written down, so
 * that two backends can be compared call by call. Users read and query files that passed the open
 * alone, so corruption the full check would name must still come out of every call as the same
 * answer or the same CorruptIndexException on both backends: never another error, never a trap.
 */
import { CorruptIndexException } from '../../src/format/errors.js'
import { DocSet } from '../../src/kernels/doc-set.js'
import type { Column } from '../../src/read/column.js'
import { openColumns } from '../../src/read/open.js'
import type { ColumnsReader } from '../../src/read/reader.js'
import { mergeColumns } from '../../src/write/merge.js'
import { xxh64 } from '../../src/format/xxh64.js'

type BackendName = 'ts' | 'wasm'

/** Each call's outcome: "<field> <call>: ok <answer>" or "<field> <call>: <error class>: <message>". */
export interface Outcomes { opened: boolean; calls: string[] }

function outcome(call: () => unknown): string {
  try {
    const answer = call()
    return `ok ${JSON.stringify(answer, (_, value) => (typeof value === 'bigint' ? `${value}n` : ArrayBuffer.isView(value) ? Array.from(value as unknown as ArrayLike<number>) : value))}`
  } catch (error) {
    return `${error instanceof Error ? error.constructor.name : typeof error}: ${error instanceof Error ? error.message : String(error)}`
  }
}

/** Bounds of an integral or date column's values for its questions, as its directory entry gives them. */
/** The column's raw extremes as bigints (numbers from 2^53 on are refused as bounds), in order. */
function bounds(column: Column): [bigint, bigint] {
  const lo = column.minRaw, hi = column.maxRaw
  return lo <= hi ? [lo, hi] : [hi, lo]
}

/** The questions asked of one column, with and without a DocSet of every third document. */
function ask(reader: ColumnsReader, column: Column): string[] {
  const third = DocSet.fromDocuments(reader, Array.from({ length: reader.maxDoc }, (_, d) => d).filter((d) => d % 3 === 0))
  const calls: (() => unknown)[] = []
  for (const docs of [undefined, third]) {
    if (column.type === 'keyword') {
      const n = column.dictionary?.termCount ?? 0
      // Terms read inside the calls (a term can be corrupt): three, then several runs of ordinals
      // (every other of 12 spread over the dictionary: the membership pass).
      const some = () => [0, n >> 1, n - 1].filter((t) => t >= 0).map((t) => column.term(t))
      const spread = () => Array.from({ length: Math.min(n, 12) }, (_, i) => column.term(Math.floor((i * n) / 12))).filter((_, i) => i % 2 === 0)
      calls.push(() => column.facetCounts(docs), () => column.termFilter(some(), docs).toArray(), () => column.termFilter(spread(), docs).toArray())
      calls.push(() => column.topK(5, 'ascending', docs), () => column.topK(5, 'descending', docs))
    } else if (column.type === 'geo_point') {
      calls.push(() => column.boundingBoxFilter({ minLatitude: -45, maxLatitude: 45, minLongitude: -90, maxLongitude: 90 }, docs).toArray())
    } else if (column.type === 'bool') {
      calls.push(() => column.facetCounts(docs), () => column.rangeFilter(true, true, docs).toArray(), () => column.aggregate(docs))
    } else if (column.type === 'fractional') {
      calls.push(() => column.rangeFilter(-1e300, 0.5, docs).toArray(), () => column.aggregate(docs), () => column.histogram([-1e300, 0, 1e300], docs))
      calls.push(() => column.topK(5, 'ascending', docs), () => column.topK(5, 'descending', docs))
    } else {
      const [lo, hi] = bounds(column)
      const middle = lo / 2n + hi / 2n
      calls.push(() => column.rangeFilter(lo, middle, docs).toArray(), () => column.aggregate(docs))
      calls.push(() => column.topK(5, 'ascending', docs), () => column.topK(5, 'descending', docs))
      if (lo < middle && middle < hi) calls.push(() => column.histogram([lo, middle, hi + 1n], docs))
    }
  }
  return calls.map((call, i) => `${column.name} #${i} => ${outcome(call)}`)
}

/** Opens bytes with one backend (no verify) and records every read and question, column by column. */
export function openOnly(bytes: Uint8Array, backend: BackendName, fileName: string): Outcomes {
  let reader: ColumnsReader
  try {
    reader = openColumns(bytes.slice(), { backend, fileName })
  } catch (error) {
    return { opened: false, calls: [`open => ${outcome(() => { throw error })}`] }
  }
  const calls: string[] = []
  try {
    for (const column of reader.columns) {
      for (const part of column.type === 'geo_point' ? (['latitude', 'longitude'] as const) : (['latitude'] as const)) {
        const doubles = column.type === 'fractional' || column.type === 'geo_point'
        const kinds: (() => BigInt64Array | Float64Array | Int32Array)[] = [() => new BigInt64Array(column.totalValueCount), () => new Float64Array(column.totalValueCount)]
        if (!doubles) kinds.push(() => new Int32Array(column.totalValueCount))
        for (const make of kinds) {
          calls.push(`${column.name} ${part} ${make().constructor.name} => ${outcome(() => { const out = make(); column.readValues(0, out, part); return out })}`)
        }
      }
      const documents = Math.min(reader.maxDoc, 64)
      calls.push(`${column.name} documents => ${outcome(() => Array.from({ length: documents }, (_, d) => [column.hasValue(d), column.valueCount(d)]))}`)
      // Single reads, one call each (their paths are not the bulk decode's): raw values, then the type's own.
      const single = (d: number): unknown => {
        if (!column.hasValue(d)) return null
        switch (column.type) {
          case 'keyword': return [column.getOrdinal(d), column.getKeywordString(d)]
          case 'fractional': return column.getFloat64(d)
          case 'geo_point': return Array.from(column.getGeoPoint(d))
          default: return column.getInt64BigInt(d)
        }
      }
      for (let d = 0; d < documents; d++) calls.push(`${column.name} document ${d} => ${outcome(() => single(d))}`)
      for (let v = 0; v < Math.min(column.totalValueCount, 64); v++) calls.push(`${column.name} raw ${v} => ${outcome(() => column.getRawBigInt(v))}`)
      calls.push(...ask(reader, column))
    }
    // A merge reads every value again and writes them canonically: the same bytes on both backends, or the same error;
    // and what it writes passes the full check (checked once, in the WebAssembly pass: any failure is a problem).
    calls.push(`merge => ${outcome(() => {
      const merged = mergeColumns([{ reader, docMap: Int32Array.from({ length: reader.maxDoc }, (_, d) => d) }], { maxDoc: reader.maxDoc, format: reader.format })
      if (merged !== null && backend === 'wasm') {
        const written = openColumns(merged, { backend: 'ts' })
        try {
          written.verify()
        } catch (error) {
          throw new Error(`the merged file fails its full check: ${(error as Error).message}`)
        } finally {
          written.close()
        }
      }
      return merged === null ? null : xxh64(merged).toString(16)
    })}`)
  } finally {
    reader.close()
  }
  return { opened: true, calls }
}

/** Problems with one file opened by both backends without verify: outcomes that differ, or errors other than CorruptIndexException. */
export function openOnlyProblems(bytes: Uint8Array, fileName: string): string[] {
  const problems: string[] = []
  const ts = openOnly(bytes, 'ts', fileName), wasm = openOnly(bytes, 'wasm', fileName)
  for (const [name, outcomes] of [['ts', ts], ['wasm', wasm]] as const) {
    for (const call of outcomes.calls) {
      const result = call.slice(call.indexOf(' => ') + 4)
      if (result.startsWith('ok ') || result.startsWith(`${CorruptIndexException.name}: ${fileName}: `)) continue
      // The API's own refusals name the field (a value beyond 2^53 for doubles, or beyond an Int32Array).
      if (/^(RangeError|TypeError): field "/.test(result)) continue
      problems.push(`${name}: ${call.slice(0, 300)}`)
      break
    }
  }
  if (ts.opened !== wasm.opened) problems.push(`open differs: ts ${ts.calls[0]?.slice(0, 200)}; wasm ${wasm.calls[0]?.slice(0, 200)}`)
  else {
    const at = ts.calls.findIndex((call, i) => call !== wasm.calls[i])
    if (at >= 0 || ts.calls.length !== wasm.calls.length) problems.push(`call ${at} differs: ts ${ts.calls[at]?.slice(0, 200)}; wasm ${wasm.calls[at]?.slice(0, 200)}`)
  }
  return problems
}
