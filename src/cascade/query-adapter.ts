/**
 * Queries over v2 sequences that v1's kernels cannot read (SequenceView.cascade):
 * values are decoded a chunk at a time into a scratch sequence of v1 frame
 * blocks of width 64 (value = the raw i64) in the backend's own memory, and the
 * backend's kernels run on that. Both backends take this path, so their answers
 * stay identical. Kernels that read the encodings directly replace it where they exist.
 */
import type { ColumnsBackend, ResidentFile, SequenceView } from '../backend/backend.js'
import type { QueryKernels } from '../backend/query-kernels.js'
import { BLOCK_VALUES, DATA_PADDING_BYTES } from '../format/constants.js'
import { CorruptIndexException } from '../format/errors.js'
import { int64ToBigInt } from '../format/int64.js'

const CHUNK_BLOCKS = 16
const CHUNK_VALUES = CHUNK_BLOCKS * BLOCK_VALUES
const RECORDS_BYTES = 24 * CHUNK_BLOCKS
const REGION_BYTES = RECORDS_BYTES + 8 * CHUNK_VALUES + DATA_PADDING_BYTES + 16

/** The scratch sequence of one backend: a region holding records (fixed) and one chunk of raw values. */
class Scratch implements SequenceView {
  readonly records: Int32Array
  readonly fileName: string
  readonly label: string
  count = 0
  readonly blockCount = CHUNK_BLOCKS
  readonly recordsStart = 0
  readonly dataStart = RECORDS_BYTES
  readonly dataLength = 8 * CHUNK_VALUES + DATA_PADDING_BYTES
  readonly cascade = null

  constructor(readonly file: ResidentFile) {
    this.records = new Int32Array(6 * CHUNK_BLOCKS)
    for (let block = 0; block < CHUNK_BLOCKS; block++) {
      // Frame blocks of width 64, base 0, divisor 1: each field is the raw value.
      this.records.set([1 | (64 << 8), 8 * BLOCK_VALUES * block, 0, 0, 1, 0], 6 * block)
    }
    file.bytes.set(new Uint8Array(this.records.buffer), 0)
    this.fileName = ''
    this.label = ''
  }

  get bytes(): Uint8Array {
    return this.file.bytes
  }

  get bufferWords(): Int32Array {
    const bytes = this.file.bytes
    return new Int32Array(bytes.buffer, 0, bytes.buffer.byteLength >>> 2)
  }

  get dataStartInBuffer(): number {
    return this.file.bytes.byteOffset + RECORDS_BYTES
  }

  /** The data area as int32 words, for the backend's decode to write a chunk into (in place). */
  words(count: number): Int32Array {
    const bytes = this.file.bytes
    return new Int32Array(bytes.buffer, bytes.byteOffset + RECORDS_BYTES, 2 * count)
  }
}

/**
 * The kernels of `backend()` made to read v2 sequences of every form too. `backend` is asked
 * lazily (the backend object holds the kernels being made).
 */
export function withCascadeQueries(inner: QueryKernels, backend: () => ColumnsBackend): QueryKernels {
  let scratch: Scratch | null = null
  const chunks = (
    sequence: SequenceView, first: number, count: number,
    visit: (chunk: SequenceView, at: number, n: number, values: Int32Array) => void,
  ): void => {
    const owner = backend()
    scratch ??= new Scratch(owner.loadWith(REGION_BYTES, () => {}))
    for (let at = 0; at < count; at += CHUNK_VALUES) {
      const n = Math.min(CHUNK_VALUES, count - at)
      owner.decodeRaw(sequence, first + at, n, scratch.words(n), 0)
      scratch.count = n
      visit(scratch, at, n, scratch.words(n))
    }
  }
  return {
    allocateBitset: (wordCount) => inner.allocateBitset(wordCount),
    countBits: (bitset) => inner.countBits(bitset),
    combineBits: (target, other, operation) => inner.combineBits(target, other, operation),
    // The multi-valued kernels decode cascades themselves.
    countDistinct: inner.countDistinct,
    matchAny: inner.matchAny,
    countValues(sequence, first, count, selection, selectionStart, counts) {
      if (sequence.cascade === null) return inner.countValues(sequence, first, count, selection, selectionStart, counts)
      chunks(sequence, first, count, (chunk, at, n, values) => {
        // The kernel's range error would name a chunk position: find the first bad selected value here.
        const words = selection?.words ?? null
        for (let index = 0; index < n; index++) {
          const low = values[2 * index], high = values[2 * index + 1]
          if (high === 0 && low >>> 0 < counts.length) continue
          const bit = selectionStart + at + index
          if (words !== null && ((words[bit >>> 5] >>> (bit & 31)) & 1) === 0) continue
          throw new CorruptIndexException(sequence.fileName, `${sequence.label}: value ${first + at + index} is ${int64ToBigInt(low, high)}, not in [0, ${counts.length})`)
        }
        inner.countValues(chunk, 0, n, selection, selectionStart + at, counts)
      })
    },
    matchRange(sequence, first, count, bounds, selection, selectionStart, out, outStart) {
      if (sequence.cascade === null) return inner.matchRange(sequence, first, count, bounds, selection, selectionStart, out, outStart)
      let matched = 0
      chunks(sequence, first, count, (chunk, at, n) => {
        matched += inner.matchRange(chunk, 0, n, bounds, selection, selectionStart + at, out, outStart + at)
      })
      return matched
    },
    aggregate(sequence, first, count, mode, selection, selectionStart, state) {
      if (sequence.cascade === null) return inner.aggregate(sequence, first, count, mode, selection, selectionStart, state)
      chunks(sequence, first, count, (chunk, at, n) => inner.aggregate(chunk, 0, n, mode, selection, selectionStart + at, state))
    },
    histogram(sequence, first, count, edges, selection, selectionStart, counts) {
      if (sequence.cascade === null) return inner.histogram(sequence, first, count, edges, selection, selectionStart, counts)
      chunks(sequence, first, count, (chunk, at, n) => inner.histogram(chunk, 0, n, edges, selection, selectionStart + at, counts))
    },
  }
}
