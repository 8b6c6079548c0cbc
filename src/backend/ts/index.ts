/**
 * The pure-TypeScript backend: works everywhere, no WebAssembly needed.
 */
import type { ColumnsBackend, ResidentFile } from '../backend.js'
import { int64Words } from '../../format/int64.js'
import { LIBRARY_COPY } from '../../format/library-copy.js'
import { isLinearMemory } from '../destinations.js'
import { xxh64Into } from '../../format/xxh64.js'
import { decodeRaw, getRaw } from './decode.js'
import { getNumberCascade } from '../../cascade/reader/decode-ts.js'
import { checkCanonical } from './canonical.js'
import { decodeFloat64, decodeInt32, decodeOrdinals } from './typed.js'
import { decodeRanks } from './decode-ranks.js'
import { typeScriptQueryKernels } from './query.js'
import { rankOf } from '../bits.js'
import { withCascadeQueries } from '../../cascade/query-adapter.js'
import { decodeTermsTs } from '../../dictionary/decode/terms-ts.js'
import { decodeDigitsTs } from '../../dictionary/decode/digits-ts.js'

// Shared with the WebAssembly backend and the reader (src/backend/bits.ts); still exported from here.
export { popcount as popcount32, rankOf } from '../bits.js'

/** Whether the bytes of `buffer` may be detached, shrunk or grown while a reader reads them in place. */
function mayMove(buffer: ArrayBufferLike): boolean {
  const flags = buffer as { resizable?: boolean; growable?: boolean }
  return flags.resizable === true || flags.growable === true || isLinearMemory(buffer)
}

/** The pure-TypeScript backend. */
export const typeScriptBackend: ColumnsBackend = {
  name: 'ts',
  copy: LIBRARY_COPY,
  // The caller's array is used as it is: nothing to copy, nothing to free. Except a view of
  // WebAssembly memory (a FileBuffer's bytes), which growth detaches under the reader, and of a
  // resizable or growable buffer, which may shrink or move under it (answers went silently wrong): copied.
  load: (bytes): ResidentFile => ({ bytes: mayMove(bytes.buffer) ? bytes.slice() : bytes, stable: true, address: 0, release() {} }),
  loadWith(length, fill): ResidentFile {
    const bytes = new Uint8Array(length)
    fill(bytes)
    return this.load(bytes)
  },
  hash: (file, start, end, out) => xxh64Into(file.bytes, start, end, 0, 0, out),
  getRaw,
  getNumber: getNumberCascade,
  // The kernels write words: a BigInt64Array through an int32 view of it.
  decodeRaw: (sequence, first, count, destination, destinationIndex) =>
    decodeRaw(sequence, first, count, destination instanceof BigInt64Array ? int64Words(destination) : destination, destinationIndex),
  decodeFloat64,
  decodeInt32,
  decodeRanks,
  decodeOrdinals: (sequence, first, count, ordinalLimit, destination, destinationIndex) =>
    decodeOrdinals(sequence, first, count, ordinalLimit, int64Words(destination), destinationIndex),
  checkCanonical,
  decodeTerms: decodeTermsTs,
  decodeDigits: (job, detail) => decodeDigitsTs(job, typeScriptBackend, detail),
  rank: rankOf,
  // v2 sequences of other forms are decoded a chunk at a time for the kernels (src/cascade/query-adapter.ts).
  query: withCascadeQueries(typeScriptQueryKernels, () => typeScriptBackend),
}
