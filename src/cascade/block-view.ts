/**
 * What a v2 block decoder reads: the block's record fields and where its data
 * lies in the file's buffer (as aligned int32 words, so fields are read in place).
 * The decoders give offsets from the record's base as doubles (exact: below 2^53).
 */

const TWO_POW_32 = 4294967296

/** One block of a sequence, as the decoders see it (one shared instance, refilled per block). */
export interface BlockView {
  /** The file's whole buffer as aligned int32 words. */
  words: Int32Array
  /** Byte offset of the block's data within that buffer. */
  data: number
  /** Values in the block. */
  n: number
  width: number
  param: number
  baseLow: number
  baseHigh: number
  /** The sequence's records (6 int32 words a block) and the block's first word among them. */
  records: Int32Array
  record: number
  /** Sequence label, file name and block index, for errors. */
  label: string
  fileName: string
  block: number
}

/**
 * A block kind's single read (blocks/*.ts): the offset from the base of value j of the block whose
 * record is word r of records, its data at byte `data`, n values.
 */
export type OffsetRead = (words: Int32Array, records: Int32Array, r: number, data: number, n: number, j: number) => number

/** A kind's single read of value j of the block the view shows. */
export function offsetInView(view: BlockView, read: OffsetRead, j: number): number {
  return read(view.words, view.records, view.record, view.data, view.n, j)
}

/** A fresh, empty view. */
export function createBlockView(): BlockView {
  return { words: new Int32Array(0), data: 0, records: new Int32Array(0), record: 0, n: 0, width: 0, param: 0, baseLow: 0, baseHigh: 0, label: '', fileName: '', block: 0 }
}

/** The record's aux as a non-negative double (divisors, which are below 2^52 in the kinds that use them). */
export function auxNumber(view: BlockView): number {
  return recordAux(view.records, view.record)
}

/** The aux of the record at word r of records as a non-negative double (as auxNumber: divisors below 2^52, slopes). */
export function recordAux(records: Int32Array, r: number): number {
  return records[r + 5] * TWO_POW_32 + (records[r + 4] >>> 0)
}

/** aux - base of the record at word r of records as a double (frequent blocks: exceptions' minimum minus the top value, |x| < 2^52). */
export function recordAuxMinusBase(records: Int32Array, r: number): number {
  const low = (records[r + 4] >>> 0) - (records[r + 2] >>> 0)
  return (records[r + 5] - records[r + 3] - (low < 0 ? 1 : 0)) * TWO_POW_32 + (low < 0 ? low + TWO_POW_32 : low)
}
