// FSST decoding of one term's codes (format 2 dictionary forms 2 and 4): a
// symbol code writes its 1-8 bytes, code 255 the byte after it. Each symbol is
// stored as 8 bytes and written with one unaligned 8-byte store, the output
// advancing by its length: the output area has slack past `limit` (terms.ts).
import { SCRATCH } from '../common'
import { BAD_CODE, ESCAPE, LENGTHS_AT, OPEN_ESCAPE, TOO_LONG } from './common'

/**
 * Decodes codes [start, end) of `term` to `out + at`; returns the new `at`, or
 * (status in the high word) a failure: `at` past `limit` (checked after each
 * code, so no store starts past it), a code that is no symbol, an open escape.
 */
// @ts-ignore: decorator
@inline export function decodeCodes(table: usize, start: usize, end: usize, out: usize, at: usize, limit: usize, term: u32): u64 {
  let position = start
  // Each code gives at most 8 bytes: when the whole term fits, no code needs the limit check.
  // In 64 bits: 8 bytes a code passes 2^32 from 2^29 codes, and a wrapped sum would skip the checks.
  const checked = <u64>at + (<u64>(end - start) << 3) > <u64>limit
  while (position < end) {
    const code = <u32>load<u8>(position)
    position++
    if (code == ESCAPE) {
      if (position == end) {
        store<u32>(SCRATCH, term)
        return <u64>OPEN_ESCAPE << 32
      }
      store<u8>(out + at, load<u8>(position))
      position++
      at++
    } else {
      const length = <usize>load<u8>(table + LENGTHS_AT + <usize>code)
      if (length == 0) {
        store<u32>(SCRATCH, term)
        store<u32>(SCRATCH, <u32>(position - 1 - start), 4)
        store<u32>(SCRATCH, code, 8)
        return <u64>BAD_CODE << 32
      }
      store<u64>(out + at, load<u64>(table + (<usize>code << 3)))
      at += length
    }
    if (checked && at > limit) {
      store<u32>(SCRATCH, term)
      return <u64>TOO_LONG << 32
    }
  }
  return <u64>at
}
