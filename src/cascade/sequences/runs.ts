/**
 * Sequence runs (form 2): the runs of equal adjacent values over the whole
 * sequence, with a checkpoint per 1,024 values so a read searches one block's
 * runs. Layout: u8 form, u32 count, u32 runCount, u32 checkpoint per 1,024
 * values (the run holding value 1,024 b), the run values (BLOCKS, runCount
 * values), the run starts (BLOCKS, runCount values: 0, then strictly increasing).
 */
import type { ByteSink } from '../../write/byte-sink.js'
import { blocksNodeEstimate, type Estimate, writeBlocksNode } from '../block-pool.js'
import { sum } from './estimate.js'
import { CHECKPOINT_VALUES, Form } from '../constants.js'

/** Runs of equal adjacent values among values [0, count) of words. */
export function countRuns(words: Int32Array, count: number): number {
  let runs = count > 0 ? 1 : 0
  for (let index = 1; index < count; index++) {
    if (words[2 * index] !== words[2 * index - 2] || words[2 * index + 1] !== words[2 * index - 1]) runs++
  }
  return runs
}

/** The run values and run starts (words) of values [0, count) of words. */
export function runParts(words: Int32Array, count: number, runCount: number): { values: Int32Array; starts: Int32Array } {
  const values = new Int32Array(2 * runCount), starts = new Int32Array(2 * runCount)
  let run = -1
  for (let index = 0; index < count; index++) {
    if (index === 0 || words[2 * index] !== words[2 * index - 2] || words[2 * index + 1] !== words[2 * index - 1]) {
      run++
      values[2 * run] = words[2 * index]
      values[2 * run + 1] = words[2 * index + 1]
      starts[2 * run] = index
    }
  }
  return { values, starts }
}

/** Bytes of the run form: header and checkpoints exactly, its children estimated (see blocksNodeEstimate). */
export function runsNodeEstimate(count: number, runCount: number, parts: { values: Int32Array; starts: Int32Array }): Estimate {
  return sum(9 + 4 * Math.ceil(count / CHECKPOINT_VALUES), blocksNodeEstimate(parts.values, runCount), blocksNodeEstimate(parts.starts, runCount))
}

/** Writes the run form to sink. */
export function writeRunsNode(count: number, runCount: number, parts: { values: Int32Array; starts: Int32Array }, sink: ByteSink): void {
  sink.writeUint8(Form.runs)
  sink.writeInt32(count)
  sink.writeInt32(runCount)
  // checkpoint b: the run holding value 1,024 b (a walk over the starts).
  const starts = parts.starts
  for (let value = 0, run = 0; value < count; value += CHECKPOINT_VALUES) {
    while (run + 1 < runCount && starts[2 * (run + 1)] <= value) run++
    sink.writeInt32(run)
  }
  writeBlocksNode(parts.values, runCount, sink)
  writeBlocksNode(parts.starts, runCount, sink)
}
