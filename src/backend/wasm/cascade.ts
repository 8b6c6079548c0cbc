/**
 * Reads of the v2 sequences v1's kernels cannot read (SequenceView.cascade) through
 * the cascade kernels (assembly/cascade/), which walk a sequence from its node: the
 * address of its form byte. The decodes take the shape of v1's (records, data,
 * count, first, n, out), so the backend's read machinery (begin, step, run: reads in
 * place, or staged and copied out) drives them unchanged; the node they read is the
 * one selected before the read. A corrupt dictionary index or code (statuses 5 and 6)
 * throws the TypeScript backend's CorruptIndexException, naming the failing node.
 */
import type { SequenceView } from '../backend.js'
import { CorruptIndexException } from '../../format/errors.js'
import { int64Result, int64ToBigInt } from '../../format/int64.js'
import type { WasmRuntime } from './runtime.js'

/** The cascade kernels' exports (assembly/index.ts documents the ABI). */
export interface CascadeKernels {
  cascadeGet(node: number, index: number, out: number): number
  cascadeGetNumber(node: number, index: number): number
  cascadeDecode(node: number, first: number, count: number, out: number): number
  cascadeDecodeFloat64Sortable(node: number, first: number, count: number, out: number): number
  cascadeDecodeFloat64Exact(node: number, first: number, count: number, out: number): number
  cascadeDecodeInt32(node: number, first: number, count: number, limit: number, out: number): number
  cascadeDecodeOrdinals(node: number, first: number, count: number, limit: number, out: number): number
  cascadeEntriesTable(address: number, entries: number): void
}

/** A decode kernel as the backend's reads call it (records, data, value count, run, output address). */
export type Decode = (records: number, data: number, valueCount: number, first: number, count: number, out: number) => number

/** The cascade reads of one backend. */
export interface CascadeReads {
  /** Raw value `index` of the sequence (its cascade not null) into int64Result. */
  get(sequence: SequenceView, index: number): void
  /** Points the decodes below at the sequence's node (and the int32 and ordinal decodes' limit); returns `kernel`. */
  select(sequence: SequenceView, kernel: Decode, int32Limit?: number): Decode
  /** Forgets the selected sequence once its read is over. */
  done(): void
  readonly raw: Decode
  readonly sortable: Decode
  readonly exact: Decode
  readonly int32: Decode
  readonly ordinals: Decode
}

const INDEX_ERROR = 5
const CODE_ERROR = 6

/** The file offset of a v2 sequence's form byte: its cascade's node, or (blocks of v1's kinds) before its 12-byte header. */
function nodeOf(view: SequenceView): number {
  return view.cascade !== null ? view.cascade.start : view.recordsStart - 13
}

/** The sequence of the tree under `view` whose node is at file offset `node`, or null. */
function findNode(view: SequenceView, node: number): SequenceView | null {
  if (nodeOf(view) === node) return view
  const cascade = view.cascade
  if (cascade === null || cascade.form === 0) return null
  const children = cascade.form === 1 ? [cascade.entries, cascade.codes] : cascade.form === 2 ? [cascade.values, cascade.starts] : [cascade.integers]
  for (const child of children) {
    const found = findNode(child, node)
    if (found !== null) return found
  }
  return null
}

/** A kernel's status 5 or 6 (details in scratch), worded as src/cascade/reader/decode-ts.ts words it. */
export function cascadeError(runtime: WasmRuntime, sequence: SequenceView, status: number): never {
  const words = runtime.words, at = runtime.scratchWord
  const node = (words[at] >>> 0) - sequence.file.address
  const second = words[at + 1] >>> 0, value = words[at + 2] >>> 0, k = words[at + 3] >>> 0
  // A code's high word follows k (src/cascade/reader/decode-ts.ts names the code whole, unsigned).
  const code = BigInt.asUintN(64, int64ToBigInt(value, words[at + 4]))
  // Only a node of this tree can fail; the sequence itself names the read otherwise.
  const failing = findNode(sequence, node) ?? sequence
  const detail = status === INDEX_ERROR
    ? `block ${second} has dictionary index ${value}, beyond its ${k} entries`
    : `value ${second} has dictionary code ${code}, beyond its ${k} entries`
  throw new CorruptIndexException(failing.fileName, `${failing.label}: ${detail}`)
}

/** The cascade reads over a runtime's kernels. */
export function createCascadeReads(runtime: WasmRuntime): CascadeReads {
  const kernels = runtime.kernels
  const scratch = runtime.scratchAddress
  // The read in progress (set by select): its sequence, node address and int32 limit.
  let selected: SequenceView | null = null
  let node = 0, limit = 0
  /** Statuses 0, 2 and 3 go back to the read (2 and 3: a refused value, as v1's); 5 and 6 throw. */
  const checked = (status: number): number => {
    if (status === INDEX_ERROR || status === CODE_ERROR) cascadeError(runtime, selected!, status)
    return status
  }
  return {
    get(sequence, index) {
      const status = kernels.cascadeGet(sequence.file.address + sequence.cascade!.start, index, scratch)
      if (status !== 0) cascadeError(runtime, sequence, status)
      int64Result[0] = runtime.words[runtime.scratchWord]
      int64Result[1] = runtime.words[runtime.scratchWord + 1]
    },
    // The read is over: its sequence (whose file a reader dropped unclosed would otherwise keep) is forgotten.
    done() {
      selected = null
    },
    select(sequence, kernel, int32Limit = 0) {
      selected = sequence
      node = sequence.file.address + sequence.cascade!.start
      limit = int32Limit
      return kernel
    },
    raw: (_records, _data, _count, first, n, out) => checked(kernels.cascadeDecode(node, first, n, out)),
    sortable: (_records, _data, _count, first, n, out) => checked(kernels.cascadeDecodeFloat64Sortable(node, first, n, out)),
    exact: (_records, _data, _count, first, n, out) => checked(kernels.cascadeDecodeFloat64Exact(node, first, n, out)),
    int32: (_records, _data, _count, first, n, out) => checked(kernels.cascadeDecodeInt32(node, first, n, limit, out)),
    ordinals: (_records, _data, _count, first, n, out) => checked(kernels.cascadeDecodeOrdinals(node, first, n, limit, out)),
  }
}
