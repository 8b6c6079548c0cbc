/**
 * histogram for the TS backend: a block whose bounds fall in one bucket adds
 * its selected count at once; otherwise the edges inside the block become u
 * edges and each unit finds its bucket by binary search over those few edges,
 * or, with many edges and narrow fields, each unit is counted and the counts
 * are summed between edges (as the WebAssembly kernel does). When every
 * packed block's values lie within a narrow range, the values of blocks the
 * edges cut are counted per value over that range instead, and the counts
 * summed between edges once: no search per value, whose branches mispredict.
 */
import type { SequenceView } from '../backend.js'
import type { BitsetMemory } from '../query-kernels.js'
import { BLOCK_SHIFT, BLOCK_VALUES, BlockKind } from '../../format/constants.js'
import { compareInt64 } from '../../format/int64.js'
import { decodeRaw } from './decode.js'
import { selectionBits } from '../bits.js'
import {
  block, ceilUnits, decoded, forEachBlock, loadBlock, lowestBit, offsetFromBase, rawAtOffset, selectedCount,
  tableEntries, tableIndexError, unitAt,
} from './query-scan.js'

const entryBuckets = new Int32Array(256)
const blockMax = new Int32Array(2)
let unitEdges = new Float64Array(64)
const unitCounts = new Uint32Array(1 << 12)

/** Counts per value over a narrow range (see rangeOfValues); at most this many values. */
const VALUE_RANGE_LIMIT = 1 << 16
let valueCounts = new Uint32Array(0)
/** The range's least value as [low, high] words, its size (0: not counting per value), and whether counts were taken. */
const rangeLow = new Int32Array(2)
let rangeSize = 0
let rangeUsed = false

/**
 * Bucket of a raw value: -1 below the first edge, buckets (= edges - 1) at or
 * after the last, else b with edge b ≤ raw < edge b + 1.
 */
function bucketOf(edges: Int32Array, low: number, high: number): number {
  let lo = 0, hi = edges.length >>> 1 // answer in [lo - 1, hi - 1]: edges below lo are ≤ raw, from hi on > raw
  while (lo < hi) {
    const middle = (lo + hi) >>> 1
    if (compareInt64(edges[2 * middle], edges[2 * middle + 1], low, high) <= 0) lo = middle + 1
    else hi = middle
  }
  return lo - 1
}

/** See QueryKernels.histogram. */
export function histogram(
  sequence: SequenceView, first: number, count: number, edges: Int32Array,
  selection: BitsetMemory | null, selectionStart: number, counts: Uint32Array,
): void {
  rangeSize = count === 0 ? 0 : rangeOfValues(sequence.records, first >>> BLOCK_SHIFT, (first + count - 1) >>> BLOCK_SHIFT, count)
  rangeUsed = false
  try {
    forEachBlock(sequence, first, count, edges, selection, selectionStart, counts, histogramBlock)
    if (rangeUsed) countsBetweenEdges(edges, counts)
  } finally {
    rangeSize = 0
  }
}

/**
 * The size of the range that holds every value of the packed blocks first .. last (their bases up
 * to base + g (2^w - 1)), its least value to rangeLow; 0 when some packed block cannot be read in u
 * space or the range is wider than VALUE_RANGE_LIMIT or 4 × the values asked (counting over it would
 * cost more than the values do). Other kinds are counted by their own paths.
 */
function rangeOfValues(records: Int32Array, firstBlock: number, lastBlock: number, count: number): number {
  let found = false
  for (let b = firstBlock; b <= lastBlock; b++) {
    const record = 6 * b
    if ((records[record] & 0xff) !== BlockKind.packed) continue
    const baseLow = records[record + 2], baseHigh = records[record + 3]
    if (!found || compareInt64(baseLow, baseHigh, rangeLow[0], rangeLow[1]) < 0) {
      rangeLow[0] = baseLow
      rangeLow[1] = baseHigh
    }
    found = true
  }
  if (!found) return 0
  const limit = Math.min(VALUE_RANGE_LIMIT, 4 * count)
  let size = 0
  for (let b = firstBlock; b <= lastBlock; b++) {
    const record = 6 * b
    if ((records[record] & 0xff) !== BlockKind.packed) continue
    const width = records[record] >>> 8
    if (width > 16 || records[record + 5] !== 0) return 0
    const end = offsetFromBase(records[record + 2], records[record + 3], rangeLow[0], rangeLow[1]) + (records[record + 4] >>> 0) * (2 ** width - 1) + 1
    if (!(end <= limit)) return 0
    if (end > size) size = end
  }
  return size
}

/** Adds the per-value counts of the range between each pair of edges to that bucket. */
function countsBetweenEdges(edges: Int32Array, counts: Uint32Array): void {
  let at = edgeInRange(edges, 0)
  for (let bucket = 0; bucket < counts.length; bucket++) {
    const end = edgeInRange(edges, bucket + 1)
    let sum = 0
    for (; at < end; at++) sum += valueCounts[at]
    counts[bucket] += sum
  }
}

/** Where edge e falls in the range: the index of the first value at or above it, within [0, rangeSize]. */
function edgeInRange(edges: Int32Array, e: number): number {
  const offset = offsetFromBase(edges[2 * e], edges[2 * e + 1], rangeLow[0], rangeLow[1])
  return offset < 0 ? 0 : Math.min(offset, rangeSize)
}

/** Selected values of the loaded packed block, [from, to), counted per value over the range (no search per value). */
function countInRange(words: Int32Array, from: number, to: number, selection: Int32Array | null, selectionBit: number): void {
  if (!rangeUsed) {
    if (valueCounts.length < rangeSize) valueCounts = new Uint32Array(rangeSize)
    else valueCounts.fill(0, 0, rangeSize)
    rangeUsed = true
  }
  const values = valueCounts
  const start = offsetFromBase(block.baseLow, block.baseHigh, rangeLow[0], rangeLow[1])
  const divisor = block.divisor, width = block.width, mask = block.mask, wordBase = block.wordBase, bitOffset = block.bitOffset
  for (let position = from; position < to; position += 32) {
    const n = Math.min(32, to - position)
    let bits = selectionBits(selection, selectionBit + position - from, n)
    if (bits === -1) {
      for (let bit = position * width + bitOffset, end = bit + 32 * width; bit < end; bit += width) {
        const word = wordBase + (bit >>> 5), shift = bit & 31
        values[start + (((words[word] >>> shift) | ((words[word + 1] << 1) << (31 - shift))) & mask) * divisor]++
      }
      continue
    }
    while (bits !== 0) {
      values[start + unitAt(words, position + lowestBit(bits)) * divisor]++
      bits &= bits - 1
    }
  }
}

function histogramBlock(
  sequence: SequenceView, blockIndex: number, from: number, to: number, edges: Int32Array,
  selection: Int32Array | null, selectionBit: number, counts: Uint32Array,
): void {
  loadBlock(sequence, blockIndex)
  const buckets = counts.length
  if (block.kind === BlockKind.constant) {
    const bucket = bucketOf(edges, block.baseLow, block.baseHigh)
    if (bucket >= 0 && bucket < buckets) counts[bucket] += selectedCount(selection, selectionBit, from, to)
    return
  }
  const words = sequence.bufferWords
  if (block.kind === BlockKind.table) {
    const entries = block.entries
    for (let entry = 0; entry < entries; entry++) entryBuckets[entry] = bucketOf(edges, tableEntries[2 * entry], tableEntries[2 * entry + 1])
    for (let position = from; position < to; position += 32) {
      let bits = selectionBits(selection, selectionBit + position - from, Math.min(32, to - position))
      while (bits !== 0) {
        const entry = unitAt(words, position + lowestBit(bits))
        bits &= bits - 1
        if (entry >= entries) tableIndexError(sequence, blockIndex, entry, entries)
        const bucket = entryBuckets[entry]
        if (bucket >= 0 && bucket < buckets) counts[bucket]++
      }
    }
    return
  }
  if (block.packedFast) {
    rawAtOffset(block.span, blockMax, 0)
    const lowest = bucketOf(edges, block.baseLow, block.baseHigh)
    const highest = bucketOf(edges, blockMax[0], blockMax[1])
    if (lowest === highest) {
      if (lowest >= 0 && lowest < buckets) counts[lowest] += selectedCount(selection, selectionBit, from, to)
      return
    }
    if (rangeSize !== 0) {
      countInRange(words, from, to, selection, selectionBit)
      return
    }
    // Edges lowest + 1 .. highest lie inside (base, max]: as u edges, u ≥ unitEdges[k] ⇔ value ≥ that edge.
    const inner = highest - lowest
    // Few selected values among many such edges: each value found among the raw edges, where making
    // the block's unit edges takes a step an edge (thousands of edges, a sparse DocSet).
    if (selection !== null && inner > 64 && 16 * selectedCount(selection, selectionBit, from, to) < inner) {
      for (let position = from; position < to; position += 32) {
        let bits = selectionBits(selection, selectionBit + position - from, Math.min(32, to - position))
        while (bits !== 0) {
          rawAtOffset((unitAt(words, position + lowestBit(bits)) >>> 0) * block.divisor, blockMax, 0)
          bits &= bits - 1
          const bucket = bucketOf(edges, blockMax[0], blockMax[1])
          if (bucket >= 0 && bucket < buckets) counts[bucket]++
        }
      }
      return
    }
    if (unitEdges.length < inner) unitEdges = new Float64Array(inner)
    for (let k = 0; k < inner; k++) {
      const edge = lowest + 1 + k
      unitEdges[k] = ceilUnits(offsetFromBase(edges[2 * edge], edges[2 * edge + 1], block.baseLow, block.baseHigh), block.divisor)
    }
    if (inner > 4 && block.width <= 12 && 1 << block.width <= 4 * (to - from)) {
      histogramByUnit(words, from, to, selection, selectionBit, lowest, inner, counts)
      return
    }
    for (let position = from; position < to; position += 32) {
      let bits = selectionBits(selection, selectionBit + position - from, Math.min(32, to - position))
      while (bits !== 0) {
        const unit = unitAt(words, position + lowestBit(bits)) >>> 0
        bits &= bits - 1
        let lo = 0, hi = inner
        while (lo < hi) {
          const middle = (lo + hi) >>> 1
          if (unitEdges[middle] <= unit) lo = middle + 1
          else hi = middle
        }
        const bucket = lowest + lo
        if (bucket >= 0 && bucket < buckets) counts[bucket]++
      }
    }
    return
  }
  decodeRaw(sequence, blockIndex * BLOCK_VALUES + from, to - from, decoded, 0)
  for (let position = from; position < to; position += 32) {
    let bits = selectionBits(selection, selectionBit + position - from, Math.min(32, to - position))
    while (bits !== 0) {
      const at = 2 * (position + lowestBit(bits) - from)
      bits &= bits - 1
      const bucket = bucketOf(edges, decoded[at], decoded[at + 1])
      if (bucket >= 0 && bucket < buckets) counts[bucket]++
    }
  }
}

/**
 * Selected units of the loaded packed block (width ≤ 12) counted per unit value, then summed
 * into buckets lowest .. lowest + inner by the u edges: no search per value.
 */
function histogramByUnit(
  words: Int32Array, from: number, to: number, selection: Int32Array | null, selectionBit: number,
  lowest: number, inner: number, counts: Uint32Array,
): void {
  const units = 1 << block.width
  unitCounts.fill(0, 0, units)
  for (let position = from; position < to; position += 32) {
    const n = Math.min(32, to - position)
    let bits = selectionBits(selection, selectionBit + position - from, n)
    if (bits === -1) {
      for (let at = position; at < position + 32; at++) unitCounts[unitAt(words, at)]++
      continue
    }
    while (bits !== 0) {
      unitCounts[unitAt(words, position + lowestBit(bits))]++
      bits &= bits - 1
    }
  }
  let k = 0, sum = 0
  for (let unit = 0; unit <= units; unit++) {
    if (unit === units || (k < inner && unitEdges[k] <= unit)) {
      // Flush the bucket that ends here (its units are below unitEdges[k]); empty ones add nothing.
      const bucket = lowest + k
      if (bucket >= 0 && bucket < counts.length) counts[bucket] += sum
      sum = 0
      if (unit === units) break
      while (k < inner && unitEdges[k] <= unit) k++
    }
    sum += unitCounts[unit]
  }
}
