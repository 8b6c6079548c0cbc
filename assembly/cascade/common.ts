// Shared pieces of the v2 cascade kernels (docs/format-v2.md): where a node's
// parts lie, bit fields, the static buffers and the statuses they add to the
// ABI (assembly/index.ts). They mirror src/cascade: results are bit-identical
// to src/cascade/reader/decode-ts.ts for every file that opens.
//
// A node is the address of a sequence's form byte. Everything but dictionary
// indexes and codes was validated at open; reads stay inside each node's data
// area and its 8 zero padding bytes even when other fields are corrupt.
import { SCRATCH } from '../common'
import { fill } from '../decode'
import { unpackScaled, unpackUnit } from '../widths'

/** Sequence forms (the node's first byte). */
export const FORM_BLOCKS: u32 = 0
export const FORM_DICTIONARY: u32 = 1
export const FORM_RUNS: u32 = 2
export const FORM_DECIMAL: u32 = 3

/** Block kinds v2 adds to v1's constant (0) and packed (1, "frame"). */
export const KIND_DICTIONARY: u32 = 3
export const KIND_RUNS: u32 = 4
export const KIND_FREQUENT: u32 = 5
export const KIND_PATCHED: u32 = 6
export const KIND_LINEAR: u32 = 7

/** Param bits of frequent and patched blocks: exception count, list positions, stored divisor. */
export const COUNT_MASK: u32 = 1023
export const LIST_FLAG: u32 = 1 << 10
export const GCD_FLAG: u32 = 1 << 11

/**
 * Statuses beyond common.ts's. 5: a block dictionary index ≥ k (scratch: u32 node, u32 block,
 * u32 index, u32 k). 6: a sequence dictionary code ≥ k (scratch: u32 node, u32 value index,
 * u32 code's low word, u32 k).
 */
export const INDEX_ERROR: i32 = 5
export const CODE_ERROR: i32 = 6

/** The values of a dictionary block's entries (base + g × entry, ≤ 1,024), within one block's decode. */
export const BLOCK_ENTRIES: usize = memory.data(8 * 1024, 16)
/**
 * A chunk of a sequence dictionary's codes (1,024), and its entries when there are at most
 * FORM_ENTRIES_MAX (16 KiB). A runs node's run values and next starts (1,024 each) take the
 * same bytes: a node is of one form or the other, and the blocks under either use only
 * BLOCK_ENTRIES. (So static data stays within the 128 KiB window of a pool worker's instance.)
 */
export const CODES: usize = memory.data(8 * 1024, 16)
export const FORM_ENTRIES_MAX: u32 = 2048
export const FORM_ENTRIES: usize = memory.data(8 * 2048, 16)
export const RUN_VALUES: usize = CODES
export const RUN_STARTS: usize = FORM_ENTRIES

// A form-0 node: u8 form, u32 count, u32 blockCount, u32 dataLength, 24-byte records, data.
// @ts-ignore: decorator
@inline export function nodeCount(node: usize): u32 { return load<u32>(node, 1) }
// @ts-ignore: decorator
@inline export function blocksRecords(node: usize): usize { return node + 13 }
// @ts-ignore: decorator
@inline export function blocksData(node: usize): usize { return node + 13 + <usize>load<u32>(node, 5) * 24 }
/** The byte after a form-0 node: its data area (padding included) ends it. */
// @ts-ignore: decorator
@inline export function blocksEnd(node: usize): usize { return blocksData(node) + <usize>load<u32>(node, 9) }

// Record fields beyond common.ts's: the u16 param.
// @ts-ignore: decorator
@inline export function recordParam(record: usize): u32 { return load<u16>(record, 2) }

/** ceil(bits / 8) of count fields of width W. */
// @ts-ignore: decorator
@inline export function bytesOf(count: u32, W: u32): usize { return (<usize>count * W + 7) >>> 3 }

/**
 * Field i of width W ≤ 56 of the sub-stream at p: one unaligned 8-byte load. The load ends at most
 * 7 bytes past the field's last byte, within the data area's 8 padding bytes. W = 0 gives 0.
 */
// @ts-ignore: decorator
@inline export function field(p: usize, i: u32, W: u32): u64 {
  const bit = <usize>i * W
  return (load<u64>(p + (bit >>> 3)) >>> <u64>(bit & 7)) & ((<u64>1 << <u64>W) - 1)
}

/** Field i of width W (1..64) of the stream at p, as v1's getRaw reads it: a 9th byte for W > 56. */
// @ts-ignore: decorator
@inline export function wideField(p: usize, i: u32, W: u32): u64 {
  const bit = <usize>i * W
  const at = p + (bit >>> 3), s = <u64>(bit & 7)
  let u = load<u64>(at) >>> s
  // (b << 1) << (63 - s) is 0 for s = 0.
  if (W > 56) u |= ((<u64>load<u8>(at, 8)) << 1) << (63 - s)
  return u & (<u64>-1 >>> <u64>(64 - W))
}

/** base + g × field for fields [from, to) of width W (0..64) at p, to out: v1's unpacking. */
export function unpackValues(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, W: u32): void {
  if (from >= to) return
  if (W == 0) fill(out, base, to - from)
  else if (g == 1) unpackUnit(p, from, to, base, out, W)
  else unpackScaled(p, from, to, base, g, out, W)
}

/** `length` copies of value at o; runs of one or two values without fill's loop set-up. */
// @ts-ignore: decorator
@inline export function fillRun(o: usize, value: i64, length: u32): void {
  if (length == 1) store<i64>(o, value)
  else if (length == 2) v128.store(o, i64x2.splat(value))
  else fill(o, value, length)
}

/** Status 5 with its details; the node and block are added by the blocks form (blocksError). */
export function indexError(index: u32, k: u32): i32 {
  store<u32>(SCRATCH, index, 8)
  store<u32>(SCRATCH, k, 12)
  return INDEX_ERROR
}

/** Completes a status 5 from a block of the form-0 node with its node and block number. */
export function blocksError(status: i32, node: usize, block: u32): i32 {
  if (status == INDEX_ERROR) {
    store<u32>(SCRATCH, <u32>node)
    store<u32>(SCRATCH, block, 4)
  }
  return status
}

/** Status 6: value `index` of the dictionary node has code `code` ≥ k (its low word, then its high word after k). */
export function codeError(node: usize, index: u32, code: u64, k: u32): i32 {
  store<u32>(SCRATCH, <u32>node)
  store<u32>(SCRATCH, index, 4)
  store<u32>(SCRATCH, <u32>code, 8)
  store<u32>(SCRATCH, k, 12)
  store<u32>(SCRATCH, <u32>(code >>> 32), 16)
  return CODE_ERROR
}
