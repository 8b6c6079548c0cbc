// Statuses and constants of the keyword dictionary kernels (format 2,
// docs/format-v2.md §10), mirrored by src/dictionary/decode/.

/** Status 7: a code that is neither a symbol nor the escape (scratch: u32 term, u32 code index in the term, u32 code). */
export const BAD_CODE: u32 = 7
/** Status 8: a term's codes end with the escape (scratch: u32 term). */
export const OPEN_ESCAPE: u32 = 8
/** Status 9: the output would pass the declared bytes (scratch: u32 term). */
export const TOO_LONG: u32 = 9
/** Status 10: a term shares more bytes than the term before it has (scratch: u32 term, u32 shared, u32 previous length). */
export const SHARED_TOO_LONG: u32 = 10
/** Status 11: a term is not above the term before it (scratch: u32 term). */
export const NOT_INCREASING: u32 = 11
/** Status 12: a digits term's integer is negative or has more digits (scratch: u32 term). */
export const TOO_MANY_DIGITS: u32 = 12

/** The escape code: the next byte is a literal. */
export const ESCAPE: u32 = 255
/** A table: 256 symbols of 8 bytes, then 256 lengths (0: not a symbol). */
export const LENGTHS_AT: usize = 2048
