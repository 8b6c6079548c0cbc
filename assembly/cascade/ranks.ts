// A sequence dictionary's codes as ranks, for the decoded view queries read
// (src/cascade/decoded-codes.ts): the codes node decoded a block at a time,
// each code checked below k and mapped through a u16 rank per code, stored at
// 8 or 16 bits, with each block's least and largest field (topK's block
// bounds). Whole patched blocks (codes by frequency, mostly) come as u32
// from their fields (patched-units.ts), the others through blocksDecode.
import { BLOCK_VALUES, OK } from '../common'
import { U_BUFFER } from '../query-common'
import { wholePatched } from './blocks/patched-units'
import { patchedBytes, prepareRankBytes, storeRankBytes } from './blocks/patched-bytes'
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

/** The least and the largest of n fields at `width` bits from `fields`, as u16s at `to` (vectors of 16 or 8). */
function storeExtremes(fields: usize, n: u32, width: u32, to: usize): void {
  let least: u32 = 0xffff, most: u32 = 0, j: u32 = 0
  if (width == 8) {
    let lo = i8x16.splat(-1), hi = i8x16.splat(0)
    for (; j + 16 <= n; j += 16) {
      const v = v128.load(fields + j)
      lo = i8x16.min_u(lo, v)
      hi = i8x16.max_u(hi, v)
    }
    v128.store(EXTREMES, lo)
    v128.store(EXTREMES + 16, hi)
    for (let lane: usize = 0; lane < 16; lane++) {
      least = min(least, <u32>load<u8>(EXTREMES + lane))
      most = max(most, <u32>load<u8>(EXTREMES + 16 + lane))
    }
    for (; j < n; j++) { const v = <u32>load<u8>(fields + j); least = min(least, v); most = max(most, v) }
  } else {
    let lo = i16x8.splat(-1), hi = i16x8.splat(0)
    for (; j + 8 <= n; j += 8) {
      const v = v128.load(fields + (<usize>j << 1))
      lo = i16x8.min_u(lo, v)
      hi = i16x8.max_u(hi, v)
    }
    v128.store(EXTREMES, lo)
    v128.store(EXTREMES + 16, hi)
    for (let lane: usize = 0; lane < 8; lane++) {
      least = min(least, <u32>load<u16>(EXTREMES + (lane << 1)))
      most = max(most, <u32>load<u16>(EXTREMES + 16 + (lane << 1)))
    }
    for (; j < n; j++) { const v = <u32>load<u16>(fields + (<usize>j << 1)); least = min(least, v); most = max(most, v) }
  }
  store<u16>(to, <u16>least)
  store<u16>(to, <u16>most, 2)
}

/** Two vectors' lanes, for storeExtremes. */
const EXTREMES: usize = memory.data(32, 16)

/**
 * Codes [from, count) of the form-0 node (from a multiple of BLOCK_VALUES) to out as ranks (u16
 * ranks[code]; width 8: u8 each, 16: u16 each, code i at out's place i), and each block's least
 * and largest field as two u16s at `extremes` (block b's at 4b). Returns -1; the index of the
 * first code not below k (none written from its block on); or -2 - status when a block cannot be
 * decoded (-2: the node is not of blocks).
 */
export function decodeRanks(node: usize, from: u32, count: u32, k: u32, ranks: usize, out: usize, width: u32, extremes: usize): i32 {
  if (load<u8>(node) != FORM_BLOCKS) return -2
  // Byte codes and byte ranks: whole patched blocks of narrow codes go 16 at a time (patched-bytes.ts).
  const bytes = width == 8 && k <= 256
  if (bytes) prepareRankBytes(ranks, k)
  for (let at: u32 = from; at < count; at += BLOCK_VALUES) {
    const n = min(BLOCK_VALUES, count - at)
    const o = out + (<usize>at << (width == 8 ? 0 : 1))
    if (bytes && patchedBytes(node, at, k)) {
      storeRankBytes(n, k, o)
    } else if (wholePatched(node, at, k)) {
      storeRanks(U_BUFFER, 4, n, ranks, o, width)
    } else {
      const status = blocksDecode(node, at, n, CODES_BLOCK)
      if (status != OK) return -2 - status
      for (let j: u32 = 0; j < n; j++) if (load<u64>(CODES_BLOCK + (<usize>j << 3)) >= <u64>k) return <i32>(at + j)
      storeRanks(CODES_BLOCK, 8, n, ranks, o, width)
    }
    storeExtremes(o, n, width, extremes + (<usize>(at / BLOCK_VALUES) << 2))
  }
  return -1
}
