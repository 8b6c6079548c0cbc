/**
 * The patches of patched blocks moved in counts (facets, histograms) in TypeScript: each selected
 * patch takes one count from its low value's slot, where v1's kernels counted it through the lens
 * (query-encodings.ts), to its value's slot.
 */
import { popcount } from '../backend/bits.js'
import { BLOCK_VALUES } from '../format/constants.js'
import { fieldAt, smallField, unpackSmall } from './bits.js'
import type { PatchedLayout, Slots } from './query-encodings.js'

const patchPositions = new Int32Array(BLOCK_VALUES)
const patchHighs = new Int32Array(BLOCK_VALUES)
const patchLows = new Int32Array(BLOCK_VALUES)

/**
 * For each selected patch at a position in [from, to) of a patched block whose values are exact
 * numbers (base + g (low + 2^width high), |value| < 2^53), one count from the low value's slot to
 * the value's (slots.numberSlot, present). The positions (their ranks consecutive) are gathered
 * first, then the patches' low and high parts unpacked in one pass each. False, with counts partly
 * moved, when a strict slot refuses a value.
 */
export function patchesByNumber(
  layout: PatchedLayout, base: number, g: number, from: number, to: number, selection: Int32Array | null, bit: number,
  out: Uint32Array, slots: Slots,
): boolean {
  const { words, lowsAt, width, positionsAt, list, e, n, positionWidth, highsAt, highWidth } = layout
  let first = 0, m = 0
  if (list) {
    let hi = e
    while (first < hi) {
      const middle = (first + hi) >>> 1
      if (fieldAt(words, positionsAt, middle, positionWidth) < from) first = middle + 1
      else hi = middle
    }
    for (let rank = first; rank < e; rank++, m++) {
      const position = fieldAt(words, positionsAt, rank, positionWidth)
      if (position >= to) break
      patchPositions[m] = position
    }
  } else {
    // Ranks count from word 0; bits past n (the next sub-stream) and past the e-th set bit name nothing.
    let rank = 0
    for (let word = 0; 32 * word < n && 32 * word < to && rank < e; word++) {
      let bits = fieldAt(words, positionsAt, word, 32)
      if (n - 32 * word < 32) bits &= (1 << (n - 32 * word)) - 1
      if (32 * (word + 1) <= from) {
        rank += popcount(bits)
        continue
      }
      for (; bits !== 0 && rank < e; bits &= bits - 1, rank++) {
        const position = 32 * word + 31 - Math.clz32(bits & -bits)
        if (position >= to) break
        if (position < from) continue
        if (m === 0) first = rank
        patchPositions[m++] = position
      }
    }
  }
  if (m === 0) return true
  unpackSmall(words, highsAt, first, m, highWidth, patchHighs, 0)
  unpackAt(words, lowsAt, width, m)
  const below = slots.below
  if (below !== undefined && Number.isInteger(base) && Math.abs(base) + g * 2 ** (width + highWidth) < 2 ** 31) {
    return moveCounts(m, base | 0, g | 0, width, selection, bit - from, out, below)
  }
  return movePatches(m, base, g, 2 ** width, selection, bit - from, out, slots.numberSlot!, slots.strict)
}

/**
 * movePatches for slots that are the values themselves below `below` (strict), every value of the
 * block an int32 (base, g integers): int32 arithmetic and no call a patch (keys computed as
 * doubles make each access to the counts a slow one).
 */
function moveCounts(m: number, base: number, g: number, width: number, selection: Int32Array | null, skew: number, out: Uint32Array, below: number): boolean {
  for (let r = 0; r < m; r++) {
    if (selection !== null) {
      const at = skew + patchPositions[r]
      if (((selection[at >>> 5] >>> (at & 31)) & 1) === 0) continue
    }
    const low = patchLows[r], now = base + Math.imul(g, low + (patchHighs[r] << width)), was = base + Math.imul(g, low)
    if (now < 0 || now >= below) return false
    out[now]++
    if (was >= 0 && was < below) out[was]--
  }
  return true
}

/** The moves for the m patches gathered (patchPositions, patchLows, patchHighs), through numberSlot. */
function movePatches(
  m: number, base: number, g: number, scale: number, selection: Int32Array | null, skew: number,
  out: Uint32Array, numberSlot: (value: number) => number, strict: boolean,
): boolean {
  for (let r = 0; r < m; r++) {
    if (selection !== null) {
      const at = skew + patchPositions[r]
      if (((selection[at >>> 5] >>> (at & 31)) & 1) === 0) continue
    }
    const low = patchLows[r]
    const now = numberSlot(base + g * (low + scale * patchHighs[r]))
    if (now < 0) {
      if (strict) return false
    } else out[now | 0]++
    const was = numberSlot(base + g * low)
    if (was >= 0) out[was | 0]--
  }
  return true
}

/** patchLows[r] = the low field (width ≤ 31) at patchPositions[r], r < m. */
function unpackAt(words: Int32Array, lowsAt: number, width: number, m: number): void {
  const wordBase = lowsAt >>> 2, skew = (lowsAt & 3) * 8, mask = (1 << width) - 1
  for (let r = 0; r < m; r++) patchLows[r] = smallField(words, wordBase, patchPositions[r] * width + skew, mask)
}
