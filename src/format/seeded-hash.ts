/**
 * Hashing for the writer's and the full check's tables, seeded once a process: under a fixed
 * function a file can be made whose values all share one hash, and every flush or check of it goes
 * quadratic. Nothing a table's order decides reaches the bytes written.
 */

/** A seed drawn once a process. */
export const PROCESS_SEED = (Math.random() * 2 ** 32) | 0

/** A second, independent one, for hashes that take two words. */
export const PROCESS_SEED_2 = (Math.random() * 2 ** 32) | 0

/** A full 32-bit finalizer: every input bit reaches every output bit. */
export function mix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d)
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b)
  return h ^ (h >>> 16)
}
