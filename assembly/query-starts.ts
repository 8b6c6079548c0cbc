// Multi-valued columns' documents ↔ values through two bitsets kept per column, without the
// offsets: `starts` (bit v: value v is the first of a non-empty document, and bit `total` as
// a sentinel) and `nonempty` (bit d: document d holds a value). The k-th start belongs to the
// k-th non-empty document, so documents map to segments of values by compressing bits through
// one mask and depositing them through the other (pext and pdep a byte at a time, from
// tables), and within values a segment is handled whole by carries:
// - any value of a segment matches: ~starts + (matches off starts) + (matches on starts) << 1
//   carries out of the segment into the next start exactly when one does (hitsToDocuments; a
//   few hits instead each set their segment's bit by the rank of the starts, hitsOneByOne);
// - a segment's values from its marked start: ~starts + (marks << 1) clears the segment's
//   inner bits of ~starts exactly when its start is marked (documentsToValues).
// Mirrored by src/backend/ts/query-starts.ts; the bitsets are made by queryMulti's mode 4.

import { unitsOf } from './common'

/**
 * Fills the tables at `tables` (2 × 65,536 bytes, compress then deposit): compress[m][b] packs
 * b's bits at m's set positions low; deposit[m][b] spreads b's low bits to them.
 */
export function prepareBitTables(tables: usize): void {
  for (let mask: u32 = 0; mask < 256; mask++) {
    for (let bits: u32 = 0; bits < 256; bits++) {
      let packed: u32 = 0, spread: u32 = 0, k: u32 = 0
      for (let i: u32 = 0; i < 8; i++) {
        if ((mask >>> i) & 1) {
          packed |= ((bits >>> i) & 1) << k
          spread |= ((bits >>> k) & 1) << i
          k++
        }
      }
      store<u8>(tables + (mask << 8 | bits), <u8>packed)
      store<u8>(tables + 65536 + (mask << 8 | bits), <u8>spread)
    }
  }
}

// @ts-ignore: decorator
@inline function compressByte(tables: usize, mask: u32, bits: u32): u32 {
  return load<u8>(tables + (mask << 8 | bits))
}

// @ts-ignore: decorator
@inline function depositByte(tables: usize, mask: u32, bits: u32): u32 {
  return load<u8>(tables + 65536 + (mask << 8 | bits))
}

/**
 * With `test` (a value bitset): word w of out = documents 32w.. with a value whose bit is set,
 * and'ed with sel (0: every document); every word of the `docCount` documents written. Without
 * (test = 0): the values of the selected documents set in out, a value bitset whose words for
 * [0, total) are all written. `tables` as prepareBitTables left them; `stream`: room for
 * docCount + 1 bits and two words after them.
 */
export function queryStarts(
  starts: usize, nonempty: usize, total: u32, docCount: u32, sel: usize, test: usize, out: usize, tables: usize, stream: usize,
): void {
  if (test != 0) {
    // A few hits are mapped one at a time: the carries' way reads tables for every word whatever the hits.
    if (fewHits(test, total, (total >>> 5) + (docCount >>> 5))) hitsOneByOne(starts, nonempty, total, docCount, sel, test, out, tables, stream)
    else hitsToDocuments(starts, nonempty, total, docCount, sel, test, out, tables, stream)
  } else documentsToValues(starts, nonempty, total, docCount, sel, out, tables, stream)
}

/** The bits of `word` at the set positions of `mask`, packed low (4 table reads). */
// @ts-ignore: decorator
@inline function compressWord(tables: usize, mask: u32, word: u32): u64 {
  const m0 = mask & 0xFF, m1 = (mask >>> 8) & 0xFF, m2 = (mask >>> 16) & 0xFF, m3 = mask >>> 24
  const k0 = <u64>popcnt(m0), k1 = k0 + <u64>popcnt(m1), k2 = k1 + <u64>popcnt(m2)
  return <u64>compressByte(tables, m0, word & 0xFF) | <u64>compressByte(tables, m1, (word >>> 8) & 0xFF) << k0
    | <u64>compressByte(tables, m2, (word >>> 16) & 0xFF) << k1 | <u64>compressByte(tables, m3, word >>> 24) << k2
}

/** The low popcnt(mask) bits of `bits` spread to the set positions of `mask` (4 table reads, none waiting on another). */
// @ts-ignore: decorator
@inline function depositWord(tables: usize, mask: u32, bits: u64): u32 {
  const m0 = mask & 0xFF, m1 = (mask >>> 8) & 0xFF, m2 = (mask >>> 16) & 0xFF, m3 = mask >>> 24
  const k0 = <u64>popcnt(m0), k1 = <u64>popcnt(mask & 0xFFFF), k2 = <u64>popcnt(mask & 0xFF_FFFF)
  return depositByte(tables, m0, <u32>bits & 0xFF) | depositByte(tables, m1, <u32>(bits >> k0) & 0xFF) << 8
    | depositByte(tables, m2, <u32>(bits >> k1) & 0xFF) << 16 | depositByte(tables, m3, <u32>(bits >> k2) & 0xFF) << 24
}

// Streams of bits in memory are appended to without a branch on how many bits each step gives
// (those counts are the data's, so such branches mispredict): the word being filled is stored
// at every step, and the position moves on when it is full (acc holds the word's bits, fill
// their count). The last word is followed by a zero word: a read at the end takes 8 bytes.
// The two loops that append spell it out on locals: a helper would keep the state in globals,
// which the engine does not hold in registers (matchAny was slower so).

/** At least 32 bits of the stream from bit `position`. */
// @ts-ignore: decorator
@inline function bitsAt(stream: usize, position: u32): u64 {
  return load<u64>(stream + (<usize>(position >>> 5) << 2)) >>> <u64>(position & 31)
}

/**
 * Per value word, the segments' hits land on the following start (the last segment's on the
 * sentinel); compressed through starts they are one bit per non-empty document, in order, after
 * a first bit for the start of value 0, which no segment precedes. Each document word then takes
 * as many of them as it has non-empty documents.
 */
function hitsToDocuments(
  starts: usize, nonempty: usize, total: u32, docCount: u32, sel: usize, test: usize, out: usize, tables: usize, stream: usize,
): void {
  const valueWords = (total >>> 5) + 1
  let carry: u64 = 0, shifted: u64 = 0
  let at = stream, acc: u64 = 0, fill: u32 = 0
  for (let v: u32 = 0; v < valueWords; v++) {
    const s = <u64>load<u32>(starts + (<usize>v << 2)), m = <u64>load<u32>(test + (<usize>v << 2))
    const on = m & s
    const z = (~s & 0xFFFF_FFFF) + (m & ~s & 0xFFFF_FFFF) + ((on << 1) & 0xFFFF_FFFF) + shifted + carry
    shifted = on >>> 31
    carry = z >>> 32
    acc |= compressWord(tables, <u32>s, <u32>z & <u32>s) << fill
    fill += <u32>popcnt(<u32>s)
    store<u32>(at, <u32>acc)
    const full = fill >>> 5
    at += <usize>full << 2
    acc >>= <u64>(full << 5)
    fill &= 31
  }
  store<u32>(at, <u32>acc)
  store<u32>(at, 0, 4)
  streamToDocuments(nonempty, docCount, sel, out, tables, stream)
}

/** Bit k + 1 of the stream (k from 0): the k-th non-empty document has a hit; out as hitsToDocuments leaves it. */
function streamToDocuments(nonempty: usize, docCount: u32, sel: usize, out: usize, tables: usize, stream: usize): void {
  const docWords = unitsOf(docCount, 5)
  let position: u32 = 1
  // One loop each way, the last word masked after: no check per word inside the loop.
  if (sel == 0) {
    for (let w: u32 = 0; w < docWords; w++) {
      const present = load<u32>(nonempty + (<usize>w << 2))
      store<u32>(out + (<usize>w << 2), depositWord(tables, present, bitsAt(stream, position)))
      position += <u32>popcnt(present)
    }
  } else {
    for (let w: u32 = 0; w < docWords; w++) {
      const present = load<u32>(nonempty + (<usize>w << 2))
      store<u32>(out + (<usize>w << 2), depositWord(tables, present, bitsAt(stream, position)) & load<u32>(sel + (<usize>w << 2)))
      position += <u32>popcnt(present)
    }
  }
  if ((docCount & 31) != 0) {
    const last = out + (<usize>(docWords - 1) << 2)
    store<u32>(last, load<u32>(last) & ((<u32>1 << (docCount & 31)) - 1))
  }
}

/**
 * Values [64p, 64p + 64) of a bitset of `total` values as one word: past the bitset's last whole
 * pair only the words holding values are read (bits past the values are left as they are: such a
 * hit counts the sentinel's start among its own, so its stream bit lies past every document's).
 */
// @ts-ignore: decorator
@inline function valuePair(bits: usize, p: u32, total: u32): u64 {
  const at = bits + (<usize>p << 3), left = total - (p << 6)
  if (left >= 64) return load<u64>(at)
  const low = <u64>load<u32>(at)
  return left > 32 ? low | <u64>load<u32>(at, 4) << 32 : low
}

/**
 * Whether `test` has fewer than `limit` hits in its words of values. Measured here, a hit set one
 * at a time costs about what a word of values and documents costs the carries' way (the limit).
 */
function fewHits(test: usize, total: u32, limit: u32): bool {
  const pairs = unitsOf(total, 6)
  let count: u32 = 0
  for (let p: u32 = 0; p < pairs; p++) {
    count += <u32>popcnt(valuePair(test, p, total))
    if (count >= limit) return false
  }
  return true
}

/**
 * hitsToDocuments for a few hits: a hit at value v is in the segment of the k-th start (k + 1
 * starts at or below v): its bit in the stream is set directly.
 */
function hitsOneByOne(starts: usize, nonempty: usize, total: u32, docCount: u32, sel: usize, test: usize, out: usize, tables: usize, stream: usize): void {
  const pairs = unitsOf(total, 6)
  memory.fill(stream, 0, (<usize>(docCount >>> 5) + 4) << 2)
  // A bit past the documents' (bitsets not made from one column's offsets) goes to a word the
  // deposit never reads: the stream's last.
  const room = ((docCount >>> 5) + 2) << 5
  let rank: u32 = 0
  for (let p: u32 = 0; p < pairs; p++) {
    let m = valuePair(test, p, total)
    const s = valuePair(starts, p, total)
    while (m != 0) {
      const bit = rank + <u32>popcnt(s << (63 - ctz(m)))
      m &= m - 1
      const at = stream + (<usize>(min(bit, room) >>> 5) << 2)
      store<u32>(at, load<u32>(at) | <u32>1 << (bit & 31))
    }
    rank += <u32>popcnt(s)
  }
  streamToDocuments(nonempty, docCount, sel, out, tables, stream)
}

/**
 * The selected non-empty documents compressed through nonempty give one bit per start, in
 * order; deposited on the starts they mark the selected segments, which the carries fill.
 */
function documentsToValues(starts: usize, nonempty: usize, total: u32, docCount: u32, sel: usize, out: usize, tables: usize, stream: usize): void {
  const docWords = unitsOf(docCount, 5)
  let at = stream, acc: u64 = 0, fill: u32 = 0
  for (let w: u32 = 0; w < docWords; w++) {
    const present = load<u32>(nonempty + (<usize>w << 2))
    const chosen = (sel != 0 ? load<u32>(sel + (<usize>w << 2)) : 0xFFFF_FFFF) & present
    acc |= compressWord(tables, present, chosen) << fill
    fill += <u32>popcnt(present)
    store<u32>(at, <u32>acc)
    const full = fill >>> 5
    at += <usize>full << 2
    acc >>= <u64>(full << 5)
    fill &= 31
  }
  store<u32>(at, <u32>acc)
  store<u32>(at, 0, 4)
  const lastValueWord = total >>> 5, outWords = unitsOf(total, 5)
  let carry: u64 = 0, shifted: u64 = 0, position: u32 = 0
  for (let v: u32 = 0; v <= lastValueWord; v++) {
    // The sentinel takes a zero bit (the stream has one per document), then stops the last segment's carry.
    const s = load<u32>(starts + (<usize>v << 2))
    const marks = depositWord(tables, s, bitsAt(stream, position))
    position += <u32>popcnt(s)
    const inner = ~s
    const q = <u64>inner + ((<u64>marks << 1) & 0xFFFF_FFFF) + shifted + carry
    shifted = <u64>(marks >>> 31)
    carry = q >>> 32
    let values = marks | (inner & ~<u32>q)
    if (v == lastValueWord) values &= (<u32>1 << (total & 31)) - 1
    if (v < outWords) store<u32>(out + (<usize>v << 2), values)
  }
}
