/**
 * Constant blocks (kind 0, as in v1): every value equals base; no data.
 * Reads go through v1's decoder (the bytes are v1's).
 */
import type { BlockAnalysis } from '../block-analysis.js'
import { Kind } from '../constants.js'
import type { BlockRecord } from './record.js'

/** Whether the block is constant (its data would be 0 bytes). */
export function isConstant(a: BlockAnalysis): boolean {
  return a.narrow && a.range === 0
}

/** Writes the constant form. */
export function writeConstant(a: BlockAnalysis, record: BlockRecord): void {
  record.set(Kind.constant, 0, 0, a.minLow, a.minHigh, 0)
}

