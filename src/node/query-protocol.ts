/**
 * Messages between the query pool and its workers. Bytes and bitsets travel
 * as SharedArrayBuffers (shared, never copied); counts come back transferred.
 */
import type { LinearMemory } from '../backend/wasm/memory-types.js'
import type { ColumnType, Layout } from '../format/constants.js'
import { isPlainObject } from '../kernels/natural-units.js'

/** What the pool learns about a column when a worker opens the segment. */
export interface ColumnInfo {
  name: string
  type: ColumnType
  layout: Layout
  /** Keyword: terms in the dictionary (facetCounts length); 0 otherwise. */
  termCount: number
}

/** A worker's answer to an OpenRequest. */
export interface OpenedSegment {
  maxDoc: number
  columns: ColumnInfo[]
}

/** The pooled queries (the Column methods they mirror). */
export type PooledMethod = 'facetCounts' | 'histogram' | 'aggregate' | 'rangeFilter' | 'termFilter' | 'boundingBoxFilter'

/** What a worker starts with: the pool's shared kernel memory (backend 'wasm') and its static window there. */
export interface WorkerData {
  /** A WebAssembly.Memory (shared), typed structurally: see memory-types.ts. */
  sharedMemory: LinearMemory | null
  window: number
}

/**
 * Opens a segment in a worker over shared bytes [byteOffset, byteOffset + byteLength) of buffer.
 * Backend 'wasm': buffer is the shared kernel memory's, byteOffset the file's address in it.
 */
export interface OpenRequest {
  op: 'open'
  id: number
  segment: number
  buffer: SharedArrayBuffer
  byteOffset: number
  byteLength: number
  fileName: string
  maxDoc: number | undefined
  backend: 'ts' | 'wasm' | 'auto'
  /** Whether the worker's reader decodes a dictionary column's codes on its first question (OpenOptions.decodedCodes). */
  decodedCodes: boolean
  /** OpenOptions.maxDecodedBytes (each worker decodes the file's dictionaries for itself). */
  maxDecodedBytes: number | undefined
  /**
   * Backend 'wasm', a file still being copied in: an Int32Array's buffer whose element 0 the pool
   * raises to the bytes copied so far (-1: the copy failed); the worker hashes each piece as it lands.
   */
  copied?: SharedArrayBuffer
  /**
   * Backend 'wasm': another worker checks the checksum of these same bytes in the same open (the pool
   * refuses the file if it fails), so this one takes the stored checksum as computed and checks the rest.
   */
  checksumCheckedElsewhere?: boolean
}

/** Closes a worker's reader of a segment. */
export interface ReleaseRequest {
  op: 'release'
  id: number
  segment: number
}

/** One method over documents [from, to); filter/out are whole-segment bitsets in shared memory. */
export interface QueryRequest {
  op: 'query'
  id: number
  segment: number
  method: PooledMethod
  field: string
  args: unknown[]
  from: number
  to: number
  filter: Int32Array | null
  out: Int32Array | null
}

/** The terms of a keyword column's ordinals (topTerms names its winners). */
export interface TermsRequest {
  op: 'terms'
  id: number
  segment: number
  field: string
  ordinals: number[]
}

export type WorkerRequest = OpenRequest | ReleaseRequest | QueryRequest | TermsRequest

/** An error as it crosses the thread boundary: class name, message and own fields (fileName, detail, ...). */
export interface SerializedError {
  name: string
  message: string
  fields: Record<string, string | number>
}

export type WorkerReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: SerializedError }

/**
 * A bound or histogram edge as plain data for the workers, read here as the reader reads it:
 * structured cloning drops prototypes (a `raw` getter's value) and refuses Proxies. Anything else
 * goes as given, for the worker to name as the reader would.
 */
export function sendableBound(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Date || !('raw' in value)) return value
  // A plain object's other keys go too: the worker refuses them, as the reader does.
  return isPlainObject(value) ? { ...value, raw: (value as { raw: unknown }).raw } : { raw: (value as { raw: unknown }).raw }
}

/** A bounding box as plain data for the workers (see sendableBound). */
export function sendableBox(box: unknown): unknown {
  if (box === null || typeof box !== 'object') return box
  const { minLatitude, maxLatitude, minLongitude, maxLongitude } = box as Record<string, unknown>
  return { minLatitude, maxLatitude, minLongitude, maxLongitude }
}

/** Terms for the workers: bytes copied, since cloning a view sends its whole buffer. */
export function sendableTerms(terms: (string | Uint8Array)[]): (string | Uint8Array)[] {
  return terms.map((term) => typeof term === 'string' ? term : term.slice())
}

/**
 * The error a question's caller gets, with the caller's stack (`call`, made when it asked): a
 * worker's error, rebuilt here, would show only the message port's frames. Every rejection the
 * pool makes is a new error, so its stack is the caller's to change.
 */
export function withCallerStack(error: unknown, call: Error): unknown {
  if (error instanceof Error && typeof call.stack === 'string') {
    error.stack = `${error.name}: ${error.message}\n${call.stack.slice(call.stack.indexOf('\n') + 1)}`
  }
  return error
}
