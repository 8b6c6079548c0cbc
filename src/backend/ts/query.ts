/**
 * Pure-TypeScript query kernels (see ../query-kernels.ts): bitsets are plain
 * Int32Arrays; the kernels read blocks in place (query-count, query-range,
 * query-aggregate, query-histogram; shared pieces in query-scan).
 */
import type { BitsetMemory, QueryKernels } from '../query-kernels.js'
import { aggregate } from './query-aggregate.js'
import { countValues } from './query-count.js'
import { histogram } from './query-histogram.js'
import { matchRange } from './query-range.js'

/** A zeroed bitset of wordCount words in a plain Int32Array (address 0, nothing to free). */
export function allocateBitset(wordCount: number): BitsetMemory {
  const words = new Int32Array(wordCount)
  return { words, address: 0, wordCount, release() {} }
}

/** The TS backend's query kernels. */
export const typeScriptQueryKernels: QueryKernels = {
  allocateBitset,
  countValues,
  matchRange,
  aggregate,
  histogram,
}
