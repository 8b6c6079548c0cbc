// Range filters over the codes of a sequence dictionary: where the matching
// entries lie apart (codes numbered by frequency), each selected code is looked
// up in a byte per entry (1: the entry lies in [lo, hi]), 32 codes to an output
// word; where they are consecutive codes, the codes are compared with that span
// 32 at a time by vectors.
// A patched block whose low fields alone reach the span (the frequent codes,
// as a term filter asks) is read where it is packed: the patches leave the
// selection and the low fields are compared as a v1 packed block is. Other
// whole patched blocks give their codes by patchedUnits; other blocks are
// decoded (cascadeDecode). A code not below k, or a failed decode, fails the
// call (-1): the caller then filters the decoding way, which words the error as
// a read does (the bits set before it are matches either way).
import { OK, bitsOf, recordAux, recordBase, recordWidth } from '../common'
import {
  SEL_WORDS, U_BUFFER, blockTake, fields8, loadLimit, loadSelection, orBits, prepareUnpack16, rangeMask32, unpack16Mask,
  unpack16Multiplier, window16,
} from '../query-common'
import { matchPackedFields } from '../query-range'
import { bitmapCount, unitsFit, wholePatched } from './blocks/patched-units'
import { positionsBytes } from './blocks/positions'
import { COUNT_MASK, FORM_BLOCKS, KIND_PATCHED, LIST_FLAG, blocksData, blocksRecords, bytesOf, field, nodeCount, recordParam } from './common'
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

/** matchPatchedLows's answer when the block is not one it reads: the caller takes another path. */
const ELSEWHERE: i32 = -2

/** Whether the node is a sequence of blocks (form 0). */
// @ts-ignore: decorator
@inline function blocksForm(node: usize): bool {
  return <u32>load<u8>(node) == FORM_BLOCKS
}

/**
 * Whether each of the e fields of width w at p lies in [1, most]: 8 at a time in u16 lanes
 * where the width allows (window16), the rest one by one. (f - 1 wraps below 0, so one
 * unsigned compare with most - 1 tests both ends.)
 */
function fieldsWithin(p: usize, e: u32, w: u32, most: u32): bool {
  let r: u32 = 0
  if (window16(w)) {
    prepareUnpack16(w)
    const mask = unpack16Mask(), multiplier = unpack16Multiplier(), shift = 16 - w
    const limit = loadLimit(p, e, w), one = i16x8.splat(1), top = i16x8.splat(<i16>(min(most, 0xFFFF) - 1))
    let outside = i16x8.splat(0)
    for (let q = p; r + 8 <= e && q + 16 <= limit; r += 8, q += w) {
      outside = v128.or(outside, i16x8.gt_u(i16x8.sub(fields8(q, mask, multiplier, shift), one), top))
    }
    if (v128.any_true(outside)) return false
  }
  for (; r < e; r++) if (<u32>field(p, r, w) - 1 >= most) return false
  return true
}

/**
 * Block `block` of the node, selected positions [0, take) (selection in SEL_WORDS), when it is a
 * patched block and [lo, hi] lies within the values its low fields give alone: a patch, whose
 * high part is not 0, lies above them, so the patches leave the selection and the low fields
 * are compared where they are packed (as a v1 block is). Their bits are set in out from `bit`;
 * how many matched. ELSEWHERE, before any bit is set, when the block is not such a one or a
 * value could reach k (the decoding path then decides), or its positions are not a valid file's.
 */
function matchPatchedLows(node: usize, block: u32, take: u32, k: u32, lo: u32, hi: u32, out: usize, bit: u32): i32 {
  const record = blocksRecords(node) + <usize>block * 24
  if (<u32>load<u8>(record) != KIND_PATCHED) return ELSEWHERE
  const p = blocksData(node) + <usize>load<u32>(record, 4)
  const n = min<u32>(1024, nodeCount(node) - (block << 10))
  const param = recordParam(record), e = param & COUNT_MASK, list = (param & LIST_FLAG) != 0
  const lw = recordWidth(record), hw: u32 = load<u8>(p), pw = bitsOf(<u64>(n - 1))
  const base = recordBase(record), g = recordAux(record)
  if (lw == 0 || hw == 0 || k == 0 || !unitsFit(base, g, lw + hw)) return ELSEWHERE
  // u space: value = base + g × u. [lo, hi] must lie below 2^lw there, and every u of the block
  // (a patch's at most its high part's and every low field's) below k.
  const b = <u32>base, step = <u32>g, top: u64 = (<u64>1 << <u64>lw) - 1
  if (hi < b || <u64>(hi - b) / step > top) return ELSEWHERE
  const ulo: u32 = lo <= b ? 0 : <u32>((<u64>(lo - b) + step - 1) / step), uhi = (hi - b) / step
  if (ulo > uhi || k - 1 < b) return ELSEWHERE
  const valid = <u64>(k - 1 - b) / step
  const lows = p + 1, positions = lows + bytesOf(n, lw), highs = positions + positionsBytes(list, e, n, pw)
  // Every low field below k, and each patch's high part h in [1, most]: h × 2^lw + top ≤ valid.
  if (top > valid) return ELSEWHERE
  const most = <u32>min<u64>((valid - top) >>> <u64>lw, 0xFFFF_FFFF)
  if (e != 0 && (most == 0 || !fieldsWithin(highs, e, hw, most))) return ELSEWHERE
  // The patches leave the selection (positions checked first: nothing changes on ELSEWHERE).
  if (list) {
    let previous: i32 = -1
    for (let rank: u32 = 0; rank < e; rank++) {
      const j = <u32>field(positions, rank, pw)
      if (<i32>j <= previous || j >= n) return ELSEWHERE
      previous = <i32>j
    }
    for (let rank: u32 = 0; rank < e; rank++) {
      const j = <u32>field(positions, rank, pw), s = SEL_WORDS + (<usize>(j >>> 5) << 2)
      store<u32>(s, load<u32>(s) & ~(<u32>1 << (j & 31)))
    }
  } else {
    // Exactly e bits below n (bits past the e-th would name no patch).
    if (bitmapCount(positions, n) != e) return ELSEWHERE
    for (let at: u32 = 0; at < take; at += 32) {
      const s = SEL_WORDS + (<usize>at >>> 3)
      store<u32>(s, load<u32>(s) & ~load<u32>(positions + (<usize>at >>> 3)))
    }
  }
  // The positions (and the high parts) follow the low fields: loads may reach into them.
  return <i32>matchPackedFields(lows, 0, take, lw, ulo, uhi, out, bit, <usize>(highs - positions))
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
    if (members == 0 && (index & 1023) == 0 && blocksForm(node)) {
      const found = matchPatchedLows(node, index >>> 10, take, k, lo, hi, out, outStart + (index - first))
      if (found != ELSEWHERE) {
        matched += <u32>found
        continue
      }
    }
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
      orBits(out, bit + (c << 5), mask)
      matched += popcnt(mask)
    }
  }
  return <i32>matched
}
