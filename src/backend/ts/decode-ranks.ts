/**
 * The TypeScript backend's decodeRanks (ColumnsBackend): a sequence dictionary's
 * codes decoded as int32 a chunk at a time, each checked below k as it decodes,
 * then mapped through the ranks into the target.
 */
import type { ResidentFile, SequenceView } from '../backend.js'
import { decodeInt32 } from './typed.js'

const CHUNK_VALUES = 16384
const chunk = new Int32Array(CHUNK_VALUES)

/** Codes of `codes` as ranks[code], u8 (width 8) or u16 (16) each, into target from byte `offset`: -1, or the first code not below k. */
export function decodeRanks(codes: SequenceView, ranks: Uint16Array, target: ResidentFile, offset: number, width: 8 | 16): number {
  const k = ranks.length, count = codes.count, region = target.bytes
  for (let first = 0; first < count; first += CHUNK_VALUES) {
    const n = Math.min(CHUNK_VALUES, count - first)
    const bad = decodeInt32(codes, first, n, k, chunk, 0)
    if (bad >= 0) return first + bad
    const out = width === 8 ? region.subarray(offset + first, offset + first + n) : new Uint16Array(region.buffer, region.byteOffset + offset + 2 * first, n)
    for (let index = 0; index < n; index++) out[index] = ranks[chunk[index]]
  }
  return -1
}
