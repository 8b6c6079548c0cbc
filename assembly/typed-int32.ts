// The int32 decode's fast path (Node build; the browser bundle's widths stub answers
// false, keeping its kernels small): a chunk whose blocks are all constant or packed
// with every value provably in range (from the record alone: base and base + g (2^W - 1)
// within int32, or below the ordinal limit) is unpacked as u32 and scaled in i32 lanes,
// with no i64 and no per-value check. Keyword blocks whose bound passes the term count
// are unpacked the same way and their lanes compared with it. A chunk with any doubt
// goes through the checked path instead, so the output and the first error reported
// are the same either way.
import {
  BLOCK_SHIFT, BLOCK_VALUES, KIND_CONSTANT, KIND_PACKED, RECORD_BYTES, recordAux, recordBase, recordDataOffset,
  recordKind, recordWidth,
} from './common'
import { U_BUFFER, unpackU32 } from './query-common'

/** Fits: every value fits the output unchecked; CHECK: ordinals in u32 lanes that may reach the limit. */
const NO: i32 = 0
const FITS: i32 = 1
const CHECK: i32 = 2

/** Whether the block's values fit the int32 output from its record alone (FITS), need a lane check (CHECK), or neither. */
function blockFits(record: usize, ordinals: bool, limit: u32): i32 {
  const kind = recordKind(record)
  const base = recordBase(record)
  let top = base
  if (kind == KIND_PACKED) {
    const W = recordWidth(record)
    const g = <u64>recordAux(record)
    if (W > 32 || g > 0xFFFF_FFFF) return NO
    const span = g * ((<u64>1 << <u64>W) - 1) // < 2^64: both factors are below 2^32
    if (span > 0xFFFF_FFFF || base > <i64>i32.MAX_VALUE) return NO
    top = base + <i64>span // no overflow: base ≤ 2^31, span < 2^32
  } else if (kind != KIND_CONSTANT) return NO
  if (!ordinals) return base >= <i64>i32.MIN_VALUE && top <= <i64>i32.MAX_VALUE ? FITS : NO
  if (base < 0) return NO
  if (top < <i64>limit) return FITS
  // A packed bound is 2^W - 1 past the base, so keyword blocks often pass termCount: their values,
  // exact in u32 lanes, are compared with the limit after the unpack.
  return kind == KIND_PACKED && top <= 0xFFFF_FFFF ? CHECK : NO
}

/**
 * Values [start, end) (one chunk of the int32 decode) to out as int32 when every block
 * the chunk touches fits (blockFits); returns false, writing nothing, otherwise.
 */
export function int32Chunk(records: usize, data: usize, start: u32, end: u32, ordinals: bool, limit: u32, out: usize): bool {
  for (let block = start >>> BLOCK_SHIFT; block <= (end - 1) >>> BLOCK_SHIFT; block++) {
    if (blockFits(records + <usize>block * RECORD_BYTES, ordinals, limit) == NO) return false
  }
  // Lanes at or past the ordinal limit (unsigned); any one sends the chunk to the checked path,
  // which rewrites it and reports the first bad value (out is the kernels' own output buffer).
  let beyond = i32x4.splat(0)
  const limits = i32x4.splat(<i32>limit)
  let o = out
  for (let index = start; index < end;) {
    const block = index >>> BLOCK_SHIFT
    const record = records + <usize>block * RECORD_BYTES
    const from = index & (BLOCK_VALUES - 1)
    const take = min(end - index, BLOCK_VALUES - from)
    const base = <i32>recordBase(record)
    const oEnd = o + (<usize>take << 2)
    if (recordKind(record) == KIND_CONSTANT) {
      const pair = i32x4.splat(base)
      for (; o + 16 <= oEnd; o += 16) v128.store(o, pair)
      for (; o < oEnd; o += 4) store<i32>(o, base)
    } else {
      const g = <i32>recordAux(record)
      unpackU32(data + recordDataOffset(record), from, from + take, recordWidth(record))
      // base + g u in wrapping i32 lanes: exact, since every value fits (blockFits).
      let u = U_BUFFER + (<usize>from << 2)
      const bases = i32x4.splat(base), steps = i32x4.splat(g)
      if (g == 1) for (; o + 16 <= oEnd; o += 16, u += 16) v128.store(o, i32x4.add(v128.load(u), bases))
      else for (; o + 16 <= oEnd; o += 16, u += 16) v128.store(o, i32x4.add(i32x4.mul(v128.load(u), steps), bases))
      for (; o < oEnd; o += 4, u += 4) store<i32>(o, base + g * load<i32>(u))
      if (blockFits(record, ordinals, limit) == CHECK) {
        const first = oEnd - (<usize>take << 2)
        let c = first
        for (; c + 16 <= oEnd; c += 16) beyond = v128.or(beyond, i32x4.ge_u(v128.load(c), limits))
        for (; c < oEnd; c += 4) if (load<u32>(c) >= limit) return false
      }
    }
    index += take
  }
  return !v128.any_true(beyond)
}
