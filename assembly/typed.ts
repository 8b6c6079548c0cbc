// Typed decoders: raw values converted as the reader's typed destinations need
// them (Float64Array of sortable doubles or exact integers, Int32Array of
// integers or keyword ordinals).
//
// The run goes in chunks of 1,024 values counted from `first` (not block
// aligned), each decoded whole before it is converted, exactly as the TS
// backend (src/backend/ts/typed.ts) does: a run holding both a table index
// error and a bad value reports whichever its chunk order meets first, the same
// with both backends. A chunk (8 KiB) is still in L1 when it is converted.
import { BLOCK_BUFFER, BLOCK_VALUES, NOT_REPRESENTABLE, OK, ORDINAL_ERROR, SCRATCH, isSafeInteger } from './common'
import { decodeRaw } from './decode'
import { float64Chunk, int32Chunk } from './widths'

/** Status 2 (or 3) with the position within the run at scratch+0 and the raw value at scratch+8. */
function reportValue(status: i32, position: u32, value: i64): i32 {
  store<u32>(SCRATCH, position)
  store<i64>(SCRATCH, value, 8)
  return status
}

/** SortableBits decode in place of n i64 at o: b ^ ((b >> 63) & 0x7FFF_FFFF_FFFF_FFFF), two values per v128. */
export function sortableInPlace(o: usize, n: u32): void {
  const low63 = i64x2.splat(0x7FFF_FFFF_FFFF_FFFF)
  const end = o + (<usize>n << 3)
  let p = o
  for (; p + 32 <= end; p += 32) {
    const a = v128.load(p)
    const b = v128.load(p, 16)
    v128.store(p, v128.xor(a, v128.and(i64x2.shr_s(a, 63), low63)))
    v128.store(p, v128.xor(b, v128.and(i64x2.shr_s(b, 63), low63)), 16)
  }
  for (; p < end; p += 8) {
    const b = load<i64>(p)
    store<i64>(p, b ^ ((b >> 63) & 0x7FFF_FFFF_FFFF_FFFF))
  }
}

/** Raw values [first, first + n) as SortableBits-decoded doubles to out; status 0 or 1. */
export function decodeFloat64Sortable(records: usize, data: usize, count: u32, first: u32, n: u32, out: usize): i32 {
  for (let done: u32 = 0; done < n; done += BLOCK_VALUES) {
    const take = min(n - done, BLOCK_VALUES)
    const o = out + (<usize>done << 3)
    const status = decodeRaw(records, data, count, first + done, take, o)
    if (status != OK) return status
    sortableInPlace(o, take)
  }
  return OK
}

/** Raw values as exact doubles to out; status 2 at the first |v| > 2^53 - 1 (scratch: position, value). */
export function decodeFloat64Exact(records: usize, data: usize, count: u32, first: u32, n: u32, out: usize): i32 {
  for (let done: u32 = 0; done < n; done += BLOCK_VALUES) {
    const take = min(n - done, BLOCK_VALUES)
    const o = out + (<usize>done << 3)
    if (float64Chunk(records, data, first + done, first + done + take, o)) continue
    // Raw values go to the block buffer, so nothing past a refused value reaches out (it may be a ValueBuffer).
    const status = decodeRaw(records, data, count, first + done, take, BLOCK_BUFFER)
    if (status != OK) return status
    for (let j: u32 = 0; j < take; j++) {
      const v = load<i64>(BLOCK_BUFFER + (<usize>j << 3))
      if (!isSafeInteger(v)) return reportValue(NOT_REPRESENTABLE, done + j, v)
      store<f64>(o + (<usize>j << 3), <f64>v)
    }
  }
  return OK
}

/**
 * Raw values as int32 to out (4 bytes each). limit = 0xFFFFFFFF: plain integers,
 * status 2 at the first value outside int32. Otherwise keyword ordinals: status 3
 * at the first value < 0 or ≥ limit. Scratch: position within the run, raw value.
 */
export function decodeInt32(records: usize, data: usize, count: u32, first: u32, n: u32, limit: u32, out: usize): i32 {
  const ordinals = limit != 0xFFFF_FFFF
  for (let done: u32 = 0; done < n; done += BLOCK_VALUES) {
    const take = min(n - done, BLOCK_VALUES)
    const o = out + (<usize>done << 2)
    if (int32Chunk(records, data, first + done, first + done + take, ordinals, limit, o)) continue
    // The i64 values do not fit the int32 output: decode them into the static block buffer.
    const status = decodeRaw(records, data, count, first + done, take, BLOCK_BUFFER)
    if (status != OK) return status
    if (ordinals) {
      for (let j: u32 = 0; j < take; j++) {
        const v = load<i64>(BLOCK_BUFFER + (<usize>j << 3))
        // Unsigned compare: negative values look huge and fail too.
        if (<u64>v >= <u64>limit) return reportValue(ORDINAL_ERROR, done + j, v)
        store<i32>(o + (<usize>j << 2), <i32>v)
      }
    } else {
      for (let j: u32 = 0; j < take; j++) {
        const v = load<i64>(BLOCK_BUFFER + (<usize>j << 3))
        if (v != <i64><i32>v) return reportValue(NOT_REPRESENTABLE, done + j, v)
        store<i32>(o + (<usize>j << 2), <i32>v)
      }
    }
  }
  return OK
}

/**
 * The first of the n i64 at o that is not an ordinal below limit (as u64: negative values fail
 * too), or -1. All pass when every high half is 0 (their or) and the largest low half is below
 * limit (an unsigned max of the 32-bit lanes, the high ones then 0): two vector operations a pair.
 * (An or of the values alone, compared once, fails for most blocks of a dictionary not of 2^w
 * terms: 128 | 101 ≥ 229.)
 */
export function firstBeyond(o: usize, n: u32, limit: u32): i32 {
  let any = i64x2.splat(0), most = i64x2.splat(0)
  const end = o + (<usize>n << 3)
  let p = o
  for (; p + 32 <= end; p += 32) {
    const a = v128.load(p), b = v128.load(p, 16)
    any = v128.or(any, v128.or(a, b))
    most = i32x4.max_u(most, i32x4.max_u(a, b))
  }
  const high = (<u64>i64x2.extract_lane(any, 0) | <u64>i64x2.extract_lane(any, 1)) >>> 32
  most = i32x4.max_u(most, v128.shuffle<u32>(most, most, 2, 3, 0, 1))
  let failed = high != 0 || <u32>i32x4.extract_lane(most, 0) >= limit
  for (; p < end; p += 8) failed = failed || load<u64>(p) >= <u64>limit
  if (!failed) return -1
  for (let j: u32 = 0; j < n; j++) if (load<u64>(o + (<usize>j << 3)) >= <u64>limit) return <i32>j
  return -1
}

/**
 * Keyword ordinals [first, first + n) as raw i64 to out, chunk by chunk as decodeInt32 reads them:
 * status 3 at the first value < 0 or ≥ limit (scratch: position within the run, raw value), the
 * chunk holding it written whole; or status 1.
 */
export function decodeRawOrdinals(records: usize, data: usize, count: u32, first: u32, n: u32, limit: u32, out: usize): i32 {
  for (let done: u32 = 0; done < n; done += BLOCK_VALUES) {
    const take = min(n - done, BLOCK_VALUES)
    const o = out + (<usize>done << 3)
    const status = decodeRaw(records, data, count, first + done, take, o)
    if (status != OK) return status
    const bad = firstBeyond(o, take, limit)
    if (bad >= 0) return reportValue(ORDINAL_ERROR, done + bad, load<i64>(o + (<usize>bad << 3)))
  }
  return OK
}

