/**
 * Range and term filters over a sequence dictionary's codes when the matching
 * entries hold the consecutive codes [c0, c1] (query-adapter.ts), without
 * decoding a code where the encodings allow it: constant and frame blocks, and
 * patched blocks whose every patched value lies above c1 (base + g × 2^lw > c1,
 * as for a frequent term among codes numbered by frequency), are matched by
 * v1's kernels on their low fields through the lens into a scratch bitset; the
 * patched positions are then cleared there (their values cannot match) and the
 * scratch or-ed into the caller's bits. Each block is checked once per sequence
 * (every code below k; patched blocks: positions in order, no patch of high part
 * 0, a bitmap of exactly e bits), so the answer, or the refusal, is the one
 * reads give; blocks that fail, and other kinds, go to the caller's decoding path.
 */
import type { SequenceView } from '../backend/backend.js'
import { orBits, popcount, selectionBits } from '../backend/bits.js'
import type { BitsetMemory, QueryKernels } from '../backend/query-kernels.js'
import { BLOCK_SHIFT, BLOCK_VALUES } from '../format/constants.js'
import { fieldAt, POW2 } from './bits.js'
import { forEachException, positionsIncrease } from './blocks/positions.js'
import { Kind } from './constants.js'
import { patchedLayout } from './block-layouts.js'

const TWO_POW_32 = 4294967296
const UNKNOWN = 0, EXACT = 1, DECODE = 2

/** Whether a patched block holds what a valid one does: positions in order (a bitmap of e bits), every high part above 0. */
function patchesValid(sequence: SequenceView, block: number): boolean {
  const { words, positionsAt, list, e, n, positionWidth, highsAt, highWidth } = patchedLayout(sequence, block)
  if (list && !positionsIncrease(words, positionsAt, e, n, positionWidth)) return false
  if (!list) {
    let bits = 0
    for (let w = 0; w < n >>> 5; w++) bits += popcount(fieldAt(words, positionsAt, w, 32))
    if (n & 31) bits += popcount(fieldAt(words, positionsAt, n >>> 5, 32) & ((1 << (n & 31)) - 1))
    if (bits !== e) return false
  }
  for (let rank = 0; rank < e; rank++) if (fieldAt(words, highsAt, rank, highWidth) === 0) return false
  return true
}

/** Matches codes [c0, c1] of a form-0 codes sequence from their encodings where they allow it. */
export function createCodeMatcher(inner: QueryKernels, lensView: (sequence: SequenceView) => SequenceView | null) {
  const checked = new WeakMap<SequenceView, Uint8Array>()

  /**
   * Whether v1's kernels on the lens, then clearing the patches, match block `block` exactly:
   * checked once per sequence (every code below k, by `inRange`, and the patches valid), then
   * for this span (every patched value above c1).
   */
  function lensMatches(sequence: SequenceView, block: number, c1: number, inRange: (first: number, n: number) => boolean): boolean {
    const records = sequence.records, at = 6 * block, kind = records[at] & 0xff
    if (kind !== Kind.constant && kind !== Kind.frame && kind !== Kind.patched) return false
    let states = checked.get(sequence)
    if (states === undefined) checked.set(sequence, (states = new Uint8Array(sequence.blockCount)))
    if (states[block] === UNKNOWN) {
      const start = block * BLOCK_VALUES, n = Math.min(BLOCK_VALUES, sequence.count - start)
      states[block] = inRange(start, n) && (kind !== Kind.patched || patchesValid(sequence, block)) ? EXACT : DECODE
    }
    if (states[block] !== EXACT) return false
    if (kind !== Kind.patched) return true
    const base = records[at + 3] * TWO_POW_32 + (records[at + 2] >>> 0), g = records[at + 5] * TWO_POW_32 + (records[at + 4] >>> 0)
    return g >= 1 && base + g * POW2[(records[at] >>> 8) & 0xff] > c1
  }

  /**
   * Sets bit outStart + i of out for each selected code first + i in [c0, c1] (bounds: the codes as
   * [loLow, loHigh, hiLow, hiHigh]) where the encodings answer; `decode(from, n)` answers the other
   * stretches; `inRange(from, n)` says whether codes [from, from + n) are all below the entries'
   * count (decoding them; a block with one beyond goes to `decode`, which refuses it as reads do).
   * Returns how many matched.
   */
  return function matchCodes(
    codes: SequenceView, first: number, count: number, bounds: Int32Array, c1: number,
    selection: BitsetMemory | null, selectionStart: number, out: BitsetMemory, outStart: number,
    decode: (from: number, n: number) => number, inRange: (from: number, n: number) => boolean,
  ): number {
    const end = first + count
    let matched = 0
    for (let index = first; index < end;) {
      const block = index >>> BLOCK_SHIFT
      let stop = Math.min(end, (block + 1) * BLOCK_VALUES)
      const lens = lensMatches(codes, block, c1, inRange)
      while (stop < end && lensMatches(codes, stop >>> BLOCK_SHIFT, c1, inRange) === lens) stop = Math.min(end, stop + BLOCK_VALUES)
      const found = lens ? matchLens(codes, index, stop - index, bounds, selection, selectionStart + index - first, out, outStart + index - first) : null
      matched += found ?? decode(index, stop - index)
      index = stop
    }
    return matched
  }

  /** One stretch of lens blocks: matched into a scratch bitset, patches cleared, or-ed into out; null without a lens. */
  function matchLens(
    codes: SequenceView, first: number, count: number, bounds: Int32Array,
    selection: BitsetMemory | null, selectionStart: number, out: BitsetMemory, outStart: number,
  ): number | null {
    const lens = lensView(codes)
    if (lens === null) return null
    const wordCount = (count + 31) >>> 5
    const scratch = inner.allocateBitset(wordCount)
    try {
      inner.matchRange(lens, first, count, bounds, selection, selectionStart, scratch, 0)
      // Views after the allocation and the kernel (WebAssembly memory may have grown).
      const bits = scratch.words
      for (let block = first >>> BLOCK_SHIFT; block * BLOCK_VALUES < first + count; block++) {
        if ((codes.records[6 * block] & 0xff) !== Kind.patched) continue
        const start = block * BLOCK_VALUES
        const from = Math.max(first, start) - start, to = Math.min(first + count, start + BLOCK_VALUES) - start
        const { words, positionsAt, list, e, n, positionWidth } = patchedLayout(codes, block)
        const offset = start - first
        if (!list && from === 0 && (offset & 31) === 0) {
          // A whole block on a word boundary: its bitmap clears 32 positions a step.
          for (let w = 0; w < (to + 31) >>> 5; w++) bits[(offset >>> 5) + w] &= ~fieldAt(words, positionsAt, w, 32)
        } else {
          forEachException(words, positionsAt, list, e, n, positionWidth, from, to, (position) => {
            const bit = offset + position
            bits[bit >>> 5] &= ~(1 << (bit & 31))
          })
        }
      }
      // Bits past count (a bitmap's last word) are cleared with the rest: the lens set none there.
      const target = out.words
      let matched = 0
      for (let w = 0; w < wordCount; w++) {
        const word = bits[w]
        if (word === 0) continue
        matched += popcount(word)
        orBits(target, outStart + 32 * w, word)
      }
      return matched
    } finally {
      scratch.release()
    }
  }
}

/**
 * Sets bit outStart + i of out for each selected code i < n of `codes` (all below members.length)
 * whose entry matches (members[code] = 1), 32 codes to a mask; selection bits from selectionStart
 * (null: all). Returns how many matched.
 */
export function matchMemberCodes(
  codes: Int32Array, n: number, members: Uint8Array, selection: Int32Array | null, selectionStart: number, out: Int32Array, outStart: number,
): number {
  let matched = 0
  for (let at = 0; at < n; at += 32) {
    const take = Math.min(32, n - at)
    let mask = 0
    for (let j = 0; j < take; j++) mask |= members[codes[at + j]] << j
    mask &= selectionBits(selection, selectionStart + at, take)
    if (mask === 0) continue
    matched += popcount(mask)
    orBits(out, outStart + at, mask)
  }
  return matched
}
