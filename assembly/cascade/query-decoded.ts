// Facets over format 2 blocks the encodings do not answer (patched blocks with
// many patches, dictionary and linear blocks, sequence runs; any block whose
// answer from its encoding was refused): each block's stretch is decoded
// in place (cascadeDecode) into a staging area and counted there, never through
// JS chunks. Counts go to `lanes` sub-arrays of `stride` u32 as in
// query-count.ts; a value outside [0, n) counts at slot n instead (a select,
// no branch), and any count there fails the call (status 4), which the caller
// answers by the decoding path that words the error. Statuses 5 and 6 from a
// decode likewise. The caller merges lane 0 into its counts only on status 0.
// A whole patched block whose values fit u32 skips the decode (patchedUnits):
// checked below n once, then counted unchecked, by pairs when n ≤ 256; with
// few of its values selected, each is read from its fields instead.
import { OK, recordAux, recordBase, recordWidth } from '../common'
import { countPairs, foldPairs } from '../query-count'
import { SEL_WORDS, U_BUFFER, blockTake, bump, loadSelection, mergeLanes, selectedCount, selectionAll } from '../query-common'
import { bitmapCount, unitsFit, wholePatched } from './blocks/patched-units'
import {
  BLOCK_ENTRIES, COUNT_MASK, FORM_BLOCKS, KIND_PATCHED, LIST_FLAG, blocksData, blocksRecords, bytesOf, field, nodeCount, recordParam,
} from './common'
import { cascadeDecode } from './index'

const RANGE_ERROR: i32 = 4

/** Slot of raw value v: v itself when in [0, n), else n. */
// @ts-ignore: decorator
@inline function slotOf(staging: usize, j: u32, n: u32): usize {
  const v = load<i64>(staging + (<usize>j << 3))
  return <usize>select<u32>(<u32>v, n, <u64>v < <u64>n) << 2
}

/** The selected values of U_BUFFER (a whole block, SEL_WORDS) counted into the lanes at area (step apart: 0 for one lane). */
function countUnits(area: usize, step: usize): void {
  for (let c: u32 = 0; c < 32; c++) {
    let word = load<u32>(SEL_WORDS + (<usize>c << 2))
    const at = U_BUFFER + (<usize>c << 7)
    if (word == 0xFFFF_FFFF) {
      for (let o = at; o < at + 128; o += 16) {
        bump(area + (<usize>load<u32>(o) << 2), 1)
        bump(area + step + (<usize>load<u32>(o, 4) << 2), 1)
        bump(area + 2 * step + (<usize>load<u32>(o, 8) << 2), 1)
        bump(area + 3 * step + (<usize>load<u32>(o, 12) << 2), 1)
      }
      continue
    }
    for (; word != 0; word &= word - 1) bump(area + (<usize>load<u32>(at + (<usize>ctz(word) << 2)) << 2), 1)
  }
}

/** U_BUFFER's 1,024 values (each below 256) narrowed to bytes (in BLOCK_ENTRIES) and counted by adjacent pairs (countPairs). */
function pairUnits(pairs: usize): void {
  for (let o: usize = 0; o < 1024; o += 16) {
    const at = U_BUFFER + (o << 2)
    const low = i16x8.narrow_i32x4_u(v128.load(at), v128.load(at, 16))
    const high = i16x8.narrow_i32x4_u(v128.load(at, 32), v128.load(at, 48))
    v128.store(BLOCK_ENTRIES + o, i8x16.narrow_i16x8_u(low, high))
  }
  countPairs(BLOCK_ENTRIES, 0, pairs)
}

/** A whole block with at most this many values selected has each read from its fields, not the block decoded. */
const SPARSE_VALUES: u32 = 160

/**
 * The selected values (SEL_WORDS) of whole block `block` of the node, when it is a patched block
 * with its positions in a bitmap of exactly e bits and values that fit u32 (patchedUnits's
 * rules), each read from its fields: the low field, plus the high part of its patch (rank kept
 * as the bitmap's words pass), counted into lane 0 at area (slot n for one outside [0, n)).
 * False, nothing counted, for any other block.
 */
function countPatchedSelected(node: usize, block: u32, area: usize, n: u32): bool {
  const record = blocksRecords(node) + <usize>block * 24
  if (<u32>load<u8>(record) != KIND_PATCHED || (recordParam(record) & LIST_FLAG) != 0) return false
  const p = blocksData(node) + <usize>load<u32>(record, 4)
  const e = recordParam(record) & COUNT_MASK, lw = recordWidth(record), hw: u32 = load<u8>(p)
  const base = recordBase(record), g = recordAux(record)
  if (!unitsFit(base, g, lw + hw)) return false
  const lows = p + 1, positions = lows + bytesOf(1024, lw), highs = positions + 128
  if (bitmapCount(positions, 1024) != e) return false
  const b = <u32>base, step = <u32>g
  let rank: u32 = 0
  for (let c: u32 = 0; c < 32; c++) {
    const marks = load<u32>(positions + (<usize>c << 2))
    for (let word = load<u32>(SEL_WORDS + (<usize>c << 2)); word != 0; word &= word - 1) {
      const i = ctz(word), j = (c << 5) + i
      let u = <u32>field(lows, j, lw)
      if (((marks >>> i) & 1) != 0) u += <u32>field(highs, rank + popcnt(marks & ((<u32>1 << i) - 1)), hw) << lw
      const v = b + step * u
      bump(area + (<usize>select<u32>(v, n, v < n) << 2), 1)
    }
    rank += popcnt(marks)
  }
  return true
}

/**
 * Counts of the selected values [first, first + count) of the cascade at node (sel: selection
 * bits from selStart, 0: all) into lane 0 of area (lanes × stride u32, stride > n), then staging
 * of 8 × 1,024 bytes after the lanes; pairs: 0, or a table of 2^16 u32 (n ≤ 256) for whole blocks.
 * Status 0, 4 (a value outside [0, n)), 5 or 6 (a decode).
 */
export function queryCountDecoded(
  node: usize, first: u32, count: u32, sel: usize, selStart: u32, area: usize, n: u32, stride: u32, lanes: u32, pairs: usize,
): i32 {
  let pairsUsed = false
  const row: usize = <usize>stride << 2
  memory.fill(area, 0, <usize>lanes * row)
  const staging = area + <usize>lanes * row
  const step: usize = lanes == 4 ? row : 0
  const end = first + count
  for (let index = first, take: u32 = 0; index < end; index += take) {
    take = blockTake(index, end)
    if (loadSelection(sel, selStart + (index - first), take) == 0) continue
    if (take == 1024 && !selectionAll && <u32>load<u8>(node) == FORM_BLOCKS && nodeCount(node) - index >= 1024
      && selectedCount(1024) <= SPARSE_VALUES && countPatchedSelected(node, index >>> 10, area, n)) continue
    if (take == 1024 && wholePatched(node, index, n)) {
      if (pairs != 0 && selectionAll) {
        if (!pairsUsed) memory.fill(pairs, 0, 65536 << 2)
        pairsUsed = true
        pairUnits(pairs)
      } else countUnits(area, step)
      continue
    }
    const status = cascadeDecode(node, index, take, staging)
    if (status != OK) return status
    for (let c: u32 = 0, chunks = (take + 31) >>> 5; c < chunks; c++) {
      let word = load<u32>(SEL_WORDS + (<usize>c << 2))
      const at = c << 5
      if (word == 0xFFFF_FFFF) {
        // Four lanes: a run of one value does not wait on its own previous increment.
        for (let j = at; j < at + 32; j += 4) {
          bump(area + slotOf(staging, j, n), 1)
          bump(area + step + slotOf(staging, j + 1, n), 1)
          bump(area + 2 * step + slotOf(staging, j + 2, n), 1)
          bump(area + 3 * step + slotOf(staging, j + 3, n), 1)
        }
        continue
      }
      for (; word != 0; word &= word - 1) bump(area + slotOf(staging, at + ctz(word), n), 1)
    }
  }
  let stray: u32 = 0
  for (let lane: u32 = 0; lane < lanes; lane++) stray |= load<u32>(area + <usize>lane * row + (<usize>n << 2))
  if (stray != 0) return RANGE_ERROR
  if (pairsUsed) foldPairs(pairs, area, n)
  if (lanes == 4) mergeLanes(area, n, row)
  return OK
}
