// Range filters over the codes of a sequence dictionary: where the matching
// entries lie apart (codes numbered by frequency), each selected code is looked
// up in a byte per entry (1: the entry lies in [lo, hi]), 32 codes to an output
// word; where they are consecutive codes, the codes are compared with that span
// 32 at a time by vectors.
// Whole patched blocks give their codes by patchedUnits; other blocks are
// decoded (cascadeDecode). A code not below k, or a failed decode, fails the
// call (-1): the caller then filters the decoding way, which words the error as
// a read does (the bits set before it are matches either way).
import { OK } from '../common'
import { SEL_WORDS, U_BUFFER, blockTake, loadSelection, orBits, rangeMask32 } from '../query-common'
import { wholePatched } from './blocks/patched-units'
import { cascadeDecode } from './index'

/** Codes of the block's `take` values from staging (raw i64) to U_BUFFER as u32: false at one not below k. */
function stageCodes(staging: usize, take: u32, k: u32): bool {
  for (let j: u32 = 0; j < take; j++) {
    const code = load<i64>(staging + (<usize>j << 3))
    if (<u64>code >= <u64>k) return false
    store<u32>(U_BUFFER + (<usize>j << 2), <u32>code)
  }
  return true
}

/** The member bits of U_BUFFER's 32 codes from position at. */
// @ts-ignore: decorator
@inline function memberBits(members: usize, at: u32): u32 {
  let mask: u32 = 0
  const o = U_BUFFER + (<usize>at << 2)
  for (let j: u32 = 0; j < 32; j += 4) {
    mask |= (<u32>load<u8>(members + <usize>load<u32>(o + (<usize>j << 2))) << j)
      | (<u32>load<u8>(members + <usize>load<u32>(o + (<usize>j << 2), 4)) << (j + 1))
      | (<u32>load<u8>(members + <usize>load<u32>(o + (<usize>j << 2), 8)) << (j + 2))
      | (<u32>load<u8>(members + <usize>load<u32>(o + (<usize>j << 2), 12)) << (j + 3))
  }
  return mask
}

/**
 * Sets bit outStart + i of out for each selected code first + i of the codes node whose member
 * byte (members: k bytes of 0 or 1) is 1, or (members = 0) that lies in [lo, hi]; staging: 8 ×
 * 1,024 bytes. How many matched, or -1.
 */
export function queryMatchMembers(
  node: usize, first: u32, count: u32, members: usize, k: u32, sel: usize, selStart: u32, out: usize, outStart: u32, staging: usize,
  lo: u32, hi: u32,
): i32 {
  const low = i32x4.splat(lo), span = i32x4.splat(hi - lo)
  let matched: u32 = 0
  const end = first + count
  for (let index = first, take: u32 = 0; index < end; index += take) {
    take = blockTake(index, end)
    if (loadSelection(sel, selStart + (index - first), take) == 0) continue
    if (!(take == 1024 && wholePatched(node, index, k))) {
      if (cascadeDecode(node, index, take, staging) != OK || !stageCodes(staging, take, k)) return -1
      // Codes past take (to the chunk's end) read as code 0; their selection bits are 0.
      for (let j = take; j < ((take + 31) & ~31); j++) store<u32>(U_BUFFER + (<usize>j << 2), 0)
    }
    const bit = outStart + (index - first)
    for (let c: u32 = 0, chunks = (take + 31) >>> 5; c < chunks; c++) {
      const word = load<u32>(SEL_WORDS + (<usize>c << 2))
      if (word == 0) continue
      const mask = (members == 0 ? rangeMask32(U_BUFFER + (<usize>c << 7), low, span) : memberBits(members, c << 5)) & word
      if (mask == 0) continue
      orBits(out, bit + (c << 5), mask)
      matched += popcnt(mask)
    }
  }
  return <i32>matched
}
