/**
 * Exception positions of frequent and patched blocks: a sorted list of
 * bits(n - 1)-bit positions, or a bitmap of n bits, whichever takes fewer
 * bytes (the bitmap on a tie). The list is searched; the bitmap is tested
 * and ranked by popcount (at most 32 words of 32 bits).
 */
import { bytesFor, type FieldWriter, fieldAt, smallField } from '../bits.js'

/** Whether e exceptions among n values take the list form. */
export function positionsAsList(e: number, n: number, positionWidth: number): boolean {
  return bytesFor(e * positionWidth) < bytesFor(n)
}

/** Bytes the positions take. */
export function positionsSize(e: number, n: number, positionWidth: number): number {
  return Math.min(bytesFor(e * positionWidth), bytesFor(n))
}

/** Writes the e positions (ascending) in the form positionsAsList gives, from the writer's current byte. */
export function writePositions(positions: Int32Array, e: number, n: number, positionWidth: number, writer: FieldWriter): void {
  writer.seek(writer.offset)
  if (positionsAsList(e, n, positionWidth)) {
    for (let index = 0; index < e; index++) writer.write(positions[index], positionWidth)
    return
  }
  let next = 0
  for (let position = 0; position < n; position++) {
    const set = next < e && positions[next] === position
    if (set) next++
    writer.write(set ? 1 : 0, 1)
  }
}

function popcount(value: number): number {
  value -= (value >>> 1) & 0x55555555
  value = (value & 0x33333333) + ((value >>> 2) & 0x33333333)
  return (Math.imul((value + (value >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24)
}

/**
 * The exception rank of position `index` (its place among the exceptions), or -1 when it is
 * none; `start` is the positions' byte offset in the buffer `words` views.
 */
export function exceptionRank(words: Int32Array, start: number, list: boolean, e: number, positionWidth: number, index: number): number {
  const wordBase = start >>> 2, first = (start & 3) * 8
  if (list) {
    if (e === 0) return -1
    // The last rank whose position is ≤ index (rank 0 when none is): the WebAssembly kernel's search.
    // Fixed halvings with no branch on the data (positions are below 1,024: int32 differences).
    const mask = (1 << positionWidth) - 1
    let base = 0, length = e
    while (length > 1) {
      const half = length >>> 1
      base += half & ~((index - smallField(words, wordBase, first + (base + half) * positionWidth, mask)) >> 31)
      length -= half
    }
    return smallField(words, wordBase, first + base * positionWidth, mask) === index ? base : -1
  }
  // The bitmap's 32-bit words as int32s (their bits are all popcount needs).
  const word = index >>> 5
  const bits = smallField(words, wordBase, first + 32 * word, -1)
  if (((bits >>> (index & 31)) & 1) === 0) return -1
  let rank = popcount(bits & ((1 << (index & 31)) - 1))
  for (let before = 0; before < word; before++) rank += popcount(smallField(words, wordBase, first + 32 * before, -1))
  // A bitmap with more than e bits set (corrupt; not checked at open): bits past the e-th name no
  // exception, so no read goes past the block's e fields.
  return rank < e ? rank : -1
}

/** Whether a list of e positions increases strictly and stays below n, as a valid block's does (open does not check it). */
export function positionsIncrease(words: Int32Array, start: number, e: number, n: number, positionWidth: number): boolean {
  let previous = -1
  for (let rank = 0; rank < e; rank++) {
    const position = fieldAt(words, start, rank, positionWidth)
    if (position <= previous || position >= n) return false
    previous = position
  }
  return true
}

/** The rank of a list's first position ≥ from (binary search; e if none). */
function firstListRank(words: Int32Array, start: number, e: number, positionWidth: number, from: number): number {
  let lo = 0, hi = e
  while (lo < hi) {
    const middle = (lo + hi) >>> 1
    if (fieldAt(words, start, middle, positionWidth) < from) lo = middle + 1
    else hi = middle
  }
  return lo
}

/**
 * Calls visit(position, rank) for each exception at a position in [from, to), in order
 * (rank: its place among all the block's exceptions).
 */
export function forEachException(
  words: Int32Array, start: number, list: boolean, e: number, n: number, positionWidth: number, from: number, to: number,
  visit: (position: number, rank: number) => void,
): void {
  if (list) {
    for (let rank = firstListRank(words, start, e, positionWidth, from); rank < e; rank++) {
      const position = fieldAt(words, start, rank, positionWidth)
      if (position >= to) return
      visit(position, rank)
    }
    return
  }
  let rank = 0
  const wordCount = Math.ceil(n / 32)
  for (let word = 0; word < wordCount && word * 32 < to; word++) {
    // The bitmap's last word may end inside it: the bits past n belong to the next sub-stream.
    let bits = fieldAt(words, start, word, 32)
    if (n - 32 * word < 32) bits &= (1 << (n - 32 * word)) - 1
    if ((word + 1) * 32 <= from) {
      rank += popcount(bits)
      continue
    }
    while (bits !== 0) {
      if (rank >= e) return // bits past the e-th name no exception (see exceptionRank)
      const position = 32 * word + 31 - Math.clz32(bits & -bits)
      bits &= bits - 1
      if (position >= to) return
      if (position >= from) visit(position, rank)
      rank++
    }
  }
}

/**
 * forEachException, also over a list that does not increase (a corrupt block that opened): each
 * position in [from, to) then finds its rank by its own search (exceptionRank), so the exceptions
 * visited are those single reads and the kernels' decodes find. `ordered`: whether the positions
 * are a bitmap or a list that increases, where the caller knows it already.
 */
export function forEachExceptionAsRead(
  words: Int32Array, start: number, list: boolean, e: number, n: number, positionWidth: number, from: number, to: number,
  visit: (position: number, rank: number) => void, ordered = !list || positionsIncrease(words, start, e, n, positionWidth),
): void {
  if (ordered) return forEachException(words, start, list, e, n, positionWidth, from, to, visit)
  for (let position = from; position < to; position++) {
    const rank = exceptionRank(words, start, true, e, positionWidth, position)
    if (rank >= 0) visit(position, rank)
  }
}

/** The rank of the first position positionsIn gathered (its last call). */
export let firstRankIn = 0

/**
 * The exception positions in [from, to), in order, into out; returns how many (their ranks are
 * consecutive from firstRankIn). A list is searched for its first position ≥ from (a list must
 * increase: the caller checks it, positionsIncrease); a bitmap's bits past n and past the e-th
 * set bit name nothing.
 */
export function positionsIn(
  words: Int32Array, start: number, list: boolean, e: number, n: number, positionWidth: number, from: number, to: number, out: Int32Array,
): number {
  let m = 0
  if (list) {
    const first = firstListRank(words, start, e, positionWidth, from)
    firstRankIn = first
    for (let rank = first; rank < e; rank++, m++) {
      const position = fieldAt(words, start, rank, positionWidth)
      if (position >= to) break
      out[m] = position
    }
    return m
  }
  let rank = 0
  firstRankIn = 0
  for (let word = 0; 32 * word < n && 32 * word < to && rank < e; word++) {
    let bits = fieldAt(words, start, word, 32)
    if (n - 32 * word < 32) bits &= (1 << (n - 32 * word)) - 1
    if (32 * (word + 1) <= from) {
      rank += popcount(bits)
      continue
    }
    for (; bits !== 0 && rank < e; bits &= bits - 1, rank++) {
      const position = 32 * word + 31 - Math.clz32(bits & -bits)
      if (position >= to) break
      if (position < from) continue
      if (m === 0) firstRankIn = rank
      out[m++] = position
    }
  }
  return m
}
