/**
 * Every number format v2's cascades fix (docs/format-v2.md): block kinds,
 * sequence forms, limits. Blocks hold 1,024 values as in v1 and keep its
 * 24-byte record; kinds 0 and 1 are v1's constant and packed blocks.
 */

/** The version word of a v2 file. */
export const FORMAT_VERSION_2 = 2

/** Block kinds of a v2 BLOCKS sequence (kind 2, v1's table, is not used by v2). */
export const Kind = {
  constant: 0,
  frame: 1,
  dictionary: 3,
  runs: 4,
  frequent: 5,
  patched: 6,
  linear: 7,
} as const
export type KindCode = (typeof Kind)[keyof typeof Kind]
/** Names of the kinds by code, for inspect and errors. */
export const KIND_NAMES: readonly string[] = ['constant', 'frame', '(table)', 'dictionary', 'runs', 'frequent', 'patched', 'linear']

/** Sequence forms: the byte each v2 sequence starts with. */
export const Form = { blocks: 0, dictionary: 1, runs: 2, decimal: 3 } as const
export type FormCode = (typeof Form)[keyof typeof Form]
export const FORM_NAMES: readonly string[] = ['blocks', 'dictionary', 'runs', 'decimal']

/** Dictionary entry orders. */
export const DictionaryOrder = { ascending: 0, frequency: 1 } as const

/**
 * Blocks whose range (max - min) is 2^51 or more are stored as frame blocks
 * (v1's packed form): every other kind works on offsets whose sums stay below
 * 2^53, which a double holds exactly (the TypeScript reader and the writer
 * compute with them).
 */
export const NARROW_RANGE_LIMIT = 2 ** 51
/** Every offset from the base a non-frame block can produce is below this in magnitude (checked at open). */
export const OFFSET_LIMIT = 2 ** 53

/** The param field of a frequent or patched block: exception count in bits 0-9, flags above. */
export const EXCEPTION_COUNT_BITS = 10
export const POSITIONS_LIST_FLAG = 1 << 10
export const EXCEPTION_GCD_FLAG = 1 << 11

/** A run-form sequence keeps one checkpoint (u32: the run holding value 1,024 b) per 1,024 values. */
export const CHECKPOINT_VALUES = 1024

/** Decimal sequences: x = n / 10^exponent, exponent 0..MAX_EXPONENT, |n| < 2^53. */
export const MAX_EXPONENT = 18
/** Values sampled (at fixed positions) to choose a decimal sequence's exponent. */
export const EXPONENT_SAMPLE = 2048

/** Slope precision of linear blocks: the line is floor(j × slope / 1024). */
export const SLOPE_SHIFT = 10
