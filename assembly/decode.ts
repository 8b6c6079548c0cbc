// Block decoding (constant, packed, table) and the raw-value kernels decodeRaw
// and getRaw. Results are bit-identical to src/backend/ts/decode.ts: packed
// values are base + g × u with wrapping 64-bit arithmetic.
import {
  BLOCK_SHIFT, BLOCK_VALUES, KIND_CONSTANT, KIND_TABLE, NUMBER_SLOT, OK, RECORD_BYTES,
  recordAux, recordBase, recordDataOffset, recordKind, recordWidth, slotNumber, tableIndexError,
} from './common'
import { decodeTable, unpackScaled, unpackUnit } from './widths'

/** n copies of value at out (8-aligned), two per 16-byte store; doubles fill as their bits. */
export function fill(out: usize, value: i64, n: u32): void {
  const pair = i64x2.splat(value)
  let o = out
  const end = out + (<usize>n << 3)
  for (; o + 64 <= end; o += 64) {
    v128.store(o, pair)
    v128.store(o, pair, 16)
    v128.store(o, pair, 32)
    v128.store(o, pair, 48)
  }
  for (; o + 16 <= end; o += 16) v128.store(o, pair)
  if (o < end) store<i64>(o, value)
}

/** Values [from, to) (positions within the block) of block number `block`, whose record is at record, into out. */
export function decodeBlock(record: usize, data: usize, block: u32, from: u32, to: u32, out: usize): i32 {
  const kind = recordKind(record)
  const base = recordBase(record)
  if (kind == KIND_CONSTANT) {
    fill(out, base, to - from)
    return OK
  }
  const p = data + recordDataOffset(record)
  const width = recordWidth(record)
  const aux = recordAux(record)
  if (kind == KIND_TABLE) return decodeTable(p, from, to, out, <u32>aux, width, block)
  if (aux == 1) unpackUnit(p, from, to, base, out, width)
  else unpackScaled(p, from, to, base, aux, out, width)
  return OK
}

/**
 * Raw i64 values [first, first + n) of a sequence to out (8-aligned); status 0
 * or 1 (table index). The caller keeps first + n ≤ count (count is part of the
 * ABI for symmetry with checkCanonical; the decoder does not need it).
 */
export function decodeRaw(records: usize, data: usize, count: u32, first: u32, n: u32, out: usize): i32 {
  const end = first + n // ≤ count < 2^32: no wrap
  let index = first
  let o = out
  while (index < end) {
    const block = index >>> BLOCK_SHIFT
    const from = index & (BLOCK_VALUES - 1)
    const take = min(end - index, BLOCK_VALUES - from)
    const status = decodeBlock(records + <usize>block * RECORD_BYTES, data, block, from, from + take, o)
    if (status != OK) return status
    index += take
    o += <usize>take << 3
  }
  return OK
}

/** One raw value as i64 at out: one record read and one unaligned 8-byte load (two for widths > 56). */
export function getRaw(records: usize, data: usize, index: u32, out: usize): i32 {
  const block = index >>> BLOCK_SHIFT
  const record = records + <usize>block * RECORD_BYTES
  const kind = recordKind(record)
  if (kind == KIND_CONSTANT) {
    store<i64>(out, recordBase(record))
    return OK
  }
  const width = recordWidth(record)
  const p = data + recordDataOffset(record)
  const bit = (index & (BLOCK_VALUES - 1)) * width
  if (kind == KIND_TABLE) {
    const entries = <u32>recordAux(record)
    const e = (<u32>load<u16>(p + (<usize>entries << 3) + (bit >>> 3)) >>> (bit & 7)) & ((<u32>1 << width) - 1)
    if (e >= entries) return tableIndexError(block, e, entries)
    store<i64>(out, load<i64>(p + (<usize>e << 3)))
    return OK
  }
  const at = p + (bit >>> 3)
  const s = <u64>(bit & 7)
  let u = load<u64>(at) >>> s
  // A field of more than 56 bits plus its shift can reach a 9th byte; (b << 1) << (63 - s) is 0 for s = 0.
  if (width > 56) u |= ((<u64>load<u8>(at, 8)) << 1) << (63 - s)
  u &= <u64>-1 >>> <u64>(64 - width)
  store<i64>(out, recordBase(record) + recordAux(record) * u)
  return OK
}

/** getRaw's value as an exact double; NaN at a bad table index or beyond 2^53 - 1 (the caller then reads it with getRaw, which reports). */
export function getRawNumber(records: usize, data: usize, index: u32): f64 {
  return getRaw(records, data, index, NUMBER_SLOT) == OK ? slotNumber() : NaN
}
