/**
 * topK over a sequence dictionary (format 2, form 1), whose code blocks bound
 * no value: the entries in value order, each counted by its selected codes (the
 * facet kernel), give the value the k-th best selected value reaches; the
 * values at or beyond it are marked by one range filter, and only the blocks
 * holding those few are decoded and ranked.
 */
import type { ColumnsBackend, DictionaryCascade, SequenceView } from '../backend/backend.js'
import type { BitsetMemory } from '../backend/query-kernels.js'
import { compareInt64, int64ToBigInt, MAX_INT64, MIN_INT64 } from '../format/int64.js'
import { NEGATIVE_INFINITY_RAW, POSITIVE_INFINITY_RAW } from './aggregations.js'
import { boundsOf } from './filters.js'
import { isNaNRaw } from './top-k.js'

const allCounts = new WeakMap<SequenceView, Uint32Array>()

/**
 * Sequences shorter than this are ranked whole: there one decode of every value costs less than
 * the entries' counts and a range filter over the codes (figures: docs/query.md, topK).
 */
const CANDIDATES_MIN_VALUES = 16 * 1024

/** Selected values per code; every value's counts are the file's, kept with its codes. */
function codeCounts(codes: SequenceView, n: number, backend: ColumnsBackend, selection: BitsetMemory | null): Uint32Array {
  let counts = selection === null ? allCounts.get(codes) : undefined
  if (counts === undefined) {
    counts = new Uint32Array(n)
    backend.query.countValues(codes, 0, codes.count, selection, 0, counts)
    if (selection === null) allCounts.set(codes, counts)
  }
  return counts
}

/**
 * The values of `sequence` (a sequence dictionary) among `selection` (value bits, null: all) that
 * rank among the k best or tie the k-th, as a value bitset to release; null when the sequence is no
 * dictionary, is short, or holds fewer than k such values (the caller then ranks them all).
 */
export function dictionaryCandidates(
  sequence: SequenceView, backend: ColumnsBackend, k: number, ascending: boolean, selection: BitsetMemory | null, skipNaN: boolean,
): BitsetMemory | null {
  const cascade = sequence.cascade
  if (cascade === null || cascade.form !== 1 || k === 0 || sequence.count < CANDIDATES_MIN_VALUES) return null
  const { entries, codes } = cascade as DictionaryCascade
  const n = entries.count
  const raw = new Int32Array(2 * n)
  backend.decodeRaw(entries, 0, n, raw, 0)
  const counts = codeCounts(codes, n, backend, selection)
  const order = Array.from({ length: n }, (_, entry) => entry)
    .filter((entry) => counts[entry] > 0 && !(skipNaN && isNaNRaw(raw[2 * entry], raw[2 * entry + 1])))
    .sort((a, b) => (ascending ? 1 : -1) * compareInt64(raw[2 * a], raw[2 * a + 1], raw[2 * b], raw[2 * b + 1]))
  let reached = 0, threshold = -1
  for (const entry of order) {
    reached += counts[entry]
    if (reached >= k) {
      threshold = entry
      break
    }
  }
  if (threshold < 0) return null
  // From the threshold to the end of the order (NaN excluded: it lies beyond ±Infinity's raws).
  const value = int64ToBigInt(raw[2 * threshold], raw[2 * threshold + 1])
  const far = ascending ? (skipNaN ? NEGATIVE_INFINITY_RAW : MIN_INT64) : skipNaN ? POSITIVE_INFINITY_RAW : MAX_INT64
  const bounds = ascending ? boundsOf(far, value) : boundsOf(value, far)
  const candidates = backend.query.allocateBitset(Math.max(1, (sequence.count + 31) >>> 5))
  try {
    backend.query.matchRange(sequence, 0, sequence.count, bounds, selection, 0, candidates, 0)
  } catch (error) {
    candidates.release()
    throw error
  }
  return candidates
}
