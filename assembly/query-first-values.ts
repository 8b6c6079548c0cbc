// Mode 3 of queryMulti: which values are the first of their ordinal in their
// document (a bit each), counted, the others (repeats) listed. Two walks:
// - stamps (any document length): a stamp per ordinal names the last value
//   that held it, so a value is first when its ordinal's stamp lies before
//   its document's start;
// - near (a chunk whose documents hold at most 4 values each, ordinals below
//   2^16): a value can only repeat one of the 3 before it, so 16 (or 8)
//   values at a time are compared with the 1, 2 and 3 before them, where no
//   document starts in between: a few vector operations per 16 values and a
//   count each, where the stamp walk's loads, stores and selects per value
//   kept it several times slower (docs/query.md).
import { bump, largestU8, valueRangeError } from './query-common'

/** Values of a chunk of documents of at most 4 values each (queryMulti's chunk: 1,024 documents). */
const NEAR_MAX: u32 = 4 * 1024
/** Bytes read before a value or flag: the lanes compared with the 1 to 3 values before the chunk's first. */
const BEFORE: usize = 16
/** The chunk's values as u8 or u16 ordinals, after BEFORE bytes (compared, never counted: flags rule them out). */
const NEAR_VALUES: usize = memory.data(<i32>(BEFORE + 2 * NEAR_MAX + 16), 16) + BEFORE
/** Its start flags (1 where a document starts), after BEFORE bytes. */
const NEAR_FLAGS: usize = memory.data(<i32>(BEFORE + NEAR_MAX + 16), 16) + BEFORE

/** Returned by the walks when every value was below n. */
export const NONE: u32 = 0xFFFF_FFFF

// The repeats (values not first of their ordinal in their document): how many, and the first
// repeatRoom of them listed as (value index, ordinal) u32 pairs at repeatList.
let repeats: u32 = 0, repeatRoom: u32 = 0
let repeatList: usize = 0
/** The first value of the document the stamp walk reached (carried from window to window). */
let markedStart: u32 = 0

/** A new mode-3 walk: room for `room` listed repeats at `list`. */
export function startRepeats(room: u32, list: usize): void {
  // Counts a failed walk left in the lane tables mean nothing now.
  if (laneCounts) memory.fill(LANE_TABLES, 0, <usize>(4 * LANES * LANE_ORDINALS))
  laneCounts = false
  repeats = 0
  repeatRoom = room
  repeatList = list
}

/** Repeats found since startRepeats. */
export function repeatCount(): u32 {
  return repeats
}

/** A new chunk for the stamp walk: its first document starts at value `first`. */
export function startChunk(first: u32): void {
  markedStart = first
}

// @ts-ignore: decorator
@inline function noteRepeat(v: u32, x: u32): void {
  if (repeats < repeatRoom) {
    store<u32>(repeatList + (<usize>repeats << 3), v)
    store<u32>(repeatList + (<usize>repeats << 3), x, 4)
  }
  repeats++
}

/** Adds k to count x of the table (one u32 a count). */
// @ts-ignore: decorator
@inline function count1(table: usize, x: u32, k: u32): void {
  bump(table + (<usize>x << 2), k)
}

/**
 * Whether every document of the chunk (count + 1 offsets as i64) holds 0 to 4 values: offsets
 * that step back (never in a file that opened) answer false, so the near walk's flags stay
 * within [0, 4 × count].
 */
export function shortDocuments(offsets: usize, count: u32): bool {
  const four = i64x2.splat(4), zero = i64x2.splat(0)
  let over = i64x2.splat(0)
  let j: u32 = 0
  for (; j + 2 <= count; j += 2) {
    const o = offsets + (<usize>j << 3)
    const step = i64x2.sub(v128.load(o, 8), v128.load(o))
    over = v128.or(over, v128.or(i64x2.gt_s(step, four), i64x2.lt_s(step, zero)))
  }
  if (j < count) {
    const step = load<i64>(offsets + (<usize>(j + 1) << 3)) - load<i64>(offsets + (<usize>j << 3))
    if (step > 4 || step < 0) return false
  }
  return !v128.any_true(over)
}

/**
 * The stamp walk over a window of m values (i64 at `window`) from `at`: starts[i] is 1 where a
 * document starts at value at + i. A value is first when its ordinal's stamp (its last value + 1,
 * 0 for none yet) is at most its document's first value: counted, its bit set in out (32 at a
 * time); the others listed. Returns the index of the first value outside [0, n), else NONE.
 */
export function stampWindow(window: usize, starts: usize, m: u32, at: u32, stamps: usize, table: usize, n: u32, out: usize): u32 {
  let s = markedStart
  for (let v = at, stop = at + m; v < stop;) {
    // In 64 bits: the last word of 2^32 - 1 values ends at 2^32.
    const wordEnd = <u32>min<u64>(<u64>(v | 31) + 1, <u64>stop)
    let acc: u32 = 0
    for (; v < wordEnd; v++) {
      const i = v - at
      s = select(v, s, load<u8>(starts + i) != 0)
      const x = load<i64>(window + (<usize>i << 3))
      if (<u64>x >= <u64>n) return v
      const stamp = stamps + (<usize>x << 2)
      const first = <u32>(load<u32>(stamp) <= s)
      store<u32>(stamp, v + 1)
      count1(table, <u32>x, first)
      acc |= first << (v & 31)
      if (first == 0) noteRepeat(v, <u32>x)
    }
    const o = out + (<usize>((v - 1) >>> 5) << 2)
    store<u32>(o, load<u32>(o) | acc)
  }
  markedStart = s
  return NONE
}

/**
 * The near walk over a chunk of documents [0, count) of at most 4 values each (count + 1
 * offsets as i64 at `offsets`), n ≤ 2^16: a value can only repeat one of the 3 before it, so
 * lanes of 16 (n ≤ 256) or 8 values are compared with the 1, 2 and 3 before them where no
 * document starts in between. Values come from `bytes` (the chunk's first value's byte, n ≤ 256:
 * a sequence whose blocks hold each value as a byte) or else the i64 `window`. Same counts,
 * bits and repeats as stampWindow; returns the first value outside [0, n), else NONE. Out must
 * have room for 64 bits past the chunk's (or-ed a word at a time).
 */
export function nearChunk(offsets: usize, count: u32, bytes: usize, window: usize, table: usize, n: u32, out: usize): u32 {
  const first = <u32>load<i64>(offsets), m = <u32>load<i64>(offsets + (<usize>count << 3)) - first
  const bad = n <= 256 ? stageNear<u8>(bytes, window, m, n) : stageNear<u16>(0, window, m, n)
  if (bad != NONE) return first + bad
  memory.fill(NEAR_FLAGS, 0, <usize>m + 16)
  // Two documents' starts a step (their offsets less the first, from one vector).
  const firsts = i64x2.splat(<i64>first)
  let j: u32 = 0
  for (; j + 2 <= count; j += 2) {
    const at = i64x2.sub(v128.load(offsets + (<usize>j << 3)), firsts)
    store<u8>(NEAR_FLAGS + <usize>i64x2.extract_lane(at, 0), 1)
    store<u8>(NEAR_FLAGS + <usize>i64x2.extract_lane(at, 1), 1)
  }
  if (j < count) store<u8>(NEAR_FLAGS + <usize>(<u32>load<i64>(offsets + (<usize>j << 3)) - first), 1)
  countNear(m, table, n)
  if (n <= 256) compareNear<u8>(m, first, table, out)
  else compareNear<u16>(m, first, table, out)
  return NONE
}

/** The chunk's m values as T at NEAR_VALUES, each checked below n; the index of the first that is not, else NONE. */
function stageNear<T>(bytes: usize, window: usize, m: u32, n: u32): u32 {
  const size = sizeof<T>()
  let fits: bool
  if (size == 1 && bytes != 0) {
    memory.copy(NEAR_VALUES, bytes, m)
    // Whole vectors at once, the last few bytes one by one (the bytes after them are not the chunk's).
    const whole = m & ~15
    let most = i8x16.splat(0)
    for (let i: u32 = 0; i < whole; i += 16) most = i8x16.max_u(most, v128.load(NEAR_VALUES + i))
    fits = largestU8(most) < n
    for (let i = whole; i < m; i++) fits &= <u32>load<u8>(NEAR_VALUES + i) < n
    if (!fits) {
      for (let i: u32 = 0; i < m; i++) if (<u32>load<u8>(NEAR_VALUES + i) >= n) return i
    }
    return NONE
  }
  // From i64, four at a time: high words or-ed, low words' largest.
  let highs = i32x4.splat(0), most = i32x4.splat(0)
  const whole = m & ~3
  for (let i: u32 = 0; i < whole; i += 4) {
    const w = window + (<usize>i << 3)
    const a = v128.load(w), b = v128.load(w, 16)
    highs = v128.or(highs, v128.shuffle<u32>(a, b, 1, 3, 5, 7))
    const lows = v128.shuffle<u32>(a, b, 0, 2, 4, 6)
    most = i32x4.max_u(most, lows)
    const halves = i16x8.narrow_i32x4_u(lows, lows)
    if (size == 1) store<u32>(NEAR_VALUES + i, i32x4.extract_lane(i8x16.narrow_i16x8_u(halves, halves), 0))
    else store<i64>(NEAR_VALUES + (<usize>i << 1), i64x2.extract_lane(halves, 0))
  }
  most = i32x4.max_u(most, v128.shuffle<u32>(most, most, 2, 3, 0, 1))
  most = i32x4.max_u(most, v128.shuffle<u32>(most, most, 1, 0, 3, 2))
  fits = !v128.any_true(highs) && <u32>i32x4.extract_lane(most, 0) < n
  for (let i = whole; i < m; i++) {
    const x = load<i64>(window + (<usize>i << 3))
    fits &= <u64>x < <u64>n
    store<T>(NEAR_VALUES + (<usize>i * size), <T>x)
  }
  if (!fits) {
    for (let i: u32 = 0; i < m; i++) if (<u64>load<i64>(window + (<usize>i << 3)) >= <u64>n) return i
  }
  return NONE
}

/**
 * Bits of the chunk's m values (from value `first`) or-ed into out: set where the value equals
 * none of the 3 before it in its document; the others listed and taken off their counts.
 */
function compareNear<T>(m: u32, first: u32, table: usize, out: usize): void {
  const size = sizeof<T>(), lanes: u32 = 16 / <u32>size
  const all: u32 = size == 1 ? 0xFFFF : 0xFF
  const zero = i8x16.splat(0)
  let acc: u64 = 0
  for (let i: u32 = 0; i < m; i += lanes) {
    const x = NEAR_VALUES + <usize>i * size, f = NEAR_FLAGS + <usize>i
    let repeat: v128
    if (size == 1) {
      // Lanes where no document starts at the value (same1), nor at the one before (same2), nor two before (same3).
      const same1 = i8x16.eq(v128.load(f), zero)
      const same2 = v128.and(same1, i8x16.eq(v128.load(f - 1), zero))
      const same3 = v128.and(same2, i8x16.eq(v128.load(f - 2), zero))
      const x0 = v128.load(x)
      repeat = v128.or(
        v128.and(i8x16.eq(x0, v128.load(x - 1)), same1),
        v128.or(v128.and(i8x16.eq(x0, v128.load(x - 2)), same2), v128.and(i8x16.eq(x0, v128.load(x - 3)), same3)),
      )
    } else {
      const same1 = i16x8.eq(i16x8.extend_low_i8x16_u(v128.load64_zero(f)), zero)
      const same2 = v128.and(same1, i16x8.eq(i16x8.extend_low_i8x16_u(v128.load64_zero(f - 1)), zero))
      const same3 = v128.and(same2, i16x8.eq(i16x8.extend_low_i8x16_u(v128.load64_zero(f - 2)), zero))
      const x0 = v128.load(x)
      repeat = v128.or(
        v128.and(i16x8.eq(x0, v128.load(x - 2)), same1),
        v128.or(v128.and(i16x8.eq(x0, v128.load(x - 4)), same2), v128.and(i16x8.eq(x0, v128.load(x - 6)), same3)),
      )
    }
    const valid: u32 = m - i >= lanes ? all : (<u32>1 << (m - i)) - 1
    let repeated = (size == 1 ? <u32>i8x16.bitmask(repeat) : <u32>i16x8.bitmask(repeat)) & valid
    acc |= <u64>((repeated ^ all) & valid) << <u64>(i & 63)
    if ((i & 63) == 64 - lanes || i + lanes >= m) {
      orWord(out, first + (i & ~63), acc)
      acc = 0
    }
    while (repeated != 0) {
      const lane = ctz(repeated)
      repeated &= repeated - 1
      const value = <u32>load<T>(x + <usize>lane * size)
      count1(table, value, 0xFFFF_FFFF)
      noteRepeat(first + i + lane, value)
    }
  }
}

/** Bits of `bits` or-ed into the bitset at `out` from bit `bit` on (two aligned words). */
// @ts-ignore: decorator
@inline function orWord(out: usize, bit: u32, bits: u64): void {
  const word = out + (<usize>(bit >>> 6) << 3), shift = <u64>(bit & 63)
  store<u64>(word, load<u64>(word) | (bits << shift))
  if (shift != 0) store<u64>(word, load<u64>(word, 8) | (bits >>> (64 - shift)), 8)
}

/** Ordinals below this are counted in LANES tables (a count's load waits less on the store before it). */
const LANE_ORDINALS: u32 = 1024
const LANES: u32 = 4
const LANE_TABLES: usize = memory.data(4 * LANES * LANE_ORDINALS, 16)
/** Whether LANE_TABLES holds counts not yet added to the table (foldNear). */
let laneCounts = false

/** The chunk's m staged values counted: in LANE_TABLES where n allows, else in the table itself. */
function countNear(m: u32, table: usize, n: u32): void {
  if (n <= 256) countLanes<u8>(m)
  else if (n <= LANE_ORDINALS) countLanes<u16>(m)
  else for (let i: u32 = 0; i < m; i++) count1(table, <u32>load<u16>(NEAR_VALUES + (<usize>i << 1)), 1)
}

/** The m staged values (T: u8 or u16) counted four at a time, one lane table each. */
function countLanes<T>(m: u32): void {
  laneCounts = true
  const size = sizeof<T>(), bits = <u64>(8 * size), mask: u64 = (<u64>1 << bits) - 1
  const stride = <usize>LANE_ORDINALS << 2
  let i: u32 = 0
  for (; i + 4 <= m; i += 4) {
    const four: u64 = size == 1 ? <u64>load<u32>(NEAR_VALUES + i) : load<u64>(NEAR_VALUES + (<usize>i << 1))
    count1(LANE_TABLES, <u32>(four & mask), 1)
    count1(LANE_TABLES + stride, <u32>((four >>> bits) & mask), 1)
    count1(LANE_TABLES + 2 * stride, <u32>((four >>> (2 * bits)) & mask), 1)
    count1(LANE_TABLES + 3 * stride, <u32>(four >>> (3 * bits)), 1)
  }
  for (; i < m; i++) count1(LANE_TABLES, <u32>load<T>(NEAR_VALUES + <usize>i * size), 1)
}

/** The lane tables' counts added to the table's n and cleared: at the end of each mode-3 call. */
export function foldNear(table: usize, n: u32): void {
  if (!laneCounts) return
  laneCounts = false
  const stride = <usize>LANE_ORDINALS << 2
  for (let x: u32 = 0; x < n; x++) {
    const at = LANE_TABLES + (<usize>x << 2)
    count1(table, x, load<u32>(at) + load<u32>(at + stride) + load<u32>(at + 2 * stride) + load<u32>(at + 3 * stride))
    store<u32>(at, 0)
    store<u32>(at + stride, 0)
    store<u32>(at + 2 * stride, 0)
    store<u32>(at + 3 * stride, 0)
  }
}

/** The error for the first value outside [0, n) a walk returned (its index v, the window from `at`). */
export function firstValueError(v: u32, window: usize, at: u32): i32 {
  return valueRangeError(v, load<i64>(window + (<usize>(v - at) << 3)))
}
