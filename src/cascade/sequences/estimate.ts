/**
 * Exact rational byte counts of candidate forms, compared without rounding
 * (a second implementation compares the same fractions and so makes the same choice).
 */
import type { Estimate } from '../block-pool.js'

/** fixed + the estimates' sum. */
export function sum(fixed: number, ...parts: Estimate[]): Estimate {
  let n = BigInt(fixed), d = 1n
  for (const part of parts) {
    n = n * part.d + part.n * d
    d *= part.d
  }
  return { n, d }
}

/** Whether a is strictly smaller than b. */
export function smaller(a: Estimate, b: Estimate): boolean {
  return a.n * b.d < b.n * a.d
}
