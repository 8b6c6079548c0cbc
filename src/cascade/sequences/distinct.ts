/**
 * Distinct values of a whole sequence (i64 as interleaved words), with counts,
 * for sequence dictionaries: an open-addressing table over the words (no
 * Map, no bigint), grown by doubling, with a shortcut for repeats of the
 * previous value.
 */
import { mix32, PROCESS_SEED, PROCESS_SEED_2 } from '../../format/seeded-hash.js'

/** The distinct values in first-seen order (words) with their counts, and each value's entry. */
export interface DistinctValues {
  words: Int32Array
  counts: Int32Array
  size: number
  /** indexOf[i]: the distinct entry of value i. */
  indexOf: Int32Array
}

/** Distinct values of values [0, count) of words, or null when there are more than limit. */
export function distinctValues(words: Int32Array, count: number, limit: number): DistinctValues | null {
  const indexOf = new Int32Array(count)
  let capacity = 1024, bits = 10
  let slots = newSlots(capacity)
  let entryWords = new Int32Array(2 * 512)
  let counts = new Int32Array(512)
  let size = 0
  let lastLow = 0, lastHigh = 0, lastEntry = -1
  for (let index = 0; index < count; index++) {
    const low = words[2 * index], high = words[2 * index + 1]
    if (lastEntry >= 0 && low === lastLow && high === lastHigh) {
      indexOf[index] = lastEntry
      counts[lastEntry]++
      continue
    }
    const slot = findSlot(slots, entryWords, low, high, bits)
    let entry = slots[2 * slot]
    if (entry < 0) {
      if (size === limit) return null
      entry = size++
      if (2 * size > entryWords.length) {
        const grownWords = new Int32Array(2 * entryWords.length)
        grownWords.set(entryWords)
        entryWords = grownWords
        const grownCounts = new Int32Array(2 * counts.length)
        grownCounts.set(counts)
        counts = grownCounts
      }
      entryWords[2 * entry] = low
      entryWords[2 * entry + 1] = high
      counts[entry] = 0
      slots[2 * slot] = entry
      slots[2 * slot + 1] = low
      // Keep the table at most half full: double it and place every entry again.
      if (2 * size > capacity) {
        capacity *= 2
        bits++
        slots = newSlots(capacity)
        for (let placed = 0; placed < size; placed++) {
          const low = entryWords[2 * placed], slot = findSlot(slots, entryWords, low, entryWords[2 * placed + 1], bits)
          slots[2 * slot] = placed
          slots[2 * slot + 1] = low
        }
      }
    }
    counts[entry]++
    indexOf[index] = entry
    lastLow = low; lastHigh = high; lastEntry = entry
  }
  return { words: entryWords, counts, size, indexOf }
}

/** A table of capacity slots, each an entry (-1: empty) and its value's low word, read from one cache line. */
function newSlots(capacity: number): Int32Array {
  return new Int32Array(2 * capacity).fill(-1)
}

/** The slot of (low, high) in slots (2^bits of them): its entry's, or the empty one where it would go. */
function findSlot(slots: Int32Array, entryWords: Int32Array, low: number, high: number, bits: number): number {
  const mask = (1 << bits) - 1
  let slot = hashSlot(low, high, bits)
  for (;;) {
    const entry = slots[2 * slot]
    if (entry < 0 || (slots[2 * slot + 1] === low && entryWords[2 * entry + 1] === high)) return slot
    slot = (slot + 1) & mask
  }
}

/**
 * The first slot of a table of 2^bits slots for the i64 (low, high): each word's bits spread by
 * multiplies and shifts both ways before the top bits are taken. (A product's low bits, used once,
 * see only the words' low bits, and xor-ing the words first folds away what they share: values of
 * zero low 24 bits all probed from 256 slots, and flush and verify went quadratic.)
 */
export function hashSlot(low: number, high: number, bits: number): number {
  // Seeded (src/format/seeded-hash.ts): values whose words cancel in the first step were made to
  // share one slot. The finalizer takes words that differ only in their top bits apart.
  high ^= PROCESS_SEED
  const h = Math.imul(high ^ (high >>> 16), 0x85ebca6b) ^ low ^ PROCESS_SEED_2
  return mix32(h) >>> (32 - bits)
}

/** Signed i64 comparison of entries a and b of words. */
export function compareEntries(words: Int32Array, a: number, b: number): number {
  const aHigh = words[2 * a + 1], bHigh = words[2 * b + 1]
  if (aHigh !== bHigh) return aHigh < bHigh ? -1 : 1
  const aLow = words[2 * a] >>> 0, bLow = words[2 * b] >>> 0
  return aLow === bLow ? 0 : aLow < bLow ? -1 : 1
}
