/**
 * A v1 sequence that lives in a region of the backend's memory rather than in a
 * file: frame blocks (one base, divisor 1) of one width, records at the region's
 * start (or at `recordsStart`) and data after them (or at `dataStart`: two views
 * may share the data under records of different bases), so v1's kernels read
 * values the adapter decoded (query-adapter.ts's scratch chunks, decoded-codes.ts's copies).
 */
import type { ResidentFile, SequenceView } from '../backend/backend.js'
import { BLOCK_VALUES } from '../format/constants.js'

export class RegionSequence implements SequenceView {
  readonly records: Int32Array
  readonly recordsStart: number
  readonly dataStart: number
  readonly cascade = null
  /** Where each block's least and largest field lie (two u16s a block) in the region, or -1: not known. */
  extremesAt = -1

  /** `blockCount` blocks of `width` bits (a whole number of bytes a value) over `base` (low, high words); their records are written into the region now. */
  constructor(
    readonly file: ResidentFile, readonly fileName: string, readonly label: string, public count: number, readonly blockCount: number,
    width: number, readonly dataLength: number, base: readonly [number, number] = [0, 0],
    at: { recordsStart: number; dataStart: number } = { recordsStart: 0, dataStart: 24 * blockCount },
  ) {
    this.recordsStart = at.recordsStart
    this.dataStart = at.dataStart
    this.records = new Int32Array(6 * blockCount)
    for (let block = 0; block < blockCount; block++) {
      this.records.set([1 | (width << 8), (width / 8) * BLOCK_VALUES * block, base[0], base[1], 1, 0], 6 * block)
    }
    file.bytes.set(new Uint8Array(this.records.buffer), this.recordsStart)
  }

  get bytes(): Uint8Array {
    return this.file.bytes
  }

  /** The words view of the memory's buffer, made again only when the memory's bytes change (growth). */
  get bufferWords(): Int32Array {
    const bytes = this.file.bytes
    if (bytes !== this.viewedBytes) this.view(bytes)
    return this.bufferWordsView
  }

  get dataStartInBuffer(): number {
    const bytes = this.file.bytes
    if (bytes !== this.viewedBytes) this.view(bytes)
    return this.dataStartInView
  }

  private view(bytes: Uint8Array): void {
    this.viewedBytes = bytes
    this.bufferWordsView = new Int32Array(bytes.buffer, 0, bytes.buffer.byteLength >>> 2)
    this.dataStartInView = bytes.byteOffset + this.dataStart
  }

  private viewedBytes: Uint8Array | null = null
  private bufferWordsView: Int32Array = new Int32Array(0)
  private dataStartInView = 0
}
