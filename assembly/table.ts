// Table-block decoding: indexes of width W (1..8) mapped through the block's
// entries. widths.ts instantiates it once per index width (the Node build), with
// entries stored in pairs (16-byte stores), up to 16 entries through byte planes, and
// index width 4 through a table of entry pairs, a byte's two indexes at once
// (table-planes.ts); the browser build
// (scripts/bundle-widths.as) uses one generic scalar instance.
import { OK, tableIndexError } from './common'
import { PLANES_INT64, buildOffsetPlanes, buildPairs, indexes16, storePairs, storePlanes } from './table-planes'

/**
 * Table indexes [from, to) of width W (1..8) at idx, each checked against
 * entries, mapped through the entries at p. Groups of 8 indexes take W bytes,
 * so one 8-byte load holds a whole group; a group is checked as a whole, and
 * only a failing group is rescanned to find its first bad index. specialised
 * (the Node build's per-width instances): index width 4 goes 16 values a group
 * through entry pairs, up to 16 entries spanning less than 2^32 through byte
 * planes, and other groups store two entries per 16-byte store (a lane load
 * each) instead of one store each.
 */
// @ts-ignore: decorator
@inline export function tableRun(p: usize, from: u32, to: u32, out: usize, entries: u32, block: u32, W: u32, specialised: bool = false): i32 {
  const idx = p + (<usize>entries << 3)
  const mask: u32 = (1 << W) - 1
  // A table of 2^W entries cannot hold a bad index: skip the checks.
  const full = entries == (<u32>1 << W)
  let i = from
  let o = out
  for (; i < to && (i & 7) != 0; i++, o += 8) {
    const bit = i * W
    const e = (<u32>load<u16>(idx + (bit >>> 3)) >>> (bit & 7)) & mask
    if (e >= entries) return tableIndexError(block, e, entries)
    store<i64>(o, load<i64>(p + (<usize>e << 3)))
  }
  let q = idx + <usize>(i >>> 3) * W
  // Index width 4, runs of 256 values or more: two values a byte through entry pairs (table-planes.ts).
  if (specialised && W == 4 && i + 256 <= to) {
    buildPairs(p)
    // Per byte lane, index + 128 - entries has its top bit set iff index ≥ entries (no carry: at most 143).
    const excess = <u64>(128 - entries) * 0x0101_0101_0101_0101
    for (; i + 16 <= to; i += 16, o += 128, q += 8) {
      const x = load<u64>(q)
      if (!full && (((x & 0x0F0F_0F0F_0F0F_0F0F) + excess) | (((x >>> 4) & 0x0F0F_0F0F_0F0F_0F0F) + excess)) & 0x8080_8080_8080_8080) break
      storePairs(q, o)
    }
  }
  // Up to 16 entries spanning less than 2^32: 16 values a group through byte planes (table-planes.ts).
  if (specialised && W <= 4 && i + 16 <= to && buildOffsetPlanes(p, entries)) {
    const limits = i8x16.splat(<i8>entries)
    for (; i + 16 <= to; i += 16, o += 128, q += 2 * W) {
      const indexes = indexes16(q, W)
      if (!full && v128.any_true(i8x16.ge_u(indexes, limits))) break // the loops below find the first bad index
      storePlanes(indexes, o, PLANES_INT64)
    }
  }
  for (; i + 8 <= to; i += 8, o += 64, q += W) {
    const x = load<u64>(q)
    const e0 = <u32>x & mask
    const e1 = <u32>(x >>> W) & mask
    const e2 = <u32>(x >>> (2 * W)) & mask
    const e3 = <u32>(x >>> (3 * W)) & mask
    const e4 = <u32>(x >>> (4 * W)) & mask
    const e5 = <u32>(x >>> (5 * W)) & mask
    const e6 = <u32>(x >>> (6 * W)) & mask
    const e7 = <u32>(x >>> (7 * W)) & mask
    if (!full) {
      // e < entries ⇔ e - entries < 0 (both below 2^9): the and of the differences is
      // negative iff all are (two operations a value, not compare, set and or).
      const all = (<i32>e0 - <i32>entries) & (<i32>e1 - <i32>entries) & (<i32>e2 - <i32>entries) & (<i32>e3 - <i32>entries)
        & (<i32>e4 - <i32>entries) & (<i32>e5 - <i32>entries) & (<i32>e6 - <i32>entries) & (<i32>e7 - <i32>entries)
      if (all >= 0) break // the checked loop below finds and reports the first bad index
    }
    if (specialised) {
      // Two entries per 16-byte store: stores, not loads, bound this loop.
      v128.store(o, v128.load64_lane(p + (<usize>e1 << 3), v128.load64_zero(p + (<usize>e0 << 3)), 1))
      v128.store(o, v128.load64_lane(p + (<usize>e3 << 3), v128.load64_zero(p + (<usize>e2 << 3)), 1), 16)
      v128.store(o, v128.load64_lane(p + (<usize>e5 << 3), v128.load64_zero(p + (<usize>e4 << 3)), 1), 32)
      v128.store(o, v128.load64_lane(p + (<usize>e7 << 3), v128.load64_zero(p + (<usize>e6 << 3)), 1), 48)
    } else {
      store<i64>(o, load<i64>(p + (<usize>e0 << 3)))
      store<i64>(o, load<i64>(p + (<usize>e1 << 3)), 8)
      store<i64>(o, load<i64>(p + (<usize>e2 << 3)), 16)
      store<i64>(o, load<i64>(p + (<usize>e3 << 3)), 24)
      store<i64>(o, load<i64>(p + (<usize>e4 << 3)), 32)
      store<i64>(o, load<i64>(p + (<usize>e5 << 3)), 40)
      store<i64>(o, load<i64>(p + (<usize>e6 << 3)), 48)
      store<i64>(o, load<i64>(p + (<usize>e7 << 3)), 56)
    }
  }
  for (; i < to; i++, o += 8) {
    const bit = i * W
    const e = (<u32>load<u16>(idx + (bit >>> 3)) >>> (bit & 7)) & mask
    if (e >= entries) return tableIndexError(block, e, entries)
    store<i64>(o, load<i64>(p + (<usize>e << 3)))
  }
  return OK
}
