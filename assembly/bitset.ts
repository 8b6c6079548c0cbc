// Whole-bitset operations for DocSets: population count and in-place and / or /
// and-not. Bitsets are 16-aligned regions of int32 words (src/backend/wasm/query.ts);
// bits at and beyond maxDoc are always 0, so whole words are counted.

/** Set bits in the `words` int32 words at address. */
export function bitsetCount(address: usize, words: u32): u32 {
  const end = address + (<usize>words << 2)
  let p = address
  let total: u64 = 0
  for (; p + 8 <= end; p += 8) total += popcnt<u64>(load<u64>(p))
  if (p < end) total += <u64>popcnt<u32>(load<u32>(p))
  return <u32>total
}

/** target = target op other over `words` words; op 0: and, 1: or, 2: and-not (target & ~other). */
export function bitsetCombine(target: usize, other: usize, words: u32, op: u32): void {
  // Scalar u64 with the choice inside the loop (it never changes within a call, so it predicts
  // well): fast enough beside the queries that call it, and fewer bytes than v128 loops in the browser
  // bundle, whose size budget counts every byte of the kernels.
  const end = target + (<usize>words << 2)
  const distance = other - target
  let p = target
  for (; p + 8 <= end; p += 8) {
    const a = load<u64>(p), b = load<u64>(p + distance)
    store<u64>(p, op == 0 ? a & b : op == 1 ? a | b : a & ~b)
  }
  if (p < end) {
    const a = load<u32>(p), b = load<u32>(p + distance)
    store<u32>(p, op == 0 ? a & b : op == 1 ? a | b : a & ~b)
  }
}
