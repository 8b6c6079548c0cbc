/**
 * Open-time checks of a v2 sequence's children that reads rely on, made through
 * the backend: run starts (0, strictly increasing, below the count) and the
 * checkpoints that point into them; a keyword dictionary sequence's entries
 * (ordinals below termCount, so its codes, checked on read, give valid ordinals).
 * The TypeScript backend also keeps a dictionary's entries decoded.
 */
import type { ColumnsBackend, SequenceView } from '../../backend/backend.js'
import { failCorrupt } from '../../format/errors.js'
import { int64Result, int64ToBigInt, readUint32 } from '../../format/int64.js'
import { CHECKPOINT_VALUES } from '../constants.js'

const START_CHUNK = 4096
const startWords = new Int32Array(2 * START_CHUNK)

/** Checks the cascade of `sequence`; ordinalLimit ≥ 0 for keyword ordinals (the term count), else -1. */
export function validateCascade(sequence: SequenceView, backend: ColumnsBackend, ordinalLimit: number): void {
  const cascade = sequence.cascade
  if (cascade === null) return
  if (cascade.form === 1) {
    const k = cascade.entries.count
    // Decoded with every backend: a corrupt entries block (a dictionary index ≥ its k) must fail the
    // open with both, not at open with one and at a later read with the other. Kept by the
    // TypeScript backend; else checked a chunk at a time in the scratch words.
    if (backend.name !== 'ts') {
      for (let first = 0; first < k; first += START_CHUNK) {
        const n = Math.min(START_CHUNK, k - first)
        backend.decodeRaw(cascade.entries, first, n, startWords, 0)
        if (ordinalLimit >= 0) checkOrdinals(sequence, startWords, first, n, ordinalLimit)
      }
      return
    }
    const words = entryWordsFor(sequence, k)
    backend.decodeRaw(cascade.entries, 0, k, words, 0)
    if (ordinalLimit >= 0) checkOrdinals(sequence, words, 0, k, ordinalLimit)
    ;(cascade as { entryWords: Int32Array | null }).entryWords = words
    return
  }
  if (cascade.form === 2) {
    // Decoded a chunk at a time (a call per start cost more than the rest of the open), into a
    // buffer of fixed size: the run count is not bounded by the file's size.
    let previous = -1
    for (let first = 0; first < cascade.runCount; first += START_CHUNK) {
      const n = Math.min(START_CHUNK, cascade.runCount - first)
      backend.decodeRaw(cascade.starts, first, n, startWords, 0)
      for (let index = 0; index < n; index++) {
        const run = first + index, low = startWords[2 * index], high = startWords[2 * index + 1]
        const start = low >>> 0
        if (high !== 0 || (run === 0 ? start !== 0 : start <= previous) || start >= cascade.count) {
          failCorrupt(sequence.fileName, sequence.label, `run ${run} starts at ${int64ToBigInt(low, high)}: starts are 0, then strictly increasing below ${cascade.count}`)
        }
        previous = start
      }
    }
    const blocks = Math.ceil(cascade.count / CHECKPOINT_VALUES)
    for (let block = 0; block < blocks; block++) {
      const run = readUint32(sequence.bytes, cascade.checkpointsStart + 4 * block)
      const value = block * CHECKPOINT_VALUES
      backend.getRaw(cascade.starts, run)
      const start = int64Result[0] >>> 0
      let next = cascade.count
      if (run + 1 < cascade.runCount) {
        backend.getRaw(cascade.starts, run + 1)
        next = int64Result[0] >>> 0
      }
      if (!(start <= value && value < next)) failCorrupt(sequence.fileName, sequence.label, `checkpoint ${block} names run ${run}, which does not hold value ${value}`)
    }
    return
  }
  if (cascade.form === 3) validateCascade(cascade.integers, backend, -1)
}

/** Entries [first, first + n) of a keyword dictionary sequence, words[0..2n), are ordinals below limit. */
function checkOrdinals(sequence: SequenceView, words: Int32Array, first: number, n: number, limit: number): void {
  for (let index = 0; index < n; index++) {
    if (words[2 * index + 1] !== 0 || words[2 * index] >>> 0 >= limit) {
      failCorrupt(sequence.fileName, sequence.label, `dictionary entry ${first + index} is ${int64ToBigInt(words[2 * index], words[2 * index + 1])}, not an ordinal in [0, ${limit})`)
    }
  }
}

/** The TypeScript backend's decoded entries: 8 bytes each, a RangeError naming the sequence where the engine has not that much. */
function entryWordsFor(sequence: SequenceView, k: number): Int32Array {
  try {
    return new Int32Array(2 * k)
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    throw new RangeError(`${sequence.fileName}: ${sequence.label}: a dictionary of ${k} entries takes ${8 * k} bytes decoded, which this engine cannot allocate`, { cause: error })
  }
}
