/**
 * A v1 sequence that lives in a region of the backend's memory rather than in a
 * file: frame blocks (one base, divisor 1) of one width, records at the region's
 * start (or at `recordsStart`) and data after them (or at `dataStart`: two views
 * may share the data under records of different bases), so v1's kernels read
 * values the adapter decoded (query-adapter.ts's scratch chunks, decoded-codes.ts's copies).
 */
import type { ResidentFile, SequenceView } from '../backend/backend.js'
import { BLOCK_VALUES } from '../format/constants.js'

/** See RegionSequence.extremesSummary. */
export interface ExtremesSummary { readonly leastMost: number; readonly largestLeast: number; readonly largest: number }

export class RegionSequence implements SequenceView {
  readonly records: Int32Array
  readonly recordsStart: number
  readonly dataStart: number
  readonly cascade = null
  /** Where each block's least and largest field lie (two u16s a block) in the region, or -1: not known. */
  extremesAt = -1

  /** Each block's least and largest field (two u16s a block), or null: not known. A view: made again after memory grows. */
  extremes(): Uint16Array | null {
    if (this.extremesAt < 0) return null
    const bytes = this.file.bytes
    return new Uint16Array(bytes.buffer, bytes.byteOffset + this.extremesAt, 2 * this.blockCount)
  }

  /**
   * Over all blocks: the largest least field, the least largest field, and the largest field
   * (null: extremes not known). Worked out once: the extremes never change. A range of fields
   * holding the first two meets every block; a counts array beyond the third takes every field.
   */
  extremesSummary(): ExtremesSummary | null {
    if (this.summary !== null || this.extremesAt < 0) return this.summary
    const extremes = this.extremes()!
    let leastMost = 0, largestLeast = 65535, largest = 0
    for (let at = 0; at < extremes.length; at += 2) {
      leastMost = Math.max(leastMost, extremes[at])
      largestLeast = Math.min(largestLeast, extremes[at + 1])
      largest = Math.max(largest, extremes[at + 1])
    }
    return (this.summary = { leastMost, largestLeast, largest })
  }

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

  /** Whether every value is its own byte: fields of 8 bits over base 0 (the kernels' whole-range byte loops). */
  get plainBytes(): boolean {
    const records = this.records
    return ((records[0] >>> 8) & 0xff) === 8 && records[2] === 0 && records[3] === 0
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
    this.bufferWordsView = new Int32Array(bytes.buffer, 0, Math.floor(bytes.buffer.byteLength / 4))
    this.dataStartInView = bytes.byteOffset + this.dataStart
  }

  private summary: ExtremesSummary | null = null
  private viewedBytes: Uint8Array | null = null
  private bufferWordsView: Int32Array = new Int32Array(0)
  private dataStartInView = 0
}

/**
 * A range of raw values (bounds: lo, hi as low, high words) as the byte values it holds,
 * [lo, hi] clamped to [0, 256] and [-1, 255]: lo > hi where no byte lies in it.
 */
export function byteRange(bounds: Int32Array): [number, number] {
  const lo = bounds[1] < 0 ? 0 : bounds[1] > 0 ? 256 : Math.min(256, bounds[0] >>> 0)
  const hi = bounds[3] < 0 ? -1 : bounds[3] > 0 ? 255 : Math.min(255, bounds[2] >>> 0)
  return [lo, hi]
}

/**
 * `sequence` when it is a decoded copy whose values are its bytes (plainBytes) and whose blocks'
 * extremes put every one below `limit` (a counts array's or a member table's length), else null:
 * the kernels' whole-range byte loops then need no check per value.
 */
export function plainBytesBelow(sequence: SequenceView, limit: number): RegionSequence | null {
  if (!(sequence instanceof RegionSequence) || !sequence.plainBytes) return null
  const summary = sequence.extremesSummary()
  return summary !== null && summary.largest < limit ? sequence : null
}
