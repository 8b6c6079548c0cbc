/**
 * topK over a sequence dictionary (format 2, form 1), whose code blocks bound
 * no value. The entries in value order, each counted by its selected codes in
 * a prefix of the sequence (the facet kernel), give the value the k-th best
 * selected value of the prefix reaches. Every answer is then among the
 * prefix's values at or beyond it and the later values strictly beyond it
 * (a later tie loses to the k before it by id): range filters mark those few,
 * and only the blocks holding them are decoded and ranked.
 */
import type { ColumnsBackend, DictionaryCascade, SequenceView } from '../backend/backend.js'
import type { BitsetMemory } from '../backend/query-kernels.js'
import { int64ToBigInt, MAX_INT64, MIN_INT64 } from '../format/int64.js'
import { NEGATIVE_INFINITY_RAW, POSITIVE_INFINITY_RAW } from './aggregations.js'
import { boundsOf } from './filters.js'
import { isNaNRaw } from './top-k.js'
import { wordsFor } from '../backend/bits.js'
import { ascendingEntries } from '../cascade/sequences/entry-order.js'

/**
 * Sequences shorter than this are ranked whole: there one decode of every value costs less than
 * the entries' counts and a range filter over the codes (figures: docs/query.md, topK).
 */
const CANDIDATES_MIN_VALUES = 16 * 1024

/** The first prefix counted (whole blocks and bitset words); doubled while it holds fewer than k selected values. */
const FIRST_PREFIX = 64 * 1024

/** A dictionary's entries (raw words) and, per order and NaN rule, the entries best first: made once, as entries never change. */
const entryOrders = new WeakMap<SequenceView, { raw: Int32Array; orders: (Int32Array | undefined)[] }>()

/** The sequence dictionary's entries, and its entries in the order topK meets them (NaN left out where skipped). */
function entryOrder(sequence: SequenceView, cascade: DictionaryCascade, backend: ColumnsBackend, ascending: boolean, skipNaN: boolean): { raw: Int32Array; order: Int32Array } {
  let made = entryOrders.get(sequence)
  if (made === undefined) {
    const n = cascade.entries.count, raw = new Int32Array(2 * n)
    backend.decodeRaw(cascade.entries, 0, n, raw, 0)
    entryOrders.set(sequence, (made = { raw, orders: [] }))
  }
  const raw = made.raw, key = (ascending ? 1 : 0) + (skipNaN ? 2 : 0)
  // A comparator sort of every entry took most of a topK(10) over 3,000 entries, call after call,
  // and 35 ms over 95,000; a radix sort once. Ties (a file a flush did not write) by entry, as before.
  const order = (made.orders[key] ??= bestFirst(raw, ascending, skipNaN))
  return { raw, order }
}

/** The entries in raw order, or its reverse (equal entries by entry either way), NaN left out where skipped. */
function bestFirst(raw: Int32Array, ascending: boolean, skipNaN: boolean): Int32Array {
  // Every word complemented reverses the signed i64 order, and the stable sort keeps ties by entry.
  const sorted = ascendingEntries(ascending ? raw : raw.map((word) => ~word), raw.length >>> 1)
  return skipNaN ? sorted.filter((entry) => !isNaNRaw(raw[2 * entry], raw[2 * entry + 1])) : sorted
}

/** Values that may rank, as bits to release; none at or after `end`. */
export interface Candidates {
  selection: BitsetMemory
  end: number
}

/**
 * The values of `sequence` (a sequence dictionary) among `selection` (value bits, null: all) that
 * may rank among the k best; null when the sequence is no dictionary, is short, or holds fewer than
 * k such values (the caller then ranks them all).
 */
export function dictionaryCandidates(
  sequence: SequenceView, backend: ColumnsBackend, k: number, ascending: boolean, selection: BitsetMemory | null, skipNaN: boolean,
): Candidates | null {
  const cascade = sequence.cascade
  if (cascade === null || cascade.form !== 1 || k === 0 || sequence.count < CANDIDATES_MIN_VALUES) return null
  const { codes } = cascade as DictionaryCascade
  const { raw, order } = entryOrder(sequence, cascade as DictionaryCascade, backend, ascending, skipNaN)
  const n = raw.length >>> 1
  const counts = new Uint32Array(n)
  let prefix = 0, rank = -1
  while (rank < 0) {
    if (prefix === sequence.count) return null
    const from = prefix
    prefix = Math.min(sequence.count, Math.max(FIRST_PREFIX, 2 * prefix))
    backend.query.countValues(codes, from, prefix - from, selection, from, counts)
    for (let at = 0, reached = 0; at < order.length; at++) {
      reached += counts[order[at]]
      if (reached >= k) {
        rank = at
        break
      }
    }
  }
  const threshold = order[rank]
  const value = int64ToBigInt(raw[2 * threshold], raw[2 * threshold + 1])
  // NaN stays out: it lies beyond ±Infinity's raws.
  const far = ascending ? (skipNaN ? NEGATIVE_INFINITY_RAW : MIN_INT64) : skipNaN ? POSITIVE_INFINITY_RAW : MAX_INT64
  const candidates = backend.query.allocateBitset(Math.max(1, wordsFor(sequence.count)))
  let end = prefix
  try {
    backend.query.matchRange(sequence, 0, prefix, ascending ? boundsOf(far, value) : boundsOf(value, far), selection, 0, candidates, 0)
    // Later values strictly beyond the threshold, if any entry lies there.
    if (rank > 0 && prefix < sequence.count) {
      const beyond = ascending ? boundsOf(far, value - 1n) : boundsOf(value + 1n, far)
      if (backend.query.matchRange(sequence, prefix, sequence.count - prefix, beyond, selection, prefix, candidates, prefix) > 0) end = sequence.count
    }
  } catch (error) {
    candidates.release()
    throw error
  }
  return { selection: candidates, end }
}
