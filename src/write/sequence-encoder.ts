/**
 * Writes an integer sequence: header, one 24-byte record per 1,024 values,
 * the blocks' data back to back, then 8 zero bytes of padding.
 */
import { BLOCK_VALUES, DATA_PADDING_BYTES } from '../format/constants.js'
import { type BlockChoice, chooseBlock, includeBlockRange, writeBlockData } from './block-encoder.js'
import { ByteSink } from './byte-sink.js'

const choice: BlockChoice = {
  kind: 0, width: 0, baseLow: 0, baseHigh: 0, maxLow: 0, maxHigh: 0, auxLow: 0, auxHigh: 0, dataLength: 0, tableEntryCount: 0,
}

/** The smallest and largest value of the last sequence written: [minLow, minHigh, maxLow, maxHigh]. */
export const sequenceMinMax = new Int32Array(4)
const dataSink = new ByteSink(1 << 16)

/** Appends the sequence of `count` raw values (interleaved low/high words) to sink. */
export function writeSequence(words: Int32Array, count: number, sink: ByteSink): void {
  const blockCount = Math.ceil(count / BLOCK_VALUES)
  dataSink.length = 0
  sink.writeInt32(count)
  sink.writeInt32(blockCount)
  const dataLengthOffset = sink.length
  sink.writeInt32(0)
  for (let block = 0; block < blockCount; block++) {
    const first = block * BLOCK_VALUES
    const blockValues = Math.min(BLOCK_VALUES, count - first)
    chooseBlock(words, first, blockValues, choice)
    includeBlockRange(choice, sequenceMinMax, block === 0)
    const dataOffset = dataSink.length
    writeBlockData(blockValues, choice, dataSink)
    sink.writeRecord(choice.kind, choice.width, 0, dataOffset, choice.baseLow, choice.baseHigh, choice.auxLow, choice.auxHigh)
  }
  dataSink.writeZeros(DATA_PADDING_BYTES)
  sink.patchInt32(dataLengthOffset, dataSink.length)
  sink.writeBytes(dataSink.view())
}
