/**
 * countDistinct, markFirstValues and markDocumentStarts for the TS backend, the mirror of
 * assembly/query-multi.ts: documents in chunks of 1,024 whose offsets are decoded once, their
 * values in windows of at most CAP, each value finding its document through marks (documents
 * ending at each value, summed as the loop goes): no branch on run lengths, which mispredicts
 * about once a document. DocSets are read as selection words, never expanded to values. Same
 * order of checks as WebAssembly, so the same first error. (matchAny: query-starts.ts.)
 * markFirstValues keeps a stamp per term here; WebAssembly compares each value of a chunk of
 * short documents with the 3 before it instead (assembly/query-first-values.ts): the same bits,
 * counts and repeats (test/query-first-values.test.ts).
 */
import type { SequenceView } from '../backend.js'
import type { BitsetMemory } from '../query-kernels.js'
import { popcount, setBits } from '../bits.js'
import { decodeRaw } from './decode.js'
import { countRangeError } from './query-scan.js'
import { offsetsStep, stepFirst } from './query-offsets.js'

const CHUNK = 1024
const CAP = 8192
/** A chunk with at most 1 document in SPARSE selected: facets visit the selected documents alone. */
const SPARSE = 4
const offsetWords = new Int32Array(2 * (CHUNK + 1))
const valueWords = new Int32Array(2 * CAP)
const marks = new Uint16Array(CAP)
const selected = new Int32Array(32)
let stamps = new Int32Array(0)

/** markFirstValues' repeats: value indexes and ordinals listed while they have room, and how many there are. */
export interface RepeatList {
  positions: Uint32Array
  ordinals: Uint32Array
  count: number
}

/**
 * QueryKernels.countDistinct: one walk, as assembly/query-multi.ts's queryMulti. With out
 * (markFirstValues; docs null): counted, out gets the first values and `repeats` the others
 * (required then).
 */
export function walkMulti(
  offsets: SequenceView, values: SequenceView, from: number, to: number, docs: BitsetMemory | null,
  counts: Uint32Array, out: BitsetMemory | null, repeats: RepeatList | null = null,
): void {
  const selection = docs === null ? null : docs.words, output = out === null ? null : out.words
  const n = counts.length
  if (stamps.length < n) stamps = new Int32Array(n)
  stamps.fill(0, 0, n)
  for (let start = from; start < to; start += CHUNK) {
    const count = Math.min(CHUNK, to - start)
    const words = (count + 31) >>> 5, firstWord = (start - from) >>> 5
    let chosen = 0
    for (let w = 0; w < words; w++) {
      const left = count - (w << 5)
      chosen += popcount(selected[w] = (selection !== null ? selection[firstWord + w] : -1) & (left < 32 ? (1 << left) - 1 : -1))
    }
    if (chosen === 0) continue
    // Stretches the offsets' records show (empty documents: nothing to count; k values each) are not decoded.
    const step = offsetsStep(offsets, start, count, values.count)
    if (step === 0) continue
    if (step > 0) {
      for (let j = 0; j <= count; j++) {
        offsetWords[2 * j] = stepFirst + j * step
        offsetWords[2 * j + 1] = 0
      }
    } else decodeRaw(offsets, start, count + 1, offsetWords, 0)
    // Few selected documents (at most 1 in SPARSE): a facet visits theirs alone.
    if (output === null && chosen * SPARSE <= count) {
      facetSelected(values, count, words, start, counts, n)
      continue
    }
    // Documents with one value each (offsets a line of step 1): the single-valued path, no walk.
    if (step === 1 || (step < 0 && oneEach(count))) {
      lineChunk(values, count, output, counts, n)
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
        counts[low] += bit & first
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
 * A chunk whose documents hold one value each (assembly/query-multi.ts's lineChunk): a facet (or
 * the first-value marks) counts each selected value.
 */
function lineChunk(values: SequenceView, count: number, output: Int32Array | null, counts: Uint32Array, n: number): void {
  const first = offsetWords[0] >>> 0
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
  // As int32, what the stamp reads back: past document 2^31 a number would never equal it.
  const stamp = mine | 0
  const first = stamps[x] !== stamp ? 1 : 0
  stamps[x] = stamp
  return first
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

/** QueryKernels.markDocumentStarts: nonempty and starts from the offsets (assembly/query-multi.ts's markStarts). */
export function markDocumentStarts(offsets: SequenceView, total: number, from: number, to: number, starts: BitsetMemory, nonempty: BitsetMemory): void {
  const startWords = starts.words, nonemptyWords = nonempty.words
  let first = 0, end = 0
  for (let start = from; start < to; start += CHUNK) {
    const count = Math.min(CHUNK, to - start)
    const step = offsetsStep(offsets, start, count, total)
    if (step >= 0) {
      // Every document of the stretch empty, or holding k values: no decode.
      if (start === from) first = stepFirst
      const at = stepFirst - first
      for (let w = 0; w < count; w += 32) nonemptyWords[(start - from + w) >>> 5] = step === 0 ? 0 : count - w < 32 ? (1 << (count - w)) - 1 : -1
      if (step === 1) setBits(startWords, at, count)
      else if (step !== 0) for (let j = 0; j < count; j++) startWords[(at + j * step) >>> 5] |= 1 << ((at + j * step) & 31)
      end = at + count * step
      continue
    }
    decodeRaw(offsets, start, count + 1, offsetWords, 0)
    if (start === from) first = offsetWords[0] >>> 0
    let previous = (offsetWords[0] >>> 0) - first, word = 0
    for (let j = 0; j < count; j++) {
      const next = (offsetWords[2 * j + 2] >>> 0) - first
      if (next > previous && next <= total - first) {
        word |= 1 << (j & 31)
        startWords[previous >>> 5] |= 1 << (previous & 31)
      }
      previous = next
      if ((j & 31) === 31 || j + 1 === count) {
        nonemptyWords[(start - from + j) >>> 5] = word
        word = 0
      }
    }
    end = previous
  }
  if (end <= total - first) startWords[end >>> 5] |= 1 << (end & 31)
}

/** A repeat (value v, ordinal) listed while the list has room, and counted. */
function listRepeat(list: RepeatList, v: number, ordinal: number): void {
  if (list.count < list.positions.length && list.count < list.ordinals.length) {
    list.positions[list.count] = v
    list.ordinals[list.count] = ordinal
  }
  list.count++
}
