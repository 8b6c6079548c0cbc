/**
 * Queries over v2 sequences that v1's kernels cannot read (SequenceView.cascade):
 * values are decoded a chunk at a time into a scratch sequence of v1 frame
 * blocks of width 64 (value = the raw i64) in the backend's own memory, and the
 * backend's kernels run on that. Both backends take this path, so their answers
 * stay identical. Kernels that read the encodings directly replace it where they exist.
 */
import type { ColumnsBackend, ResidentFile, SequenceView } from '../backend/backend.js'
import type { AggregateState, BitsetMemory, QueryKernels } from '../backend/query-kernels.js'
import { BLOCK_VALUES, DATA_PADDING_BYTES } from '../format/constants.js'
import { CorruptIndexException } from '../format/errors.js'
import { compareInt64, int64ToBigInt } from '../format/int64.js'
import { rankBounds, spanFits, visitMeetingBlocks } from './decoded-codes.js'
import { RegionSequence } from './region-sequence.js'
import { createCodeMatcher, matchMemberCodes } from './query-match-codes.js'
import { aggregateRunBlocks } from './query-aggregate-runs.js'
import { blockExtremes, matchRunBlocks } from './query-match-runs.js'
import { aggregateRunForm, matchRunForm } from './query-run-form.js'
import { histogramDecimal, matchDecimal } from './query-decimal.js'
import { anyBitInRange } from '../kernels/layout.js'
import { createEncodedTallies } from './query-encodings.js'
import { blockSlotsOf, bucketSlots, EXCEPTION_LIMITS, fewEdgesPerBlock, type Operation, PATCH_LIMITS, RUN_WALK_LENGTHS, type Tally, valueSlots } from './query-slots.js'

/** Counts (facets of this many terms or codes) past which WebAssembly decodes and counts a range in one call. */
const DECODE_ALL_SLOTS = 256
const CHUNK_BLOCKS = 16
const CHUNK_VALUES = CHUNK_BLOCKS * BLOCK_VALUES
const RECORDS_BYTES = 24 * CHUNK_BLOCKS
const REGION_BYTES = RECORDS_BYTES + 8 * CHUNK_VALUES + DATA_PADDING_BYTES + 16

/** The scratch sequence of one backend: a region holding records (fixed) and one chunk of raw values. */
class Scratch extends RegionSequence {
  // Frame blocks of width 64 (or 32), base 0, divisor 1: each field is the raw value (an int32 below 2^31).
  constructor(file: ResidentFile, width: 32 | 64) {
    super(file, '', '', 0, CHUNK_BLOCKS, width, 8 * CHUNK_VALUES + DATA_PADDING_BYTES)
  }

  /** The data area as one int32 per value (a width 32 scratch). */
  int32s(count: number): Int32Array {
    const bytes = this.file.bytes
    return new Int32Array(bytes.buffer, bytes.byteOffset + RECORDS_BYTES, count)
  }

  /** The data area as int32 words, for the backend's decode to write a chunk into (in place). */
  words(count: number): Int32Array {
    const bytes = this.file.bytes
    return new Int32Array(bytes.buffer, bytes.byteOffset + RECORDS_BYTES, 2 * count)
  }
}

/**
 * Calls visit(start, n) for each stretch of whole blocks (as the sequence counts them) within
 * [from, from + count) that has a value selected (value i's bit: shift + i; every stretch at once
 * without a selection).
 */
function forSelectedBlocks(
  selection: BitsetMemory | null, shift: number, from: number, count: number, visit: (start: number, n: number) => void,
): void {
  if (selection === null) {
    visit(from, count)
    return
  }
  const words = selection.words, end = from + count
  let start = -1
  for (let index = from; index < end;) {
    const stop = Math.min(end, (Math.floor(index / BLOCK_VALUES) + 1) * BLOCK_VALUES)
    const any = anyBitInRange(words, shift + index, shift + stop)
    if (any && start < 0) start = index
    if (!any && start >= 0) {
      visit(start, index - start)
      start = -1
    }
    index = stop
  }
  if (start >= 0) visit(start, end - start)
}

/**
 * The kernels of `backend()` made to read v2 sequences of every form too. `backend` is asked
 * lazily (the backend object holds the kernels being made).
 */
export function withCascadeQueries(inner: QueryKernels, backend: () => ColumnsBackend): QueryKernels {
  let scratch: Scratch | null = null
  let narrow: Scratch | null = null
  const chunks = (
    sequence: SequenceView, first: number, count: number,
    visit: (chunk: SequenceView, at: number, n: number, values: Int32Array) => void,
  ): void => {
    const owner = backend()
    scratch ??= new Scratch(owner.loadWith(REGION_BYTES, () => {}), 64)
    for (let at = 0; at < count; at += CHUNK_VALUES) {
      const n = Math.min(CHUNK_VALUES, count - at)
      owner.decodeRaw(sequence, first + at, n, scratch.words(n), 0)
      scratch.count = n
      visit(scratch, at, n, scratch.words(n))
    }
  }
  // The decoding paths of the two counting questions, for what the encodings cannot answer.
  // Counts: chunks decoded as int32 (checked below n as they are) and counted from a width 32
  // scratch; a chunk with a value out of range goes through the raw path, which names it.
  const countDecoded = inner.countDecoded
  const decodedCounts: Tally = (sequence, first, count, selection, selectionStart, counts) => {
    // The WebAssembly kernel decodes and counts in one call; on a bad value or read it leaves counts as they were.
    if (countDecoded !== undefined && countDecoded(sequence, first, count, selection, selectionStart, counts)) return
    const owner = backend()
    narrow ??= new Scratch(owner.loadWith(REGION_BYTES, () => {}), 32)
    for (let at = 0; at < count; at += CHUNK_VALUES) {
      const n = Math.min(CHUNK_VALUES, count - at)
      if (owner.decodeInt32(sequence, first + at, n, counts.length, narrow.int32s(n), 0) < 0) {
        narrow.count = n
        inner.countValues(narrow, 0, n, selection, selectionStart + at, counts)
      } else {
        rawCounts(sequence, first + at, n, selection, selectionStart + at, counts)
      }
    }
  }
  const rawCounts: Tally = (sequence, first, count, selection, selectionStart, counts) => {
    chunks(sequence, first, count, (chunk, at, n, values) => {
      try {
        inner.countValues(chunk, 0, n, selection, selectionStart + at, counts)
      } catch (error) {
        if (!(error instanceof CorruptIndexException)) throw error
        // The kernel checks each value but names a chunk position: find the first bad selected value to name it.
        const words = selection?.words ?? null
        for (let index = 0; index < n; index++) {
          const low = values[2 * index], high = values[2 * index + 1]
          if (high === 0 && low >>> 0 < counts.length) continue
          const bit = selectionStart + at + index
          if (words !== null && ((words[bit >>> 5] >>> (bit & 31)) & 1) === 0) continue
          throw new CorruptIndexException(sequence.fileName, `${sequence.label}: value ${first + at + index} is ${int64ToBigInt(low, high)}, not in [0, ${counts.length})`)
        }
        throw error
      }
    })
  }
  // A backend that decodes and counts in one kernel takes every patched block there (PATCH_LIMITS).
  const oneKernel = countDecoded !== undefined
  const runLength = oneKernel ? RUN_WALK_LENGTHS.wasm : RUN_WALK_LENGTHS.typeScript
  /** Whether a runs sequence's runs are long enough to answer a run at a time. */
  const walked = (cascade: { count: number; runCount: number }) => cascade.count >= runLength * cascade.runCount
  const counting = (n: number): Operation => ({
    slots: valueSlots(n),
    inner: (sequence, first, count, selection, selectionStart, counts) => inner.countValues(sequence, first, count, selection, selectionStart, counts),
    decode: decodedCounts,
    patchLimit: oneKernel ? PATCH_LIMITS.wasmKernel : PATCH_LIMITS.typeScript,
    exceptionLimit: oneKernel ? EXCEPTION_LIMITS.wasmKernel : EXCEPTION_LIMITS.typeScript,
    // The decode-and-count kernel clears and hands back n counts a call: past a few hundred, once for the whole range.
    decodeAll: oneKernel && n > DECODE_ALL_SLOTS,
    dictionaryBlocks: !oneKernel,
    runLength,
  })
  const { tallyEncoded, codeMembers, lensView, entriesOf, decodedOf } = createEncodedTallies(backend)
  const matchCodes = createCodeMatcher(inner, lensView)
  /** A sequence dictionary's decoded codes where they hold its values (made only then), else null. */
  const fits = new WeakMap<SequenceView, boolean>()
  const valuesView = (values: SequenceView): SequenceView | null => {
    const cascade = values.cascade
    if (cascade?.form !== 1) return null
    let fit = fits.get(values)
    if (fit === undefined) fits.set(values, (fit = spanFits(entriesOf(cascade.entries), cascade.entries.count)))
    if (!fit) return null
    const decoded = decodedOf(cascade, false)
    return decoded !== null && decoded.holdsValues ? decoded.view : null
  }
  const plainValues = (values: SequenceView): SequenceView => valuesView(values) ?? values
  const codeBounds = new Int32Array(4)
  /** matchRange(s) of a v2 sequence: values in any of the ranges (bounds: 4 words a range, disjoint). */
  const matchCascade = (
    sequence: SequenceView, first: number, count: number, bounds: Int32Array,
    selection: BitsetMemory | null, selectionStart: number, out: BitsetMemory, outStart: number,
  ): number => {
    const cascade = sequence.cascade!
    // Values [from, from + n) decoded raw and matched against each range; how many matched. Blocks
    // with no value selected are not decoded: WebAssembly's kernels pass them unread, so a bad code
    // there must raise on neither backend (this is where a decode that meets one raises).
    const raw = (from: number, n: number): number => {
      let found = 0
      forSelectedBlocks(selection, selectionStart - first, from, n, (start, m) => chunks(sequence, start, m, (chunk, at, size) => {
        for (let range = 0; range < bounds.length; range += 4) {
          found += inner.matchRange(chunk, 0, size, bounds.subarray(range, range + 4), selection, selectionStart + start - first + at, out, outStart + start - first + at)
        }
      }))
      return found
    }
    // Blocks: run blocks matched a run at a time, the others decoded. Runs: a run at a time.
    if (cascade.form === 0 && count > 0) return matchRunBlocks(cascade.blocks, first, count, bounds, selection, selectionStart, out, outStart, raw)
    if (cascade.form === 2 && count > 0) {
      // Blocks classed by the runs over them (one walk, kept): a sorted column's are mostly inside or apart.
      const runs = cascade
      return matchRunBlocks(sequence, first, count, bounds, selection, selectionStart, out, outStart, (from, n) => walked(runs)
        ? matchRunForm(backend(), sequence, runs, from, n, bounds, selection, selectionStart + from - first, out, outStart + from - first)
        : raw(from, n), backend())
    }
    if (cascade.form === 3 && count > 0) {
      // Decimals: the integers filtered by the integer ranges the value ranges are, then each exception alone.
      const integers = cascade.integers
      const found = matchDecimal(sequence, cascade, first, count, bounds, selection, selectionStart, out, outStart,
        (ranges) => {
          if (integers.cascade !== null) return matchCascade(integers, first, count, ranges, selection, selectionStart, out, outStart)
          let matched = 0
          for (let at = 0; at < ranges.length; at += 4) matched += inner.matchRange(integers, first, count, ranges.subarray(at, at + 4), selection, selectionStart, out, outStart)
          return matched
        },
        (index) => backend().getRaw(integers, index))
      if (found !== null) return found
    }
    if (cascade.form !== 1 || count === 0) return raw(first, count)
    // A sequence dictionary whose codes are decoded once (all below k): the values themselves, or
    // ranks, where each range of values is one range of ranks; matched by v1's kernels.
    const ranked = decodedOf(cascade, false)
    if (ranked !== null) {
      const ranks = ranked.holdsValues ? bounds : rankBounds(ranked.sorted, bounds)
      // Blocks whose own fields meet no range are passed over (their records' spans would not tell).
      return visitMeetingBlocks(ranked.view, first, count, ranks, (from, n) => {
        let found = 0
        for (let at = 0; at < ranks.length; at += 4) {
          found += inner.matchRange(ranked.view, from, n, ranks.subarray(at, at + 4), selection, selectionStart + from - first, out, outStart + from - first)
        }
        return found
      })
    }
    // Otherwise the codes are matched against the entries that match, from their encodings, in one
    // pass whatever the number of ranges. (No matching entry: decoded anyway, so a code out of
    // range is refused as a read refuses it.)
    const members = codeMembers(sequence, bounds)
    const span = spanOf(members)
    if (span === null && inner.matchMembers !== undefined) {
      // Matching entries apart, with a kernel that looks codes up in a byte per entry (-1: it cannot say).
      const found = inner.matchMembers(cascade.codes, first, count, members, selection, selectionStart, out, outStart)
      return found >= 0 ? found : raw(first, count)
    }
    if (span === null && inner.countDecoded === undefined) {
      // Matching entries apart (codes by frequency), in TypeScript: each code looked up in the table.
      const owner = backend(), k = cascade.entries.count
      narrow ??= new Scratch(owner.loadWith(REGION_BYTES, () => {}), 32)
      let found = 0
      for (let at = first; at < first + count; at += CHUNK_VALUES) {
        const m = Math.min(CHUNK_VALUES, first + count - at)
        const codes = narrow.int32s(m)
        // A code not below k: the chunk decoded raw, which refuses it as a read does.
        if (owner.decodeInt32(cascade.codes, at, m, k, codes, 0) >= 0) found += raw(at, m)
        else found += matchMemberCodes(codes, m, members, selection?.words ?? null, selectionStart + at - first, out.words, outStart + at - first)
      }
      return found
    }
    if (span === null || span === 'none') return raw(first, count)
    const owner = backend(), k = cascade.entries.count
    if (inner.matchCodeSpan !== undefined) {
      // A kernel that compares the codes with the span where it reads them (-1: it cannot say).
      const found = inner.matchCodeSpan(cascade.codes, first, count, k, span[0], span[1], selection, selectionStart, out, outStart)
      return found >= 0 ? found : raw(first, count)
    }
    narrow ??= new Scratch(owner.loadWith(REGION_BYTES, () => {}), 32)
    codeBounds[0] = span[0]
    codeBounds[2] = span[1]
    const decoded = (from: number, n: number): number => {
      let found = 0
      for (let at = from; at < from + n; at += CHUNK_VALUES) {
        const m = Math.min(CHUNK_VALUES, from + n - at)
        if (owner.decodeInt32(cascade.codes, at, m, k, narrow!.int32s(m), 0) < 0) {
          narrow!.count = m
          found += inner.matchRange(narrow!, 0, m, codeBounds, selection, selectionStart + at - first, out, outStart + at - first)
        } else {
          found += raw(at, m)
        }
      }
      return found
    }
    const codes = cascade.codes.cascade
    if (codes === null || codes.form !== 0) return decoded(first, count)
    const inRange = (from: number, n: number) => owner.decodeInt32(cascade.codes, from, n, k, narrow!.int32s(n), 0) < 0
    return matchCodes(codes.blocks, first, count, codeBounds, span[1], selection, selectionStart, out, outStart, decoded, inRange)
  }
  const kernels: QueryKernels = {
    allocateBitset: (wordCount) => inner.allocateBitset(wordCount),
    countBits: (bitset) => inner.countBits(bitset),
    combineBits: (target, other, operation) => inner.combineBits(target, other, operation),
    // The multi-valued kernels decode cascades themselves, or read a keyword dictionary's decoded
    // codes where those are its ordinals.
    countDistinct: (offsets, values, from, to, docs, counts) => inner.countDistinct(offsets, plainValues(values), from, to, docs, counts),
    matchMembers: inner.matchMembers,
    matchCodeSpan: inner.matchCodeSpan,
    matchOrdinals: inner.matchOrdinals,
    markDocumentStarts: inner.markDocumentStarts,
    matchAny: inner.matchAny,
    markFirstValues: (offsets, values, to, out, counts, positions, ordinals) =>
      inner.markFirstValues(offsets, plainValues(values), to, out, counts, positions, ordinals),
    plainSequence: plainValues,
    countValues(sequence, first, count, selection, selectionStart, counts) {
      if (sequence.cascade === null) return inner.countValues(sequence, first, count, selection, selectionStart, counts)
      if (count > 0) tallyEncoded(sequence, first, count, selection, selectionStart, counts, counting(counts.length), counting)
    },
    matchRange(sequence, first, count, bounds, selection, selectionStart, out, outStart) {
      if (sequence.cascade === null) return inner.matchRange(sequence, first, count, bounds, selection, selectionStart, out, outStart)
      return matchCascade(sequence, first, count, bounds, selection, selectionStart, out, outStart)
    },
    matchRanges(sequence, first, count, bounds, selection, selectionStart, out, outStart) {
      // One pass with the member kernel; in TypeScript a pass per range reads the codes faster
      // (patched low fields matched in place) than one that decodes them to look them up.
      if (sequence.cascade !== null && inner.matchMembers !== undefined) return matchCascade(sequence, first, count, bounds, selection, selectionStart, out, outStart)
      let found = 0
      for (let at = 0; at < bounds.length; at += 4) found += this.matchRange(sequence, first, count, bounds.subarray(at, at + 4), selection, selectionStart, out, outStart)
      return found
    },
    aggregate(sequence, first, count, mode, selection, selectionStart, state) {
      const cascade = sequence.cascade
      if (cascade === null) return inner.aggregate(sequence, first, count, mode, selection, selectionStart, state)
      // Runs: a run at a time.
      if (cascade.form === 2 && walked(cascade)) return aggregateRunForm(backend(), sequence, cascade, first, count, mode, selection, selectionStart, state)
      // Decoded codes that hold the values: v1's kernel sums them as a v1 file's.
      const plain = valuesView(sequence)
      if (plain !== null) return inner.aggregate(plain, first, count, mode, selection, selectionStart, state)
      // Integers of a sequence dictionary with at most a quarter as many entries as values: codes
      // counted, then each entry added count times (a double sum must add values in order: decoded).
      // Decided on the whole sequence, not the values asked for: the two ways check different codes
      // (counting, the selected ones; decoding, all), so a part of the documents (a pool worker's
      // range) must take the way the whole takes, to meet the same corrupt code or none.
      if (cascade.form === 1 && mode === 'integer' && cascade.entries.count <= cascade.count >>> 2) {
        const k = cascade.entries.count, codeCounts = new Uint32Array(k)
        const ranked = decodedOf(cascade, selection === null)
        let counted = true
        try {
          tallyEncoded(ranked?.view ?? cascade.codes, first, count, selection, selectionStart, codeCounts, counting(k), counting)
        } catch (error) {
          // A code beyond the entries: the decoding path below refuses it as a read does.
          if (!(error instanceof CorruptIndexException)) throw error
          counted = false
        }
        if (counted) return addEntryCounts(state, ranked?.sorted ?? entriesOf(cascade.entries), codeCounts)
      }
      const decode = (from: number, n: number, bit: number) =>
        chunks(sequence, from, n, (chunk, at, m) => inner.aggregate(chunk, 0, m, mode, selection, bit + at, state))
      // Integers of blocks: run blocks a run at a time, the rest decoded.
      if (cascade.form === 0 && mode === 'integer') {
        const kernel = inner.aggregateRuns === undefined ? undefined : inner.aggregateRuns.bind(inner)
        return aggregateRunBlocks(cascade.blocks, first, count, selection, selectionStart, state, decode, kernel)
      }
      decode(first, count, selectionStart)
    },
    histogram(sequence, first, count, edges, selection, selectionStart, counts) {
      if (sequence.cascade === null) return inner.histogram(sequence, first, count, edges, selection, selectionStart, counts)
      if (count === 0 || edges.length < 4) return
      const cascade = sequence.cascade
      if (cascade.form === 3) {
        // Decimals: the integers counted by the integer edges the value edges are, then each exception moved to its own bucket.
        const integers = cascade.integers
        const counted = histogramDecimal(sequence, cascade, first, count, edges, selection, selectionStart, counts,
          (integerEdges) => kernels.histogram(integers, first, count, integerEdges, selection, selectionStart, counts),
          (index) => backend().getRaw(integers, index))
        if (counted) return
      }
      const op: Operation = {
        slots: bucketSlots(edges),
        inner: (view, from, n, chosen, start, out) => inner.histogram(view, from, n, edges, chosen, start, out),
        decode: (view, from, n, chosen, start, out) => chunks(view, from, n, (chunk, at, m) => inner.histogram(chunk, 0, m, edges, chosen, start + at, out)),
        // The backend with a decode-and-count kernel decodes blocks fast: there, many patches are cheaper decoded.
        patchLimit: oneKernel ? PATCH_LIMITS.wasmInJs : PATCH_LIMITS.typeScript,
        exceptionLimit: oneKernel ? EXCEPTION_LIMITS.wasmInJs : EXCEPTION_LIMITS.typeScript,
        // WebAssembly: up to 32 buckets, format 1's kernel on the copy (blocks in one bucket, passes per edge) beats
        // counting codes unless many blocks hold many edges; TypeScript counts faster than its histogram kernel
        // reads the copy (docs/performance.md).
        overValues: oneKernel && edges.length >>> 1 <= 33 && ((copy: SequenceView) => fewEdgesPerBlock(blockExtremes(copy), edges)),
        blockSlots: blockSlotsFor(edges, backend()),
        dictionaryBlocks: !oneKernel,
        runLength,
        runBlocks: inner.histogramRuns === undefined ? undefined
          : (view, from, n, chosen, start, out) => inner.histogramRuns!(view, from, n, edges, chosen, start, out),
      }
      tallyEncoded(sequence, first, count, selection, selectionStart, counts, op, counting)
    },
  }
  return kernels
}

/**
 * Adds counts[c] copies of entry c (raw i64 pairs) to an integer aggregate state: count, min and
 * max over the entries counted, and the exact 128-bit sum (BigInt once per entry, never per value).
 */
function addEntryCounts(state: AggregateState, entries: Int32Array, counts: Uint32Array): void {
  const words = state.words
  let total = 0, sum = 0n
  for (let code = 0; code < counts.length; code++) {
    const times = counts[code]
    if (times === 0) continue
    const low = entries[2 * code], high = entries[2 * code + 1]
    // Count 0 seeds min and max (their words mean nothing before).
    const seed = state.numbers[0] === 0 && total === 0
    if (seed || compareInt64(low, high, words[0], words[1]) < 0) { words[0] = low; words[1] = high }
    if (seed || compareInt64(low, high, words[2], words[3]) > 0) { words[2] = low; words[3] = high }
    total += times
    sum += BigInt(times) * int64ToBigInt(low, high)
  }
  if (total === 0) return
  state.numbers[0] += total
  const before = BigInt.asIntN(128, (BigInt(words[7] >>> 0) << 96n) | (BigInt(words[6] >>> 0) << 64n) | (BigInt(words[5] >>> 0) << 32n) | BigInt(words[4] >>> 0))
  const after = BigInt.asUintN(128, before + sum)
  for (let at = 0; at < 4; at++) words[4 + at] = Number(BigInt.asIntN(32, after >> BigInt(32 * at)))
}

/** The codes marked in members: [first, last] when consecutive, 'none' when none is, null when they lie apart. */
function spanOf(members: Uint8Array): [number, number] | 'none' | null {
  let from = -1, to = -1
  for (let code = 0; code < members.length; code++) {
    if (members[code] === 0) continue
    if (from < 0) from = code
    else if (to !== code - 1) return null
    to = code
  }
  return from < 0 ? 'none' : [from, to]
}

/**
 * Operation.blockSlots for histogram edges: blocks' slots from their extremes as their records give
 * them (a runs sequence's, from its run values, decoded once by the backend).
 */
function blockSlotsFor(edges: Int32Array, backend: ColumnsBackend): ((blocks: SequenceView, firstBlock: number, blockCount: number) => Int32Array) | undefined {
  const slotsOf = blockSlotsOf(edges)
  return slotsOf === undefined ? undefined : (blocks, firstBlock, blockCount) => slotsOf(blockExtremes(blocks, backend), firstBlock, blockCount)
}
