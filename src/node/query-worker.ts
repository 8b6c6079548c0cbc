/**
 * A query-pool worker: opens segments from the shared memory the pool hands
 * it, with no copy (backend 'ts' reads a SharedArrayBuffer in place; 'wasm'
 * runs this worker's own kernel instance over the pool's shared
 * WebAssembly.Memory, where the file already is) and runs the range kernels
 * of query-range.ts on the document range it is given. Filter and result
 * bitsets arrive as Int32Arrays over shared memory.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { ColumnsBackend } from '../backend/backend.js'
import { resolveBackend } from '../backend/select.js'
import { createWasmBackend } from '../backend/wasm/index.js'
import type { WasmRuntime } from '../backend/wasm/runtime.js'
import { createSharedWasmRuntime, hashFollowingCopy } from '../backend/wasm/shared.js'
import { expectType } from '../kernels/common.js'
import { type BoundingBox, boxRanges, membersPass } from '../kernels/filters.js'
import { rangeBound, type NaturalValue } from '../kernels/natural-units.js'
import { CHECKSUM_BYTES } from '../format/constants.js'
import { readUint32 } from '../format/int64.js'
import type { Column } from '../read/column.js'
import { openColumns, openResidentFile } from '../read/open.js'
import type { ColumnsReader } from '../read/reader.js'
import { aggregateInRange, facetCountsInRange, filterInRange, histogramInRange, memberFilterInRange, type RawRanges } from './query-range.js'
import type { ColumnInfo, OpenedSegment, OpenRequest, QueryRequest, SerializedError, WorkerData, WorkerReply, WorkerRequest } from './query-protocol.js'

const segments = new Map<number, { reader: ColumnsReader; backend: ColumnsBackend }>()

function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} }
  const fields: Record<string, string | number> = {}
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value
  }
  return { name: error.name, message: error.message, fields }
}

const { sharedMemory, window } = workerData as WorkerData
let shared: { runtime: WasmRuntime; backend: ColumnsBackend } | null = null

/** This worker's kernel instance over the pool's shared memory, made on first use. */
function sharedWasm(): { runtime: WasmRuntime; backend: ColumnsBackend } {
  if (shared === null) {
    const runtime = createSharedWasmRuntime(sharedMemory!, window)
    shared = { runtime, backend: createWasmBackend(runtime) }
  }
  // Another thread (the pool opening a file, another worker's arena) may have grown the memory.
  if (shared.runtime.bytes.length !== sharedMemory!.buffer.byteLength) shared.runtime.refreshViews()
  return shared
}

function open(request: OpenRequest): OpenedSegment {
  // Decoded codes (the pool's default, as a reader's): each worker copies a whole column for its part, once,
  // in its arena (none where the arena has no room: the question then reads the encodings).
  const options = { fileName: request.fileName, maxDoc: request.maxDoc, decodedCodes: request.decodedCodes, maxDecodedBytes: request.maxDecodedBytes }
  const bytes = new Uint8Array(request.buffer, request.byteOffset, request.byteLength)
  let backend: ColumnsBackend, reader: ColumnsReader
  if (request.backend === 'wasm' && sharedMemory !== null) {
    // The file is in the kernels' memory (or being copied there), at byteOffset: open it where it is; the pool frees it.
    const wasm = sharedWasm()
    backend = wasm.backend
    // The checksum covers all but the file's last bytes, which hold it (checkFrame). Hashed while the pool
    // still copies the file in, it is ready only once the whole file is: open's checks then see every byte.
    const hashed = Math.max(request.byteLength - CHECKSUM_BYTES, 0)
    const known = request.copied !== undefined
      ? hashFollowingCopy(wasm.runtime, request.byteOffset, hashed, request.byteLength, new Int32Array(request.copied))
      : request.checksumCheckedElsewhere === true && request.byteLength >= CHECKSUM_BYTES
        ? [readUint32(bytes, hashed), readUint32(bytes, hashed + 4)] : undefined
    reader = openResidentFile({ bytes, stable: false, address: request.byteOffset, release() {} }, backend, options, (file, start, end, out) => {
      if (known !== undefined && start === 0 && end === hashed) {
        out[0] = known[0]
        out[1] = known[1]
      } else backend.hash(file, start, end, out)
    })
  } else {
    backend = resolveBackend(request.backend)
    // The pool checked the file against its resident limit before sharing it.
    reader = openColumns(bytes, { ...options, backend, maxResidentFileBytes: Math.max(1, bytes.length) })
  }
  segments.set(request.segment, { reader, backend })
  const columns = reader.columns.map((column): ColumnInfo => ({
    name: column.name, type: column.type, layout: column.layout,
    termCount: column.dictionary === null ? 0 : column.dictionary.termCount,
  }))
  return { maxDoc: reader.maxDoc, columns }
}

/** termFilter over the range: one matchRange pass per run of consecutive known ordinals, or one membership pass. */
function termFilterInRange(column: Column, backend: ColumnsBackend, request: QueryRequest, terms: (string | Uint8Array)[]): void {
  expectType(column, 'termFilter', column.type === 'keyword', 'keyword')
  const ordinals = terms.map((term) => column.dictionary!.lookupOrdinal(term)).filter((ordinal) => ordinal >= 0).sort((a, b) => a - b)
  const ranges: RawRanges = []
  for (const ordinal of ordinals) {
    const last = ranges[ranges.length - 1]
    if (last !== undefined && BigInt(ordinal) <= last[1] + 1n) last[1] = BigInt(ordinal)
    else ranges.push([BigInt(ordinal), BigInt(ordinal)])
  }
  const range = { from: request.from, to: request.to }
  if (!membersPass(column, backend, ranges.length)) filterInRange(column, backend, request.filter, range, request.out!, ranges, null)
  else memberFilterInRange(column, backend, request.filter, range, request.out!, ordinals)
}


function columnOf(segment: number, field: string): { column: Column; backend: ColumnsBackend } {
  const open = segments.get(segment)
  if (open === undefined) throw new Error(`segment ${segment} is not open in this worker`)
  const column = open.reader.getColumn(field)
  if (column === null) throw new RangeError(`${open.reader.fileName}: no column for field "${field}"`)
  return { column, backend: open.backend }
}

function query(request: QueryRequest): { result: unknown; transfer: ArrayBuffer[] } {
  const { column, backend } = columnOf(request.segment, request.field)
  const range = { from: request.from, to: request.to }
  const filter = request.filter
  const args = request.args
  switch (request.method) {
    case 'facetCounts': {
      const counts = facetCountsInRange(column, backend, filter, range)
      return { result: counts, transfer: [counts.buffer as ArrayBuffer] }
    }
    case 'histogram': {
      const counts = histogramInRange(column, backend, filter, range, args[0] as NaturalValue[])
      return { result: counts, transfer: [counts.buffer as ArrayBuffer] }
    }
    case 'aggregate': {
      const state = aggregateInRange(column, backend, filter, range)
      return { result: { numbers: state.numbers, words: state.words }, transfer: [state.numbers.buffer as ArrayBuffer, state.words.buffer as ArrayBuffer] }
    }
    case 'rangeFilter': {
      expectType(column, 'rangeFilter', column.type !== 'geo_point', 'integral/date/fractional/bool/keyword')
      const lo = rangeBound(column.name, column.type, args[0] as NaturalValue, 'lo')
      const hi = rangeBound(column.name, column.type, args[1] as NaturalValue, 'hi')
      filterInRange(column, backend, filter, range, request.out!, lo === null || hi === null ? [] : [[lo, hi]], null)
      return { result: null, transfer: [] }
    }
    case 'termFilter':
      termFilterInRange(column, backend, request, args[0] as (string | Uint8Array)[])
      return { result: null, transfer: [] }
    case 'boundingBoxFilter': {
      const [latitudes, longitudes] = boxRanges(column, args[0] as BoundingBox)
      filterInRange(column, backend, filter, range, request.out!, latitudes, { sequence: column.longitudes!, ranges: longitudes })
      return { result: null, transfer: [] }
    }
  }
}

function handle(request: WorkerRequest): void {
  let reply: WorkerReply
  let transfer: ArrayBuffer[] = []
  try {
    if (request.op === 'open') {
      reply = { id: request.id, ok: true, result: open(request) }
    } else if (request.op === 'terms') {
      const { column } = columnOf(request.segment, request.field)
      reply = { id: request.id, ok: true, result: request.ordinals.map((ordinal) => column.term(ordinal)) }
    } else if (request.op === 'release') {
      segments.get(request.segment)?.reader.close()
      segments.delete(request.segment)
      reply = { id: request.id, ok: true, result: null }
    } else {
      const answer = query(request)
      transfer = answer.transfer
      reply = { id: request.id, ok: true, result: answer.result }
    }
  } catch (error) {
    reply = { id: request.id, ok: false, error: serializeError(error) }
  }
  parentPort!.postMessage(reply, transfer)
}

parentPort!.on('message', handle)
