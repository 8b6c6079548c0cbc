/**
 * topK over a sequence dictionary (format 2, form 1), whose code blocks bound
 * no value: the entries in value order, each counted by its selected codes (the
 * facet kernel), give the value the k-th best selected value reaches; the
 * values at or beyond it are marked by one range filter, and only the blocks
 * holding those few are decoded and ranked.
 */
import type { ColumnsBackend, DictionaryCascade, SequenceView } from '../backend/backend.js'
import type { BitsetMemory } from '../backend/query-kernels.js'
import { compareInt64, int64ToBigInt } from '../format/int64.js'
import { infinities } from './aggregations.js'
import { isNaNRaw } from './top-k.js'

const allCounts = new WeakMap<SequenceView, Uint32Array>()
const MIN_INT64 = -(2n ** 63n)
const MAX_INT64 = 2n ** 63n - 1n

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
 * dictionary or holds fewer than k such values (the caller then ranks them all).
 */
export function dictionaryCandidates(
  sequence: SequenceView, backend: ColumnsBackend, k: number, ascending: boolean, selection: BitsetMemory | null, skipNaN: boolean,
): BitsetMemory | null {
  const cascade = sequence.cascade
  if (cascade === null || cascade.form !== 1 || k === 0) return null
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
  const far = skipNaN ? int64ToBigInt(infinities[ascending ? 0 : 2], infinities[ascending ? 1 : 3]) : ascending ? MIN_INT64 : MAX_INT64
  const [lo, hi] = ascending ? [far, value] : [value, far]
  const bounds = new Int32Array([Number(BigInt.asIntN(32, lo)), Number(BigInt.asIntN(32, lo >> 32n)), Number(BigInt.asIntN(32, hi)), Number(BigInt.asIntN(32, hi >> 32n))])
  const candidates = backend.query.allocateBitset(Math.max(1, (sequence.count + 31) >>> 5))
  try {
    backend.query.matchRange(sequence, 0, sequence.count, bounds, selection, 0, candidates, 0)
  } catch (error) {
    candidates.release()
    throw error
  }
  return candidates
}
