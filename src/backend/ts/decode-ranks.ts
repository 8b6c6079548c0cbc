/**
 * The TypeScript backend's decodeRanks (ColumnsBackend): a sequence dictionary's
 * codes decoded as int32 a chunk at a time, each checked below k as it decodes,
 * then mapped through the ranks into the target.
 */
import type { ResidentFile, SequenceView } from '../backend.js'
import { BLOCK_VALUES } from '../../format/constants.js'
import { decodeInt32 } from './typed.js'

const CHUNK_VALUES = 16384
const chunk = new Int32Array(CHUNK_VALUES)

/**
 * Codes of `codes` as ranks[code], u8 (width 8) or u16 (16) each, into target from byte `offset`, and
 * each block's least and largest of them as two u16s from byte `extremes`: -1, or the first code not below k.
 */
export function decodeRanks(codes: SequenceView, ranks: Uint16Array, target: ResidentFile, offset: number, width: 8 | 16, extremes: number): number {
  const k = ranks.length, count = codes.count, region = target.bytes
  const bounds = new Uint16Array(region.buffer, region.byteOffset + extremes, 2 * Math.ceil(count / BLOCK_VALUES))
  for (let first = 0; first < count; first += CHUNK_VALUES) {
    const n = Math.min(CHUNK_VALUES, count - first)
    const bad = decodeInt32(codes, first, n, k, chunk, 0)
    if (bad >= 0) return first + bad
    const out = width === 8 ? region.subarray(offset + first, offset + first + n) : new Uint16Array(region.buffer, region.byteOffset + offset + 2 * first, n)
    for (let index = 0; index < n; index++) out[index] = ranks[chunk[index]]
    for (let start = 0; start < n; start += BLOCK_VALUES) {
      let least = 0xffff, most = 0
      for (let index = start; index < Math.min(n, start + BLOCK_VALUES); index++) {
        const field = out[index]
        if (field < least) least = field
        if (field > most) most = field
      }
      const block = (first + start) / BLOCK_VALUES
      bounds[2 * block] = least
      bounds[2 * block + 1] = most
    }
  }
  return -1
}
