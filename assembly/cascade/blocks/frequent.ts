// Frequent blocks (kind 5, src/cascade/blocks/frequent.ts): base = the top value t,
// aux = the smallest exception x0, width = xw; param = e | list << 10 | gcd << 11.
// Data: [u64 gx when gcd], the e positions, then e fields of xw bits. Value j is t,
// or x0 + gx × field[rank] at an exception: t + ((x0 - t) + gx × field) as the
// TypeScript reader computes it (exactly, below 2^53), the same i64 as wrapped here.
import { OK, bitsOf, recordAux, recordBase, recordWidth } from '../../common'
import { fill } from '../../decode'
import { COUNT_MASK, GCD_FLAG, LIST_FLAG, field, recordParam } from '../common'
import { applyExceptions, exceptionRank, positionsBytes } from './positions'

/** Value j of the frequent block (n values, data at p) to out. */
export function frequentGet(record: usize, p: usize, n: u32, j: u32, out: usize): i32 {
  const param = recordParam(record), e = param & COUNT_MASK, list = (param & LIST_FLAG) != 0
  const pw = bitsOf(<u64>(n - 1))
  const positions = (param & GCD_FLAG) != 0 ? p + 8 : p
  const rank = exceptionRank(positions, list, e, pw, j)
  if (rank < 0) {
    store<i64>(out, recordBase(record))
    return OK
  }
  const gx: i64 = (param & GCD_FLAG) != 0 ? load<i64>(p) : 1
  store<i64>(out, recordAux(record) + gx * <i64>field(positions + positionsBytes(list, e, n, pw), rank, recordWidth(record)))
  return OK
}

/** Values [from, to) of the frequent block to out: the top value, then the exceptions over it. */
export function frequentDecode(record: usize, p: usize, n: u32, from: u32, to: u32, out: usize): i32 {
  const param = recordParam(record), e = param & COUNT_MASK, list = (param & LIST_FLAG) != 0
  const pw = bitsOf(<u64>(n - 1)), W = recordWidth(record)
  const hasDivisor = (param & GCD_FLAG) != 0
  const positions = hasDivisor ? p + 8 : p
  const values = positions + positionsBytes(list, e, n, pw)
  const gx: i64 = hasDivisor ? load<i64>(p) : 1
  fill(out, recordBase(record), to - from)
  applyExceptions(positions, list, e, n, pw, from, to, out, values, W, recordAux(record), gx, false)
  return OK
}
