/**
 * The pure-TypeScript backend: works everywhere, no WebAssembly needed.
 */
import type { ColumnsBackend, PresenceView } from '../backend.js'
import { xxh64Into } from '../../format/xxh64.js'
import { decodeRaw, getRaw } from './decode.js'

/** Set bits in a 32-bit word. */
export function popcount32(value: number): number {
  value -= (value >>> 1) & 0x55555555
  value = (value & 0x33333333) + ((value >>> 2) & 0x33333333)
  return Math.imul((value + (value >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24
}

function rank(presence: PresenceView, document: number): number {
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
  hash: (bytes, start, end, out) => xxh64Into(bytes, start, end, 0, 0, out),
  getRaw,
  decodeRaw,
  rank,
}
