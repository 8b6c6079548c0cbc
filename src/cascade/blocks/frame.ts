/**
 * Frame-of-reference blocks (kind 1, v1's packed form): base = min, aux = the
 * divisor g of the offsets, width = bits(range / g); value j = base + g × field j.
 * Narrow blocks are written here; wide ones (range ≥ 2^51) by v1's encoder.
 * Reads go through v1's frame decoder (the bytes are v1's).
 */
import { bytesFor, type FieldWriter } from '../bits.js'
import type { BlockAnalysis } from '../block-analysis.js'
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

