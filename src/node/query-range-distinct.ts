/**
 * facetCounts of a multi column over one document range: each selected
 * document counts once per distinct term, from ordinals decoded in windows
 * (the range version of src/kernels/facets.ts's countDistinct, same errors).
 */
import type { ColumnsBackend } from '../backend/backend.js'
import { CorruptIndexException } from '../format/errors.js'
import { int64Result, int64ToBigInt } from '../format/int64.js'
import { chunkOffsets, DOCUMENT_CHUNK, loadOffsets } from '../kernels/layout.js'
import type { Column } from '../read/column.js'
import type { DocumentRange } from './query-range.js'

const WINDOW = 16384
let ordinals = new Int32Array(WINDOW)

/** counts[ordinal] += documents of the range (selected by filter, null: all) having that ordinal. */
export function countDistinctRange(
  column: Column, backend: ColumnsBackend, filter: Int32Array | null, range: DocumentRange, counts: Uint32Array,
): void {
  const limit = counts.length
  const sequence = column.values
  let stamps: Int32Array | null = null
  let windowStart = 0, windowEnd = 0
  for (let start = range.from; start < range.to; start += DOCUMENT_CHUNK) {
    const count = Math.min(DOCUMENT_CHUNK, range.to - start)
    loadOffsets(backend, column.offsets!, start, count)
    for (let index = 0; index < count; index++) {
      const document = start + index
      if (filter !== null && ((filter[document >>> 5] >>> (document & 31)) & 1) === 0) continue
      const runStart = chunkOffsets[index], runEnd = chunkOffsets[index + 1]
      if (runEnd === runStart) continue
      if (runStart < windowStart || runEnd > windowEnd) {
        windowStart = runStart
        windowEnd = Math.min(sequence.count, Math.max(runEnd, runStart + WINDOW))
        if (ordinals.length < windowEnd - windowStart) ordinals = new Int32Array(windowEnd - windowStart)
        const bad = backend.decodeInt32(sequence, windowStart, windowEnd - windowStart, limit, ordinals, 0)
        if (bad >= 0) {
          backend.getRaw(sequence, windowStart + bad)
          throw new CorruptIndexException(
            sequence.fileName,
            `${sequence.label}: value ${windowStart + bad} is ${int64ToBigInt(int64Result[0], int64Result[1])}, not in [0, ${limit})`,
          )
        }
      }
      const at = runStart - windowStart, length = runEnd - runStart
      const firstValue = ordinals[at]
      counts[firstValue]++
      if (length === 1) continue
      if (length === 2) {
        if (ordinals[at + 1] !== firstValue) counts[ordinals[at + 1]]++
        continue
      }
      // Stamped with the document so the array never needs clearing between documents.
      stamps ??= new Int32Array(limit)
      stamps[firstValue] = document + 1
      for (let value = at + 1; value < at + length; value++) {
        const ordinal = ordinals[value]
        if (stamps[ordinal] === document + 1) continue
        stamps[ordinal] = document + 1
        counts[ordinal]++
      }
    }
  }
}
