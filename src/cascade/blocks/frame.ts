/**
 * Frame-of-reference blocks (kind 1, v1's packed form): base = min, aux = the
 * divisor g of the offsets, width = bits(range / g); value j = base + g × field j.
 * Narrow blocks are written here; wide ones (range ≥ 2^52) by v1's encoder.
 */
import { bytesFor, type FieldWriter, fieldAt, unpackFields } from '../bits.js'
import type { BlockAnalysis } from '../block-analysis.js'
import { auxNumber, type BlockView } from '../block-view.js'
import { Kind } from '../constants.js'
import type { BlockRecord } from './record.js'

/** Data bytes of the frame form. */
export function frameSize(a: BlockAnalysis): number {
  return bytesFor(a.n * a.width)
}

/** Writes the frame form of a narrow, non-constant block. */
export function writeFrame(a: BlockAnalysis, writer: FieldWriter, record: BlockRecord): void {
  record.set(Kind.frame, a.width, 0, a.minLow, a.minHigh, a.divisor)
  const g = a.divisor
  for (let index = 0; index < a.n; index++) writer.write(a.u[index] / g, a.width)
}

/** Offset of value `index` from the base. */
export function frameOffsetAt(view: BlockView, index: number): number {
  return auxNumber(view) * fieldAt(view.words, view.data, index, view.width)
}

/** Offsets of values [from, to) into out from position at. */
export function frameOffsets(view: BlockView, from: number, to: number, out: Float64Array, at: number): void {
  unpackFields(view.words, view.data, from, to - from, view.width, out, at)
  const g = auxNumber(view)
  if (g !== 1) for (let index = at; index < at + to - from; index++) out[index] *= g
}
