// A sequence dictionary's codes mapped through its entries (form 1): the k entries
// decoded once into a table, then each codes block read straight into the values by
// its kind, with no i64 codes in between where the kind allows: constant blocks fill
// one entry, frame and patched blocks of g = 1 gather entries by their fields (a table
// slice from the base: gather.ts; patched exceptions then remapped one by one),
// frequent blocks fill the top value's entry and remap their exceptions. Other kinds
// (and slices the table cannot hold) decode their codes to CODES first (mapCodes).
// A code ≥ k stops a block (false): the caller finds and reports the first in order.
import { BLOCK_SHIFT, BLOCK_VALUES, KIND_CONSTANT, KIND_PACKED, OK, RECORD_BYTES, bitsOf, recordAux, recordBase, recordDataOffset, recordKind, recordWidth } from '../../common'
import { fill } from '../../decode'
import {
  CODES, COUNT_MASK, GCD_FLAG, KIND_FREQUENT, KIND_PATCHED, LIST_FLAG, blocksData, blocksRecords, bytesOf, nodeCount, recordParam,
} from '../common'
import { codeExceptions, positionsBytes } from '../blocks/positions'
import { largestUnit, patchedUnits } from '../blocks/patched-units'
import { CODE_BYTES, CODE_HALVES, patchedCodeBytes, patchedCodeHalves } from '../blocks/patched-bytes'
import { U_BUFFER } from '../../query-common'
import { gatherIndexes, pairOut } from '../gather'
import { blocksDecode } from './blocks'
import { NARROW_CODES } from '../widths'

/**
 * Codes [0, take) at `codes` (i64) mapped through the k values at table to out; returns `take`,
 * or the position of the first code ≥ k (the values before it written). Two values a 16-byte
 * store: stores bound this loop. `checked` false: the codes are known to be below k.
 */
export function mapCodes(codes: usize, take: u32, table: usize, k: u32, out: usize, checked: bool): u32 {
  let j: u32 = 0
  // Two loops, not one testing `checked`: V8 does not split a loop on an invariant (one loop ran at half the speed).
  if (checked) {
    for (; j + 2 <= take; j += 2) {
      const c0 = load<u64>(codes + (<usize>j << 3)), c1 = load<u64>(codes + (<usize>j << 3), 8)
      if (c0 >= <u64>k || c1 >= <u64>k) break
      v128.store(out + (<usize>j << 3), v128.load64_lane(table + (<usize>c1 << 3), v128.load64_zero(table + (<usize>c0 << 3)), 1))
    }
  } else {
    for (; j + 2 <= take; j += 2) {
      const c0 = load<u32>(codes + (<usize>j << 3)), c1 = load<u32>(codes + (<usize>j << 3), 8)
      v128.store(out + (<usize>j << 3), v128.load64_lane(table + (<usize>c1 << 3), v128.load64_zero(table + (<usize>c0 << 3)), 1))
    }
  }
  for (; j < take; j++) {
    const code = load<u64>(codes + (<usize>j << 3))
    if (code >= <u64>k) return j
    store<i64>(out + (<usize>j << 3), load<i64>(table + (<usize>code << 3)))
  }
  return take
}

/** The 1,024 codes of U_BUFFER (each below k) mapped through the table to out, two a 16-byte store. */
function gatherUnits(table: usize, out: usize): void {
  for (let j: usize = 0; j < BLOCK_VALUES; j += 2) {
    pairOut(out + (j << 3), table, <usize>load<u32>(U_BUFFER + (j << 2)) << 3, <usize>load<u32>(U_BUFFER + (j << 2), 4) << 3)
  }
}

/** Byte offset (code × 2^shift: 8-byte entries, or 4 for codes-typed.ts) of byte j of x. */
// @ts-ignore: decorator
@inline export function byteOffset(x: u64, j: u32, shift: u32 = 3): usize {
  return <usize>((j == 0 ? x << <u64>shift : x >>> <u64>(8 * j - shift)) & (<u64>0xFF << <u64>shift))
}

/** The 1,024 codes of CODE_BYTES (each below k) mapped through the table to out: one 8-byte load per 8 codes. */
function gatherBytes(table: usize, out: usize): void {
  for (let j: usize = 0; j < BLOCK_VALUES; j += 8) {
    const x = load<u64>(CODE_BYTES + j), o = out + (j << 3)
    pairOut(o, table, byteOffset(x, 0), byteOffset(x, 1))
    pairOut(o + 16, table, byteOffset(x, 2), byteOffset(x, 3))
    pairOut(o + 32, table, byteOffset(x, 4), byteOffset(x, 5))
    pairOut(o + 48, table, byteOffset(x, 6), byteOffset(x, 7))
  }
}

/** The 1,024 codes of CODE_HALVES (each below k) mapped through the table to out: one 8-byte load per 4 codes. */
function gatherHalves(table: usize, out: usize): void {
  for (let j: usize = 0; j < BLOCK_VALUES; j += 4) {
    const x = load<u64>(CODE_HALVES + (j << 1)), o = out + (j << 3)
    pairOut(o, table, <usize>((x << 3) & 0x7FFF8), <usize>((x >>> 13) & 0x7FFF8))
    pairOut(o + 16, table, <usize>((x >>> 29) & 0x7FFF8), <usize>((x >>> 45) & 0x7FFF8))
  }
}

/**
 * Whether codes base + u (u < 2^W) can be gathered from the table's slice at base: g = 1, W ≤ 16,
 * and all 2^W entries of the slice readable (capacity: the entries the table's memory holds).
 */
// @ts-ignore: decorator
@inline function sliced(base: i64, g: i64, W: u32, capacity: u32): bool {
  // base + 2^W ≤ capacity, written so that no base (a corrupt one near 2^63) can wrap it.
  return g == 1 && W <= 16 && base >= 0 && base <= <i64>capacity - (<i64>1 << W)
}

/** The codes of a slice at base that are in range: those below k - base (at most 2^W matter). */
// @ts-ignore: decorator
@inline function sliceLimit(base: i64, W: u32, k: u32): u32 {
  return base >= <i64>k ? 0 : min(k - <u32>base, <u32>1 << W)
}

/**
 * Codes [from, to) of block `block` (n values) of the codes node mapped through the k entries at
 * table (capacity entries readable) to out; false at a code ≥ k, the values of the run then partly
 * written.
 */
function blockCodes(codes: usize, block: u32, n: u32, from: u32, to: u32, table: usize, k: u32, capacity: u32, out: usize): bool {
  const record = blocksRecords(codes) + <usize>block * RECORD_BYTES
  const p = blocksData(codes) + recordDataOffset(record)
  const kind = recordKind(record), base = recordBase(record), g = recordAux(record), W = recordWidth(record)
  if (kind == KIND_CONSTANT) {
    if (<u64>base >= <u64>k) return false
    fill(out, load<i64>(table + (<usize>base << 3)), to - from)
    return true
  }
  if (kind == KIND_PACKED && sliced(base, g, W, capacity)) {
    return gatherIndexes(p, from, to, W, table + (<usize>base << 3), sliceLimit(base, W, k), out) == OK
  }
  const param = recordParam(record), e = param & COUNT_MASK, list = (param & LIST_FLAG) != 0, pw = bitsOf(<u64>(n - 1))
  // A whole patched block (to ≤ n ≤ 1,024) with a bitmap, its codes all readable from the table.
  const whole = kind == KIND_PATCHED && from == 0 && to == BLOCK_VALUES && !list && k <= capacity
  const narrow = NARROW_CODES && whole
  if (narrow && patchedCodeBytes(record, p, k)) {
    // Low and high parts within a byte (a keyword's codes mostly): bytes take a quarter of the vector work of u32, u16 half.
    // (Not in browsers' kernels: NARROW_CODES.)
    gatherBytes(table, out)
    return true
  }
  if (narrow && patchedCodeHalves(record, p, k)) {
    gatherHalves(table, out)
    return true
  }
  if (whole && <u32>load<u8>(p) <= 8) {
    // A whole block with a bitmap and narrow high parts: its codes as u32 (patchedUnits), then gathered.
    if (patchedUnits(record, p, BLOCK_VALUES) && largestUnit(BLOCK_VALUES) < k) {
      gatherUnits(table, out)
      return true
    }
  }
  if (kind == KIND_PATCHED && sliced(base, g, W, capacity)) {
    // The low fields gathered from the slice, then each patched value remapped (code = base + low + high × 2^lw).
    const lows = p + 1, positions = lows + bytesOf(n, W)
    if (gatherIndexes(lows, from, to, W, table + (<usize>base << 3), sliceLimit(base, W, k), out) != OK) return false
    return codeExceptions(positions, list, e, n, pw, from, to, out, positions + positionsBytes(list, e, n, pw), load<u8>(p), base, <i64>1 << W, lows, W, table, k)
  }
  if (kind == KIND_FREQUENT) {
    // The top value's entry everywhere, then the exceptions' (x0 + gx × field).
    if (<u64>base >= <u64>k) return false
    fill(out, load<i64>(table + (<usize>base << 3)), to - from)
    const hasDivisor = (param & GCD_FLAG) != 0, positions = hasDivisor ? p + 8 : p
    return codeExceptions(positions, list, e, n, pw, from, to, out, positions + positionsBytes(list, e, n, pw), W, g, hasDivisor ? load<i64>(p) : 1, 0, 0, table, k)
  }
  blocksDecode(codes, (block << BLOCK_SHIFT) + from, to - from, CODES)
  return mapCodes(CODES, to - from, table, k, out, true) == to - from
}

/**
 * Codes [start, start + take) of the codes node (blocks of any kind but dictionary, which alone
 * can fail as they are read) mapped through the k entries at table to out; false at a code ≥ k.
 */
export function gatherCodes(codes: usize, start: u32, take: u32, table: usize, k: u32, capacity: u32, out: usize): bool {
  const count = nodeCount(codes), end = start + take
  for (let index = start, o = out; index < end;) {
    const block = index >>> BLOCK_SHIFT
    const from = index & (BLOCK_VALUES - 1), to = min(end - (block << BLOCK_SHIFT), BLOCK_VALUES)
    if (!blockCodes(codes, block, min(BLOCK_VALUES, count - (block << BLOCK_SHIFT)), from, to, table, k, capacity, o)) return false
    o += <usize>(to - from) << 3
    index += to - from
  }
  return true
}
