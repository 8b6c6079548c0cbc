/**
 * Raw values into an array outside linear memory, Node build: the browser bundles replace
 * this module with one call of `run` (rollup.config.js; the reader's size budget has no room).
 */
import type { SequenceView } from '../backend.js'
import { BLOCK_SHIFT, BLOCK_VALUES, BlockKind } from '../../format/constants.js'
import { int64ToBigInt } from '../../format/int64.js'

/** Shorter spans go through the kernels: a fill's view and BigInt cost about as much as copying them. */
const CONSTANT_SPAN_MIN = 512

/**
 * How many values from index (before end) lie in constant blocks holding one value, all
 * the same: 0 when index's block is not constant.
 */
function constantSpan(records: Int32Array, index: number, end: number): number {
  const block = index >>> BLOCK_SHIFT
  if ((records[6 * block] & 0xff) !== BlockKind.constant) return 0
  const low = records[6 * block + 2], high = records[6 * block + 3]
  let next = block + 1
  while (next * BLOCK_VALUES < end && (records[6 * next] & 0xff) === BlockKind.constant && records[6 * next + 2] === low && records[6 * next + 3] === high) next++
  return Math.min(next * BLOCK_VALUES, end) - index
}

/**
 * Raw values [first, first + count) of a sequence into destination (int32 words of a
 * BigInt64Array, from value destinationIndex): spans of at least 512 values in constant
 * blocks of one value are filled by BigInt64Array.fill, which runs at memory speed (7.3 G
 * values/s here on 64K values, where a fill in linear memory then a copy out runs at 3.1);
 * `run` decodes the values between, in order, so an error stops the read where the kernels would.
 */
export function withConstantSpans(sequence: SequenceView, first: number, count: number, destination: Int32Array, destinationIndex: number,
  run: (start: number, n: number, at: number) => void): void {
  const end = first + count
  let pending = first
  for (let index = first; index < end && destination.byteOffset % 8 === 0;) {
    const span = constantSpan(sequence.records, index, end)
    if (span < CONSTANT_SPAN_MIN) {
      index = Math.min(((index >>> BLOCK_SHIFT) + 1) * BLOCK_VALUES, end)
      continue
    }
    if (pending < index) run(pending, index - pending, destinationIndex + pending - first)
    const record = 6 * (index >>> BLOCK_SHIFT), at = destination.byteOffset + 8 * (destinationIndex + index - first)
    new BigInt64Array(destination.buffer, at, span).fill(int64ToBigInt(sequence.records[record + 2], sequence.records[record + 3]))
    index += span
    pending = index
  }
  if (pending < end) run(pending, end - pending, destinationIndex + pending - first)
}
