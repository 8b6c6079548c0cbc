// Keyword terms of format 2 dictionary forms 1 to 4 where terms are short
// (the caller's choice: src/backend/wasm/terms.ts), in two passes that keep
// clear of the two costs of a term-at-a-time decoder there: a mispredicted
// branch at the end of each term's few codes, and loads of words that several
// stores have just written (the shared prefix copied from the term before, the
// order check).
//
// Pass one (FSST forms): every term's codes as one stream into `work`, with
// where each code byte's output ends. Pass two: each term's first 16 bytes are
// made in a register from the term before's (kept in a register) and its piece,
// stored once, and compared with the term before's in the register.
//
// Anything wrong (a bad code, an escape at a term's end, too many bytes, a
// shared length past the term before, terms out of order) returns false: the
// caller then decodes in order (terms.ts), which names it. Accepting means the
// in-order decoder gives the same bytes and offsets.
import { ESCAPE, LENGTHS_AT } from './common'

/** Per shared length 0..16: the mask keeping that many bytes of the term before, then the swizzle putting the piece after them. */
const HEADS: usize = memory.data(17 * 32, 16)
// Built on first use (by each instance of a shared memory alike: the same bytes).
let headsReady = false

function prepareHeads(): void {
  for (let common = 0; common <= 16; common++) {
    const at = HEADS + (<usize>common << 5)
    for (let lane = 0; lane < 16; lane++) {
      store<u8>(at + <usize>lane, lane < common ? 0xff : 0)
      store<u8>(at + 16 + <usize>lane, lane < common ? 0x80 : <u8>(lane - common))
    }
  }
  headsReady = true
}

/**
 * Where `work` starts, the decoded pieces (room for `limit` + 47 bytes, rounded down to 16: loads
 * and stores go past the last), then a u32 0, then u32 ends per code byte and one more: together
 * ((limit + 47) & ~15) + 4 × (pieceBytes + 2) bytes.
 */
// @ts-ignore: decorator
@inline function endsOf(work: usize, limit: u32): usize {
  return work + ((<usize>limit + 47) & ~15) + 4
}

/**
 * Pass one: codes [0, count) into `pieces` (at most `limit` bytes; a store goes 8 past), u32
 * `ends[i]` = bytes decoded through code byte i, all ones at an escape (no term may end there).
 * False where a code is no symbol or the bytes pass `limit`.
 */
// @ts-ignore: decorator
@inline function decodeStream(table: usize, codes: usize, count: usize, pieces: usize, limit: usize, ends: usize): bool {
  const lengths = table + LENGTHS_AT
  let at: usize = 0, bad = false
  for (let index: usize = 0; index < count; index++) {
    const code = <usize>load<u8>(codes + index)
    // A branch (not a select): it lets the loads of the next codes start before this one's is known.
    if (code == ESCAPE) {
      store<u8>(pieces + at, load<u8>(codes + index + 1))
      store<u32>(ends + (index << 2), 0xffffffff)
      index++
      at++
    } else {
      const length = <usize>load<u8>(lengths + code)
      store<u64>(pieces + at, load<u64>(table + (code << 3)))
      at += length
      bad |= length == 0
    }
    store<u32>(ends + (index << 2), <u32>at)
    if (at > limit) return false
  }
  return !bad
}

/** Whether bytes [0, length) at `term` are above [0, previousLength) at `previous`, their first 16 equal. */
function aboveAfterHead(term: usize, length: usize, previous: usize, previousLength: usize): bool {
  const both = length < previousLength ? length : previousLength
  for (let index: usize = 16; index < both; index++) {
    const mine = load<u8>(term + index), theirs = load<u8>(previous + index)
    if (mine != theirs) return mine > theirs
  }
  return length > previousLength
}

/** decodeTerms (terms.ts) for short terms: true when every term is written and in order, false where anything is wrong. */
export function decodeShortTerms(
  table: usize, source: usize, lengths: usize, shared: usize, count: u32, out: usize, limit: u32, offsets: usize, pieceBytes: u32, work: usize,
): bool {
  if (!headsReady) prepareHeads()
  // Raw pieces are read where they lie (the file's trailer covers the 16-byte loads past the last).
  let pieces = source, pieceLimit = <usize>pieceBytes
  // ends[-1] = 0: the piece before the first ends at 0, and an empty piece ends where the one before did.
  const ends = endsOf(work, limit)
  if (table != 0) {
    pieces = work
    pieceLimit = <usize>limit
    store<u32>(ends - 4, 0)
    if (!decodeStream(table, source, <usize>pieceBytes, pieces, <usize>limit, ends)) return false
  }
  let at: usize = 0, previous: usize = 0, previousLength: usize = 0
  let pieceStart: usize = 0, codeEnd: usize = 0
  let previousHead = i64x2.splat(0)
  store<u32>(offsets, 0)
  for (let term: u32 = 0; term < count; term++) {
    const slot = <usize>term << 2
    const common = shared != 0 ? <usize>load<u32>(shared + slot) : 0
    codeEnd += <usize>load<u32>(lengths + slot)
    const pieceEnd = table != 0 ? <usize>load<u32>(ends + (codeEnd << 2) - 4) : codeEnd
    // Ends only grow (an escape's all-ones end is past any limit), and each part is at most 1 GiB
    // before the sum: no difference or sum wraps.
    if (common > previousLength || pieceEnd > pieceLimit) return false
    const length = common + pieceEnd - pieceStart
    if (at + length > <usize>limit) return false
    const kept = common < 16 ? common : 16
    const head = v128.or(
      v128.and(previousHead, load<v128>(HEADS + (kept << 5))),
      i8x16.swizzle(load<v128>(pieces + pieceStart), load<v128>(HEADS + (kept << 5), 16)),
    )
    v128.store(out + at, head)
    if (length > 16) {
      // The rest: bytes 16.. of the shared prefix from the term before, then the piece's.
      for (let offset: usize = 16; offset < common; offset += 16) v128.store(out + at + offset, load<v128>(out + previous + offset))
      const from = common > 16 ? common : 16
      for (let offset = from; offset < length; offset += 16) v128.store(out + at + offset, load<v128>(pieces + pieceStart + offset - common))
    }
    if (term > 0) {
      // Lanes at or past a term's length hold other bytes: a difference counts only before both ends.
      const differ = ~i8x16.bitmask(i8x16.eq(head, previousHead)) & 0xffff
      const both = length < previousLength ? length : previousLength
      let above: bool
      if (differ != 0) {
        const first = <usize>ctz(differ)
        above = first < both ? ((i8x16.bitmask(i8x16.gt_u(head, previousHead)) >> <u32>first) & 1) != 0 : length > previousLength
      } else if (both <= 16) {
        above = length > previousLength
      } else {
        above = aboveAfterHead(out + at, length, out + previous, previousLength)
      }
      if (!above) return false
    }
    previousHead = head
    previous = at
    previousLength = length
    at += length
    pieceStart = pieceEnd
    store<u32>(offsets + slot + 4, <u32>at)
  }
  return true
}
