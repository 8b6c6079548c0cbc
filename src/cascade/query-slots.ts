/**
 * What a counting question over format 2 encodings is (query-encodings.ts answers it): the slot
 * each value is counted in (countValues: the value; histograms: its bucket), the operation that
 * bundles the slots with v1's kernel and the decoding path, and the limits up to which each
 * backend steps patches, runs and exceptions rather than decoding their blocks.
 */
import type { SequenceView } from '../backend/backend.js'
import type { BitsetMemory } from '../backend/query-kernels.js'
import { compareInt64 } from '../format/int64.js'

const TWO_POW_32 = 4294967296

/** Counts values of a run of a sequence into slots (countValues, or histogram with its edges bound). */
export type Tally = (sequence: SequenceView, first: number, count: number, selection: BitsetMemory | null, selectionStart: number, out: Uint32Array) => void

/** Where a raw value is counted: its slot, or -1 (strict: an error; else not counted). */
export interface Slots {
  readonly strict: boolean
  slot(low: number, high: number): number
  /** The slot of a value given as an exact number (|value| ≤ 2^53 - 1), where the slots offer it. */
  numberSlot?(value: number): number
  /** Set when the slot of a value is the value itself, in [0, below) (countValues). */
  readonly below?: number
}

/** One question over values: its slots, v1's kernel for it, and the decoding path for what the encodings cannot answer. */
export interface Operation {
  readonly slots: Slots
  readonly inner: Tally
  readonly decode: Tally
  /** Patched blocks with more patches than this are decoded (PATCH_LIMITS). */
  readonly patchLimit: number
  /** Frequent blocks with more exceptions than this are decoded (EXCEPTION_LIMITS). */
  readonly exceptionLimit: number
  /** A kernel for a stretch of run blocks (false: it cannot say, nothing counted), else each block's runs walked here. */
  readonly runBlocks?: (sequence: SequenceView, first: number, count: number, selection: BitsetMemory | null, selectionStart: number, out: Uint32Array) => boolean
  /**
   * Whether `inner` over a dictionary's decoded copy that holds its values beats counting codes when
   * nothing is selected (histograms), given that copy: a function judges it by the copy's blocks.
   */
  readonly overValues?: boolean | ((copy: SequenceView) => boolean)
  /** Whether one decoding call over the whole range beats a call per stretch of blocks (many slots: each call costs a pass over them). */
  readonly decodeAll?: boolean
  /** The least average run length at which a runs sequence is counted a run at a time (RUN_WALK_LENGTHS); shorter runs are decoded. */
  readonly runLength: number
  /**
   * Histograms: for blocks [firstBlock, firstBlock + blockCount) of `blocks`, the one slot of each
   * block's values as its records bound them (-1: no slot), or SLOTS_MAY_DIFFER; such blocks are
   * counted whole, unread.
   */
  readonly blockSlots?: (blocks: SequenceView, firstBlock: number, blockCount: number) => Int32Array
  /** Dictionary blocks counted by their indexes, then each entry's count to its slot (TypeScript: its decode is slow). */
  readonly dictionaryBlocks?: boolean
}

/** Blocks cut by more edges than this cost format 1's histogram kernel more than counting codes does. */
const EDGES_PER_BLOCK = 8

/**
 * Whether few blocks (a quarter at most) have more than EDGES_PER_BLOCK edges inside their least and
 * largest values (`extremes`: two numbers a block): then format 1's histogram kernel, which counts a
 * block inside one bucket at once and a few edges by vector compares, beats counting each code; an
 * unsorted column of many values cuts every block with every edge, and counting codes wins
 * (docs/performance.md). Edges beyond 2^53 are rounded here: a choice of path, not of answer.
 */
export function fewEdgesPerBlock(extremes: Float64Array, edges: Int32Array): boolean {
  const numbers = edgeNumbers(edges)
  const blocks = extremes.length >>> 1
  let cut = 0
  for (let b = 0; b < blocks && cut <= blocks / 4; b++) {
    if (edgesAtOrBelow(numbers, extremes[2 * b + 1]) - edgesAtOrBelow(numbers, extremes[2 * b]) > EDGES_PER_BLOCK) cut++
  }
  return cut <= blocks / 4
}

/** Raw histogram edges (2 words each) as numbers (exact up to 2^53). */
function edgeNumbers(edges: Int32Array): Float64Array {
  const numbers = new Float64Array(edges.length >>> 1)
  for (let e = 0; e < numbers.length; e++) numbers[e] = edges[2 * e + 1] * TWO_POW_32 + (edges[2 * e] >>> 0)
  return numbers
}

/** How many of the ascending numbers are at or below value (binary search). */
function edgesAtOrBelow(numbers: Float64Array, value: number): number {
  let lo = 0, hi = numbers.length
  while (lo < hi) {
    const middle = (lo + hi) >>> 1
    if (numbers[middle] <= value) lo = middle + 1
    else hi = middle
  }
  return lo
}

/** Operation.blockSlots: a block whose values may fall in more than one slot. */
export const SLOTS_MAY_DIFFER = -2

/**
 * The slots of blocks bounded by `extremes` (least and largest of each block, as numbers) for
 * histogram edges (raw, 2 words each), or undefined where an edge is no exact number. One plain
 * loop per question: V8 optimizes it soon, where a call per block stays slow for dozens of calls.
 */
export function blockSlotsOf(edges: Int32Array): ((extremes: Float64Array, firstBlock: number, blockCount: number) => Int32Array) | undefined {
  const numbers = edgeNumbers(edges), count = numbers.length
  if (!numbers.every(Number.isSafeInteger)) return undefined
  return (extremes, firstBlock, blockCount) => {
    const slots = new Int32Array(blockCount)
    for (let b = 0; b < blockCount; b++) {
      const least = extremes[2 * (firstBlock + b)], largest = extremes[2 * (firstBlock + b) + 1]
      // The edges at or below least, then whether the next edge is above largest too.
      const lo = edgesAtOrBelow(numbers, least)
      slots[b] = lo < count && numbers[lo] <= largest ? SLOTS_MAY_DIFFER : lo >= 1 && lo < count ? lo - 1 : -1
    }
    return slots
  }
}

/**
 * Patched blocks go through the lens when they have at most this many patches (Operation.patchLimit):
 * each patch costs a step, where decoding the block costs a pass over all its values. TypeScript
 * decodes slowly, so stepping wins up to most of the block. WebAssembly counts every patched block
 * with patches in one decode-and-count kernel (countDecoded: whole blocks straight from their fields,
 * one call for the whole run); its histograms step patches in JS only when few
 * (docs/performance.md, bench/results/v2-queries.md).
 */
export const PATCH_LIMITS = { typeScript: 1023, wasmInJs: 64, wasmKernel: 0 }

/**
 * A runs sequence is walked a run at a time (query-run-form.ts) where its runs average at least
 * this many values: each run costs a step in JS, in which WebAssembly decodes a few dozen values;
 * TypeScript's decode costs more than the step even for runs of one to three (docs/performance.md).
 */
export const RUN_WALK_LENGTHS = { typeScript: 1, wasm: 32 }

/**
 * Frequent blocks add their top value at once and step their exceptions when they have at most
 * this many (Operation.exceptionLimit). TypeScript's decode of a block costs more than stepping all
 * of its exceptions; WebAssembly's decode-and-count kernel (facets) costs a few dozen steps, and its
 * decode for a kernel called from JS (histograms) a few hundred (docs/performance.md).
 */
export const EXCEPTION_LIMITS = { typeScript: 1023, wasmInJs: 256, wasmKernel: 64 }

/** countValues' slots: the value itself, in [0, n). */
export function valueSlots(n: number): Slots {
  return { strict: true, slot: (low, high) => (high === 0 && low >>> 0 < n ? low : -1), numberSlot: (value) => (value >= 0 && value < n ? value : -1), below: n }
}

/** histogram's slots: bucket b with edge b ≤ raw < edge b + 1, else not counted. */
export function bucketSlots(edges: Int32Array): Slots {
  const count = edges.length >>> 1, buckets = count - 1
  // The edges as numbers when every one is exact: exact values then compare as numbers.
  const numbers = new Float64Array(count)
  let exact = true
  for (let e = 0; e < count; e++) {
    numbers[e] = edges[2 * e + 1] * TWO_POW_32 + (edges[2 * e] >>> 0)
    exact &&= Number.isSafeInteger(numbers[e])
  }
  // The last answer's edge count: runs in value order mostly fall where the last one did, so two
  // compares confirm it before any search.
  let last = 0
  const numberSlot = (value: number): number => {
    let lo = last
    if (!((lo === 0 || numbers[lo - 1] <= value) && (lo === count || numbers[lo] > value))) {
      lo = 0
      let hi = count
      while (lo < hi) {
        const middle = (lo + hi) >>> 1
        if (numbers[middle] <= value) lo = middle + 1
        else hi = middle
      }
      last = lo
    }
    return lo >= 1 && lo - 1 < buckets ? lo - 1 : -1
  }
  return {
    strict: false,
    numberSlot: exact ? numberSlot : undefined,
    slot(low, high) {
      const value = high * TWO_POW_32 + (low >>> 0)
      if (exact && Number.isSafeInteger(value)) return numberSlot(value)
      let lo = 0, hi = count
      while (lo < hi) {
        const middle = (lo + hi) >>> 1
        if (compareInt64(edges[2 * middle], edges[2 * middle + 1], low, high) <= 0) lo = middle + 1
        else hi = middle
      }
      return lo >= 1 && lo - 1 < buckets ? lo - 1 : -1
    },
  }
}
