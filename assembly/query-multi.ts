// Multi-valued columns: one kernel walks the offsets sequence and the values
// together, so JS makes one call per question rather than one per document.
//
// Documents go in chunks of 1,024 (32 selection words). A chunk's offsets are
// decoded, then its values in windows of at most CAP values. Each value finds
// its document through marks (marks[i] = documents ending at value i, so a
// running sum of them is the document), which keeps the loop free of branches
// on run lengths: those mispredict about once a document.
// Filters (mode 1) walk no values: a document matches iff the value bits set
// before its run's end exceed those before its start (matchDocuments); a
// DocSet becomes value bits by setting the runs of its documents (mode 2,
// selectRuns).
// Facets over a chunk with at most a quarter of its documents selected visit
// those documents' runs alone (facetSelected).
// A DocSet is read as selection words, never expanded to values. Both
// sequences are decoded by the existing entry points: v1 blocks (decodeRaw)
// or v2 cascades (cascadeDecode). Mirrored by src/backend/ts/query-multi.ts.
import { BLOCK_VALUES, OK, SCRATCH } from './common'
import { decodeRaw } from './decode'
import { cascadeDecode } from './cascade/index'
import { orBits, valueRangeError } from './query-common'

const CHUNK: u32 = 1024
const CAP: u32 = 8192
// Work area layout (JS allocates TABLE_AT bytes plus the task's table).
const SELECTED_AT: usize = 8 * (CHUNK + 16)
const HITS_AT: usize = SELECTED_AT + 256
const MARKS_AT: usize = HITS_AT + 256
const VALUES_AT: usize = MARKS_AT + 2 * CAP
/** Values the value window holds: CAP and the block-aligned margins on both sides (valuesAt). */
const WINDOW_VALUES: u32 = CAP + 2 * BLOCK_VALUES
const TABLE_AT: usize = VALUES_AT + 8 * <usize>WINDOW_VALUES
/** Added to a status when the values (not the offsets) failed, so JS names the right sequence. */
const FROM_VALUES: i32 = 16
/** A chunk with at most 1 document in SPARSE selected: facets visit the selected documents alone. */
const SPARSE: u32 = 4
/** Words of values a chunk's ranks cover: fewer than this (a u16 per position: at most 64 KB of the values window's 80). */
const PREFIX_WORDS: u32 = 1024

/** 1 if no value of document `mine` (its number + 1) held ordinal x before, else 0; the stamp then names it. */
// @ts-ignore: decorator
@inline function firstIn(stamps: usize, x: i64, mine: u32): u32 {
  const stamp = stamps + (<usize>x << 2)
  const first = <u32>(load<u32>(stamp) != mine)
  store<u32>(stamp, mine)
  return first
}

/** Adds `one` (0 or 1) to count x. */
// @ts-ignore: decorator
@inline function count1(table: usize, x: i64, one: u32): void {
  const slot = table + (<usize>x << 2)
  store<u32>(slot, load<u32>(slot) + one)
}

/** Raw i64 values [first, first + n) to out: v1 blocks, or (records = 0) the cascade whose node is `data`. */
function decodeAny(records: usize, data: usize, first: u32, n: u32, out: usize): i32 {
  return records != 0 ? decodeRaw(records, data, 0, first, n, out) : cascadeDecode(data, first, n, out)
}

// The values decoded in this call: [windowStart, windowEnd) at the area's value window, whole
// blocks. Windows asked for move forward, so the block a window ends in is the next one's first:
// kept, it is decoded once, not twice in parts (a v2 dictionary's codes decode slower when
// cut). Reset by each queryMulti call.
let windowStart: u32 = 0, windowEnd: u32 = 0
/** Where valuesAt placed the value asked for. */
let windowAt: usize = 0

// Mode 3's repeats (values not first of their ordinal in their document): how many, and the
// first repeatRoom of them listed as (value index, ordinal) u32 pairs at repeatList.
let repeats: u32 = 0, repeatRoom: u32 = 0
let repeatList: usize = 0

/**
 * Values [at, at + m) (m ≤ CAP, at never below an earlier call's) decoded: read them from
 * windowAt. The whole blocks holding them are decoded (those of `total` values) after those the
 * window holds from the block of `at` on. A decode that fails is redone for [at, at + m) alone,
 * so no value outside it raises an error.
 */
function valuesAt(records: usize, data: usize, at: u32, m: u32, total: u32, values: usize): i32 {
  if (at >= windowStart && at + m <= windowEnd) {
    windowAt = values + (<usize>(at - windowStart) << 3)
    return OK
  }
  const head = at & ~(BLOCK_VALUES - 1)
  let end = min((at + m + BLOCK_VALUES - 1) & ~(BLOCK_VALUES - 1), total)
  if (head >= windowStart && head < windowEnd) {
    // The window grows until the buffer is full, then keeps the block of `at` at its front.
    if (end - windowStart > WINDOW_VALUES) {
      memory.copy(values, values + (<usize>(head - windowStart) << 3), <usize>(windowEnd - head) << 3)
      windowStart = head
    }
  } else windowStart = windowEnd = head
  const status = decodeAny(records, data, windowEnd, end - windowEnd, values + (<usize>(windowEnd - windowStart) << 3))
  if (status != OK) {
    windowStart = windowEnd = 0
    const exact = decodeAny(records, data, at, m, values)
    if (exact != OK) return exact
    windowStart = at
    end = at + m
  }
  windowEnd = end
  windowAt = values + (<usize>(at - windowStart) << 3)
  return OK
}

/**
 * Documents [from, to) of a multi column (from a multiple of 32). Offsets and values are each
 * (records, data), or (0, node) for a v2 cascade. sel: selection bitset (bit d - from selects
 * document d; 0: all). area: work memory of TABLE_AT bytes plus the task's table. mode 0: facet,
 * counts (u32[n] at the table) += 1 per selected document per distinct ordinal, with a stamp per
 * ordinal (u32[n] after the counts, zeroed here) naming the last document that held it. Mode 1:
 * value v matches when bit v of the value bitset at u32 scratch+0 is set; writes word (d - from)
 * >> 5 of out for every document word of the range: bit set for each selected document with a
 * matching value, others clear (out may be sel). Mode 2 (from = 0) sets bit v of out (a value
 * bitset, zeroed) for each value v of a selected document. Modes 1 and 2 decode no values.
 * Mode 3 (from = 0, sel = 0): mode 0's walk, counting as it does and setting bit v of out (a
 * value bitset, zeroed) for each value that is the first of its ordinal in its document; the
 * others (repeats) are listed as (v, ordinal) u32 pairs after the stamps, up to u32 scratch+0 of
 * them, and their number goes to scratch+0.
 * total: the values sequence's count (windows decode whole blocks up to it).
 * Status 0; 1, 5 or 6 from a decode (+16 when decoding values); 4: the first ordinal of a
 * selected document outside [0, n) (scratch: value index, raw at +8).
 */
export function queryMulti(
  offRecords: usize, offData: usize, valRecords: usize, valData: usize, from: u32, to: u32,
  sel: usize, out: usize, area: usize, n: u32, mode: u32, total: u32,
): i32 {
  const offsets = area, selected = area + SELECTED_AT, hits = area + HITS_AT, marks = area + MARKS_AT
  const values = area + VALUES_AT, table = area + TABLE_AT, stamps = table + (<usize>n << 2)
  const valueBits = <usize>load<u32>(SCRATCH)
  if (mode == 0 || mode == 3) memory.fill(table, 0, <usize>n << 3)
  windowStart = windowEnd = 0
  repeats = 0
  repeatRoom = mode == 3 ? load<u32>(SCRATCH) : 0
  repeatList = stamps + (<usize>n << 2)
  for (let start = from; start < to; start += CHUNK) {
    const count = min(CHUNK, to - start)
    const words = (count + 31) >>> 5
    const selWords = sel + (<usize>(start - from) >>> 3), outWords = out + (<usize>(start - from) >>> 3)
    let chosen: u32 = 0
    for (let w: u32 = 0; w < words; w++) {
      const left = count - (w << 5)
      const word = (sel != 0 ? load<u32>(selWords + (<usize>w << 2)) : 0xFFFF_FFFF) & (left < 32 ? (<u32>1 << left) - 1 : 0xFFFF_FFFF)
      store<u32>(selected + (<usize>w << 2), word)
      chosen += popcnt(word)
    }
    if (chosen != 0) {
      let status = decodeAny(offRecords, offData, start, count + 1, offsets)
      if (status != OK) return status
      // Few selected documents (at most 1 in SPARSE): a facet visits theirs alone.
      if (mode == 0 && chosen * SPARSE <= count) {
        status = facetSelected(offsets, count, words, start, selected, valRecords, valData, values, total, table, stamps, n)
        if (status != OK) return status
        continue
      }
      // Documents with one value each (offsets a line of step 1): the single-valued path, no walk.
      if (oneEach(offsets, count)) {
        status = lineChunk(offsets, count, words, selected, valueBits, outWords, out, valRecords, valData, values, total, table, n, mode)
        if (status != OK) return status
        continue
      }
      if (mode == 2) {
        selectRuns(offsets, count, chosen, selected, out)
        continue
      }
      if (mode == 1) {
        matchDocuments(offsets, count, valueBits, hits, values)
        for (let w: u32 = 0; w < words; w++) store<u32>(outWords + (<usize>w << 2), load<u32>(hits + (<usize>w << 2)) & load<u32>(selected + (<usize>w << 2)))
        continue
      }
      // The chunk's values in windows of CAP; marks[e - at] counts the documents ending at value e of
      // the window, and `d` (the document of the value at hand) carries from window to window.
      const end = <u32>load<i64>(offsets + (<usize>count << 3))
      let marked: u32 = 0, d: u32 = 0
      markedStart = <u32>load<i64>(offsets)
      for (let at = <u32>load<i64>(offsets); at < end; at += CAP) {
        const m = min(CAP, end - at)
        status = valuesAt(valRecords, valData, at, m, total, values)
        if (status != OK) return status + FROM_VALUES
        const window = windowAt
        if (mode == 3) {
          // Mode 3 needs only where documents start (a byte flag), not how many end there.
          marked = markEnds(offsets, marked, count, at, m, marks, true)
          const bad = markWindow(window, marks, m, at, markedStart, stamps, table, n, out)
          if (bad != NONE) return valueRangeError(bad, load<i64>(window + (<usize>(bad - at) << 3)))
          continue
        }
        marked = markEnds(offsets, marked, count, at, m, marks, false)
        for (let i: u32 = 0; i < m; i++) {
          d += load<u16>(marks + (<usize>i << 1))
          // The document's selection bit: unselected documents count nothing and raise no error.
          const bit = (load<u32>(selected + (<usize>(d >>> 5) << 2)) >>> (d & 31)) & 1
          const v = at + i
          const x = load<i64>(window + (<usize>i << 3))
          if (<u64>x >= <u64>n) {
            if (bit != 0) return valueRangeError(v, x)
            continue
          }
          count1(table, x, bit & firstIn(stamps, x, start + d + 1))
        }
      }
    } else if (mode == 1) {
      // No document selected: a filter clears the chunk's words.
      memory.fill(outWords, 0, <usize>words << 2)
    }
  }
  if (mode == 3) store<u32>(SCRATCH, repeats)
  return OK
}

/**
 * The ends of documents [marked, count) of the chunk that fall in the window of m values from
 * `at`, marked at marks (zeroed first): a u16 count of documents ending at each value, or with
 * `flags` (a literal) a u8 1 where one does. Returns the first document not marked.
 */
// @ts-ignore: decorator
@inline function markEnds(offsets: usize, marked: u32, count: u32, at: u32, m: u32, marks: usize, flags: bool): u32 {
  memory.fill(marks, 0, flags ? <usize>m : <usize>m << 1)
  while (marked < count) {
    const e = <u32>load<i64>(offsets + (<usize>(marked + 1) << 3))
    if (e >= at + m) break
    if (flags) store<u8>(marks + (e - at), 1)
    else {
      const mark = marks + (<usize>(e - at) << 1)
      store<u16>(mark, load<u16>(mark) + 1)
    }
    marked++
  }
  return marked
}

const NONE: u32 = 0xFFFF_FFFF
/** The first value of the document markWindow's walk reached. */
let markedStart: u32 = 0

/**
 * Mode 3 over a window of m values from `at`: starts[i] is 1 where a document starts at value
 * at + i, s the first value of the document at hand. A value is first of its ordinal in its
 * document when the ordinal's stamp (its last value + 1, 0 for none yet) is at most s: counted
 * as mode 0 counts, its bit set in out (32 at a time); the others are listed (repeats). Every
 * document is selected, so no selection is read. Returns the index of the first value outside
 * [0, n), else NONE.
 */
function markWindow(window: usize, starts: usize, m: u32, at: u32, s: u32, stamps: usize, table: usize, n: u32, out: usize): u32 {
  // Word by word of out: the values of [at, at + m) in word w, their bits or-ed in at once.
  for (let v = at, stop = at + m; v < stop;) {
    const wordEnd = min((v | 31) + 1, stop)
    let acc: u32 = 0
    for (; v < wordEnd; v++) {
      const i = v - at
      s = select(v, s, load<u8>(starts + i) != 0)
      const x = load<i64>(window + (<usize>i << 3))
      if (<u64>x >= <u64>n) return v
      const stamp = stamps + (<usize>x << 2)
      const first = <u32>(load<u32>(stamp) <= s)
      store<u32>(stamp, v + 1)
      count1(table, x, first)
      acc |= first << (v & 31)
      if (first == 0) {
        // A repeat (rare in tags): listed while the list has room.
        if (repeats < repeatRoom) {
          store<u32>(repeatList + (<usize>repeats << 3), v)
          store<u32>(repeatList + (<usize>repeats << 3), <u32>x, 4)
        }
        repeats++
      }
    }
    const o = out + (<usize>((v - 1) >>> 5) << 2)
    store<u32>(o, load<u32>(o) | acc)
  }
  markedStart = s
  return NONE
}

/** Whether document j of the chunk holds value off[0] + j alone, for every j: its offsets step by 1. */
function oneEach(offsets: usize, count: u32): bool {
  const first = load<i64>(offsets)
  if (load<i64>(offsets + (<usize>count << 3)) - first != <i64>count) return false
  // Two offsets a step against (first + j, first + j + 1): the differences or-ed, tested once.
  let expected = i64x2.replace_lane(i64x2.splat(first), 1, first + 1)
  const two = i64x2.splat(2)
  let differ = i64x2.splat(0)
  for (let o = offsets, stop = offsets + (<usize>count << 3); o < stop; o += 16) {
    differ = v128.or(differ, v128.xor(v128.load(o), expected))
    expected = i64x2.add(expected, two)
  }
  return !v128.any_true(differ)
}

/**
 * A chunk whose documents hold one value each (value off[0] + j for document j): a filter's
 * hits are the value bits themselves, a selection's values the selection bits, and a facet
 * (or the first-value marks) counts each selected value, which is its document's only one.
 */
function lineChunk(
  offsets: usize, count: u32, words: u32, selected: usize, valueBits: usize, outWords: usize, out: usize,
  valRecords: usize, valData: usize, values: usize, total: u32, table: usize, n: u32, mode: u32,
): i32 {
  const first = <u32>load<i64>(offsets)
  if (mode == 1 || mode == 2) {
    for (let w: u32 = 0; w < words; w++) {
      const chosen = load<u32>(selected + (<usize>w << 2)), at = first + (w << 5)
      // Bits [at, at + 32) of the value bits (the bitset's slack covers the word after the last).
      if (mode == 1) store<u32>(outWords + (<usize>w << 2), <u32>(load<u64>(valueBits + (<usize>(at >>> 5) << 2)) >>> <u64>(at & 31)) & chosen)
      else orBits(out, at, chosen)
    }
    return OK
  }
  const status = valuesAt(valRecords, valData, first, count, total, values)
  if (status != OK) return status + FROM_VALUES
  const window = windowAt
  for (let j: u32 = 0; j < count; j++) {
    const bit = (load<u32>(selected + (<usize>(j >>> 5) << 2)) >>> (j & 31)) & 1
    const x = load<i64>(window + (<usize>j << 3))
    if (<u64>x >= <u64>n) {
      if (bit != 0) return valueRangeError(first + j, x)
      continue
    }
    if (mode == 3) orBits(out, first + j, 1)
    count1(table, x, bit)
  }
  return OK
}

/** For each byte b, 8 u8 lanes: lane i holds the bits of b below bit i. Filled on first use. */
const BYTE_RANKS: usize = memory.data(8 * 256, 16)
let byteRanksReady = false

function prepareByteRanks(): void {
  for (let b: u32 = 0; b < 256; b++) {
    for (let i: u32 = 0; i < 8; i++) store<u8>(BYTE_RANKS + (<usize>b << 3) + i, <u8>popcnt<u32>(b & ((1 << i) - 1)))
  }
  byteRanksReady = true
}

/**
 * Mode 1 over one chunk: bit j of hits set iff a value of document j (values [off[j], off[j+1]))
 * has its bit set, i.e. iff the bits set before its end exceed those before its start. Each
 * value position of the chunk first gets its rank (bits set before it) as a u16, 8 positions a
 * step from a table per byte, so a document's rank is one read: no branch and no popcount per
 * document (a loop over the words passed mispredicts as often as documents cross a word).
 * A chunk of PREFIX_WORDS words of values or more takes the walk that counts as it goes.
 */
function matchDocuments(offsets: usize, count: u32, valueBits: usize, hits: usize, scratch: usize): void {
  const first = <u32>load<i64>(offsets), last = <u32>load<i64>(offsets + (<usize>count << 3))
  const base = first >>> 5, span = ((last + 31) >>> 5) - base
  if (span >= PREFIX_WORDS) {
    walkDocuments(offsets, count, valueBits, hits)
    return
  }
  if (!byteRanksReady) prepareByteRanks()
  // ranks[p]: bits set before position base × 32 + p; one more after the last word.
  const ranks = scratch
  let total: u32 = 0
  for (let k: u32 = 0; k < span; k++) {
    const word = load<u32>(valueBits + (<usize>(base + k) << 2))
    const at = ranks + (<usize>k << 6)
    for (let i: u32 = 0; i < 4; i++) {
      const b = (word >>> (i << 3)) & 0xFF
      const lanes = i16x8.extend_low_i8x16_u(v128.load64_zero(BYTE_RANKS + (<usize>b << 3)))
      v128.store(at + (<usize>i << 4), i16x8.add(lanes, i16x8.splat(<i16>total)))
      total += popcnt(b)
    }
  }
  store<u16>(ranks + (<usize>span << 6), <u16>total)
  const shift = base << 5
  let previous: u32 = load<u16>(ranks + (<usize>(first - shift) << 1))
  let end = offsets + 8
  for (let j: u32 = 0; j < count; j += 32) {
    const n = min<u32>(32, count - j)
    let acc: u32 = 0, b: u32 = 0
    // Four documents a step: their ranks read apart, compared in a chain.
    for (; b + 4 <= n; b += 4, end += 32) {
      const r0 = rankOf(ranks, load<u32>(end), shift), r1 = rankOf(ranks, load<u32>(end, 8), shift)
      const r2 = rankOf(ranks, load<u32>(end, 16), shift), r3 = rankOf(ranks, load<u32>(end, 24), shift)
      acc |= (<u32>(r0 != previous) | (<u32>(r1 != r0) << 1) | (<u32>(r2 != r1) << 2) | (<u32>(r3 != r2) << 3)) << b
      previous = r3
    }
    for (; b < n; b++, end += 8) {
      const rank = rankOf(ranks, load<u32>(end), shift)
      acc |= <u32>(rank != previous) << b
      previous = rank
    }
    store<u32>(hits + (<usize>(j >>> 5) << 2), acc)
  }
}

/** The rank of value position e (at least base × 32 = shift) from the chunk's ranks. */
// @ts-ignore: decorator
@inline function rankOf(ranks: usize, e: u32, shift: u32): u32 {
  return load<u16>(ranks + (<usize>(e - shift) << 1))
}

/** matchDocuments for a chunk with many values: counts run from the chunk's first word, one popcount per document and per 32 values passed. */
function walkDocuments(offsets: usize, count: u32, valueBits: usize, hits: usize): void {
  const first = <u32>load<i64>(offsets)
  // full: bits of words [first >>> 5, word); rank(e) = full + bits of word e >>> 5 below e, word moved there first.
  let word = first >>> 5, full: u32 = 0
  let previous: u32 = (first & 31) == 0 ? 0 : popcnt(load<u32>(valueBits + (<usize>word << 2)) & ((<u32>1 << (first & 31)) - 1))
  let acc: u32 = 0
  for (let j: u32 = 0; j < count; j++) {
    const end = <u32>load<i64>(offsets + (<usize>(j + 1) << 3))
    // Offsets never decrease (checked at open); the word of `end` is read only when a value lies below end in it.
    const at = end >>> 5
    for (; word < at; word++) full += popcnt(load<u32>(valueBits + (<usize>word << 2)))
    const tail = end & 31
    const rank = full + (tail == 0 ? 0 : popcnt(load<u32>(valueBits + (<usize>at << 2)) & ((<u32>1 << tail) - 1)))
    acc |= <u32>(rank != previous) << (j & 31)
    previous = rank
    if ((j & 31) == 31) {
      store<u32>(hits + (<usize>(j >>> 5) << 2), acc)
      acc = 0
    }
  }
  if ((count & 31) != 0) store<u32>(hits + (<usize>(count >>> 5) << 2), acc)
}

/**
 * Mode 0 over a chunk with few selected documents: each one's values counted as the walk
 * with marks counts them (a stamp per ordinal), the values decoded in windows of CAP from the
 * first one a selected document needs (valuesAt), so runs of unselected documents are not walked.
 */
function facetSelected(
  offsets: usize, count: u32, words: u32, start: u32, selected: usize, valRecords: usize, valData: usize, values: usize,
  total: u32, table: usize, stamps: usize, n: u32,
): i32 {
  const chunkEnd = <u32>load<i64>(offsets + (<usize>count << 3))
  for (let w: u32 = 0; w < words; w++) {
    let bits = load<u32>(selected + (<usize>w << 2))
    while (bits != 0) {
      const j = (w << 5) + ctz(bits)
      bits &= bits - 1
      const first = <u32>load<i64>(offsets + (<usize>j << 3)), end = <u32>load<i64>(offsets + (<usize>(j + 1) << 3))
      const mine = start + j + 1
      for (let v = first; v < end; v++) {
        if (v < windowStart || v >= windowEnd) {
          const status = valuesAt(valRecords, valData, v, min(CAP, chunkEnd - v), total, values)
          if (status != OK) return status + FROM_VALUES
        }
        // The window holds [windowStart, windowEnd) from `values`.
        const x = load<i64>(values + (<usize>(v - windowStart) << 3))
        if (<u64>x >= <u64>n) return valueRangeError(v, x)
        count1(table, x, firstIn(stamps, x, mine))
      }
    }
  }
  return OK
}

/** Sets (or, with clear, clears) bits [start, end) of the bitset at out, which has 4 bytes of slack. */
// @ts-ignore: decorator
@inline function markRange(out: usize, start: u32, end: u32, clear: bool): void {
  const length = end - start
  if (length <= 32) {
    // One 8-byte step covers any run of up to 32 bits, wherever it starts in its word.
    const at = out + (<usize>(start >>> 5) << 2), bits = ((<u64>1 << length) - 1) << (start & 31)
    store<u64>(at, clear ? load<u64>(at) & ~bits : load<u64>(at) | bits)
    return
  }
  for (let position = start; position < end;) {
    const n = min(32 - (position & 31), end - position)
    const at = out + (<usize>(position >>> 5) << 2), bits = <u32>(((<u64>1 << n) - 1) << (position & 31))
    store<u32>(at, clear ? load<u32>(at) & ~bits : load<u32>(at) | bits)
    position += n
  }
}

/**
 * Mode 2 over one chunk (`chosen` of its `count` documents selected): their values set in the
 * value bitset out, one step per selected document; with more than half selected, the chunk's
 * values are set at once and each unselected document's cleared. Bits of out below the chunk's
 * first value are left as they are (its first word may hold the previous chunk's values).
 */
function selectRuns(offsets: usize, count: u32, chosen: u32, selected: usize, out: usize): void {
  const words = (count + 31) >>> 5
  const dense = chosen * 2 > count
  if (dense) markRange(out, <u32>load<i64>(offsets), <u32>load<i64>(offsets + (<usize>count << 3)), false)
  for (let w: u32 = 0; w < words; w++) {
    const left = count - (w << 5)
    let bits = load<u32>(selected + (<usize>w << 2))
    if (dense) bits = ~bits & (left < 32 ? (<u32>1 << left) - 1 : 0xFFFF_FFFF)
    while (bits != 0) {
      const j = (w << 5) + ctz(bits)
      bits &= bits - 1
      const run = offsets + (<usize>j << 3)
      markRange(out, <u32>load<i64>(run), <u32>load<i64>(run, 8), dense)
    }
  }
}
