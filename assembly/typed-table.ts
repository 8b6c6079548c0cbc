// Table blocks in the typed decodes' one-pass paths (typed-int32.ts, typed-float64.ts;
// Node build only): the block's entries are converted once into TYPED_ENTRIES (when
// every entry fits the output), and the indexes look them up there. Indexes are
// validated for the whole chunk before anything is written, so a table index error
// leaves the chunk untouched, as the checked path (and the TS backend) do. Index widths
// 1-4 into int32 go through byte planes (table-planes.ts); index width 4 into doubles
// through a table of entry pairs, a byte's two indexes at once (PAIRS; byte planes of
// offsets turned into doubles ran no faster than lane loads).
import { BLOCK_SHIFT, BLOCK_VALUES, KIND_TABLE, OK, RECORD_BYTES, recordAux, recordDataOffset, recordKind, recordWidth } from './common'
import { PLANES_INT32, buildPairs, buildPlanes, indexes16, storePairs, storePlanes } from './table-planes'

/** A table block's entries converted for the typed output: up to 256 of 4 (int32) or 8 (double) bytes. */
export const TYPED_ENTRIES: usize = memory.data(256 * 8, 16)

/** Index i of width W ≤ 8 (one unaligned 2-byte load: W + shift ≤ 15 bits). */
// @ts-ignore: decorator
@inline function indexAt(indexes: usize, i: u32, W: u32, mask: u32): u32 {
  const bit = i * W
  return (<u32>load<u16>(indexes + (bit >>> 3)) >>> (bit & 7)) & mask
}

/** Whether indexes [from, to) of the table block at p are below its entry count (always, for a table of 2^W entries). */
export function tableIndexesValid(p: usize, from: u32, to: u32, entries: u32, W: u32): bool {
  if (entries == (<u32>1 << W)) return true
  const indexes = p + (<usize>entries << 3)
  const mask: u32 = (<u32>1 << W) - 1
  let bad: u32 = 0
  for (let i = from; i < to; i++) bad |= <u32>(indexAt(indexes, i, W, mask) >= entries)
  return bad == 0
}

/** Entry e of TYPED_ENTRIES to o: 4 bytes when int32, else 8. */
// @ts-ignore: decorator
@inline function storeEntry(o: usize, e: usize, int32: bool): void {
  if (int32) store<i32>(o, load<i32>(TYPED_ENTRIES + (e << 2)))
  else store<i64>(o, load<i64>(TYPED_ENTRIES + (e << 3)))
}

/** Address in TYPED_ENTRIES of the entry named by index k of the group x. */
// @ts-ignore: decorator
@inline function entryAt(x: u64, k: u64, w: u64, mask: u64, int32: bool): usize {
  return TYPED_ENTRIES + (<usize>((x >>> (k * w)) & mask) << (int32 ? 2 : 3))
}

/** Whether every table block that values [start, end) of a sequence touch has its indexes there below its entry count. */
export function chunkTablesValid(records: usize, data: usize, start: u32, end: u32): bool {
  for (let index = start; index < end;) {
    const record = records + <usize>(index >>> BLOCK_SHIFT) * RECORD_BYTES
    const from = index & (BLOCK_VALUES - 1)
    const take = min(end - index, BLOCK_VALUES - from)
    if (recordKind(record) == KIND_TABLE
      && !tableIndexesValid(data + recordDataOffset(record), from, from + take, <u32>recordAux(record), recordWidth(record))) return false
    index += take
  }
  return true
}

/**
 * Values [from, to) of the table block at p through TYPED_ENTRIES (elements of 4 bytes when
 * int32, else 8) to o. Indexes were validated (tableIndexesValid). Groups of 8 indexes take W
 * bytes: one 8-byte load each, as in tableRun (table.ts). Returns OK.
 */
// @ts-ignore: decorator
@inline export function tableTyped(p: usize, from: u32, to: u32, entries: u32, W: u32, o: usize, int32: bool): i32 {
  const indexes = p + (<usize>entries << 3)
  const mask: u64 = (<u64>1 << <u64>W) - 1
  const size: usize = int32 ? 4 : 8
  let i = from
  for (; i < to && (i & 7) != 0; i++, o += size) storeEntry(o, indexAt(indexes, i, W, <u32>mask), int32)
  const w = <u64>W
  let q = indexes + <usize>(i >>> 3) * W
  if (int32 && W <= 4 && i + 16 <= to) {
    buildPlanes(TYPED_ENTRIES)
    const done = planesInt32(q, i, to, o, W)
    o += <usize>(done - i) * size
    q += <usize>((done - i) >>> 3) * W
    i = done
  }
  // Doubles, index width 4, runs of 256 values or more (a build costs 256 stores): two values a byte through PAIRS.
  if (!int32 && W == 4 && i + 256 <= to) {
    buildPairs(TYPED_ENTRIES)
    for (; i + 16 <= to; i += 16, q += 8, o += 128) storePairs(q, o)
  }
  for (; i + 8 <= to; i += 8, q += W, o += 8 * size) {
    const x = load<u64>(q)
    const e0 = entryAt(x, 0, w, mask, int32), e1 = entryAt(x, 1, w, mask, int32), e2 = entryAt(x, 2, w, mask, int32)
    const e3 = entryAt(x, 3, w, mask, int32), e4 = entryAt(x, 4, w, mask, int32), e5 = entryAt(x, 5, w, mask, int32)
    const e6 = entryAt(x, 6, w, mask, int32), e7 = entryAt(x, 7, w, mask, int32)
    // Several entries per 16-byte store, gathered with lane loads: the stores bound this loop.
    if (int32) {
      v128.store(o, v128.load32_lane(e3, v128.load32_lane(e2, v128.load32_lane(e1, v128.load32_zero(e0), 1), 2), 3))
      v128.store(o, v128.load32_lane(e7, v128.load32_lane(e6, v128.load32_lane(e5, v128.load32_zero(e4), 1), 2), 3), 16)
    } else {
      v128.store(o, v128.load64_lane(e1, v128.load64_zero(e0), 1))
      v128.store(o, v128.load64_lane(e3, v128.load64_zero(e2), 1), 16)
      v128.store(o, v128.load64_lane(e5, v128.load64_zero(e4), 1), 32)
      v128.store(o, v128.load64_lane(e7, v128.load64_zero(e6), 1), 48)
    }
  }
  for (; i < to; i++, o += size) storeEntry(o, indexAt(indexes, i, W, <u32>mask), int32)
  return OK
}

/** Groups of 16 int32 values from i (a multiple of 8) while they fit before to, through the byte planes (table-planes.ts); returns where it stopped. */
// @ts-ignore: decorator
@inline function planesRun(q: usize, i: u32, to: u32, o: usize, W: u32): u32 {
  for (; i + 16 <= to; i += 16, q += 2 * W, o += 64) storePlanes(indexes16(q, W), o, PLANES_INT32)
  return i
}

/** planesRun by index width (1-4): each width's masks are constants. */
function planesInt32(q: usize, i: u32, to: u32, o: usize, W: u32): u32 {
  if (W == 1) return planesRun(q, i, to, o, 1)
  if (W == 2) return planesRun(q, i, to, o, 2)
  if (W == 3) return planesRun(q, i, to, o, 3)
  return planesRun(q, i, to, o, 4)
}
