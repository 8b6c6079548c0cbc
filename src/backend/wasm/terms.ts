/**
 * The WebAssembly backend's keyword term decoders: one region of linear memory
 * holds the job's table and lists (or the digits' integers, decoded there in
 * place), the output (with the 32 bytes of slack the kernels' word stores need)
 * and, for short terms, room for the kernel's faster first try; the kernels
 * (assembly/strings/) decode there; the terms are copied out into the reader's
 * own memory and the region is freed. Where no region can be had (a pool
 * worker's bounded arena), the TypeScript decoders, which give the same bytes
 * and statuses, run instead.
 */
import type { ColumnsBackend, DecodedTerms, DigitsJob, TermsJob } from '../backend.js'
import { FSST_TABLE_BYTES } from '../../dictionary/constants.js'
import { decodeDigitsTs } from '../../dictionary/decode/digits-ts.js'
import { decodeTermsTs } from '../../dictionary/decode/terms-ts.js'
import type { WasmRuntime } from './runtime.js'

/** The string kernels' exports (assembly/index.ts documents the ABI). */
export interface StringKernels {
  decodeTerms(
    table: number, pieces: number, lengths: number, shared: number, count: number, out: number, limit: number, offsets: number, pieceBytes: number, work: number,
  ): number
  digitsDecode(values: number, count: number, digits: number, out: number): number
}

const align = (value: number) => Math.ceil(value / 16) * 16

/**
 * Dictionaries whose terms average at most this many bytes get room for the kernel's two-pass try
 * (assembly/strings/terms-short.ts), faster there; longer terms decode a term at a time.
 */
export const SHORT_TERM_BYTES = 12

/** The room that try needs (its layout: terms-short.ts). */
const shortTermsWork = (totalBytes: number, pieceBytes: number) => align(totalBytes + 32) + 4 * (pieceBytes + 2)

/** A region of `size` bytes, or null where none can be had. */
function regionOf(runtime: WasmRuntime, size: number): number | null {
  try {
    return runtime.regions.allocate(size)
  } catch {
    return null
  }
}

/** A kernel's status, with its details from scratch. */
function failure(runtime: WasmRuntime, status: number, detail: Int32Array): number {
  for (let index = 0; index < 3; index++) detail[index] = runtime.words[runtime.scratchWord + index]
  return status
}

/** The kernel's result: the terms copied out of linear memory, or its status with the details from scratch. */
function result(runtime: WasmRuntime, status: number, out: number, offsetsAt: number, count: number, detail: Int32Array): DecodedTerms | number {
  if (status !== 0) return failure(runtime, status, detail)
  // One buffer for both, one allocation (small dictionaries open by the dozen): offsets, then the bytes.
  const length = runtime.words[(offsetsAt >>> 2) + count] >>> 0
  const buffer = new ArrayBuffer(4 * (count + 1) + length)
  const offsets = new Uint32Array(buffer, 0, count + 1), bytes = new Uint8Array(buffer, 4 * (count + 1), length)
  offsets.set(new Uint32Array(runtime.buffer, offsetsAt, count + 1))
  bytes.set(runtime.bytes.subarray(out, out + length))
  return { bytes, offsets }
}

/** decodeTerms over a runtime's kernels. */
export function decodeTermsWasm(runtime: WasmRuntime, job: TermsJob, detail: Int32Array): DecodedTerms | number {
  const count = job.termCount
  const listBytes = align(4 * (count + 1))
  // table | piece lengths | shared lengths | offsets | terms (+ 32 bytes of slack for the kernel's word stores) | work
  const tableBytes = job.table === null ? 0 : FSST_TABLE_BYTES
  const outBytes = align(job.totalBytes + 32), bytes = tableBytes + listBytes * (job.shared === null ? 2 : 3) + outBytes
  let workBytes = job.totalBytes <= SHORT_TERM_BYTES * count ? shortTermsWork(job.totalBytes, job.pieceBytes) : 0
  let region = regionOf(runtime, bytes + workBytes)
  // Without room for the try (it needs about 4 bytes a code byte more), the kernel decodes in order.
  if (region === null && workBytes !== 0) {
    workBytes = 0
    region = regionOf(runtime, bytes)
  }
  if (region === null) return decodeTermsTs(job, detail)
  try {
    // Views only after allocating, which may grow memory (and detach older views).
    const lengths = region + tableBytes, shared = lengths + listBytes
    const offsets = shared + (job.shared === null ? 0 : listBytes), out = offsets + listBytes
    if (job.table !== null) runtime.bytes.set(job.table, region)
    runtime.words.set(job.pieceLengths, lengths >>> 2)
    if (job.shared !== null) runtime.words.set(job.shared, shared >>> 2)
    const status = runtime.kernels.decodeTerms(
      job.table === null ? 0 : region, job.file.address + job.piecesStart, lengths, job.shared === null ? 0 : shared, count, out, job.totalBytes, offsets,
      job.pieceBytes, workBytes === 0 ? 0 : out + outBytes,
    )
    return result(runtime, status, out, offsets, count, detail)
  } finally {
    runtime.regions.free(region)
  }
}

/** decodeDigits over a runtime's kernels: the integers decoded in place into the region, then spelled there. */
export function decodeDigitsWasm(runtime: WasmRuntime, backend: ColumnsBackend, job: DigitsJob, detail: Int32Array): Uint8Array | number {
  const count = job.termCount
  const region = regionOf(runtime, 8 * count + count * job.digits)
  if (region === null) return decodeDigitsTs(job, backend, detail)
  try {
    const out = region + 8 * count
    backend.decodeRaw(job.integers, 0, count, new BigInt64Array(runtime.buffer, region, count), 0)
    const status = runtime.kernels.digitsDecode(region, count, job.digits, out)
    if (status !== 0) return failure(runtime, status, detail)
    return runtime.bytes.slice(out, out + count * job.digits)
  } finally {
    runtime.regions.free(region)
  }
}
