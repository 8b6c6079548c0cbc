/**
 * 10^e for e in 0..18, exact as doubles: decimal sequences divide by them, digits dictionaries
 * bound their integers by them. Literals, not `10 ** e`: the language leaves Math.pow's accuracy
 * to the engine, and one a unit off would change every decoded value.
 */
export const POWERS_OF_TEN: readonly number[] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18]
