/**
 * Patched frame blocks (kind 6): q = (value - base) / aux (base = min, aux = g)
 * keeps its low `width` bits for every value; the e values with q ≥ 2^width keep
 * their high bits (hw = bits(range / g) - width of them) as patches. Data: a byte
 * hw, the low fields, the patches' positions (list or bitmap; param flag 1 << 10
 * for the list), then the high fields. param bits 0-9 = e. The low width is the
 * one giving the fewest bytes (ties: the wider).
 */
import { bitsOf, bytesFor, type FieldWriter, fieldAt, POW2, smallField, unpackFields, unpackSmall } from '../bits.js'
import type { BlockAnalysis } from '../block-analysis.js'
import { auxNumber, type BlockView, recordAux } from '../block-view.js'
import { Kind, POSITIONS_LIST_FLAG } from '../constants.js'
import { exceptionRank, firstRankIn, forEachExceptionAsRead, positionsAsList, positionsIn, positionsIncrease, positionsSize, writePositions } from './positions.js'
import { putPair, putPairs } from './pairs.js'
import type { BlockRecord } from './record.js'

const histogram = new Int32Array(65)
const positions = new Int32Array(1024)
const highs = new Int32Array(1024)
let bestWidth = 0, bestPatches = 0

/** Chooses the low width: sizes every width below the full one from a histogram of bits(q). */
function choose(a: BlockAnalysis): number {
  histogram.fill(0, 0, a.width + 1)
  const g = a.divisor
  for (let index = 0; index < a.n; index++) histogram[bitsOf(a.u[index] / g)]++
  let best = Infinity
  // Patches at low width w are the values with bits(q) > w.
  let patches = 0
  for (let low = a.width - 1; low >= 0; low--) {
    patches += histogram[low + 1]
    const size = 1 + bytesFor(a.n * low) + positionsSize(patches, a.n, a.positionWidth) + bytesFor(patches * (a.width - low))
    if (size < best) {
      best = size
      bestWidth = low
      bestPatches = patches
    }
  }
  return best
}

/** Data bytes of the patched form (range > 0). */
export function patchedSize(a: BlockAnalysis): number {
  return choose(a)
}

/** Writes the patched form. */
export function writePatched(a: BlockAnalysis, writer: FieldWriter, record: BlockRecord): void {
  choose(a)
  const low = bestWidth, e = bestPatches, high = a.width - low, g = a.divisor
  const list = positionsAsList(e, a.n, a.positionWidth)
  record.set(Kind.patched, low, e | (list ? POSITIONS_LIST_FLAG : 0), a.minLow, a.minHigh, g)
  writer.byte(high)
  const scale = POW2[low]
  let count = 0
  for (let index = 0; index < a.n; index++) {
    const q = a.u[index] / g
    writer.write(q % scale, low)
    if (q >= scale) positions[count++] = index
  }
  writePositions(positions, e, a.n, a.positionWidth, writer)
  writer.seek(writer.offset)
  for (let rank = 0; rank < e; rank++) writer.write(Math.floor(a.u[positions[rank]] / g / scale), high)
}

let highWidth = 0, positionsAt = 0, patchesAt = 0, list = false, e = 0, positionWidth = 0

function layout(view: BlockView): void {
  highWidth = fieldAt(view.words, view.data, 0, 8)
  e = view.param & 1023
  list = (view.param & POSITIONS_LIST_FLAG) !== 0
  positionWidth = bitsOf(view.n - 1)
  positionsAt = view.data + 1 + bytesFor(view.n * view.width)
  patchesAt = positionsAt + positionsSize(e, view.n, positionWidth)
}

/**
 * Offset from the base of value j of the patched block whose record is word r of records (data at
 * byte `data`, n values): its low field, plus its patch shifted past the low width.
 */
export function patchedOffset(words: Int32Array, records: Int32Array, r: number, data: number, n: number, j: number): number {
  const head = records[r], width = (head >>> 8) & 0xff, param = head >>> 16
  const e = param & 1023, pw = 32 - Math.clz32(n - 1), positionsAt = data + 1 + ((n * width + 7) >>> 3)
  let q = fieldAt(words, data + 1, j, width)
  const rank = exceptionRank(words, positionsAt, (param & POSITIONS_LIST_FLAG) !== 0, e, pw, j)
  if (rank >= 0) q += fieldAt(words, positionsAt + positionsSize(e, n, pw), rank, fieldAt(words, data, 0, 8)) * POW2[width]
  return recordAux(records, r) * q
}

/** Offsets of values [from, to) into out from position at. */
export function patchedOffsets(view: BlockView, from: number, to: number, out: Float64Array, at: number): void {
  layout(view)
  const words = view.words, scale = POW2[view.width], patches = patchesAt, width = highWidth
  unpackFields(words, view.data + 1, from, to - from, view.width, out, at)
  // (A list that does not increase, corrupt, is searched position by position, as single reads search it.)
  forEachExceptionAsRead(words, positionsAt, list, e, view.n, positionWidth, from, to, (position, rank) => {
    out[at + position - from] += fieldAt(words, patches, rank, width) * scale
  })
  const g = auxNumber(view)
  if (g !== 1) for (let index = at; index < at + to - from; index++) out[index] *= g
}

const scratch = new Float64Array(1024)

/**
 * Values [from, to) as (low, high) pairs into destination from word d. When every low field's offset
 * g low is below 2^31 and adds to the base's low word without a carry, those go in int32 arithmetic and
 * the patched values each through putPair; else every value through offsets.
 */
export function patchedPairs(view: BlockView, from: number, to: number, destination: Int32Array, d: number): void {
  layout(view)
  const baseLow = view.baseLow, baseHigh = view.baseHigh, g = auxNumber(view), count = to - from
  const largestLow = g * (POW2[view.width] - 1)
  const ordered = !list || positionsIncrease(view.words, positionsAt, e, view.n, positionWidth)
  if (!ordered || largestLow >= 2 ** 31 || (baseLow >>> 0) + largestLow >= 2 ** 32 || view.width > 30) {
    patchedOffsets(view, from, to, scratch, 0)
    putPairs(baseLow, baseHigh, scratch, count, destination, d)
    return
  }
  // Low fields read in the loop that uses them, from a word kept between fields (one load per 32 bits);
  // g × low < 2^31 (checked above), so an int32 product. A patch reads its own low field again.
  const words = view.words, start = view.data + 1, W = view.width, wordBase = start >>> 2, mask = (1 << W) - 1
  const firstBit = from * W + (start & 3) * 8
  let word = wordBase + (firstBit >>> 5), shift = firstBit & 31, current = words[word]
  for (let at = d, end = d + 2 * count; at < end; at += 2) {
    let low = current >>> shift
    shift += W
    if (shift >= 32) {
      current = words[++word]
      shift -= 32
      if (shift !== 0) low |= current << (W - shift)
    }
    destination[at] = (baseLow + Math.imul(g, low & mask)) | 0
    destination[at + 1] = baseHigh
  }
  // The patches: positions gathered, their high parts unpacked, then each value put whole.
  const m = positionsIn(words, positionsAt, list, e, view.n, positionWidth, from, to, positions)
  if (m === 0) return
  const scale = POW2[W]
  if (highWidth <= 31) unpackSmall(words, patchesAt, firstRankIn, m, highWidth, highs, 0)
  else for (let r = 0; r < m; r++) highs[r] = -1
  // Every value below 2^32 - baseLow: one int32 a patch, its high word the base's (written above).
  const small = highWidth <= 31 && (baseLow >>> 0) + g * (POW2[W + highWidth] - 1) < 2 ** 32
  for (let r = 0; r < m; r++) {
    const position = positions[r], at = d + 2 * (position - from)
    if (small) {
      destination[at] = (baseLow + g * (smallField(words, wordBase, position * W + (start & 3) * 8, mask) + scale * highs[r])) | 0
    } else {
      const high = highWidth <= 31 ? highs[r] : fieldAt(words, patchesAt, firstRankIn + r, highWidth)
      putPair(baseLow, baseHigh, g * (fieldAt(words, start, position, W) + scale * high), destination, at)
    }
  }
}

/**
 * Values [from, to) of a block of dictionary codes mapped through table (entries' (low, high) words,
 * `entries` of them) as pairs into destination from word d, with no codes buffer between: each low
 * field's entry goes out as it is read, then each patch's. Returns false, having written nothing
 * reliable, when the block is not one of small codes (the caller decodes the codes instead) or a code
 * is outside [0, entries) (the caller's own decode then names it).
 */
export function patchedGather(
  view: BlockView, from: number, to: number, table: Int32Array, entries: number, destination: Int32Array, d: number,
): boolean {
  layout(view)
  const baseLow = view.baseLow, g = auxNumber(view), W = view.width
  if (view.baseHigh !== 0 || baseLow < 0 || W > 30 || highWidth > 30 || baseLow + g * (POW2[W + highWidth] - 1) >= 2 ** 31) return false
  if (list && !positionsIncrease(view.words, positionsAt, e, view.n, positionWidth)) return false
  const words = view.words, start = view.data + 1, wordBase = start >>> 2, mask = (1 << W) - 1, last = entries - 1
  const firstBit = from * W + (start & 3) * 8
  // The low fields are read as patchedPairs reads them, a lookup in place of base + g × low: a
  // shared loop would cost a call or a branch per value in both.
  // Negative once some code is above last (codes are ≥ 0 here: the base and every offset are).
  let outside = 0
  let word = wordBase + (firstBit >>> 5), shift = firstBit & 31, current = words[word]
  for (let at = d, end = d + 2 * (to - from); at < end; at += 2) {
    let low = current >>> shift
    shift += W
    if (shift >= 32) {
      current = words[++word]
      shift -= 32
      if (shift !== 0) low |= current << (W - shift)
    }
    const code = baseLow + Math.imul(g, low & mask)
    outside |= last - code
    destination[at] = table[2 * code]
    destination[at + 1] = table[2 * code + 1]
  }
  const m = positionsIn(words, positionsAt, list, e, view.n, positionWidth, from, to, positions)
  if (m !== 0) {
    unpackSmall(words, patchesAt, firstRankIn, m, highWidth, highs, 0)
    const scale = POW2[W]
    for (let r = 0; r < m; r++) {
      const position = positions[r], at = d + 2 * (position - from)
      const code = baseLow + g * (smallField(words, wordBase, position * W + (start & 3) * 8, mask) + scale * highs[r])
      outside |= last - code
      destination[at] = table[2 * code]
      destination[at + 1] = table[2 * code + 1]
    }
  }
  return outside >= 0
}
