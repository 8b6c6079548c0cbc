// A sequence dictionary's codes as ranks, for the decoded view queries read
// (src/cascade/decoded-codes.ts): the codes node decoded a block at a time,
// each code checked below k and mapped through a u16 rank per code, stored at
// 8 or 16 bits. Whole patched blocks (codes by frequency, mostly) come as u32
// from their fields (patched-units.ts), the others through blocksDecode.
import { BLOCK_VALUES, OK } from '../common'
import { U_BUFFER } from '../query-common'
import { wholePatched } from './blocks/patched-units'
import { FORM_BLOCKS } from './common'
import { blocksDecode } from './sequences/blocks'

/** One block of codes as i64 (its own: blocksDecode uses the cascade's shared buffers). */
const CODES_BLOCK: usize = memory.data(8 * BLOCK_VALUES, 16)

/** Ranks of n codes (u32 a `stride` apart from `codes`, each below k) to out at `width` bits. */
// @ts-ignore: decorator
@inline function storeRanks(codes: usize, stride: u32, n: u32, ranks: usize, out: usize, width: u32): void {
  if (width == 8) {
    for (let j: usize = 0; j < <usize>n; j++) store<u8>(out + j, load<u16>(ranks + (<usize>load<u32>(codes + j * stride) << 1)))
  } else {
    for (let j: usize = 0; j < <usize>n; j++) store<u16>(out + (j << 1), load<u16>(ranks + (<usize>load<u32>(codes + j * stride) << 1)))
  }
}

/**
 * Codes [0, count) of the form-0 node to out as ranks (u16 ranks[code]; width 8: u8 each, 16: u16
 * each). Returns -1; the index of the first code not below k (none written from its block on); or
 * -2 - status when a block cannot be decoded (-2: the node is not of blocks).
 */
export function decodeRanks(node: usize, count: u32, k: u32, ranks: usize, out: usize, width: u32): i32 {
  if (load<u8>(node) != FORM_BLOCKS) return -2
  for (let at: u32 = 0; at < count; at += BLOCK_VALUES) {
    const n = min(BLOCK_VALUES, count - at)
    const o = out + (<usize>at << (width == 8 ? 0 : 1))
    if (wholePatched(node, at, k)) {
      storeRanks(U_BUFFER, 4, n, ranks, o, width)
      continue
    }
    const status = blocksDecode(node, at, n, CODES_BLOCK)
    if (status != OK) return -2 - status
    for (let j: u32 = 0; j < n; j++) if (load<u64>(CODES_BLOCK + (<usize>j << 3)) >= <u64>k) return <i32>(at + j)
    storeRanks(CODES_BLOCK, 8, n, ranks, o, width)
  }
  return -1
}
