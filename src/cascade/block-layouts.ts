/**
 * Where the parts of a format 2 block lie in the live words of its file (the WebAssembly memory
 * may have grown since the sequence was parsed, so the words are made again when it has): a
 * block's data, a run block's values and run ends, a patched block's low fields, positions and
 * high parts, a runs sequence's checkpoints. For the paths that read encodings where they lie.
 */
import type { ColumnsBackend, RunsCascade, SequenceView } from '../backend/backend.js'
import { BLOCK_VALUES } from '../format/constants.js'
import { compareInt64, readUint32 } from '../format/int64.js'
import { bitsOf, bytesFor, fieldAt } from './bits.js'
import { positionsSize } from './blocks/positions.js'
import { POSITIONS_LIST_FLAG } from './constants.js'

/** The sequence's file as aligned words, and where its data area starts in them: live (WebAssembly memory may have grown). */
let liveWords: Int32Array<ArrayBufferLike> = new Int32Array(0)
function dataOf(sequence: SequenceView): number {
  const bytes = sequence.file.bytes
  const words = Math.floor(bytes.buffer.byteLength / 4)
  if (liveWords.buffer !== bytes.buffer || liveWords.length !== words) liveWords = new Int32Array(bytes.buffer, 0, words)
  return bytes.byteOffset + sequence.dataStart
}

/** Where block `block` of a form-0 sequence starts in the live file words (which are returned with it). */
export function blockData(sequence: SequenceView, block: number): { words: Int32Array; data: number } {
  const data = dataOf(sequence) + sequence.records[6 * block + 1]
  return { words: liveWords, data }
}

/** Where a run block's parts lie in the live file words: runCount values of `width` bits, then the ends of all runs but the last. */
export interface RunsLayout {
  words: Int32Array; valuesAt: number; width: number; runCount: number; startsAt: number; positionWidth: number; n: number
}

/** The layout of block `block` (a run block) of a form-0 sequence. */
export function runsLayout(sequence: SequenceView, block: number): RunsLayout {
  const records = sequence.records, at = 6 * block
  const width = (records[at] >>> 8) & 0xff, runCount = (records[at] >>> 16) + 1
  const n = Math.min(BLOCK_VALUES, sequence.count - block * BLOCK_VALUES)
  const valuesAt = dataOf(sequence) + records[at + 1]
  return { words: liveWords, valuesAt, width, runCount, startsAt: valuesAt + bytesFor(runCount * width), positionWidth: bitsOf(n - 1), n }
}

/** Where run `run` of a run block ends (the block's end for the last; not checked against the others). */
export function runEnd(layout: RunsLayout, run: number): number {
  return run + 1 < layout.runCount ? fieldAt(layout.words, layout.startsAt, run, layout.positionWidth) : layout.n
}

/** Where a patched block's parts lie in the live file words (data: u8 high width, n low fields, the positions, e high parts). */
export interface PatchedLayout {
  words: Int32Array; lowsAt: number; width: number; positionsAt: number; list: boolean; e: number; n: number
  positionWidth: number; highsAt: number; highWidth: number
}

/** The layout of block `block` (a patched block) of a form-0 sequence. */
export function patchedLayout(sequence: SequenceView, block: number): PatchedLayout {
  const records = sequence.records, at = 6 * block
  const width = (records[at] >>> 8) & 0xff, param = records[at] >>> 16
  const n = Math.min(BLOCK_VALUES, sequence.count - block * BLOCK_VALUES)
  const data = dataOf(sequence) + records[at + 1], words = liveWords
  const e = param & 1023, list = (param & POSITIONS_LIST_FLAG) !== 0, positionWidth = bitsOf(n - 1)
  const positionsAt = data + 1 + bytesFor(n * width)
  return {
    words, lowsAt: data + 1, width, positionsAt, list, e, n, positionWidth,
    highsAt: positionsAt + positionsSize(e, n, positionWidth), highWidth: fieldAt(words, data, 0, 8),
  }
}

/** A runs sequence's checkpoint for block `block`: the run holding its first value; past the last block, the last run. */
export function checkpointRun(sequence: SequenceView, cascade: RunsCascade, block: number): number {
  return block < Math.ceil(cascade.count / BLOCK_VALUES) ? readUint32(sequence.file.bytes, cascade.checkpointsStart + 4 * block) : cascade.runCount - 1
}

const runExtremes = new WeakMap<SequenceView, Int32Array>()
const RUN_CHUNK = 4096
const runValues = new Int32Array(2 * RUN_CHUNK)

/**
 * A runs sequence's blocks bounded by the values of their runs, as words: block b's least
 * (4b, 4b + 1) and largest (4b + 2, 4b + 3) of the runs from its checkpoint to the next block's
 * (that one perhaps starting at the next block: a bound no tighter than its own values). Made once
 * for topK's and range filters' bounds; the run values decoded a chunk at a time, each once or twice.
 */
export function runBlockExtremes(sequence: SequenceView, cascade: RunsCascade, backend: ColumnsBackend): Int32Array {
  let extremes = runExtremes.get(sequence)
  if (extremes !== undefined) return extremes
  const blocks = Math.ceil(cascade.count / BLOCK_VALUES)
  // Every checkpoint through one view of the file (a WebAssembly file's view is a getter's work),
  // before any decode may grow memory under it.
  const bytes = sequence.file.bytes, checkpoints = new Int32Array(blocks + 1)
  for (let block = 0; block < blocks; block++) checkpoints[block] = readUint32(bytes, cascade.checkpointsStart + 4 * block)
  checkpoints[blocks] = cascade.runCount - 1
  extremes = new Int32Array(4 * blocks)
  let chunkFirst = 0, chunkCount = 0
  for (let block = 0; block < blocks; block++) {
    const lo = checkpoints[block], hi = checkpoints[block + 1]
    let leastLow = 0, leastHigh = 0, mostLow = 0, mostHigh = 0
    for (let run = lo; run <= hi; run++) {
      if (run < chunkFirst || run >= chunkFirst + chunkCount) {
        chunkFirst = run
        chunkCount = Math.min(RUN_CHUNK, cascade.runCount - run)
        backend.decodeRaw(cascade.values, run, chunkCount, runValues, 0)
      }
      const low = runValues[2 * (run - chunkFirst)], high = runValues[2 * (run - chunkFirst) + 1]
      if (run === lo || compareInt64(low, high, leastLow, leastHigh) < 0) {
        leastLow = low
        leastHigh = high
      }
      if (run === lo || compareInt64(low, high, mostLow, mostHigh) > 0) {
        mostLow = low
        mostHigh = high
      }
    }
    extremes[4 * block] = leastLow
    extremes[4 * block + 1] = leastHigh
    extremes[4 * block + 2] = mostLow
    extremes[4 * block + 3] = mostHigh
  }
  runExtremes.set(sequence, extremes)
  return extremes
}
