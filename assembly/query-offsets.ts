// A multi column's offsets read from their block records alone, where those records say
// everything: a constant block is a stretch of empty documents, a linear block with no residual
// bits and a whole slope k a stretch where every document holds k values. The walks of
// query-multi.ts then skip the offsets' decode (and, for empty stretches, the values) and take
// the single-valued path for documents with one value each. v1 files have constant blocks
// only (their packed blocks say nothing of the line). Mirrored by src/backend/ts/query-offsets.ts.
import { BLOCK_SHIFT, KIND_CONSTANT, RECORD_BYTES, recordAux, recordBase, recordKind, recordWidth } from './common'
import { FORM_BLOCKS, KIND_LINEAR, blocksRecords } from './cascade/common'
import { cascadeDecode } from './cascade/index'
import { decodeRaw } from './decode'

/** offsetsStep's answer: the stretch's first offset. */
export let stepFirst: u32 = 0

/**
 * Offsets [start, start + count] (v1 records, or records = 0 and the v2 node at data; count ≥ 1;
 * room: where the offsets of a chunk are decoded, as decodes write past the values asked for):
 * k when every block holding the first count of them is constant (k = 0) or linear with no
 * residual bits and slope k, all on one line that the last offset (decoded alone: it may open a
 * block of any kind) ends (document start + j holds values stepFirst + j k ..), within the
 * sequence's `total` values (checked at open; tested again, as the walks write by it); -1 when
 * the records do not show it (decode the offsets).
 */
export function offsetsStep(records: usize, data: usize, start: u32, count: u32, room: usize, total: u32): i64 {
  const v1 = records != 0
  if (!v1) {
    if (<u32>load<u8>(data) != FORM_BLOCKS) return -1
    records = blocksRecords(data)
  }
  let k: i64 = -1, first: i64 = 0
  for (let block = start >>> BLOCK_SHIFT; block <= (start + count - 1) >>> BLOCK_SHIFT; block++) {
    const record = records + <usize>block * RECORD_BYTES, kind = recordKind(record)
    let step: i64 = 0
    if (kind == KIND_LINEAR && recordWidth(record) == 0 && (recordAux(record) & 1023) == 0) step = recordAux(record) >> 10
    else if (kind != KIND_CONSTANT) return -1
    // The block's first entry, block × 1,024, holds its base (a linear block of no residual bits starts at its base).
    const at = <i64>(block << BLOCK_SHIFT) - <i64>start, base = recordBase(record)
    if (k < 0) {
      if (step < 0) return -1
      k = step
      first = base - at * step
    } else if (step != k || base != first + at * k) return -1
  }
  const status = v1 ? decodeRaw(records, data, 0, start + count, 1, room) : cascadeDecode(data, start + count, 1, room)
  const end = first + <i64>count * k
  if (status != 0 || load<i64>(room) != end || first < 0 || end > <i64>total) return -1
  stepFirst = <u32>first
  return k
}
