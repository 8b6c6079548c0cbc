// Facets over patched blocks read through v1's count kernel as their low fields
// (src/cascade/query-encodings.ts): each selected patch then moves one count
// from its low value to its value, in an area of n int32 deltas. Statuses: 4
// (VALUE_RANGE_ERROR) when a value is not in [0, n), 13 when a list of positions
// does not strictly increase below n: the caller then counts by decoding, which
// words the error as a read does.
import { OK, bitsOf, recordAux, recordBase, recordWidth } from '../common'
import { COUNT_MASK, KIND_PATCHED, LIST_FLAG, blocksData, blocksRecords, bytesOf, field, nodeCount, recordParam } from './common'
import { positionsBytes } from './blocks/positions'

const RANGE_ERROR: i32 = 4
const ORDER_ERROR: i32 = 13

/** Whether selection bit `bit` is set (sel = 0: every value). */
// @ts-ignore: decorator
@inline function selected(sel: usize, bit: u32): bool {
  return sel == 0 || ((load<u32>(sel + (<usize>(bit >>> 5) << 2)) >>> (bit & 31)) & 1) != 0
}

/** One count from lowValue's slot to value's: false when either is not in [0, n). */
// @ts-ignore: decorator
@inline function move(deltas: usize, lowValue: i64, value: i64, n: u32): bool {
  if (<u64>value >= <u64>n || <u64>lowValue >= <u64>n) return false
  const from = deltas + (<usize>lowValue << 2), to = deltas + (<usize>value << 2)
  store<i32>(from, load<i32>(from) - 1)
  store<i32>(to, load<i32>(to) + 1)
  return true
}

/**
 * The deltas of the patches among values [first, first + count) of the form-0 node, selected by
 * bit selStart + (i - first) of sel (0: all), into the n int32 at deltas (added to).
 */
export function queryPatchDeltas(node: usize, first: u32, count: u32, sel: usize, selStart: u32, deltas: usize, n: u32): i32 {
  const records = blocksRecords(node), data = blocksData(node), total = nodeCount(node)
  const end = first + count
  for (let index = first; index < end;) {
    const blockStart = index & ~1023
    const stop = min(end, blockStart + 1024)
    const record = records + (<usize>(index >>> 10)) * 24
    if (<u32>load<u8>(record) == KIND_PATCHED) {
      const nb = min(total - blockStart, 1024)
      const p = data + <usize>load<u32>(record, 4)
      const param = recordParam(record), e = param & COUNT_MASK, list = (param & LIST_FLAG) != 0
      const lw = recordWidth(record), hw: u32 = load<u8>(p), pw = bitsOf(<u64>(nb - 1))
      const base = recordBase(record), g = recordAux(record)
      const lows = p + 1, positions = lows + bytesOf(nb, lw), highs = positions + positionsBytes(list, e, nb, pw)
      const from = index - blockStart, to = stop - blockStart
      if (list) {
        let previous: i64 = -1
        for (let rank: u32 = 0; rank < e; rank++) {
          const j = <u32>field(positions, rank, pw)
          if (<i64>j <= previous || j >= nb) return ORDER_ERROR
          previous = <i64>j
          if (j < from || j >= to || !selected(sel, selStart + blockStart + j - first)) continue
          const low = base + g * <i64>field(lows, j, lw)
          if (!move(deltas, low, low + g * (<i64>field(highs, rank, hw) << <i64>lw), n)) return RANGE_ERROR
        }
      } else {
        // Bits past the e-th name no patch (as reads take them); the last word's bits past nb are not the bitmap's.
        let rank: u32 = 0
        for (let at: u32 = 0; at < to && rank < e; at += 64) {
          let bits = load<u64>(positions + (<usize>at >>> 3))
          if (nb - at < 64) bits &= (<u64>1 << <u64>(nb - at)) - 1
          for (; bits != 0 && rank < e; rank++) {
            const j = at + <u32>ctz<u64>(bits)
            bits &= bits - 1
            if (j < from || j >= to || !selected(sel, selStart + blockStart + j - first)) continue
            const low = base + g * <i64>field(lows, j, lw)
            if (!move(deltas, low, low + g * (<i64>field(highs, rank, hw) << <i64>lw), n)) return RANGE_ERROR
          }
        }
      }
    }
    index = stop
  }
  return OK
}
