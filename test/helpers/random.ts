/**
 * A small seeded PRNG (mulberry32) for tests and benchmarks: the same seed
 * gives the same data, so a failure or a figure reproduces exactly.
 */

/** Uniform doubles in [0, 1) from a 32-bit seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let mixed = Math.imul(state ^ (state >>> 15), state | 1)
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61)
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296
  }
}
