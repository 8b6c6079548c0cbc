// XXH64 (the file checksum, docs/format.md §2) over a byte range of memory.
// Inputs of 32 bytes or more run their stripes through xxh64Stripes: the SIMD
// loop of assembly/xxh64-stripes.ts in Node, a compact scalar one in browsers.
import { P1, P2, P3, P4, P5, round } from './xxh64-round'
import { xxh64Stripes } from './widths'

/** The four accumulators between the stripe loop and the merge. */
const LANES: usize = memory.data(32, 16)

/** Folds an accumulator into the hash at the end of the stripes. */
// @ts-ignore: decorator
@inline function mergeRound(h: u64, acc: u64): u64 {
  return (h ^ round(0, acc)) * P1 + P4
}

/** XXH64 of [ptr, ptr + length) with seed (seedHigh << 32 | seedLow), written as u64 at out. */
export function xxh64(ptr: usize, length: usize, seedLow: u32, seedHigh: u32, out: usize): void {
  const seed = (<u64>seedHigh << 32) | <u64>seedLow
  let p = ptr
  const end = ptr + length
  let h: u64
  if (length >= 32) {
    store<u64>(LANES, seed + P1 + P2)
    store<u64>(LANES, seed + P2, 8)
    store<u64>(LANES, seed, 16)
    store<u64>(LANES, seed - P1, 24)
    p = xxh64Stripes(p, end, LANES)
    const v1 = load<u64>(LANES), v2 = load<u64>(LANES, 8), v3 = load<u64>(LANES, 16), v4 = load<u64>(LANES, 24)
    h = rotl<u64>(v1, 1) + rotl<u64>(v2, 7) + rotl<u64>(v3, 12) + rotl<u64>(v4, 18)
    h = mergeRound(h, v1)
    h = mergeRound(h, v2)
    h = mergeRound(h, v3)
    h = mergeRound(h, v4)
  } else {
    h = seed + P5
  }
  h += <u64>length
  for (; end - p >= 8; p += 8) h = rotl<u64>(h ^ round(0, load<u64>(p)), 27) * P1 + P4
  if (end - p >= 4) {
    h = rotl<u64>(h ^ (<u64>load<u32>(p) * P1), 23) * P2 + P3
    p += 4
  }
  for (; p < end; p++) h = rotl<u64>(h ^ (<u64>load<u8>(p) * P5), 11) * P1
  h ^= h >> 33
  h *= P2
  h ^= h >> 29
  h *= P3
  h ^= h >> 32
  store<u64>(out, h)
}
