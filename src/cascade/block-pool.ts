/**
 * The block pool: every 1,024 values of a sequence take the kind whose data is
 * smallest, sized exactly (ties: the lower kind code). Blocks whose range is
 * 2^51 or more are frame blocks, encoded as v1's packed blocks.
 */
import { BLOCK_VALUES, BlockKind, DATA_PADDING_BYTES } from '../format/constants.js'
import { ByteSink } from '../write/byte-sink.js'
import { type BlockChoice, chooseBlock, writeBlockData } from '../write/block-encoder.js'
import { FieldWriter } from './bits.js'
import { analyseBlock, createAnalysis, type BlockAnalysis } from './block-analysis.js'
import { Form, Kind } from './constants.js'
import { isConstant, writeConstant } from './blocks/constant.js'
import { dictionarySize, writeDictionary } from './blocks/dictionary.js'
import { frameSize, writeFrame } from './blocks/frame.js'
import { frequentSize, writeFrequent } from './blocks/frequent.js'
import { linearSize, writeLinear } from './blocks/linear.js'
import { patchedSize, writePatched } from './blocks/patched.js'
import { BlockRecord } from './blocks/record.js'
import { runsSize, writeRuns } from './blocks/runs.js'

const analysis: BlockAnalysis = createAnalysis()
const writer = new FieldWriter()
const record = new BlockRecord()
const choice: BlockChoice = {
  kind: 0, width: 0, baseLow: 0, baseHigh: 0, maxLow: 0, maxHigh: 0, auxLow: 0, auxHigh: 0, dataLength: 0, tableEntryCount: 0,
}
const wideData = new ByteSink(8192)

/** The kind the pool gives a narrow, non-constant analysed block, and its data bytes. */
export function chooseKind(a: BlockAnalysis): { kind: number; size: number } {
  let kind: number = Kind.frame, size = frameSize(a)
  const consider = (candidate: number, candidateSize: number) => {
    if (candidateSize < size) { kind = candidate; size = candidateSize }
  }
  consider(Kind.dictionary, dictionarySize(a))
  consider(Kind.runs, runsSize(a))
  consider(Kind.frequent, frequentSize(a))
  consider(Kind.patched, patchedSize(a))
  if (a.n >= 2) consider(Kind.linear, linearSize(a))
  return { kind, size }
}

/** Blocks sampled per sequence for choosing its form: all of a sequence of up to this many, else one in floor(B / this). */
export const SAMPLED_BLOCKS = 64

/** An exact rational byte count: n / d. */
export interface Estimate {
  n: bigint
  d: bigint
}

/**
 * The estimated bytes of a BLOCKS node of `count` values: its header, records and padding exactly, its
 * data from the blocks b with b mod step = 0 (step = max(1, floor(B / 64))) scaled by B / sampled.
 * Exact when B ≤ 64 (every block is sampled).
 */
export function blocksNodeEstimate(words: Int32Array, count: number): Estimate {
  const blocks = Math.ceil(count / BLOCK_VALUES)
  const step = Math.max(1, Math.floor(blocks / SAMPLED_BLOCKS))
  let sampled = 0, data = 0
  for (let block = 0; block < blocks; block += step) {
    const first = block * BLOCK_VALUES
    data += blockDataSize(words, first, Math.min(BLOCK_VALUES, count - first))
    sampled++
  }
  const fixed = 13 + DATA_PADDING_BYTES + 24 * blocks
  return { n: BigInt(fixed * sampled) + BigInt(data) * BigInt(blocks), d: BigInt(Math.max(1, sampled)) }
}

/** Data bytes of one block in the pool's choice. */
export function blockDataSize(words: Int32Array, first: number, n: number): number {
  analyseBlock(words, first, n, analysis)
  if (!analysis.narrow) {
    chooseBlock(words, first, n, choice, false)
    return choice.dataLength
  }
  if (isConstant(analysis)) return 0
  return chooseKind(analysis).size
}

/** Fills `record` and returns the data of one block in the pool's choice (a view valid until the next call). */
export function encodeBlock(words: Int32Array, first: number, n: number, out: BlockRecord = record): Uint8Array {
  analyseBlock(words, first, n, analysis)
  if (!analysis.narrow) {
    chooseBlock(words, first, n, choice, false)
    out.kind = choice.kind
    out.width = choice.width
    out.param = 0
    out.words[0] = choice.baseLow; out.words[1] = choice.baseHigh
    out.words[2] = choice.auxLow; out.words[3] = choice.auxHigh
    wideData.length = 0
    writeBlockData(n, choice, wideData)
    return wideData.view()
  }
  writer.begin(16 + 9 * n)
  if (isConstant(analysis)) {
    writeConstant(analysis, out)
    return writer.view()
  }
  switch (chooseKind(analysis).kind) {
    case Kind.frame: writeFrame(analysis, writer, out); break
    case Kind.dictionary: writeDictionary(analysis, writer, out); break
    case Kind.runs: writeRuns(analysis, writer, out); break
    case Kind.frequent: writeFrequent(analysis, writer, out); break
    case Kind.patched: writePatched(analysis, writer, out); break
    case Kind.linear: writeLinear(analysis, writer, out); break
  }
  return writer.view()
}

const dataSink = new ByteSink(1 << 16)

/**
 * Appends a BLOCKS node (form byte 0, u32 count, u32 blockCount, u32 dataLength, the records,
 * the data and 8 zero bytes) of `count` values (interleaved low, high words) to sink.
 */
export function writeBlocksNode(words: Int32Array, count: number, sink: ByteSink): void {
  const blockCount = Math.ceil(count / BLOCK_VALUES)
  dataSink.length = 0
  sink.writeUint8(Form.blocks)
  sink.writeInt32(count)
  sink.writeInt32(blockCount)
  const dataLengthAt = sink.length
  sink.writeInt32(0)
  for (let block = 0; block < blockCount; block++) {
    const first = block * BLOCK_VALUES
    const data = encodeBlock(words, first, Math.min(BLOCK_VALUES, count - first))
    const fields = record.words
    sink.writeRecord(record.kind, record.width, record.param, dataSink.length, fields[0], fields[1], fields[2], fields[3])
    dataSink.writeBytes(data)
  }
  dataSink.writeZeros(DATA_PADDING_BYTES)
  sink.patchInt32(dataLengthAt, dataSink.length)
  sink.writeBytes(dataSink.view())
}

export { BlockKind }
