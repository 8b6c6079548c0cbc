/**
 * Statuses of the keyword term decoders, the same in TypeScript
 * (terms-ts.ts, digits-ts.ts) and WebAssembly (assembly/strings/): details in
 * a 3-word array (the kernels' scratch).
 */

/** A code that is neither a symbol nor the escape: [term, code index in the term, code]. */
export const BAD_CODE = 7
/** A term's codes end with the escape: [term]. */
export const OPEN_ESCAPE = 8
/** The output would pass the declared bytes: [term]. */
export const TOO_LONG = 9
/** A term shares more bytes than the term before it has: [term, shared, previous length]. */
export const SHARED_TOO_LONG = 10
/** A term is not above the term before it: [term]. */
export const NOT_INCREASING = 11
/** A digits term's integer is negative or has more digits: [term]. */
export const TOO_MANY_DIGITS = 12
