// Keyword terms of format 2 dictionary forms 1 to 4 in one pass: each term is
// the first `shared[t]` bytes of the term before it (front coding; none when
// there is no shared list), then its piece: raw bytes, or FSST codes (fsst.ts).
// Each term is checked to be above the one before it as it is written.
// Dictionaries of short terms (the caller gives room for it) go through
// terms-short.ts first, which is faster there and hands anything wrong back to
// this decoder, which names it.
//
// Copies and compares go 8 bytes at a time, past the ends of what they need:
// the output has 32 bytes of slack past `limit` (terms-short.ts' stores need
// them), and the file (where raw pieces are read) ends in at least 20 bytes of
// trailer after any dictionary.
import { SCRATCH } from '../common'
import { NOT_INCREASING, SHARED_TOO_LONG, TOO_LONG } from './common'
import { decodeCodes } from './fsst'
import { decodeShortTerms } from './terms-short'

/** Copies `length` bytes forward: 16 at once (most terms), then 8 at a time. */
// @ts-ignore: decorator
@inline function copyForward(to: usize, from: usize, length: usize): void {
  store<u64>(to, load<u64>(from))
  store<u64>(to, load<u64>(from, 8), 8)
  for (let offset: usize = 16; offset < length; offset += 8) store<u64>(to + offset, load<u64>(from + offset))
}

/** Whether bytes [0, length) at `term` are above bytes [0, previousLength) at `previous`, both equal before `from`. */
// @ts-ignore: decorator
@inline function above(term: usize, length: usize, previous: usize, previousLength: usize, from: usize): bool {
  const both = length < previousLength ? length : previousLength
  for (let index = from; index < both; index += 8) {
    const difference = load<u64>(term + index) ^ load<u64>(previous + index)
    if (difference != 0) {
      const first = index + <usize>(ctz(difference) >> 3)
      return first < both ? load<u8>(term + first) > load<u8>(previous + first) : length > previousLength
    }
  }
  return length > previousLength
}

/**
 * above(), deciding at the first byte after the `from` equal ones where it can: a front-coded
 * term's shared length is the longest (its next byte differs), and comparing one byte there keeps
 * clear of reading words that several stores have just written.
 */
// @ts-ignore: decorator
@inline function aboveFrom(term: usize, length: usize, previous: usize, previousLength: usize, from: usize): bool {
  if (from < length && from < previousLength) {
    const mine = load<u8>(term + from), theirs = load<u8>(previous + from)
    if (mine != theirs) return mine > theirs
  }
  return above(term, length, previous, previousLength, from)
}

/**
 * Writes `count` terms to `out` (at most `limit` bytes, 32 more writable) with u32
 * `offsets[t]` = where term t starts (count + 1 of them). Pieces lie back to back
 * from `pieces` (inside the file: `pieceBytes` of them), piece t's length at u32
 * `lengths[t]`; `table` is an FSST table or 0 (raw pieces); `shared` the u32 shared
 * lengths or 0. `work`, where not 0, is room for terms-short.ts' first try (its
 * layout there). Returns 0 or a status (details in scratch).
 */
export function decodeTerms(
  table: usize, pieces: usize, lengths: usize, shared: usize, count: u32, out: usize, limit: u32, offsets: usize, pieceBytes: u32, work: usize,
): u32 {
  if (work != 0 && decodeShortTerms(table, pieces, lengths, shared, count, out, limit, offsets, pieceBytes, work)) return 0
  return decodeTermsInOrder(table, pieces, lengths, shared, count, out, limit, offsets)
}

/** decodeTerms a term at a time, naming the first thing wrong. */
function decodeTermsInOrder(table: usize, pieces: usize, lengths: usize, shared: usize, count: u32, out: usize, limit: u32, offsets: usize): u32 {
  let at: usize = 0, previous: usize = 0, previousLength: usize = 0
  let position = pieces
  store<u32>(offsets, 0)
  for (let term: u32 = 0; term < count; term++) {
    const slot = <usize>term << 2
    const start = at
    let common: usize = 0
    if (shared != 0) {
      common = <usize>load<u32>(shared + slot)
      if (common > previousLength) {
        store<u32>(SCRATCH, term)
        store<u32>(SCRATCH, <u32>common, 4)
        store<u32>(SCRATCH, <u32>previousLength, 8)
        return SHARED_TOO_LONG
      }
      if (at + common > <usize>limit) {
        store<u32>(SCRATCH, term)
        return TOO_LONG
      }
      // The source ends where this term starts (previous + previousLength = at): no step reads what one wrote.
      copyForward(out + at, out + previous, common)
      at += common
    }
    const end = position + <usize>load<u32>(lengths + slot)
    if (table != 0) {
      const result = decodeCodes(table, position, end, out, at, <usize>limit, term)
      if (result >> 32) return <u32>(result >> 32)
      at = <usize>result
    } else {
      const length = end - position
      if (at + length > <usize>limit) {
        store<u32>(SCRATCH, term)
        return TOO_LONG
      }
      copyForward(out + at, position, length)
      at += length
    }
    position = end
    if (term > 0 && !aboveFrom(out + start, at - start, out + previous, previousLength, common)) {
      store<u32>(SCRATCH, term)
      return NOT_INCREASING
    }
    previous = start
    previousLength = at - start
    store<u32>(offsets + slot + 4, <u32>at)
  }
  return 0
}
