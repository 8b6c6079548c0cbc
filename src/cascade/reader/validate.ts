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
    const keep = backend.name === 'ts'
    // Decoded with every backend: a corrupt entries block (a dictionary index ≥ its k) must fail the
    // open with both, not at open with one and at a later read with the other.
    // Kept by the TypeScript backend; else checked in the scratch words when they hold them.
    const words = keep || k > START_CHUNK ? new Int32Array(2 * k) : startWords
    backend.decodeRaw(cascade.entries, 0, k, words, 0)
    if (ordinalLimit >= 0) {
      for (let entry = 0; entry < k; entry++) {
        if (words[2 * entry + 1] !== 0 || words[2 * entry] >>> 0 >= ordinalLimit) {
          failCorrupt(sequence.fileName, sequence.label, `dictionary entry ${entry} is ${int64ToBigInt(words[2 * entry], words[2 * entry + 1])}, not an ordinal in [0, ${ordinalLimit})`)
        }
      }
    }
    if (keep) (cascade as { entryWords: Int32Array | null }).entryWords = words
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
