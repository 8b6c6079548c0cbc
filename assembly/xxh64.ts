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

/** The last bytes [p, end) (fewer than 32) and the avalanche, after h and the input's length. */
function finish(h: u64, p: usize, end: usize, length: u64): u64 {
  h += length
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
  return h
}

/** XXH64 of [ptr, ptr + length) with seed (seedHigh << 32 | seedLow), written as u64 at out. */
export function xxh64(ptr: usize, length: usize, seedLow: u32, seedHigh: u32, out: usize): void {
  const end = ptr + length
  if (length < 32) {
    store<u64>(out, finish(((<u64>seedHigh << 32) | <u64>seedLow) + P5, ptr, end, length))
    return
  }
  xxh64Start(seedLow, seedHigh)
  xxh64Finish(xxh64Update(ptr, end), end, length, out)
}

// The same hash of an input of 32 bytes or more, in pieces (xxh64 above, and Node's worker pool,
// which hashes a file while another thread copies it in): start, then the whole stripes of each
// piece, then the end. One input at a time per instance: the accumulators are its static LANES.

/** Starts hashing an input of at least 32 bytes with seed (seedHigh << 32 | seedLow). */
export function xxh64Start(seedLow: u32, seedHigh: u32): void {
  const seed = (<u64>seedHigh << 32) | <u64>seedLow
  store<u64>(LANES, seed + P1 + P2)
  store<u64>(LANES, seed + P2, 8)
  store<u64>(LANES, seed, 16)
  store<u64>(LANES, seed - P1, 24)
}

/** Hashes the whole 32-byte stripes of [p, end); returns the first byte after them. */
export function xxh64Update(p: usize, end: usize): usize {
  return xxh64Stripes(p, end, LANES)
}

/** Ends the input at end (p: where xxh64Update stopped; fewer than 32 bytes remain), `length` bytes in all; the hash at out. */
export function xxh64Finish(p: usize, end: usize, length: usize, out: usize): void {
  const v1 = load<u64>(LANES), v2 = load<u64>(LANES, 8), v3 = load<u64>(LANES, 16), v4 = load<u64>(LANES, 24)
  let h = rotl<u64>(v1, 1) + rotl<u64>(v2, 7) + rotl<u64>(v3, 12) + rotl<u64>(v4, 18)
  h = mergeRound(h, v1)
  h = mergeRound(h, v2)
  h = mergeRound(h, v3)
  h = mergeRound(h, v4)
  store<u64>(out, finish(h, p, end, length))
}
