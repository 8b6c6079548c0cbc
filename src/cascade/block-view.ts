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
  auxLow: number
  auxHigh: number
  /** Sequence label, file name and block index, for errors. */
  label: string
  fileName: string
  block: number
}

/** A fresh, empty view. */
export function createBlockView(): BlockView {
  return { words: new Int32Array(0), data: 0, n: 0, width: 0, param: 0, baseLow: 0, baseHigh: 0, auxLow: 0, auxHigh: 0, label: '', fileName: '', block: 0 }
}

/** The record's aux as a non-negative double (divisors, which are below 2^52 in the kinds that use them). */
export function auxNumber(view: BlockView): number {
  return view.auxHigh * TWO_POW_32 + (view.auxLow >>> 0)
}

/** aux - base as a double (frequent blocks: exceptions' minimum minus the top value, |x| < 2^52). */
export function auxMinusBase(view: BlockView): number {
  const low = (view.auxLow >>> 0) - (view.baseLow >>> 0)
  return (view.auxHigh - view.baseHigh - (low < 0 ? 1 : 0)) * TWO_POW_32 + (low < 0 ? low + TWO_POW_32 : low)
}
