/**
 * Chooses and writes a v2 sequence. Every candidate form is sized: its headers
 * exactly, its blocks from a fixed sample of them (every block of a sequence of
 * up to 64; see blocksNodeEstimate), as exact fractions; the smallest is written
 * (its blocks each in their smallest kind); ties go to the earlier candidate:
 * blocks, ascending dictionary, frequency dictionary, runs, decimal. Integer
 * forms: blocks; a dictionary when at most count / 2 distinct values; runs when
 * at most count / 2 runs. Doubles (fractional, geo) add a decimal form over the
 * same integer forms when at most count / 2 values are exceptions.
 */
import type { ByteSink } from '../write/byte-sink.js'
import { blocksNodeEstimate, type Estimate, writeBlocksNode } from './block-pool.js'
import { smaller, sum } from './sequences/estimate.js'
import { DictionaryOrder } from './constants.js'
import { chooseExponent, decimalHeaderSize, decimalParts, writeDecimalHeader } from './sequences/decimal.js'
import { dictionaryNodeEstimate, dictionaryParts, isIdentity, writeDictionaryNode } from './sequences/dictionary.js'
import { distinctValues } from './sequences/distinct.js'
import { countRuns, runParts, runsNodeEstimate, writeRunsNode } from './sequences/runs.js'

/** What the values of a sequence are: i64 integers, or SortableBits doubles. */
export type SequenceDomain = 'integer' | 'double'

/** A candidate: its estimated size and how to write it. */
interface Candidate {
  size: Estimate
  write: (sink: ByteSink) => void
}

/** The smallest integer-form candidate for values [0, count) of words. */
function bestIntegerForm(words: Int32Array, count: number): Candidate {
  let best: Candidate = { size: blocksNodeEstimate(words, count), write: (sink) => writeBlocksNode(words, count, sink) }
  const offer = (candidate: Candidate) => {
    if (smaller(candidate.size, best.size)) best = candidate
  }
  const distinct = count >= 2 ? distinctValues(words, count, Math.floor(count / 2)) : null
  if (distinct !== null) {
    for (const order of [DictionaryOrder.ascending, DictionaryOrder.frequency]) {
      if (order === DictionaryOrder.ascending && isIdentity(distinct)) continue
      const parts = dictionaryParts(count, distinct, order)
      offer({ size: dictionaryNodeEstimate(count, distinct, parts), write: (sink) => writeDictionaryNode(count, distinct, order, parts, sink) })
    }
  }
  const runs = countRuns(words, count)
  if (2 * runs <= count) {
    const parts = runParts(words, count, runs)
    offer({ size: runsNodeEstimate(count, runs, parts), write: (sink) => writeRunsNode(count, runs, parts, sink) })
  }
  return best
}

/** Appends the v2 sequence of `count` values (interleaved low, high words) to sink. */
export function writeSequenceV2(words: Int32Array, count: number, sink: ByteSink, domain: SequenceDomain): void {
  let best = bestIntegerForm(words, count)
  if (domain === 'double') {
    const exponent = chooseExponent(words, count)
    if (exponent >= 0) {
      const { integers, positions } = decimalParts(words, count, exponent)
      if (2 * positions.length <= count) {
        const child = bestIntegerForm(integers, count)
        const size = sum(decimalHeaderSize(positions.length), child.size)
        if (smaller(size, best.size)) {
          best = {
            size,
            write: (out) => {
              writeDecimalHeader(words, count, exponent, positions, out)
              child.write(out)
            },
          }
        }
      }
    }
  }
  best.write(sink)
}

/** The smallest and largest of values [0, count) of words into minMax ([minLow, minHigh, maxLow, maxHigh]). */
export function rangeOf(words: Int32Array, count: number, minMax: Int32Array): void {
  let minLow = words[0], minHigh = words[1], maxLow = minLow, maxHigh = minHigh
  for (let index = 1; index < count; index++) {
    const low = words[2 * index], high = words[2 * index + 1]
    if (high < minHigh || (high === minHigh && (low >>> 0) < (minLow >>> 0))) { minLow = low; minHigh = high }
    if (high > maxHigh || (high === maxHigh && (low >>> 0) > (maxLow >>> 0))) { maxLow = low; maxHigh = high }
  }
  minMax[0] = minLow; minMax[1] = minHigh; minMax[2] = maxLow; minMax[3] = maxHigh
}
