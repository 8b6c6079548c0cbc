/**
 * Pure-TypeScript query kernels (see ../query-kernels.ts): bitsets are plain
 * Int32Arrays; the kernels read blocks in place (query-count, query-range,
 * query-aggregate, query-histogram; shared pieces in query-scan).
 */
import type { BitsetMemory, BitsetOperation, QueryKernels } from '../query-kernels.js'
import { popcount } from '../bits.js'
import { aggregate } from './query-aggregate.js'
import { countValues } from './query-count.js'
import { histogram } from './query-histogram.js'
import { markDocumentStarts, walkMulti } from './query-multi.js'
import { matchStarts } from './query-starts.js'
import { matchOrdinals } from './query-ordinals.js'
import { matchRange } from './query-range.js'

/** A zeroed bitset of wordCount words in a plain Int32Array (address 0, nothing to free). */
export function allocateBitset(wordCount: number): BitsetMemory {
  const words = new Int32Array(wordCount)
  return { words, address: 0, wordCount, release() {} }
}

/** Set bits of the bitset. */
export function countBits(bitset: BitsetMemory): number {
  const words = bitset.words
  let total = 0
  for (let word = 0; word < words.length; word++) total += popcount(words[word])
  return total
}

/** target = target op other, word by word. */
export function combineBits(target: BitsetMemory, other: BitsetMemory, operation: BitsetOperation): void {
  const words = target.words, others = other.words
  if (operation === 'and') for (let word = 0; word < words.length; word++) words[word] &= others[word]
  else if (operation === 'or') for (let word = 0; word < words.length; word++) words[word] |= others[word]
  else for (let word = 0; word < words.length; word++) words[word] &= ~others[word]
}

/** The TS backend's query kernels. */
export const typeScriptQueryKernels: QueryKernels = {
  allocateBitset,
  countBits,
  combineBits,
  countValues,
  matchRange,
  matchOrdinals,
  aggregate,
  histogram,
  countDistinct: (offsets, values, from, to, docs, counts) => walkMulti(offsets, values, from, to, docs, counts, null),
  markDocumentStarts: (offsets, values, from, to, starts, nonempty) => markDocumentStarts(offsets, values.count, from, to, starts, nonempty),
  matchAny: matchStarts,
  markFirstValues(offsets, values, to, out, counts, positions, ordinals) {
    // Counted apart and added once the walk is through: a corrupt value leaves counts as they were (as WebAssembly's table does).
    const repeats = { positions, ordinals, count: 0 }, walked = new Uint32Array(counts.length)
    walkMulti(offsets, values, 0, to, null, walked, out, repeats)
    for (let value = 0; value < counts.length; value++) counts[value] += walked[value]
    return repeats.count
  },
}
