/**
 * countDistinct and matchAny for the TS backend, the mirror of assembly/query-multi.ts:
 * documents in chunks of 1,024 whose offsets are decoded once, their values in windows
 * of at most CAP, each value finding its document through marks (documents ending at
 * each value, summed as the loop goes):
 * no branch on run lengths, which mispredicts about once a document. matchAny with a value
 * bitset walks documents only, each one's matches told by the set bits before its run's
 * end and start (a rank table per chunk); without one, it sets the runs of the selected
 * documents. DocSets are read
 * as selection words, never expanded to values. Same order of checks as WebAssembly,
 * so the same first error.
 */
import type { SequenceView } from '../backend.js'
import type { BitsetMemory } from '../query-kernels.js'
import { orBits, popcount, selectionBits } from '../bits.js'
import { decodeRaw } from './decode.js'
import { countRangeError } from './query-scan.js'

const CHUNK = 1024
const CAP = 8192
/** A chunk with at most 1 document in SPARSE selected: facets visit the selected documents alone. */
const SPARSE = 4
const offsetWords = new Int32Array(2 * (CHUNK + 1))
const valueWords = new Int32Array(2 * CAP)
const marks = new Uint16Array(CAP)
const selected = new Int32Array(32)
const hits = new Int32Array(32)
let stamps = new Int32Array(0)

/** markFirstValues' repeats: value indexes and ordinals listed while they have room, and how many there are. */
export interface RepeatList {
  positions: Uint32Array
  ordinals: Uint32Array
  count: number
}

/**
 * QueryKernels.countDistinct (task: the counts) and matchAny (task: a value bitset or
 * null, and out): one walk, as assembly/query-multi.ts's queryMulti. Counts and out together
 * (markFirstValues; docs null): counted, out gets the first values and `repeats` the others
 * (required then).
 */
export function walkMulti(
  offsets: SequenceView, values: SequenceView, from: number, to: number, docs: BitsetMemory | null,
  task: Uint32Array | BitsetMemory | null, out: BitsetMemory | null, repeats: RepeatList | null = null,
): void {
  const selection = docs === null ? null : docs.words, output = out === null ? null : out.words
  const counts = task instanceof Uint32Array ? task : null, valueBits = task === null || counts !== null ? null : (task as BitsetMemory).words
  const n = counts !== null ? counts.length : 0
  if (counts !== null) {
    if (stamps.length < n) stamps = new Int32Array(n)
    stamps.fill(0, 0, n)
  }
  for (let start = from; start < to; start += CHUNK) {
    const count = Math.min(CHUNK, to - start)
    const words = (count + 31) >>> 5, firstWord = (start - from) >>> 5
    let chosen = 0
    for (let w = 0; w < words; w++) {
      const left = count - (w << 5)
      chosen += popcount(selected[w] = (selection !== null ? selection[firstWord + w] : -1) & (left < 32 ? (1 << left) - 1 : -1))
    }
    if (chosen === 0) {
      // No document selected: a filter clears the chunk's words.
      if (valueBits !== null) output!.fill(0, firstWord, firstWord + words)
      continue
    }
    decodeRaw(offsets, start, count + 1, offsetWords, 0)
    // Few selected documents (at most 1 in SPARSE): a facet visits theirs alone.
    if (counts !== null && output === null && chosen * SPARSE <= count) {
      facetSelected(values, count, words, start, counts, n)
      continue
    }
    // Documents with one value each (offsets a line of step 1): the single-valued path, no walk.
    if (oneEach(count)) {
      lineChunk(values, count, words, firstWord, valueBits, output, counts, n)
      continue
    }
    if (counts === null && valueBits === null) {
      selectRuns(count, chosen, output!)
      continue
    }
    if (valueBits !== null) {
      matchDocuments(count, valueBits)
      for (let w = 0; w < words; w++) output![firstWord + w] = hits[w] & selected[w]
      continue
    }
    // Windows of CAP values; marks[e - at]: documents ending at value e; d carries across windows.
    const end = offsetWords[2 * count] >>> 0
    let marked = 0, d = 0
    for (let at = offsetWords[0] >>> 0; at < end; at += CAP) {
      const m = Math.min(CAP, end - at)
      decodeRaw(values, at, m, valueWords, 0)
      marks.fill(0, 0, m)
      for (let e = 0; marked < count && (e = offsetWords[2 * marked + 2] >>> 0) < at + m; marked++) marks[e - at]++
      for (let i = 0; i < m; i++) {
        d += marks[i]
        const bit = (selected[d >>> 5] >>> (d & 31)) & 1, v = at + i
        const low = valueWords[2 * i], high = valueWords[2 * i + 1]
        if (high !== 0 || low >>> 0 >= n) {
          if (bit !== 0) countRangeError(values, v, low, high, n)
          continue
        }
        const first = firstIn(low, start + d + 1)
        counts![low] += bit & first
        if (output !== null) {
          output[v >>> 5] |= first << (v & 31)
          if (first === 0) listRepeat(repeats!, v, low)
        }
      }
    }
  }
}

/** Whether document j of the chunk holds value off[0] + j alone, for every j: its offsets step by 1. */
function oneEach(count: number): boolean {
  const first = offsetWords[0] >>> 0
  if ((offsetWords[2 * count] >>> 0) - first !== count) return false
  for (let j = 1; j < count; j++) if ((offsetWords[2 * j] >>> 0) - first !== j) return false
  return true
}

/**
 * A chunk whose documents hold one value each (assembly/query-multi.ts's lineChunk): a filter's
 * hits are the value bits, a selection's values the selection bits, a facet (or the first-value
 * marks) counts each selected value.
 */
function lineChunk(
  values: SequenceView, count: number, words: number, firstWord: number, valueBits: Int32Array | null,
  output: Int32Array | null, counts: Uint32Array | null, n: number,
): void {
  const first = offsetWords[0] >>> 0
  if (counts === null) {
    for (let w = 0; w < words; w++) {
      const at = first + (w << 5)
      if (valueBits !== null) output![firstWord + w] = selectionBits(valueBits, at, 32) & selected[w]
      else orBits(output!, at, selected[w])
    }
    return
  }
  decodeRaw(values, first, count, valueWords, 0)
  for (let j = 0; j < count; j++) {
    const bit = (selected[j >>> 5] >>> (j & 31)) & 1
    const low = valueWords[2 * j], high = valueWords[2 * j + 1]
    if (high !== 0 || low >>> 0 >= n) {
      if (bit !== 0) countRangeError(values, first + j, low, high, n)
      continue
    }
    if (output !== null) output[(first + j) >>> 5] |= 1 << ((first + j) & 31)
    counts[low] += bit
  }
}

/** 1 if no value of document `mine` (its number + 1) held ordinal x before, else 0; the stamp then names it. */
function firstIn(x: number, mine: number): number {
  const first = stamps[x] !== mine ? 1 : 0
  stamps[x] = mine
  return first
}

/** Words of values a chunk's rank table holds. */
const RANK_WORDS = CAP - 1
/** Pairs (set bits before the word, the word) of a chunk's value words, and one empty pair after them. */
const rankTable = new Int32Array(2 * CAP)

/**
 * matchAny over one chunk (offsets in offsetWords): bit j of hits set iff a value of document j
 * has its bit set, i.e. iff the bits set before its end exceed those before its start, each
 * rank one table read and one popcount. (assembly/query-multi.ts's matchDocuments reads a rank
 * per value position instead, built 8 at a time by vectors, which JS has not.)
 */
function matchDocuments(count: number, valueBits: Int32Array): void {
  const first = offsetWords[0] >>> 0, last = offsetWords[2 * count] >>> 0
  const base = first >>> 5, span = ((last + 31) >>> 5) - base
  if (span >= RANK_WORDS) {
    walkDocuments(count, valueBits)
    return
  }
  let total = 0
  for (let k = 0; k < span; k++) {
    const word = valueBits[base + k]
    rankTable[2 * k] = total
    rankTable[2 * k + 1] = word
    total += popcount(word)
  }
  // rank(last) may read the pair after the last word with a value below `last`: it holds none.
  rankTable[2 * span] = total
  rankTable[2 * span + 1] = 0
  const shift = base << 5
  let previous = rankAt(first - shift)
  for (let j = 0; j < count; j += 32) {
    const n = Math.min(32, count - j)
    let acc = 0
    for (let b = 0; b < n; b++) {
      const rank = rankAt((offsetWords[2 * (j + b) + 2] >>> 0) - shift)
      acc |= (rank !== previous ? 1 : 0) << b
      previous = rank
    }
    hits[j >>> 5] = acc
  }
}

/** Bits set before position p of the chunk's copied words (the shift counts p mod 32: mask 0 at a word's first bit). */
function rankAt(p: number): number {
  const pair = 2 * (p >>> 5)
  return rankTable[pair] + popcount(rankTable[pair + 1] & ((1 << p) - 1))
}

/** matchDocuments for a chunk with many values: counts run from the chunk's first word, one popcount per document and per 32 values passed. */
function walkDocuments(count: number, valueBits: Int32Array): void {
  const first = offsetWords[0] >>> 0
  let word = first >>> 5, full = 0
  let previous = (first & 31) === 0 ? 0 : popcount(valueBits[word] & ((1 << (first & 31)) - 1))
  let acc = 0
  for (let j = 0; j < count; j++) {
    const end = offsetWords[2 * j + 2] >>> 0
    const at = end >>> 5
    for (; word < at; word++) full += popcount(valueBits[word])
    const tail = end & 31
    const rank = full + (tail === 0 ? 0 : popcount(valueBits[at] & ((1 << tail) - 1)))
    acc |= (rank !== previous ? 1 : 0) << (j & 31)
    previous = rank
    if ((j & 31) === 31) {
      hits[j >>> 5] = acc
      acc = 0
    }
  }
  if ((count & 31) !== 0) hits[count >>> 5] = acc
}

/**
 * countDistinct over a chunk with few selected documents: each one's values counted with the
 * stamps, decoded in windows of CAP from the first value a selected document needs
 * (assembly/query-multi.ts's facetSelected, same windows, so the same first error).
 */
function facetSelected(values: SequenceView, count: number, words: number, start: number, counts: Uint32Array, n: number): void {
  const chunkEnd = offsetWords[2 * count] >>> 0
  let windowStart = 0, windowEnd = 0
  for (let w = 0; w < words; w++) {
    let bits = selected[w]
    while (bits !== 0) {
      const j = (w << 5) + 31 - Math.clz32(bits & -bits)
      bits &= bits - 1
      const first = offsetWords[2 * j] >>> 0, end = offsetWords[2 * j + 2] >>> 0
      const mine = start + j + 1
      for (let v = first; v < end; v++) {
        if (v >= windowEnd) {
          windowStart = v
          windowEnd = v + Math.min(CAP, chunkEnd - v)
          decodeRaw(values, v, windowEnd - v, valueWords, 0)
        }
        const low = valueWords[2 * (v - windowStart)], high = valueWords[2 * (v - windowStart) + 1]
        if (high !== 0 || low >>> 0 >= n) countRangeError(values, v, low, high, n)
        counts[low] += firstIn(low, mine)
      }
    }
  }
}

/** Sets (or, with clear, clears) bits [start, end) of out. */
function markRange(out: Int32Array, start: number, end: number, clear: boolean): void {
  for (let position = start; position < end;) {
    const n = Math.min(32 - (position & 31), end - position)
    const bits = (n === 32 ? -1 : (1 << n) - 1) << (position & 31)
    if (clear) out[position >>> 5] &= ~bits
    else out[position >>> 5] |= bits
    position += n
  }
}

/**
 * matchAny without a value bitset over one chunk (`chosen` of its documents selected): their
 * values set in out, one step per selected document, or with more than half selected the chunk's
 * values set at once and each unselected document's cleared (assembly/query-multi.ts's selectRuns).
 */
function selectRuns(count: number, chosen: number, out: Int32Array): void {
  const words = (count + 31) >>> 5
  const dense = chosen * 2 > count
  if (dense) markRange(out, offsetWords[0] >>> 0, offsetWords[2 * count] >>> 0, false)
  for (let w = 0; w < words; w++) {
    const left = count - (w << 5)
    let bits = dense ? ~selected[w] & (left < 32 ? (1 << left) - 1 : -1) : selected[w]
    while (bits !== 0) {
      const j = (w << 5) + (31 - Math.clz32(bits & -bits))
      bits &= bits - 1
      markRange(out, offsetWords[2 * j] >>> 0, offsetWords[2 * j + 2] >>> 0, dense)
    }
  }
}

/** A repeat (value v, ordinal) listed while the list has room, and counted. */
function listRepeat(list: RepeatList, v: number, ordinal: number): void {
  if (list.count < list.positions.length && list.count < list.ordinals.length) {
    list.positions[list.count] = v
    list.ordinals[list.count] = ordinal
  }
  list.count++
}
