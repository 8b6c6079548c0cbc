/**
 * The patches of patched blocks moved in counts (facets, histograms) in TypeScript: each selected
 * patch takes one count from its low value's slot, where v1's kernels counted it through the lens
 * (query-encodings.ts), to its value's slot.
 */
import { BLOCK_VALUES } from '../format/constants.js'
import { POW2, smallField, unpackSmall } from './bits.js'
import { firstRankIn, positionsIn } from './blocks/positions.js'
import type { PatchedLayout } from './block-layouts.js'
import type { Slots } from './query-slots.js'

const patchPositions = new Int32Array(BLOCK_VALUES)
const patchHighs = new Int32Array(BLOCK_VALUES)
const patchLows = new Int32Array(BLOCK_VALUES)

/**
 * For each selected patch at a position in [from, to) of a patched block whose values are exact
 * numbers (base + g (low + 2^width high), |value| < 2^53), one count from the low value's slot to
 * the value's (slots.numberSlot, present). The positions are gathered first (positionsIn), then
 * the patches' low and high parts unpacked in one pass each. False, with counts partly
 * moved, when a strict slot refuses a value.
 */
export function patchesByNumber(
  layout: PatchedLayout, base: number, g: number, from: number, to: number, selection: Int32Array | null, bit: number,
  out: Uint32Array, slots: Slots,
): boolean {
  const { words, lowsAt, width, positionsAt, list, e, n, positionWidth, highsAt, highWidth } = layout
  const m = positionsIn(words, positionsAt, list, e, n, positionWidth, from, to, patchPositions), first = firstRankIn
  if (m === 0) return true
  unpackSmall(words, highsAt, first, m, highWidth, patchHighs, 0)
  unpackAt(words, lowsAt, width, m)
  const below = slots.below
  if (below !== undefined && Number.isInteger(base) && Math.abs(base) + g * POW2[width + highWidth] < 2 ** 31) {
    return moveCounts(m, base | 0, g | 0, width, selection, bit - from, out, below)
  }
  return movePatches(m, base, g, POW2[width], selection, bit - from, out, slots.numberSlot!, slots.strict)
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
