// Dictionary blocks (kind 3, src/cascade/blocks/dictionary.ts): k entries of ew
// bits (param = (k - 1) | (ew - 1) << 10), then an index of width = bits(k - 1)
// bits per value; value = base + aux × entry[index]. Indexes ≥ k are corrupt and
// reported (status 5) at the first one met in value order. Up to 256 entries (index
// widths ≤ 8) decode through v1's table kernels, as v1's table blocks do.
import { OK, SCRATCH, recordAux, recordBase, recordWidth } from '../../common'
import { U_BUFFER, unpackU32 } from '../../query-common'
import { decodeTable } from '../../widths'
import { BLOCK_ENTRIES, bytesOf, field, indexError, recordParam, unpackValues } from '../common'

// @ts-ignore: decorator
@inline function entriesOf(param: u32): u32 { return (param & 1023) + 1 }
// @ts-ignore: decorator
@inline function entryWidthOf(param: u32): u32 { return (param >>> 10) + 1 }

/** Value j of the dictionary block (record, data at p) to out; status 0 or 5. */
export function dictionaryGet(record: usize, p: usize, j: u32, out: usize): i32 {
  const param = recordParam(record), k = entriesOf(param), ew = entryWidthOf(param)
  const index = <u32>field(p + bytesOf(k, ew), j, recordWidth(record))
  if (index >= k) return indexError(index, k)
  store<i64>(out, recordBase(record) + recordAux(record) * <i64>field(p, index, ew))
  return OK
}

/**
 * Indexes [from, to) of width W (≤ 14) of the stream at q, mapped through the k values at
 * table, to out; status 5 at the first index ≥ k. The indexes are unpacked to u32 first
 * (query-common.ts's SIMD unpack), then two are checked together (e - k is negative for both
 * iff the and of the differences is) and stored with one 16-byte store. Also used for
 * sequence dictionary codes.
 */
export function gatherIndexes(q: usize, from: u32, to: u32, W: u32, table: usize, k: u32, out: usize): i32 {
  unpackU32(q, from, to, W)
  let i = from, o = out
  for (; i + 2 <= to; i += 2, o += 16) {
    const pair = load<u64>(U_BUFFER + (<usize>i << 2))
    const e0 = <u32>pair, e1 = <u32>(pair >>> 32)
    if (((<i32>e0 - <i32>k) & (<i32>e1 - <i32>k)) >= 0) break
    v128.store(o, v128.load64_lane(table + (<usize>e1 << 3), v128.load64_zero(table + (<usize>e0 << 3)), 1))
  }
  // The rest, and a pair holding a bad index: one at a time, checked.
  for (; i < to; i++, o += 8) {
    const e = load<u32>(U_BUFFER + (<usize>i << 2))
    if (e >= k) return indexError(e, k)
    store<i64>(o, load<i64>(table + (<usize>e << 3)))
  }
  return OK
}

/**
 * Indexes [from, to) of width W ≤ 8 of the stream at q (n values), mapped through the `count`
 * values at `table`, by v1's table kernels (assembly/table.ts: per index width in the Node
 * build), which read the indexes right after the table: the values go to BLOCK_ENTRIES unless
 * already there, the stream after them (with the 8 bytes that follow it, data or padding, for
 * the kernels' wide loads). Status 0, or 5 with the first index ≥ count (v1's status 1 reworded).
 */
export function tableIndexes(q: usize, n: u32, from: u32, to: u32, W: u32, table: usize, count: u32, out: usize): i32 {
  if (table != BLOCK_ENTRIES) memory.copy(BLOCK_ENTRIES, table, <usize>count << 3)
  memory.copy(BLOCK_ENTRIES + (<usize>count << 3), q, bytesOf(n, W) + 8)
  if (decodeTable(BLOCK_ENTRIES, from, to, out, count, W, 0) == OK) return OK
  return indexError(load<u32>(SCRATCH, 4), count)
}

/** Values [from, to) of the dictionary block (n values) to out; status 0 or 5. */
export function dictionaryDecode(record: usize, p: usize, n: u32, from: u32, to: u32, out: usize): i32 {
  const param = recordParam(record), k = entriesOf(param), ew = entryWidthOf(param), W = recordWidth(record)
  const base = recordBase(record), g = recordAux(record)
  const indexes = p + bytesOf(k, ew)
  if ((to - from) * 4 < k) {
    // A few values of a big dictionary: each entry read where it lies, not all k decoded.
    for (let j = from, o = out; j < to; j++, o += 8) {
      const index = <u32>field(indexes, j, W)
      if (index >= k) return indexError(index, k)
      store<i64>(o, base + g * <i64>field(p, index, ew))
    }
    return OK
  }
  unpackValues(p, 0, k, base, g, BLOCK_ENTRIES, ew)
  if (W <= 8) return tableIndexes(indexes, n, from, to, W, BLOCK_ENTRIES, k, out)
  return gatherIndexes(indexes, from, to, W, BLOCK_ENTRIES, k, out)
}
