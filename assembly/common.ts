// Shared pieces of the kernels: the static scratch areas, block-record field
// access and the status codes of the ABI (docs in assembly/index.ts).
//
// The module allocates nothing at run time: every buffer a kernel needs lives
// in the data segment below __heap_base, which JS never hands out.

/** Values per block of an integer sequence (docs/format.md §6). */
export const BLOCK_VALUES: u32 = 1024
export const BLOCK_SHIFT: u32 = 10
export const RECORD_BYTES: usize = 24

/**
 * Units of 2^shift that n items fill (blocks, bitset words), in 64 bits: counts reach 2^32 - 1,
 * where n + 2^shift - 1 wraps in 32.
 */
// @ts-ignore: decorator
@inline export function unitsOf(n: u32, shift: u32): u32 {
  return <u32>((<u64>n + ((<u64>1 << shift) - 1)) >> shift)
}

/** Block kinds as stored in a record's first byte. */
export const KIND_CONSTANT: u32 = 0
export const KIND_PACKED: u32 = 1
export const KIND_TABLE: u32 = 2

/** Status codes returned by the decoders (see index.ts). */
export const OK: i32 = 0
export const TABLE_INDEX_ERROR: i32 = 1
export const NOT_REPRESENTABLE: i32 = 2
export const ORDINAL_ERROR: i32 = 3

/** 64 bytes JS reads results and error details from; 16-aligned so typed-array views fit. */
export const SCRATCH: usize = memory.data(64, 16)

/** Where the single reads that return a number (getRawNumber, cascadeGetNumber) land; off the scratch, which a failed read fills. */
export const NUMBER_SLOT: usize = memory.data(8, 8)

/** Whether a double holds v exactly with every integer below it: |v| ≤ 2^53 - 1 ⇔ v + (2^53 - 1) ≤ 2^54 - 2 unsigned. */
// @ts-ignore: decorator
@inline export function isSafeInteger(v: i64): bool {
  return <u64>(v + 0x1F_FFFF_FFFF_FFFF) <= <u64>0x3F_FFFF_FFFF_FFFE
}

/** The value at NUMBER_SLOT as an exact double, or NaN beyond 2^53 - 1. */
// @ts-ignore: decorator
@inline export function slotNumber(): f64 {
  const v = load<i64>(NUMBER_SLOT)
  return isSafeInteger(v) ? <f64>v : NaN
}

/**
 * One block of decoded values (1,024 × i64): the int32 decoder and the canonical
 * check decode into it, since their own output cannot hold raw i64 values.
 */
export const BLOCK_BUFFER: usize = memory.data(8 * 1024, 16)

// Record fields. Records are not aligned; wasm loads do not need alignment.
// @ts-ignore: decorator
@inline export function recordKind(record: usize): u32 { return load<u8>(record) }
// @ts-ignore: decorator
@inline export function recordWidth(record: usize): u32 { return load<u8>(record, 1) }
// @ts-ignore: decorator
@inline export function recordDataOffset(record: usize): usize { return load<u32>(record, 4) }
// @ts-ignore: decorator
@inline export function recordBase(record: usize): i64 { return load<i64>(record, 8) }
// @ts-ignore: decorator
@inline export function recordAux(record: usize): i64 { return load<i64>(record, 16) }

/**
 * Reports a table index beyond the table's entries: status 1, with the block,
 * the index and the entries in SCRATCH. Not inlined: it runs at most once per
 * call, and the hot loops stay small.
 */
export function tableIndexError(block: u32, index: u32, entries: u32): i32 {
  store<u32>(SCRATCH, block)
  store<u32>(SCRATCH, index, 4)
  store<u32>(SCRATCH, entries, 8)
  return TABLE_INDEX_ERROR
}

/**
 * Exact doubles from units by their bits (unpack-simd.ts, unpack-pairs.ts, typed-float64.ts):
 * a unit u < 2^52 beside TWO_52_HIGH, the high word of 2^52, is the bits of the double
 * 2^52 + u; adding base - 2^52 then gives base + u exactly when g = 1 and base ≥ -2^52
 * (base - 2^52 is then an integer within ±2^53). unitDoubles says when. The constants are
 * @inline: as plain globals, typed-float64.ts's double loops of widths 8 and 32 ran slower, the
 * optimiser laying out the module differently.
 */
// @ts-ignore: decorator
@inline export const TWO_52: f64 = 4503599627370496.0
// @ts-ignore: decorator
@inline export const TWO_52_HIGH: i32 = 0x4330_0000
// @ts-ignore: decorator
@inline export function unitDoubles(base: i64, g: i64): bool {
  return g == 1 && base >= -(<i64>1 << 52)
}

/**
 * Whether every value base + u (u < 2^W) of a block with g = 1 is an int32, so that base + u
 * can be summed in i32 lanes and each converted to a double by one instruction (unpack-simd.ts).
 */
// @ts-ignore: decorator
@inline export function int32Doubles(base: i64, g: i64, W: u32): bool {
  return g == 1 && W < 32 && base >= I32.MIN_VALUE && base + ((<i64>1 << W) - 1) <= I32.MAX_VALUE
}

/** bits(x) of docs/format.md §1: how many bits the unsigned x needs. */
// @ts-ignore: decorator
@inline export function bitsOf(x: u64): u32 {
  return 64 - <u32>clz(x)
}
