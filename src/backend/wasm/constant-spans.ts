/**
 * Raw values into an array outside linear memory, Node build: the browser bundles replace
 * this module with a stub that finds no spans (rollup.config.js; the reader's size budget
 * has no room for it).
 */
import type { SequenceView } from '../backend.js'
import { BLOCK_VALUES, BlockKind } from '../../format/constants.js'
import { int64ToBigInt } from '../../format/int64.js'

/** Shorter spans go through the kernels, rather than splitting their run around a fill (a threshold chosen, not tuned by measurement). */
const CONSTANT_SPAN_MIN = 512

/** A sequence's spans of at least 512 values in consecutive constant blocks holding one value (none for most sequences). */
export interface ConstantSpans {
  /** [start, end) value positions, in order. */
  readonly bounds: Uint32Array
  /** Each span's value. */
  readonly values: bigint[]
}

/** Spans by sequence, found at its first raw read into a plain array (a scan of its records per read cost 4%). */
const spansOf = new WeakMap<SequenceView, ConstantSpans>()

/** The sequence's constant spans. */
export function constantSpans(sequence: SequenceView): ConstantSpans {
  let spans = spansOf.get(sequence)
  if (spans === undefined) {
    const records = sequence.records, found: number[] = [], values: bigint[] = []
    for (let block = 0; block < sequence.blockCount;) {
      let next = block + 1
      if ((records[6 * block] & 0xff) === BlockKind.constant) {
        const low = records[6 * block + 2], high = records[6 * block + 3]
        while (next < sequence.blockCount && (records[6 * next] & 0xff) === BlockKind.constant && records[6 * next + 2] === low && records[6 * next + 3] === high) next++
        const end = Math.min(next * BLOCK_VALUES, sequence.count)
        if (end - block * BLOCK_VALUES >= CONSTANT_SPAN_MIN) {
          found.push(block * BLOCK_VALUES, end)
          values.push(int64ToBigInt(low, high))
        }
      }
      block = next
    }
    spans = { bounds: Uint32Array.from(found), values }
    spansOf.set(sequence, spans)
  }
  return spans
}

/**
 * Raw values [first, first + count) of a sequence into destination (int32 words of a
 * BigInt64Array, from value destinationIndex), given its constant spans: the parts of at
 * least 512 values in a span are filled by BigInt64Array.fill, which runs at memory speed
 * (7.3 G values/s here on 64K values, where a fill in linear memory then a copy out runs at
 * 3.1); `run` decodes the values between, in order, so an error stops the read where the
 * kernels would.
 */
export function withConstantSpans(spans: ConstantSpans, first: number, count: number, destination: Int32Array,
  destinationIndex: number, run: (start: number, n: number, at: number) => void): void {
  const end = first + count, bounds = spans.bounds
  // One view for all the spans, and each span's BigInt made once: a view and a BigInt per span
  // ran 4.5 G values/s against 5.7 on 64 one-block spans (ad hoc).
  const destinationValues = new BigInt64Array(destination.buffer, destination.byteOffset, destination.length >>> 1)
  // The first span ending after first (spans ascend).
  let low = 0, high = bounds.length >>> 1
  while (low < high) {
    const middle = (low + high) >>> 1
    if (bounds[2 * middle + 1] <= first) low = middle + 1
    else high = middle
  }
  let pending = first
  for (let span = low; 2 * span < bounds.length && bounds[2 * span] < end; span++) {
    const start = Math.max(bounds[2 * span], first), stop = Math.min(bounds[2 * span + 1], end)
    if (stop - start < CONSTANT_SPAN_MIN) continue
    if (pending < start) run(pending, start - pending, destinationIndex + pending - first)
    destinationValues.fill(spans.values[span], destinationIndex + start - first, destinationIndex + stop - first)
    pending = stop
  }
  if (pending < end) run(pending, end - pending, destinationIndex + pending - first)
}
