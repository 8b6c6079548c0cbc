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
