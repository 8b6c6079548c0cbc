// Multi-valued columns: one kernel walks the offsets sequence and the values
// together, so JS makes one call per question rather than one per document.
//
// Documents go in chunks of 1,024 (32 selection words). A chunk's offsets are
// decoded, then its values in windows of at most CAP values. Each value finds
// its document through marks (marks[i] = documents ending at value i, so a
// running sum of them is the document), which keeps the loop free of branches
// on run lengths: those mispredict about once a document.
// Filters and selections map documents to values without the offsets (see
// query-starts.ts); mode 4 makes the two bitsets they read.
// Facets over a chunk with at most a quarter of its documents selected visit
// those documents' runs alone (facetSelected).
// A DocSet is read as selection words, never expanded to values. Both
// sequences are decoded by the existing entry points: v1 blocks (decodeRaw)
// or v2 cascades (cascadeDecode). Mirrored by src/backend/ts/query-multi.ts.
import { BLOCK_VALUES, KIND_PACKED, OK, SCRATCH, recordAux, recordBase, recordDataOffset, recordKind, recordWidth } from './common'
import { decodeRaw } from './decode'
import { cascadeDecode } from './cascade/index'
import { orBits, valueRangeError } from './query-common'
import { offsetsStep, stepFirst } from './query-offsets'
import { NONE, firstValueError, foldNear, nearChunk, repeatCount, shortDocuments, stampWindow, startChunk, startRepeats } from './query-first-values'

const CHUNK: u32 = 1024
const CAP: u32 = 8192
// Work area layout (JS allocates TABLE_AT bytes plus the task's table).
const SELECTED_AT: usize = 8 * (CHUNK + 16)
const MARKS_AT: usize = SELECTED_AT + 256
const VALUES_AT: usize = MARKS_AT + 2 * CAP
/** Values the value window holds: CAP and the block-aligned margins on both sides (valuesAt). */
const WINDOW_VALUES: u32 = CAP + 2 * BLOCK_VALUES
const TABLE_AT: usize = VALUES_AT + 8 * <usize>WINDOW_VALUES
/** Added to a status when the values (not the offsets) failed, so JS names the right sequence. */
const FROM_VALUES: i32 = 16
/** A chunk with at most 1 document in SPARSE selected: facets visit the selected documents alone. */
const SPARSE: u32 = 4

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
  // In 64 bits: at + m reaches 2^32 - 1, where rounding up to a block would wrap to 0.
  let end = <u32>min<u64>((<u64>at + <u64>m + BLOCK_VALUES - 1) & ~<u64>(BLOCK_VALUES - 1), <u64>total)
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
 * ordinal (u32[n] after the counts, zeroed here) naming the last document that held it.
 * Mode 4 (sel = 0) decodes no values: bit d - from of out (zeroed) set for each document d
 * holding a value, and in the bitset at u32 scratch+0 (zeroed, room for offsets[to] - f + 1
 * bits, f = offsets[from]) bit offsets[d] - f for each of them and bit offsets[to] - f
 * (query-starts.ts reads the two).
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
  const offsets = area, selected = area + SELECTED_AT, marks = area + MARKS_AT
  const values = area + VALUES_AT, table = area + TABLE_AT, stamps = table + (<usize>n << 2)
  if (mode == 4) return markStarts(offRecords, offData, from, to, out, <usize>load<u32>(SCRATCH), offsets, total)
  memory.fill(table, 0, <usize>n << 3)
  windowStart = windowEnd = 0
  if (mode == 3) startRepeats(load<u32>(SCRATCH), stamps + (<usize>n << 2))
  // Steps that end at `to` at most: a counter past 2^32 - CHUNK would wrap to 0 and never stop.
  for (let start = from; start < to; start += min(CHUNK, to - start)) {
    const count = min(CHUNK, to - start)
    const words = (count + 31) >>> 5
    const selWords = sel + (<usize>(start - from) >>> 3)
    let chosen: u32 = 0
    for (let w: u32 = 0; w < words; w++) {
      const left = count - (w << 5)
      const word = (sel != 0 ? load<u32>(selWords + (<usize>w << 2)) : 0xFFFF_FFFF) & (left < 32 ? (<u32>1 << left) - 1 : 0xFFFF_FFFF)
      store<u32>(selected + (<usize>w << 2), word)
      chosen += popcnt(word)
    }
    if (chosen != 0) {
      // Stretches the offsets' records show (empty documents: nothing to count; k values each) are not decoded.
      const step = offsetsStep(offRecords, offData, start, count, offsets, total)
      if (step == 0) continue
      let status: i32 = OK
      if (step > 0) {
        for (let j: u32 = 0; j <= count; j++) store<i64>(offsets + (<usize>j << 3), <i64>stepFirst + <i64>j * step)
      } else status = decodeAny(offRecords, offData, start, count + 1, offsets)
      if (status != OK) return status
      // Few selected documents (at most 1 in SPARSE): a facet visits theirs alone.
      if (mode == 0 && chosen * SPARSE <= count) {
        status = facetSelected(offsets, count, words, start, selected, valRecords, valData, values, total, table, stamps, n)
        if (status != OK) return status
        continue
      }
      // Documents with one value each (offsets a line of step 1): the single-valued path, no walk.
      if (step == 1 || (step < 0 && oneEach(offsets, count))) {
        status = lineChunk(offsets, count, selected, out, valRecords, valData, values, total, table, n, mode)
        if (status != OK) return status
        continue
      }
      // The chunk's values in windows of CAP; marks[e - at] counts the documents ending at value e of
      // the window, and `d` (the document of the value at hand) carries from window to window.
      const end = <u32>load<i64>(offsets + (<usize>count << 3))
      let marked: u32 = 0, d: u32 = 0
      const chunkFirst = <u32>load<i64>(offsets)
      if (mode == 3) {
        // Documents of at most 4 values: each value compared with the 3 before it (query-first-values.ts).
        if (n <= 65536 && shortDocuments(offsets, count)) {
          status = nearValues(offsets, count, valRecords, valData, total, values, table, n, out)
          if (status != OK) return status
          continue
        }
        startChunk(chunkFirst)
      }
      for (let at = chunkFirst; at < end; at += min(CAP, end - at)) {
        const m = min(CAP, end - at)
        status = valuesAt(valRecords, valData, at, m, total, values)
        if (status != OK) return status + FROM_VALUES
        const window = windowAt
        if (mode == 3) {
          // Mode 3 needs only where documents start (a byte flag), not how many end there.
          marked = markEnds(offsets, marked, count, at, m, marks, true)
          const bad = stampWindow(window, marks, m, at, stamps, table, n, out)
          if (bad != NONE) return firstValueError(bad, window, at)
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
    }
  }
  if (mode == 3) {
    foldNear(table, n)
    store<u32>(SCRATCH, repeatCount())
  }
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

/**
 * Mode 3 over a chunk of short documents (nearChunk): its values read where they lie when every
 * block holding them keeps each as a byte (packed, width 8, base 0, divisor 1: a decoded view of
 * a dictionary's codes, often a v1 keyword's ordinals), else decoded into the window.
 */
function nearValues(offsets: usize, count: u32, valRecords: usize, valData: usize, total: u32, values: usize, table: usize, n: u32, out: usize): i32 {
  const first = <u32>load<i64>(offsets), m = <u32>load<i64>(offsets + (<usize>count << 3)) - first
  let bytes: usize = 0, window: usize = 0
  if (n <= 256 && valRecords != 0 && m != 0) bytes = byteValues(valRecords, valData, first, m)
  if (bytes == 0) {
    const status = valuesAt(valRecords, valData, first, m, total, values)
    if (status != OK) return status + FROM_VALUES
    window = windowAt
  }
  const bad = nearChunk(offsets, count, bytes, window, table, n, out)
  if (bad == NONE) return OK
  return bytes != 0 ? valueRangeError(bad, <i64>load<u8>(bytes + (bad - first))) : firstValueError(bad, window, first)
}

/** Where values [first, first + m) lie as bytes, each its value, in one run of the data; else 0. */
function byteValues(records: usize, data: usize, first: u32, m: u32): usize {
  const b0 = first >>> 10, b1 = (first + m - 1) >>> 10
  const start = recordDataOffset(records + <usize>b0 * 24)
  for (let b = b0; b <= b1; b++) {
    const record = records + <usize>b * 24
    if (recordKind(record) != KIND_PACKED || recordWidth(record) != 8 || recordBase(record) != 0 || recordAux(record) != 1) return 0
    if (recordDataOffset(record) != start + (<usize>(b - b0) << 10)) return 0
  }
  return data + start + (first & 1023)
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
 * A chunk whose documents hold one value each (value off[0] + j for document j): a facet (or
 * the first-value marks) counts each selected value, which is its document's only one.
 */
function lineChunk(
  offsets: usize, count: u32, selected: usize, out: usize,
  valRecords: usize, valData: usize, values: usize, total: u32, table: usize, n: u32, mode: u32,
): i32 {
  const first = <u32>load<i64>(offsets)
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

/**
 * Mode 4: documents [from, to) with a value in nonempty, their first values and the end of the
 * last one's run (a sentinel) in starts, counted from the range's first document and value.
 * Offsets were checked at open (from 0, never decreasing, ending at total); a run past total is
 * skipped all the same.
 */
function markStarts(offRecords: usize, offData: usize, from: u32, to: u32, nonempty: usize, starts: usize, offsets: usize, total: u32): i32 {
  let first: u32 = 0, end: u32 = 0
  for (let start = from; start < to; start += min(CHUNK, to - start)) {
    const count = min(CHUNK, to - start)
    const step = offsetsStep(offRecords, offData, start, count, offsets, total)
    if (step >= 0) {
      // Every document of the stretch empty, or holding k values: no decode.
      if (start == from) first = stepFirst
      const k = <u32>step, at = stepFirst - first
      for (let w: u32 = 0; w < count; w += 32) {
        const left = count - w
        store<u32>(nonempty + (<usize>((start - from + w) >>> 5) << 2), k == 0 ? 0 : left < 32 ? (<u32>1 << left) - 1 : 0xFFFF_FFFF)
      }
      if (k == 1) setRange(starts, at, count)
      else if (k != 0) {
        for (let j: u32 = 0, bit = at; j < count; j++, bit += k) {
          const word = starts + (<usize>(bit >>> 5) << 2)
          store<u32>(word, load<u32>(word) | (<u32>1 << (bit & 31)))
        }
      }
      end = at + count * k
      continue
    }
    const status = decodeAny(offRecords, offData, start, count + 1, offsets)
    if (status != OK) return status
    if (start == from) first = <u32>load<i64>(offsets)
    let previous = <u32>load<i64>(offsets) - first, word: u32 = 0
    for (let j: u32 = 0; j < count; j++) {
      const next = <u32>load<i64>(offsets + (<usize>(j + 1) << 3)) - first
      if (next > previous && next <= total - first) {
        word |= <u32>1 << (j & 31)
        const at = starts + (<usize>(previous >>> 5) << 2)
        store<u32>(at, load<u32>(at) | (<u32>1 << (previous & 31)))
      }
      previous = next
      if ((j & 31) == 31 || j + 1 == count) {
        store<u32>(nonempty + (<usize>((start - from + j) >>> 5) << 2), word)
        word = 0
      }
    }
    end = previous
  }
  if (end <= total - first) {
    const last = starts + (<usize>(end >>> 5) << 2)
    store<u32>(last, load<u32>(last) | (<u32>1 << (end & 31)))
  }
  return OK
}

/** Bits [first, first + count) of the bitset set. */
function setRange(bits: usize, first: u32, count: u32): void {
  for (let bit = first, end = first + count; bit < end;) {
    const take = min(32 - (bit & 31), end - bit)
    const word = bits + (<usize>(bit >>> 5) << 2)
    store<u32>(word, load<u32>(word) | ((take == 32 ? <u32>0xFFFF_FFFF : (<u32>1 << take) - 1) << (bit & 31)))
    bit += take
  }
}
