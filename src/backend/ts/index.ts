/**
 * The pure-TypeScript backend: works everywhere, no WebAssembly needed.
 */
import type { ColumnsBackend, PresenceView, ResidentFile } from '../backend.js'
import { xxh64Into } from '../../format/xxh64.js'
import { decodeRaw, getRaw } from './decode.js'
import { checkCanonical } from './canonical.js'
import { decodeFloat64, decodeInt32 } from './typed.js'
import { typeScriptQueryKernels } from './query.js'

/** Set bits in a 32-bit word. */
export function popcount32(value: number): number {
  value -= (value >>> 1) & 0x55555555
  value = (value & 0x33333333) + ((value >>> 2) & 0x33333333)
  return Math.imul((value + (value >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24
}

/** Documents with a value before `document`: the rank of its 64-document word plus a popcount. */
export function rankOf(presence: PresenceView, document: number): number {
  const words = presence.words
  const word = document >>> 5
  const below = word & 1 ? popcount32(words[word - 1]) : 0
  const shift = document & 31
  const masked = shift === 0 ? 0 : words[word] & (-1 >>> (32 - shift))
  return presence.ranks[document >>> 6] + below + popcount32(masked)
}

/** The pure-TypeScript backend. */
export const typeScriptBackend: ColumnsBackend = {
  name: 'ts',
  // The caller's array is used as it is: nothing to copy, nothing to free.
  load: (bytes): ResidentFile => ({ bytes, stable: true, address: 0, release() {} }),
  loadWith(length, fill): ResidentFile {
    const bytes = new Uint8Array(length)
    fill(bytes)
    return this.load(bytes)
  },
  hash: (file, start, end, out) => xxh64Into(file.bytes, start, end, 0, 0, out),
  getRaw,
  decodeRaw,
  decodeFloat64,
  decodeInt32,
  checkCanonical,
  rank: rankOf,
  query: typeScriptQueryKernels,
}
