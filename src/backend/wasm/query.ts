/**
 * WebAssembly query kernels (see ../query-kernels.ts; the loops are in
 * assembly/query-*.ts). Bitsets live in linear memory, so kernels read the
 * selection and write the output in place; counts and histogram slots
 * accumulate in a reusable area of linear memory and are added into the
 * caller's array afterwards; aggregate state goes in and out through scratch.
 */
import type { SequenceView } from '../backend.js'
import { releaseWithReader } from '../owned-regions.js'
import { ownedBy } from '../weak-tracker.js'
import type { AggregateMode, AggregateState, BitsetMemory, QueryKernels } from '../query-kernels.js'
import { BLOCK_VALUES } from '../../format/constants.js'
import { CorruptIndexException } from '../../format/errors.js'
import { cascadeError } from './cascade.js'
import { byteRange, plainBytesBelow, RegionSequence } from '../../cascade/region-sequence.js'
import { tableIndexError, type WasmRuntime } from './runtime.js'

/** The largest share of selected values for which a decoded view of bytes is counted a selected bit at a time. */
const SPARSE_SELECTION = 0.25

/** Status codes of the kernels (assembly/common.ts, assembly/query-common.ts). */
const TABLE_INDEX_ERROR = 1
const VALUE_RANGE_ERROR = 4
/** Facet counting spreads over 4 interleaved count arrays up to this many distinct values. */
const MAX_INTERLEAVED_VALUES = 16384
/** The pair table (2^16 u32) is zeroed per call: worth it only for runs this long. */
const PAIR_COUNTING_VALUES = 1 << 18
const PAIR_TABLE_BYTES = 65536 * 4
/** combineBits operations as the kernel numbers them (assembly/bitset.ts). */
const OPERATIONS = { and: 0, or: 1, andNot: 2 } as const
/** Bytes after a bitset's last word: the kernels touch words with unaligned 8-byte accesses. */
const BITSET_SLACK = 16
/**
 * Documents per markFirstValues call: the optimizing tier replaces a function's baseline code only
 * for later calls, so one call over millions of documents would run unoptimized throughout.
 */
const MULTI_CALL_DOCUMENTS = 16384
/** matchAny's compress and deposit tables, [mask][bits] each (assembly/query-starts.ts). */
const BIT_TABLES_BYTES = 2 * 65536
/** queryMulti's work area before its table: chunk offsets and the value window (assembly/query-multi.ts). */
const MULTI_TABLE = 8 * 1040 + 256 + 2 * 8192 + 8 * (8192 + 2048)

/** Regions of bitsets dropped without release(): freed when collected. */
const forgottenBitsets = new FinalizationRegistry<{ runtime: WasmRuntime; address: number }>(({ runtime, address }) => {
  runtime.regions.free(address)
})

/**
 * Each run sequence's block extremes (runBlockExtremes), made on its first histogram; freed when
 * its reader closes, or when the sequence is collected (a reader dropped open), whichever comes first.
 */
const runExtremes = new WeakMap<SequenceView, number>()
const forgottenExtremes = new FinalizationRegistry<{ release(): void }>((region) => region.release())

/** The address of a form-0 sequence's block extremes in linear memory, made now if not yet. */
function extremesOf(runtime: WasmRuntime, sequence: SequenceView): number {
  let address = runExtremes.get(sequence)
  if (address === undefined) {
    const at = runtime.regions.allocate(16 * sequence.blockCount)
    runtime.kernels.runBlockExtremes(sequence.file.address + sequence.cascade!.start, at)
    runExtremes.set(sequence, at)
    let freed = false
    const region = { release: () => { if (!freed) runtime.regions.free(at); freed = true } }
    forgottenExtremes.register(sequence, region)
    releaseWithReader(sequence.file, region)
    address = at
  }
  return address
}

/** A bitset in linear memory; `words` is rebuilt after the memory grows. */
class WasmBitset implements BitsetMemory {
  readonly address: number
  readonly wordCount: number
  private readonly runtime: WasmRuntime
  private view: Int32Array | null = null
  private released = false

  constructor(runtime: WasmRuntime, wordCount: number) {
    this.runtime = runtime
    this.wordCount = wordCount
    this.address = runtime.regions.allocate(wordCount * 4 + BITSET_SLACK)
    runtime.bytes.fill(0, this.address, this.address + wordCount * 4 + BITSET_SLACK)
    forgottenBitsets.register(this, { runtime, address: this.address }, this)
  }

  get words(): Int32Array {
    // Released: an empty view, so a stray read sees no bits rather than another owner's memory.
    if (this.released) return new Int32Array(0)
    const buffer = this.runtime.kernels.memory.buffer
    // The view keeps the bitset: a DocSet dropped while its words are kept must not free them for the next set or file.
    if (this.view === null || this.view.buffer !== buffer) this.view = ownedBy(new Int32Array(buffer, this.address, this.wordCount), this)
    return this.view
  }

  release(): void {
    if (this.released) return
    this.released = true
    this.view = null
    forgottenBitsets.unregister(this)
    this.runtime.regions.free(this.address)
  }
}

/** The kernels' raw i64 at scratch + 8, as a decimal string. */
function scratchRaw(runtime: WasmRuntime): string {
  const at = runtime.scratchWord + 2
  return ((BigInt(runtime.words[at + 1]) << 32n) | BigInt(runtime.words[at] >>> 0)).toString()
}

/** The WebAssembly backend's query kernels over the runtime's memory. */
export function createWasmQueryKernels(runtime: WasmRuntime): QueryKernels {
  const kernels = runtime.kernels
  const scratchWord = runtime.scratchWord
  // One area for counts, histogram slots and edges, grown (never shrunk) to the largest need.
  let areaAddress = 0
  let areaBytes = 0
  /** matchAny's tables, made on its first call and kept with the runtime. */
  let bitTables = 0

  function area(bytes: number): number {
    if (bytes > areaBytes) {
      if (areaBytes > 0) runtime.regions.free(areaAddress)
      areaBytes = Math.max(bytes, 2 * areaBytes, 4096)
      areaAddress = runtime.regions.allocate(areaBytes)
    }
    return areaAddress
  }

  function selectionAddress(selection: BitsetMemory | null): number {
    if (selection === null) return 0
    if (!(selection instanceof WasmBitset)) throw new RangeError('oixk: a WebAssembly query needs a bitset of the WebAssembly backend')
    return selection.address
  }

  function failed(status: number, sequence: SequenceView, n = 0): never {
    if (status === TABLE_INDEX_ERROR) tableIndexError(runtime, sequence)
    if (status > 4) cascadeError(runtime, sequence, status)
    if (status === VALUE_RANGE_ERROR) {
      const valueIndex = runtime.words[scratchWord] >>> 0
      throw new CorruptIndexException(sequence.fileName, `${sequence.label}: value ${valueIndex} is ${scratchRaw(runtime)}, not in [0, ${n})`)
    }
    throw new Error(`oixk: query kernel status ${status}`)
  }

  /** queryMulti (mode 0 facet, 3 first values, 4 document starts); +16 in a status: the values failed. */
  function multi(
    offsets: SequenceView, values: SequenceView, from: number, to: number, docs: BitsetMemory | null, out: BitsetMemory | null,
    mode: number, n: number, listBytes = 0,
  ): number {
    const at = area(MULTI_TABLE + 8 * n + listBytes)
    const place = (sequence: SequenceView): [number, number] => {
      const file = sequence.file.address
      return sequence.cascade === null ? [file + sequence.recordsStart, file + sequence.dataStart] : [0, file + sequence.cascade.start]
    }
    const status = kernels.queryMulti(...place(offsets), ...place(values), from, to, selectionAddress(docs), selectionAddress(out), at, n, mode, values.count)
    if (status !== 0) failed(status & 15, status & 16 || status === VALUE_RANGE_ERROR ? values : offsets, n)
    return at + MULTI_TABLE
  }

  return {
    countDistinct(offsets, values, from, to, docs, counts) {
      const n = counts.length, at = multi(offsets, values, from, to, docs, null, 0, n) >>> 2
      for (let value = 0; value < n; value++) counts[value] += runtime.words[at + value] >>> 0
    },

    markDocumentStarts(offsets, values, from, to, starts, nonempty) {
      runtime.words[scratchWord] = selectionAddress(starts)
      multi(offsets, values, from, to, null, nonempty, 4, 0)
    },

    matchAny(starts, nonempty, valueCount, docCount, docs, test, out) {
      if (bitTables === 0) {
        bitTables = runtime.regions.allocate(BIT_TABLES_BYTES)
        kernels.prepareBitTables(bitTables)
      }
      // The kernel's stream of bits: one per non-empty document and one more, then two words.
      const stream = area(4 * ((docCount >>> 5) + 4))
      kernels.queryStarts(
        selectionAddress(starts), selectionAddress(nonempty), valueCount, docCount, selectionAddress(docs), selectionAddress(test),
        selectionAddress(out), bitTables, stream,
      )
    },

    markFirstValues(offsets, values, to, out, counts, positions, ordinals) {
      const n = counts.length, room = Math.min(positions.length, ordinals.length)
      // Counted apart and added once every call is through: a corrupt value leaves counts as they were.
      const walked = new Uint32Array(n)
      let repeats = 0
      // Each call clears and reads back the table: with many terms, calls take more documents.
      const step = Math.max(MULTI_CALL_DOCUMENTS, 1024 * Math.ceil(n / 64))
      for (let from = 0; from < to; from += step) {
        const left = Math.max(0, room - repeats)
        runtime.words[scratchWord] = left
        const at = multi(offsets, values, from, Math.min(to, from + step), null, out, 3, n, 8 * left) >>> 2
        const words = runtime.words
        for (let value = 0; value < n; value++) walked[value] += words[at + value] >>> 0
        const found = words[scratchWord] >>> 0
        // The list after the counts and the stamps: (value index, ordinal) pairs.
        for (let index = 0, pair = at + 2 * n; index < Math.min(found, left); index++, pair += 2) {
          positions[repeats + index] = words[pair]
          ordinals[repeats + index] = words[pair + 1]
        }
        repeats += found
      }
      for (let value = 0; value < n; value++) counts[value] += walked[value]
      return repeats
    },

    allocateBitset(wordCount: number): BitsetMemory {
      return new WasmBitset(runtime, wordCount)
    },

    countBits(bitset) {
      return kernels.bitsetCount(bitset.address, bitset.wordCount) >>> 0
    },

    combineBits(target, other, operation) {
      kernels.bitsetCombine(target.address, other.address, target.wordCount, OPERATIONS[operation])
    },

    countValues(sequence, first, count, selection, selectionStart, counts) {
      const n = counts.length
      if (count === 0) return
      const file = sequence.file.address
      // A decoded view's extremes bound its fields: no block's fields are read for their largest.
      const largest = sequence instanceof RegionSequence ? sequence.extremesSummary()?.largest ?? -1 : -1
      if (selection !== null && plainBytesBelow(sequence, n) !== null && kernels.bitsetCount(selection.address, selection.wordCount) >>> 0 <= SPARSE_SELECTION * 32 * selection.wordCount) {
        // Its bytes counted where a sparse selection's bits are set, a bit at a time in one pass over
        // the whole range (denser ones count faster by the blocks' packing of selected fields).
        const at = area(4 * n)
        kernels.queryCountSelectedBytes(file + sequence.dataStart + first, count, selectionAddress(selection), selectionStart, at, n)
        const words = runtime.words, from = at >>> 2
        for (let value = 0; value < n; value++) counts[value] += words[from + value] >>> 0
        return
      }
      const lanes = n <= MAX_INTERLEAVED_VALUES ? 4 : 1
      // Stride 2n: a valid packed block's bound base + g (2^W - 1) is below 2 max + 1 ≤ 2n, so it counts unchecked.
      const stride = Math.max(64, (2 * n + 3) & ~3)
      // Up to 256 values, whole blocks of bytes count pairs in a table of 2^16 u32 after the lanes.
      const pairs = n <= 256 && count >= PAIR_COUNTING_VALUES
      const at = area(lanes * stride * 4 + (pairs ? PAIR_TABLE_BYTES : 0))
      const status = kernels.queryCountValues(
        file + sequence.recordsStart, file + sequence.dataStart, first, count, selectionAddress(selection), selectionStart,
        at, n, stride, lanes, pairs ? at + lanes * stride * 4 : 0, largest,
      )
      if (status !== 0) failed(status, sequence, n)
      const words = runtime.words, from = at >>> 2
      for (let value = 0; value < n; value++) counts[value] += words[from + value] >>> 0
    },

    countDecoded(sequence, first, count, selection, selectionStart, counts) {
      const n = counts.length
      if (count === 0) return true
      // Blocks of v1's kinds alone (a dictionary's codes) are not this kernel's: the caller decodes them.
      if (sequence.cascade === null) return false
      const lanes = n <= MAX_INTERLEAVED_VALUES ? 4 : 1
      // Stride > n: slot n takes the values out of range.
      const stride = Math.max(64, (n + 4) & ~3)
      // Up to 256 values, whole patched blocks count pairs in a table of 2^16 u32 after the staging area.
      const pairs = n <= 256 && count >= PAIR_COUNTING_VALUES
      const staged = lanes * stride * 4 + 8 * BLOCK_VALUES
      const at = area(staged + (pairs ? PAIR_TABLE_BYTES : 0))
      const status = kernels.queryCountDecoded(
        sequence.file.address + sequence.cascade.start, first, count, selectionAddress(selection), selectionStart, at, n, stride, lanes,
        pairs ? at + staged : 0,
      )
      if (status !== 0) return false
      const words = runtime.words, from = at >>> 2
      for (let value = 0; value < n; value++) counts[value] += words[from + value] >>> 0
      return true
    },

    matchMembers(codes, first, count, members, selection, selectionStart, out, outStart) {
      if (count === 0) return 0
      if (codes.cascade === null) return -1
      const at = area(8 * BLOCK_VALUES + members.length)
      // Views after area(), which may grow memory.
      runtime.bytes.set(members, at + 8 * BLOCK_VALUES)
      return kernels.queryMatchMembers(
        codes.file.address + codes.cascade.start, first, count, at + 8 * BLOCK_VALUES, members.length,
        selectionAddress(selection), selectionStart, selectionAddress(out), outStart, at, 0, 0,
      )
    },

    matchCodeSpan(codes, first, count, k, lo, hi, selection, selectionStart, out, outStart) {
      if (count === 0) return 0
      if (codes.cascade === null) return -1
      const at = area(8 * BLOCK_VALUES)
      return kernels.queryMatchMembers(
        codes.file.address + codes.cascade.start, first, count, 0, k,
        selectionAddress(selection), selectionStart, selectionAddress(out), outStart, at, lo, hi,
      )
    },

    matchOrdinals(sequence, first, count, members, selection, selectionStart, out, outStart) {
      if (count === 0) return 0
      if (sequence.cascade !== null) return -1
      const at = area(members.length)
      // Views after area(), which may grow memory.
      runtime.bytes.set(members, at)
      const file = sequence.file.address
      return kernels.queryMatchOrdinals(
        file + sequence.recordsStart, file + sequence.dataStart, first, count, at, members.length,
        selectionAddress(selection), selectionStart, selectionAddress(out), outStart,
      )
    },

    matchRange(sequence, first, count, bounds, selection, selectionStart, out, outStart) {
      if (count === 0) return 0
      if (selection === null && (outStart & 31) === 0 && plainBytesBelow(sequence, 256) !== null) {
        // A decoded view whose values are its bytes: one pass over the whole range.
        const [lo, hi] = byteRange(bounds)
        if (lo > hi) return 0
        return kernels.queryMatchBytes(sequence.file.address + sequence.dataStart + first, count, lo, hi, out.address + 4 * (outStart >>> 5)) >>> 0
      }
      const selectionAt = selectionAddress(selection)
      const outAt = selectionAddress(out)
      const words = runtime.words
      for (let index = 0; index < 4; index++) words[scratchWord + index] = bounds[index]
      const file = sequence.file.address
      const status = kernels.queryMatchRange(
        file + sequence.recordsStart, file + sequence.dataStart, first, count, selectionAt, selectionStart, outAt, outStart,
      )
      if (status !== 0) failed(status, sequence)
      return runtime.words[scratchWord] >>> 0
    },

    aggregate(sequence, first, count, mode: AggregateMode, selection, selectionStart, state: AggregateState) {
      if (count === 0) return
      const selectionAt = selectionAddress(selection)
      const floats = runtime.floats, words = runtime.words
      const floatAt = scratchWord >>> 1
      floats[floatAt] = state.numbers[0]
      floats[floatAt + 1] = state.numbers[1]
      for (let index = 0; index < 8; index++) words[scratchWord + 4 + index] = state.words[index]
      const file = sequence.file.address
      const status = kernels.queryAggregate(
        file + sequence.recordsStart, file + sequence.dataStart, first, count, mode === 'sortable' ? 1 : 0, selectionAt, selectionStart,
      )
      if (status !== 0) failed(status, sequence)
      state.numbers[0] = floats[floatAt]
      state.numbers[1] = floats[floatAt + 1]
      for (let index = 0; index < 8; index++) state.words[index] = words[scratchWord + 4 + index]
    },

    aggregateRuns(sequence, first, count, selection, selectionStart, state: AggregateState) {
      if (count === 0) return true
      if (sequence.cascade === null) return false
      const selectionAt = selectionAddress(selection)
      const floats = runtime.floats, words = runtime.words
      const floatAt = scratchWord >>> 1
      floats[floatAt] = state.numbers[0]
      for (let index = 0; index < 8; index++) words[scratchWord + 4 + index] = state.words[index]
      const status = kernels.queryRunsAggregate(sequence.file.address + sequence.cascade.start, first, count, selectionAt, selectionStart)
      if (status !== 0) return false
      state.numbers[0] = floats[floatAt]
      for (let index = 0; index < 8; index++) state.words[index] = words[scratchWord + 4 + index]
      return true
    },

    histogramRuns(sequence, first, count, edges, selection, selectionStart, counts) {
      const edgeCount = edges.length >>> 1
      if (count === 0 || edgeCount < 2) return true
      if (sequence.cascade === null) return false
      const extremes = extremesOf(runtime, sequence)
      const selectionAt = selectionAddress(selection)
      // Edges (i64) first, then edgeCount + 1 slots.
      const at = area(edgeCount * 8 + (edgeCount + 1) * 4)
      runtime.words.set(edges, at >>> 2)
      const slots = at + edgeCount * 8
      const status = kernels.queryRunsHistogram(
        sequence.file.address + sequence.cascade.start, first, count, selectionAt, selectionStart, at, edgeCount, slots, extremes,
      )
      if (status !== 0) return false
      const from = (slots >>> 2) + 1
      for (let bucket = 0; bucket < counts.length; bucket++) counts[bucket] += runtime.words[from + bucket] >>> 0
      return true
    },

    histogram(sequence, first, count, edges, selection, selectionStart, counts) {
      const edgeCount = edges.length >>> 1
      if (count === 0 || edgeCount < 2) return
      const selectionAt = selectionAddress(selection)
      // Edges (i64) first, then edgeCount + 1 slots.
      const at = area(edgeCount * 8 + (edgeCount + 1) * 4)
      const words = runtime.words
      words.set(edges, at >>> 2)
      const slots = at + edgeCount * 8
      const file = sequence.file.address
      const status = kernels.queryHistogram(
        file + sequence.recordsStart, file + sequence.dataStart, first, count, selectionAt, selectionStart, at, edgeCount, slots,
      )
      if (status !== 0) failed(status, sequence)
      const from = (slots >>> 2) + 1
      for (let bucket = 0; bucket < counts.length; bucket++) counts[bucket] += runtime.words[from + bucket] >>> 0
    },
  }
}
