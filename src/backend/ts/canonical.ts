/**
 * The full check's block test for the TS backend: decode each block, compute the
 * record a flush would write for its values, compare.
 */
import type { SequenceView } from '../backend.js'
import { BLOCK_VALUES } from '../../format/constants.js'
import { type BlockChoice, chooseBlock, includeBlockRange } from '../../write/block-encoder.js'
import { decodeRaw } from './decode.js'

const blockValues = new Int32Array(2 * BLOCK_VALUES)
const choice: BlockChoice = {
  kind: 0, width: 0, baseLow: 0, baseHigh: 0, maxLow: 0, maxHigh: 0, auxLow: 0, auxHigh: 0, dataLength: 0, tableEntryCount: 0,
}

/** See ColumnsBackend.checkCanonical. */
export function checkCanonical(sequence: SequenceView, minMax: Int32Array, canonical: Int32Array): number {
  const records = sequence.records
  for (let block = 0; block < sequence.blockCount; block++) {
    const first = block * BLOCK_VALUES
    const count = Math.min(BLOCK_VALUES, sequence.count - first)
    decodeRaw(sequence, first, count, blockValues, 0)
    chooseBlock(blockValues, 0, count, choice)
    includeBlockRange(choice, minMax, block === 0)
    const at = 6 * block
    if ((records[at] & 0xff) !== choice.kind || records[at] >>> 8 !== choice.width || records[at + 2] !== choice.baseLow
      || records[at + 3] !== choice.baseHigh || records[at + 4] !== choice.auxLow || records[at + 5] !== choice.auxHigh) {
      canonical[0] = choice.kind
      canonical[1] = choice.width
      canonical[2] = choice.baseLow
      canonical[3] = choice.baseHigh
      canonical[4] = choice.auxLow
      canonical[5] = choice.auxHigh
      return block
    }
  }
  return -1
}
