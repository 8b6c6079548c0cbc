/**
 * Constant runs into arrays outside linear memory, Node build: the browser bundles replace
 * this module with a stub whose functions only call run (rollup.config.js; the reader's
 * size budget has no room for it).
 */
import type { SequenceView } from '../backend.js'
import { BLOCK_VALUES, BlockKind } from '../../format/constants.js'
import { int64ToBigInt } from '../../format/int64.js'

/**
 * Shorter spans go through the kernels, rather than splitting their run around a fill (a threshold chosen, not
 * tuned by measurement); so do shorter reads, without looking their sequence's spans up (a WeakMap lookup).
 */
const CONSTANT_SPAN_MIN = 512
const MAX_SAFE = 2n ** 53n - 1n

/**
 * A sequence's spans of at least 512 values in consecutive constant blocks holding one value
 * (none for most sequences), with each span's value as each decode writes it.
 */
export interface ConstantSpans {
  /** [start, end) value positions, in order. */
  readonly bounds: Uint32Array
  /** Each span's raw value. */
  readonly values: bigint[]
  /**
   * The bits of each span's value as an exact double (the exact decode), null beyond ±(2^53 - 1),
   * which that decode refuses. Doubles are filled by their bits through a BigInt64Array view:
   * BigInt64Array.fill runs about twice as fast as Float64Array.fill here.
   */
  readonly doubleBits: (bigint | null)[]
  /** The bits of each span's value SortableBits-decoded (the sortable decode; NaN payloads kept). */
  readonly sortableBits: bigint[]
}

/** Spans by sequence, found at its first read into a plain array (a scan of its records per read cost 4%). */
const spansOf = new WeakMap<SequenceView, ConstantSpans>()

/** The sequence's constant spans. */
function constantSpans(sequence: SequenceView): ConstantSpans {
  let spans = spansOf.get(sequence)
  if (spans === undefined) {
    const records = sequence.records, found: number[] = [], values: bigint[] = []
    // v2 sequences of other forms have no records of their own: no spans.
    const blockCount = sequence.cascade === null || sequence.cascade.form === 0 ? sequence.blockCount : 0
    for (let block = 0; block < blockCount;) {
      let next = block + 1
      if ((records[6 * block] & 0xff) === BlockKind.constant) {
        const low = records[6 * block + 2], high = records[6 * block + 3]
        while (next < blockCount && (records[6 * next] & 0xff) === BlockKind.constant && records[6 * next + 2] === low && records[6 * next + 3] === high) next++
        const end = Math.min(next * BLOCK_VALUES, sequence.count)
        if (end - block * BLOCK_VALUES >= CONSTANT_SPAN_MIN) {
          found.push(block * BLOCK_VALUES, end)
          values.push(int64ToBigInt(low, high))
        }
      }
      block = next
    }
    const bits = new DataView(new ArrayBuffer(8))
    const doubleBits = (value: bigint) => {
      bits.setFloat64(0, Number(value))
      return bits.getBigInt64(0)
    }
    spans = {
      bounds: Uint32Array.from(found), values,
      doubleBits: values.map((value) => (value >= -MAX_SAFE && value <= MAX_SAFE ? doubleBits(value) : null)),
      sortableBits: values.map((value) => (value < 0n ? value ^ 0x7fff_ffff_ffff_ffffn : value)),
    }
    spansOf.set(sequence, spans)
  }
  return spans
}

/**
 * Values [first, first + count) of a sequence given its constant spans: the parts of at least
 * 512 values in a span the caller can fill (fillable) are filled by fill(span, start, stop),
 * a TypedArray fill at memory speed (faster than a fill in linear memory then a copy out);
 * run(start, n) decodes the values
 * between, in order, so an error stops the read where the kernels would. Returns -1, or the
 * position (from first) of the value run refused.
 */
function withConstantSpans(spans: ConstantSpans, first: number, count: number, fillable: (span: number) => boolean,
  fill: (span: number, start: number, stop: number) => void, run: Run): number {
  const end = first + count, bounds = spans.bounds
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
    if (stop - start < CONSTANT_SPAN_MIN || !fillable(span)) continue
    if (pending < start) {
      const refused = run(pending, start - pending)
      if (refused >= 0) return pending - first + refused
    }
    fill(span, start, stop)
    pending = stop
  }
  if (pending < end) {
    const refused = run(pending, end - pending)
    if (refused >= 0) return pending - first + refused
  }
  return -1
}

/** Decodes values [start, start + n) of the sequence to their place in the destination: -1, or the position (from start) of a refused value. */
export type Run = (start: number, n: number) => number

/** The spans a read of count values may fill, or null when it goes through the kernels whole. */
function spansToFill(sequence: SequenceView, count: number): ConstantSpans | null {
  if (count < CONSTANT_SPAN_MIN) return null
  const spans = constantSpans(sequence)
  return spans.values.length === 0 ? null : spans
}

/** Raw values [first, first + count) into a BigInt64Array, or an Int32Array's word pairs, outside linear memory (from value destinationIndex). */
export function rawSpans(sequence: SequenceView, first: number, count: number, destination: Int32Array | BigInt64Array, destinationIndex: number,
  run: Run): void {
  const spans = destination.byteOffset % 8 ? null : spansToFill(sequence, count)
  if (spans === null) run(first, count)
  else fillRawSpans(spans, first, count, destination, destinationIndex, run)
}

// The fills' closures live in functions of their own: a function whose closures capture its variables
// allocates their context on entry, even when it returns before making them.
function fillRawSpans(spans: ConstantSpans, first: number, count: number, destination: Int32Array | BigInt64Array, destinationIndex: number,
  run: Run): void {
  // One view for all the spans (none for a BigInt64Array), and each span's BigInt made once, not one of
  // each per span.
  const values = destination instanceof BigInt64Array ? destination
    : new BigInt64Array(destination.buffer, destination.byteOffset, destination.length >>> 1), at = destinationIndex - first
  withConstantSpans(spans, first, count, () => true, (span, start, stop) => values.fill(spans.values[span], at + start, at + stop), run)
}

/** Values as doubles (exact or SortableBits-decoded) into a Float64Array outside linear memory: -1, or the position of a refused value. */
export function float64Spans(sequence: SequenceView, first: number, count: number, sortable: boolean, destination: Float64Array,
  destinationIndex: number, run: Run): number {
  const spans = spansToFill(sequence, count)
  return spans === null ? run(first, count) : fillFloat64Spans(spans, first, count, sortable, destination, destinationIndex, run)
}

function fillFloat64Spans(spans: ConstantSpans, first: number, count: number, sortable: boolean, destination: Float64Array,
  destinationIndex: number, run: Run): number {
  const bits = sortable ? spans.sortableBits : spans.doubleBits, at = destinationIndex - first
  const values = new BigInt64Array(destination.buffer, destination.byteOffset, destination.length)
  return withConstantSpans(spans, first, count, (span) => bits[span] !== null, (span, start, stop) => values.fill(bits[span]!, at + start, at + stop), run)
}

/** Values as int32 (ordinals below ordinalLimit when it is ≥ 0) into an Int32Array outside linear memory: -1, or the position of a refused value. */
export function int32Spans(sequence: SequenceView, first: number, count: number, ordinalLimit: number, destination: Int32Array,
  destinationIndex: number, run: Run): number {
  const spans = spansToFill(sequence, count)
  return spans === null ? run(first, count) : fillInt32Spans(spans, first, count, ordinalLimit, destination, destinationIndex, run)
}

function fillInt32Spans(spans: ConstantSpans, first: number, count: number, ordinalLimit: number, destination: Int32Array,
  destinationIndex: number, run: Run): number {
  // The values the kernel writes: an int32 (plain integers) or an ordinal below the limit; it refuses the others.
  const low = ordinalLimit >= 0 ? 0n : -(2n ** 31n), high = ordinalLimit >= 0 ? BigInt(ordinalLimit) : 2n ** 31n, at = destinationIndex - first
  return withConstantSpans(spans, first, count, (span) => spans.values[span] >= low && spans.values[span] < high,
    (span, start, stop) => destination.fill(Number(spans.values[span]), at + start, at + stop), run)
}
