/**
 * matchAny for the TS backend over a multi column's starts and nonempty bitsets, the mirror of
 * assembly/query-starts.ts (which explains the carries): documents map to their segments of
 * values by compressing bits through one bitset and depositing them through the other, a byte
 * at a time from tables, the compressed bits streamed through memory (a few hits set their bits
 * in that stream one at a time).
 */
import type { BitsetMemory } from '../query-kernels.js'
import { popcount, wordsFor } from '../bits.js'

const TWO_32 = 4294967296
let compress: Uint8Array | null = null, deposit: Uint8Array | null = null
const ones = new Uint8Array(256)

/** compress[m << 8 | b]: b's bits at m's set positions packed low; deposit: b's low bits spread to them. */
function prepareTables(): void {
  compress = new Uint8Array(65536)
  deposit = new Uint8Array(65536)
  for (let mask = 0; mask < 256; mask++) {
    let k = 0
    for (let i = 0; i < 8; i++) k += (mask >>> i) & 1
    ones[mask] = k
    for (let bits = 0; bits < 256; bits++) {
      let packed = 0, spread = 0
      for (let i = 0, j = 0; i < 8; i++) {
        if (((mask >>> i) & 1) === 0) continue
        packed |= ((bits >>> i) & 1) << j
        spread |= ((bits >>> j) & 1) << i
        j++
      }
      compress[mask << 8 | bits] = packed
      deposit[mask << 8 | bits] = spread
    }
  }
}

/**
 * QueryKernels.matchAny: with `test`, word w of out = the selected documents 32w.. holding a
 * value whose bit is set (every word of the docCount documents written); without, the selected
 * documents' values set in out (every word of [0, total) written).
 */
export function matchStarts(
  starts: BitsetMemory, nonempty: BitsetMemory, total: number, docCount: number, docs: BitsetMemory | null,
  test: BitsetMemory | null, out: BitsetMemory,
): void {
  if (compress === null) prepareTables()
  const selection = docs === null ? null : docs.words
  // A hit set one at a time costs about three words of values and documents mapped by carries, here.
  if (test !== null && fewHits(test.words, total, ((total >>> 5) + (docCount >>> 5)) / 3)) {
    hitsOneByOne(starts.words, nonempty.words, total, docCount, selection, test.words, out.words)
  } else if (test !== null) hitsToDocuments(starts.words, nonempty.words, total, docCount, selection, test.words, out.words)
  else documentsToValues(starts.words, nonempty.words, total, docCount, selection, out.words)
}

/** The bits of `word` at the set positions of `mask`, packed low. */
function compressWord(pack: Uint8Array, mask: number, word: number): number {
  const m0 = mask & 0xFF, m1 = (mask >>> 8) & 0xFF, m2 = (mask >>> 16) & 0xFF, m3 = mask >>> 24
  const k0 = ones[m0], k1 = k0 + ones[m1], k2 = k1 + ones[m2]
  return pack[m0 << 8 | (word & 0xFF)] | pack[m1 << 8 | ((word >>> 8) & 0xFF)] << k0
    | pack[m2 << 8 | ((word >>> 16) & 0xFF)] << k1 | pack[m3 << 8 | (word >>> 24)] << k2
}

/** The low bits of `bits` spread to the set positions of `mask`. */
function depositWord(spread: Uint8Array, mask: number, bits: number): number {
  const m0 = mask & 0xFF, m1 = (mask >>> 8) & 0xFF, m2 = (mask >>> 16) & 0xFF, m3 = mask >>> 24
  const k0 = ones[m0], k1 = k0 + ones[m1], k2 = k1 + ones[m2]
  return spread[m0 << 8 | (bits & 0xFF)] | spread[m1 << 8 | ((bits >>> k0) & 0xFF)] << 8
    | spread[m2 << 8 | ((bits >>> k1) & 0xFF)] << 16 | spread[m3 << 8 | ((bits >>> k2) & 0xFF)] << 24
}

/** The streams of compressed bits: one bit per non-empty document and one more, and the word after them. */
let stream = new Int32Array(0)

function streamFor(docCount: number): Int32Array {
  if (stream.length < (docCount >>> 5) + 4) stream = new Int32Array((docCount >>> 5) + 4)
  return stream
}

/** Appends `count` ≤ 32 bits at bit `length` of the stream (the word after them set, so no word needs clearing first). */
function append(words: Int32Array, length: number, bits: number): void {
  const shift = length & 31, at = length >>> 5
  words[at] |= bits << shift
  words[at + 1] = shift === 0 ? 0 : bits >>> (32 - shift)
}

/** 32 bits of the stream from bit `position`. */
function bitsAt(words: Int32Array, position: number): number {
  const shift = position & 31, at = position >>> 5
  return (words[at] >>> shift) | (shift === 0 ? 0 : words[at + 1] << (32 - shift))
}

function hitsToDocuments(
  starts: Int32Array, nonempty: Int32Array, total: number, docCount: number, selection: Int32Array | null,
  test: Int32Array, out: Int32Array,
): void {
  const pack = compress!, words = streamFor(docCount)
  const valueWords = (total >>> 5) + 1
  let carry = 0, shifted = 0, length = 0
  words[0] = 0
  for (let v = 0; v < valueWords; v++) {
    const s = starts[v], m = test[v] | 0, on = m & s
    const z = (~s >>> 0) + ((m & ~s) >>> 0) + ((on << 1) >>> 0) + shifted + carry
    shifted = on >>> 31
    carry = (z - (z >>> 0)) / TWO_32
    append(words, length, compressWord(pack, s, z & s))
    length += popcount(s)
  }
  streamToDocuments(nonempty, docCount, selection, out, words)
}

/** Bit k + 1 of the stream (k from 0): the k-th non-empty document has a hit; out as hitsToDocuments leaves it. */
function streamToDocuments(nonempty: Int32Array, docCount: number, selection: Int32Array | null, out: Int32Array, words: Int32Array): void {
  const spread = deposit!
  // The first bit is the start of value 0's, which no segment precedes.
  let position = 1
  const docWords = wordsFor(docCount)
  for (let w = 0; w < docWords; w++) {
    const present = nonempty[w]
    const hits = depositWord(spread, present, bitsAt(words, position))
    position += popcount(present)
    const left = docCount - w * 32
    out[w] = hits & (selection !== null ? selection[w] : -1) & (left < 32 ? (1 << left) - 1 : -1)
  }
}

/** Whether `test` has fewer than `limit` hits among values [0, total) (see assembly/query-starts.ts). */
function fewHits(test: Int32Array, total: number, limit: number): boolean {
  const whole = total >>> 5
  let count = 0
  for (let v = 0; v < whole; v++) {
    count += popcount(test[v])
    if (count >= limit) return false
  }
  if ((total & 31) !== 0) count += popcount(test[whole] & ((1 << (total & 31)) - 1))
  return count < limit
}

/**
 * hitsToDocuments for a few hits (assembly/query-starts.ts' hitsOneByOne): a hit at value v is in
 * the segment of the k-th start (k + 1 starts at or below v), so it sets bit k + 1 of the stream.
 */
function hitsOneByOne(
  starts: Int32Array, nonempty: Int32Array, total: number, docCount: number, selection: Int32Array | null,
  test: Int32Array, out: Int32Array,
): void {
  const words = streamFor(docCount), valueWords = wordsFor(total)
  words.fill(0, 0, (docCount >>> 5) + 4)
  // A bit past the documents' (bitsets not made from one column's offsets) goes to a word the
  // deposit never reads: the stream's last.
  const room = ((docCount >>> 5) + 2) * 32
  let rank = 0
  for (let v = 0; v < valueWords; v++) {
    const s = starts[v]
    // A bit past the values counts the sentinel among its starts: it marks no document.
    let m = test[v]
    while (m !== 0) {
      // Starts at or below the lowest hit: s shifted left by clz32 of that hit's bit.
      const bit = rank + popcount(s << Math.clz32(m & -m))
      m &= m - 1
      words[Math.min(bit, room) >>> 5] |= 1 << (bit & 31)
    }
    rank += popcount(s)
  }
  streamToDocuments(nonempty, docCount, selection, out, words)
}

function documentsToValues(
  starts: Int32Array, nonempty: Int32Array, total: number, docCount: number, selection: Int32Array | null, out: Int32Array,
): void {
  const pack = compress!, spread = deposit!, words = streamFor(docCount)
  const docWords = wordsFor(docCount)
  let length = 0
  words[0] = 0
  for (let w = 0; w < docWords; w++) {
    const present = nonempty[w]
    append(words, length, compressWord(pack, present, (selection !== null ? selection[w] : -1) & present))
    length += popcount(present)
  }
  const lastValueWord = total >>> 5, outWords = wordsFor(total)
  let carry = 0, shifted = 0, position = 0
  for (let v = 0; v <= lastValueWord; v++) {
    // The sentinel takes a zero bit (the stream has one per document), then stops the last segment's carry.
    const s = starts[v]
    const marks = depositWord(spread, s, bitsAt(words, position))
    position += popcount(s)
    const inner = ~s >>> 0
    const q = inner + ((marks << 1) >>> 0) + shifted + carry
    shifted = marks >>> 31
    carry = q >= TWO_32 ? 1 : 0
    let values = marks | (inner & ~q)
    if (v === lastValueWord) values &= (1 << (total & 31)) - 1
    if (v < outWords) out[v] = values
  }
}
