/**
 * A multi column's offsets read from their block records alone (assembly/query-offsets.ts): a
 * constant block is a stretch of empty documents, a linear block with no residual bits and a
 * whole slope k a stretch where every document holds k values. v1 files have constant blocks
 * only (their packed blocks say nothing of the line).
 */
import type { SequenceView } from '../backend.js'
import { BLOCK_SHIFT, BLOCK_VALUES, BlockKind } from '../../format/constants.js'
import { Form, Kind } from '../../cascade/constants.js'
import { decodeRaw } from './decode.js'

/** The stretch's last offset, decoded alone. */
const last = new Int32Array(2)

/** offsetsStep's answer: the stretch's first offset. */
export let stepFirst = 0

/**
 * Offsets [start, start + count] of the sequence (count ≥ 1): k when every block holding the
 * first count of them is constant (k = 0) or linear with no residual bits and slope k, all on one
 * line that the last offset (decoded alone: it may open a block of any kind) ends (document
 * start + j holds values stepFirst + j k ..), within the sequence's `total` values (checked at
 * open; tested again, as the walks write by it); -1 when the records do not show it (decode the offsets).
 */
export function offsetsStep(offsets: SequenceView, start: number, count: number, total: number): number {
  const cascade = offsets.cascade
  if (cascade !== null && cascade.form !== Form.blocks) return -1
  const records = (cascade === null ? offsets : cascade.blocks).records
  let k = -1, first = 0
  for (let block = start >>> BLOCK_SHIFT; block <= (start + count - 1) >>> BLOCK_SHIFT; block++) {
    const at = 6 * block, kind = records[at] & 0xff
    // Offsets are below 2^32 (checked at open), so are bases; a slope's high word is tested all the same.
    if (records[at + 3] !== 0) return -1
    let step = 0
    if (kind === Kind.linear && ((records[at] >>> 8) & 0xff) === 0 && records[at + 5] === 0 && (records[at + 4] & 1023) === 0) step = records[at + 4] >>> 10
    else if (kind !== BlockKind.constant) return -1
    // The block's first entry, block × 1,024, holds its base (a linear block of no residual bits starts at its base).
    const from = block * BLOCK_VALUES - start, base = records[at + 2] >>> 0
    if (k < 0) {
      k = step
      first = base - from * step
    } else if (step !== k || base !== first + from * k) return -1
  }
  decodeRaw(offsets, start + count, 1, last, 0)
  if (last[1] !== 0 || last[0] >>> 0 !== first + count * k || first < 0 || first + count * k > total) return -1
  stepFirst = first
  return k
}
