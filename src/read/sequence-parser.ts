/**
 * Validates an integer sequence at open (header, every block record, data
 * tiling, padding) and copies its records into aligned words for the kernels.
 */
import type { Cascade, ResidentFile, SequenceView } from '../backend/backend.js'
import {
  BLOCK_RECORD_BYTES, BLOCK_VALUES, BlockKind, DATA_PADDING_BYTES, SEQUENCE_HEADER_BYTES, TABLE_MAX_ENTRIES,
  TABLE_MIN_ENTRIES,
} from '../format/constants.js'
import { failCorrupt } from '../format/errors.js'
import { bitsOfNumber, compareInt64, int64ToBigInt, readInt32, readUint32 } from '../format/int64.js'
import { checkV2Block, type RecordFields } from '../cascade/reader/check-block.js'

/** A parsed sequence and the offset right after it. */
export interface ParsedSequence {
  view: SequenceView
  end: number
  /** Whether a block has a kind only format v2 has (3 to 7): v1's kernels cannot read the sequence. */
  cascadeKinds: boolean
}

/**
 * Parses the sequence at `offset` (which must end by `limit`) holding `expectedCount` values.
 * `label` says which sequence it is ("values of field \"x\""); bufferWords is the
 * file's buffer as aligned words, shared by all sequences of the file.
 */
export function parseSequence(
  file: ResidentFile, bufferWords: Int32Array, fileName: string, label: string, offset: number, limit: number, expectedCount: number,
  version: 1 | 2 = 1,
): ParsedSequence {
  const bytes = file.bytes
  if (offset + SEQUENCE_HEADER_BYTES > limit) failCorrupt(fileName, label, 'sequence header runs past the end of its section')
  const count = readUint32(bytes, offset)
  const blockCount = readUint32(bytes, offset + 4)
  const dataLength = readUint32(bytes, offset + 8)
  if (count !== expectedCount) failCorrupt(fileName, label, `sequence holds ${count} values, expected ${expectedCount}`)
  const expectedBlocks = Math.ceil(count / BLOCK_VALUES)
  if (blockCount !== expectedBlocks) failCorrupt(fileName, label, `block count ${blockCount} does not match ${count} values (expected ${expectedBlocks})`)
  const recordsStart = offset + SEQUENCE_HEADER_BYTES
  const dataStart = recordsStart + blockCount * BLOCK_RECORD_BYTES
  if (dataStart > limit) failCorrupt(fileName, label, `${blockCount} block records run past the end of the section`)
  if (dataLength < DATA_PADDING_BYTES) failCorrupt(fileName, label, `data length ${dataLength} is shorter than the ${DATA_PADDING_BYTES} padding bytes`)
  const end = dataStart + dataLength
  if (end > limit) failCorrupt(fileName, label, `data (${dataLength} bytes) runs past the end of the section`)
  // Records are checked as words (six loads a block; byte by byte through a view of WebAssembly
  // memory took 24): in place when aligned, else from a copy. The view's aligned copy is made at
  // its first use: made at open, it would touch fresh pages for every sequence, read or not.
  // A few unaligned records are gathered into scratch words instead, and their view copies them
  // at first use too: a small file opens many short sequences (docs/performance.md, Format 2).
  const recordsByte = bytes.byteOffset + recordsStart
  let records: Int32Array | null = null
  let words = bufferWords, firstWord = recordsByte >>> 2
  if ((recordsByte & 3) !== 0) {
    words = blockCount <= SCRATCH_BLOCKS ? gatherRecords(bytes, recordsStart, blockCount) : (records = copyRecords(bytes, recordsStart, dataStart))
    firstWord = 0
  }
  const checked = checkBlocks(words, firstWord, blockCount, count, bytes, dataStart, dataLength, fileName, label, version)
  const running = checked.length
  if (running + DATA_PADDING_BYTES !== dataLength) {
    failCorrupt(fileName, label, `data length ${dataLength} does not match the blocks' ${running} bytes plus ${DATA_PADDING_BYTES} padding`)
  }
  for (let index = dataStart + running; index < end; index++) {
    if (bytes[index] !== 0) failCorrupt(fileName, label, 'padding bytes after the last block are not zero')
  }
  const view = new LazySequenceView(file, bytes, fileName, label, count, blockCount, recordsStart, dataStart, dataLength, bufferWords, records)
  return { view, end, cascadeKinds: checked.cascadeKinds }
}

/**
 * A parsed sequence whose aligned records are copied at their first use. A class, so that every
 * view has one shape and reads of `records` inline (an object literal with a getter made
 * getKeyword slower).
 */
class LazySequenceView implements SequenceView {
  readonly dataStartInBuffer: number
  /** Set by the v2 parser for blocks of v2 kinds (see SequenceView.cascade). */
  cascade: Cascade | null = null
  constructor(
    readonly file: ResidentFile, readonly bytes: Uint8Array, readonly fileName: string, readonly label: string,
    readonly count: number, readonly blockCount: number, readonly recordsStart: number, readonly dataStart: number,
    readonly dataLength: number, readonly bufferWords: Int32Array, private copied: Int32Array | null,
  ) {
    this.dataStartInBuffer = bytes.byteOffset + dataStart
  }

  get records(): Int32Array {
    // From the live bytes: WebAssembly memory may have grown since open. Readers refuse reads once closed.
    return this.copied ??= copyRecords(this.file.bytes, this.recordsStart, this.dataStart)
  }
}

const EMPTY = new Uint8Array(0)
const v2Fields: RecordFields = { kind: 0, width: 0, param: 0, baseLow: 0, baseHigh: 0, auxLow: 0, auxHigh: 0, n: 0, bytes: EMPTY, dataStart: 0, dataLeft: 0 }

/** Unaligned records of at most this many blocks are checked from recordScratch. */
const SCRATCH_BLOCKS = 64
const recordScratch = new Int32Array(6 * SCRATCH_BLOCKS)

/** The records of `blockCount` blocks from `start` (little-endian words) in recordScratch. */
function gatherRecords(bytes: Uint8Array, start: number, blockCount: number): Int32Array {
  for (let word = 0, at = start; word < 6 * blockCount; word++, at += 4) recordScratch[word] = readInt32(bytes, at)
  return recordScratch
}

/** The block records of [start, end) as aligned words, copied. */
function copyRecords(bytes: Uint8Array, start: number, end: number): Int32Array {
  // Not bytes.slice(start, end).buffer: a Node Buffer's slice is a view, whose buffer is the whole file (or Node's pool).
  const words = new Int32Array((end - start) >>> 2)
  new Uint8Array(words.buffer).set(bytes.subarray(start, end))
  return words
}

/**
 * Checks every block record (six words from firstWord each) and returns the blocks' data bytes. A function of its own: V8
 * compiles a long loop mid-call (on-stack replacement) before the code after it has run, and
 * that code then lacked type feedback and dropped every later open back to the interpreter.
 */
function checkBlocks(
  words: Int32Array, firstWord: number, blockCount: number, count: number, bytes: Uint8Array, dataStart: number, dataLength: number,
  fileName: string, label: string, version: 1 | 2,
): { length: number; cascadeKinds: boolean } {
  let running = 0
  let cascadeKinds = false
  for (let block = 0; block < blockCount; block++) {
    const at = firstWord + 6 * block
    const first = words[at]
    const kind = first & 0xff
    const width = (first >>> 8) & 0xff
    const reserved = first >>> 16
    const dataOffset = words[at + 1] >>> 0
    const baseLow = words[at + 2], baseHigh = words[at + 3]
    const auxLow = words[at + 4], auxHigh = words[at + 5]
    if (version === 2 && kind === BlockKind.table) failCorrupt(fileName, label, `block ${block}: unknown block kind ${kind}`)
    if (reserved !== 0 && (version === 1 || kind <= BlockKind.table)) failCorrupt(fileName, label, `block ${block}: ${version === 1 ? 'reserved bytes are' : 'param is'} ${reserved}, not 0`)
    if (dataOffset !== running) failCorrupt(fileName, label, `block ${block}: data offset ${dataOffset}, expected ${running} (blocks' data is back to back)`)
    const values = Math.min(BLOCK_VALUES, count - block * BLOCK_VALUES)
    let length = 0
    if (kind === BlockKind.constant) {
      if (width !== 0) failCorrupt(fileName, label, `block ${block}: constant block with width ${width}, not 0`)
      if (auxLow !== 0 || auxHigh !== 0) failCorrupt(fileName, label, `block ${block}: constant block with aux ${int64ToBigInt(auxLow, auxHigh)}, not 0`)
    } else if (kind === BlockKind.packed) {
      if (width < 1 || width > 64) failCorrupt(fileName, label, `block ${block}: packed width ${width} outside 1..64`)
      if (auxLow === 0 && auxHigh === 0) failCorrupt(fileName, label, `block ${block}: packed block with divisor 0`)
      length = Math.ceil((values * width) / 8)
    } else if (version === 2) {
      // One record object for every block: a closure or an object per block cost more than the checks.
      const f = v2Fields
      f.kind = kind; f.width = width; f.param = reserved; f.baseLow = baseLow; f.baseHigh = baseHigh; f.auxLow = auxLow; f.auxHigh = auxHigh
      f.n = values; f.bytes = bytes; f.dataStart = dataStart + running; f.dataLeft = dataLength - running
      const checked = checkV2Block(f)
      f.bytes = EMPTY
      if (typeof checked === 'string') failCorrupt(fileName, label, `block ${block}: ${checked}`)
      length = checked as number
      cascadeKinds = true
    } else if (kind === BlockKind.table) {
      if (auxHigh !== 0 || auxLow < TABLE_MIN_ENTRIES || auxLow > TABLE_MAX_ENTRIES) {
        failCorrupt(fileName, label, `block ${block}: table size ${int64ToBigInt(auxLow, auxHigh)} outside ${TABLE_MIN_ENTRIES}..${TABLE_MAX_ENTRIES}`)
      }
      if (width !== bitsOfNumber(auxLow - 1)) failCorrupt(fileName, label, `block ${block}: table index width ${width}, expected ${bitsOfNumber(auxLow - 1)} for ${auxLow} entries`)
      length = 8 * auxLow + Math.ceil((values * width) / 8)
    } else {
      failCorrupt(fileName, label, `block ${block}: unknown block kind ${kind}`)
    }
    if (running + length + DATA_PADDING_BYTES > dataLength) {
      failCorrupt(fileName, label, `block ${block}: data [${running}, ${running + length}) plus ${DATA_PADDING_BYTES} padding bytes runs past the data length ${dataLength}`)
    }
    if (kind === BlockKind.table) {
      const broken = checkTable(bytes, dataStart + running, auxLow, baseLow, baseHigh)
      if (broken !== null) failCorrupt(fileName, label, `block ${block}: ${broken}`)
    }
    // Only a partial last block can end mid-byte (1024 fields fill whole bytes): reading every
    // block's last byte missed the cache and the TLB once a block after the checksum.
    const usedBits = (values * width) & 7
    if ((kind === BlockKind.packed || kind === BlockKind.table) && usedBits !== 0 && bytes[dataStart + running + length - 1] >>> usedBits !== 0) {
      failCorrupt(fileName, label, `block ${block}: unused bits of the last data byte are not zero`)
    }
    running += length
  }
  return { length: running, cascadeKinds }
}

/** A table's entries must be strictly increasing, starting at the block's base: null, or the rule broken. */
function checkTable(bytes: Uint8Array, start: number, entries: number, baseLow: number, baseHigh: number): string | null {
  let previousLow = readInt32(bytes, start), previousHigh = readInt32(bytes, start + 4)
  if (previousLow !== baseLow || previousHigh !== baseHigh) return 'base is not the first table entry'
  for (let entry = 1; entry < entries; entry++) {
    const low = readInt32(bytes, start + 8 * entry), high = readInt32(bytes, start + 8 * entry + 4)
    if (compareInt64(low, high, previousLow, previousHigh) <= 0) return `table entries are not strictly increasing at entry ${entry}`
    previousLow = low
    previousHigh = high
  }
  return null
}
