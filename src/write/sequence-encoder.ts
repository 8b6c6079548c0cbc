/**
 * Writes an integer sequence: header, one 24-byte record per 1,024 values,
 * the blocks' data back to back, then 8 zero bytes of padding.
 */
import { BLOCK_VALUES, DATA_PADDING_BYTES } from '../format/constants.js'
import { compareInt64 } from '../format/int64.js'
import { type BlockChoice, chooseBlock, writeBlockData } from './block-encoder.js'
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
    if (block === 0 || compareInt64(choice.baseLow, choice.baseHigh, sequenceMinMax[0], sequenceMinMax[1]) < 0) {
      sequenceMinMax[0] = choice.baseLow
      sequenceMinMax[1] = choice.baseHigh
    }
    if (block === 0 || compareInt64(choice.maxLow, choice.maxHigh, sequenceMinMax[2], sequenceMinMax[3]) > 0) {
      sequenceMinMax[2] = choice.maxLow
      sequenceMinMax[3] = choice.maxHigh
    }
    const dataOffset = dataSink.length
    writeBlockData(blockValues, choice, dataSink)
    sink.writeUint8(choice.kind)
    sink.writeUint8(choice.width)
    sink.writeUint8(0)
    sink.writeUint8(0)
    sink.writeInt32(dataOffset)
    sink.writeInt64(choice.baseLow, choice.baseHigh)
    sink.writeInt64(choice.auxLow, choice.auxHigh)
  }
  dataSink.writeZeros(DATA_PADDING_BYTES)
  const dataLength = dataSink.length
  sink.bytes[dataLengthOffset] = dataLength
  sink.bytes[dataLengthOffset + 1] = dataLength >>> 8
  sink.bytes[dataLengthOffset + 2] = dataLength >>> 16
  sink.bytes[dataLengthOffset + 3] = dataLength >>> 24
  sink.writeBytes(dataSink.view())
}
