// Patched blocks (kind 6, src/cascade/blocks/patched.ts): base = min, aux = g,
// width = lw; param = e | list << 10. Data: u8 hw, n low fields of lw bits, the e
// patched positions, then e high fields of hw bits. Value j = base + g × (low_j +
// high[rank] × 2^lw) at a patched position, base + g × low_j elsewhere.
import { OK, bitsOf, recordAux, recordBase, recordWidth } from '../../common'
import { COUNT_MASK, LIST_FLAG, bytesOf, field, recordParam, unpackValues } from '../common'
import { applyExceptions, exceptionRank, positionsBytes } from './positions'

/** The field of value j of the patched block (n values, data at p): its low bits, and its patch's high bits if it has one. */
// @ts-ignore: decorator
@inline export function patchedField(record: usize, p: usize, n: u32, j: u32): u64 {
  const param = recordParam(record), e = param & COUNT_MASK, list = (param & LIST_FLAG) != 0
  const lw = recordWidth(record), pw = bitsOf(<u64>(n - 1))
  const positions = p + 1 + bytesOf(n, lw)
  let q = field(p + 1, j, lw)
  const rank = exceptionRank(positions, list, e, pw, j)
  if (rank >= 0) q += field(positions + positionsBytes(list, e, n, pw), rank, load<u8>(p)) << <u64>lw
  return q
}

/** Value j of the patched block (n values, data at p) to out. */
export function patchedGet(record: usize, p: usize, n: u32, j: u32, out: usize): i32 {
  store<i64>(out, recordBase(record) + recordAux(record) * <i64>patchedField(record, p, n, j))
  return OK
}

/** Values [from, to) of the patched block to out: the low fields, then each patch added (g × high × 2^lw). */
export function patchedDecode(record: usize, p: usize, n: u32, from: u32, to: u32, out: usize): i32 {
  const param = recordParam(record), e = param & COUNT_MASK, list = (param & LIST_FLAG) != 0
  const lw = recordWidth(record), hw: u32 = load<u8>(p), pw = bitsOf(<u64>(n - 1))
  const base = recordBase(record), g = recordAux(record)
  const lows = p + 1
  const positions = lows + bytesOf(n, lw)
  unpackValues(lows, from, to, base, g, out, lw)
  applyExceptions(positions, list, e, n, pw, from, to, out, positions + positionsBytes(list, e, n, pw), hw, 0, g << lw, true)
  return OK
}
