// The oixk WebAssembly kernels (AssemblyScript, runtime stub): bit unpacking per
// width, block decode, typed decoders, rank, XXH64 and the canonical-block check.
// They mirror src/backend/ts and src/write/block-encoder.ts bit for bit.
//
// ABI (the TS side in src/backend/wasm depends on it):
// - Nothing is allocated at run time. Pointers are byte addresses in the exported
//   memory, which JS grows and manages at or above max(heapBase(), 65536).
// - A sequence is (records, data, count): records = its first 24-byte block record
//   (u8 kind, u8 width, u16 reserved, u32 dataOffset, i64 base, i64 aux; unaligned),
//   data = its data area, count = its values. Everything but table indexes was
//   validated at open; table indexes are range-checked as they are read.
// - Status: 0 ok; 1 table index out of range (scratch: u32 block, u32 index,
//   u32 entries); 2 value not representable (scratch: u32 position in the run,
//   and the raw i64 value at +8, for the message); 3 ordinal ≥ limit (scratch:
//   u32 position, raw i64 value at +8).
// - Format v2 (cascade/, docs/format-v2.md): a sequence v1's kernels cannot read
//   is a node = the address of its form byte; the kernels find its children from
//   the bytes. cascadeGet(node, index, out) and cascadeDecode(node, first, n, out)
//   give raw i64 values; cascadeDecodeFloat64Sortable / cascadeDecodeFloat64Exact /
//   cascadeDecodeInt32 (node, first, n, [limit,] out) mirror the typed decoders
//   (statuses 2 and 3 as below). Status 5: a block dictionary index ≥ k (scratch:
//   u32 node, u32 block, u32 index, u32 k; node: the form-0 node holding the
//   block); 6: a sequence dictionary code ≥ k (scratch: u32 node, u32 value index,
//   u32 code's low word, u32 k). Both are checked as read, like table indexes.
//   decodeRawOrdinals (v1: records, data, count, first, n, limit, out) and
//   cascadeDecodeOrdinals (node, first, n, limit, out): keyword ordinals as raw
//   i64, status 3 at the first ≥ limit. cascadeEntriesTable(address, entries):
//   memory (8 bytes an entry) where reads keep the entries of dictionaries of
//   more than 2,048 entries; JS allocates it once, before any read.
// - Keyword dictionaries (strings/): decodeTerms writes terms and their u32
//   offsets, digitsDecode terms of `digits` bytes each; statuses 7 (a code that
//   is no symbol: scratch u32 term, u32 code index, u32 code), 8 (codes end in
//   an escape: u32 term), 9 (output past the declared bytes: u32 term), 10 (a
//   term shares more than the term before has: u32 term, u32 shared, u32
//   previous length), 11 (a term not above the one before: u32 term), 12 (a
//   digits integer out of range: u32 term).
// - u32 results (rank) reach JS as int32: values ≥ 2^31 need >>> 0.
// - Query kernels (query-*.ts) take a run (first, count) of a sequence, a
//   selection bitset (sel = 0: every value; else bit selStart + i selects value
//   first + i) and write bitsets in place; bitsets need 4 bytes of slack after
//   their last word (unaligned 8-byte accesses). Status 4: a counted value is
//   outside [0, n) (scratch: u32 value index, raw i64 at +8).
import { SCRATCH } from './common'

// Raw values: a run of a sequence (decodeRaw) or one value (getRaw; getRawNumber returns it as an exact double).
export { decodeRaw, getRaw, getRawNumber } from './decode'
// Typed runs: sortable or exact doubles, int32 or keyword ordinals.
export { decodeFloat64Exact, decodeFloat64Sortable, decodeInt32, decodeRawOrdinals } from './typed'
// Format v2: raw and typed reads of any cascade (assembly/cascade/).
export {
  cascadeDecode, cascadeDecodeFloat64Exact, cascadeDecodeFloat64Sortable, cascadeDecodeInt32, cascadeDecodeOrdinals, cascadeEntriesTable, cascadeGet,
  cascadeGetNumber,
} from './cascade/index'
// Format 2 keyword dictionaries: FSST codes and front coding decoded at open (assembly/strings/).
export { decodeTerms } from './strings/terms'
export { digitsDecode } from './strings/digits'
// The full check's block test (canonical records) and the sequence's min and max.
export { checkCanonical } from './canonical'
// The file checksum, of a whole input or (Node's worker pool) of one arriving in pieces.
export { xxh64, xxh64Finish, xxh64Start, xxh64Update } from './xxh64'
// Query kernels: facet counts, range filters, aggregates and histograms over runs.
export { queryCountValues } from './query-count'
export { queryCountDecoded } from './cascade/query-decoded'
// A sequence dictionary's codes as ranks, decoded once for queries (src/cascade/decoded-codes.ts).
export { decodeRanks } from './cascade/ranks'
export { queryMatchMembers } from './cascade/query-members'
export { queryRunsHistogram, runBlockExtremes } from './cascade/query-runs'
export { queryRunsAggregate } from './cascade/query-runs-aggregate'
export { queryMatchRange } from './query-range'
export { queryCountSelectedBytes, queryMatchBytes } from './cascade/query-decoded-bytes'
export { queryMatchOrdinals } from './query-ordinals'
export { queryAggregate } from './query-aggregate'
export { queryHistogram } from './query-histogram'
// Multi-valued columns: distinct facet counts and any-value filters over offsets and values together.
export { queryMulti } from './query-multi'
export { prepareBitTables, queryStarts } from './query-starts'
// DocSet operations: population count and in-place and / or / and-not.
export { bitsetCombine, bitsetCount } from './bitset'

/** First free byte after the static data, rounded up to 16: JS allocates at or above max(heapBase(), 65536). */
export function heapBase(): usize {
  return (__heap_base + 15) & ~<usize>15
}

/** Address of the 64-byte scratch area where kernels leave results and error details. */
export function scratch(): usize {
  return SCRATCH
}

/**
 * Documents with a value before `document`: ranks[document >> 6] (u32, aligned)
 * plus the set bits below `document` in u64 word document >> 6 of the bitmap
 * (little-endian, maybe unaligned). The mask is 0 when document is a multiple of 64.
 */
export function rank(bitmap: usize, ranks: usize, document: u32): u32 {
  const word = document >>> 6
  const bits = load<u64>(bitmap + (<usize>word << 3))
  const below = bits & ((<u64>1 << <u64>(document & 63)) - 1)
  return load<u32>(ranks + (<usize>word << 2)) + <u32>popcnt<u64>(below)
}
