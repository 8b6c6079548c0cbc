// XXH64 (the file checksum, docs/format.md §2) over a byte range of memory.
// Inputs of 32 bytes or more run four independent u64 accumulators over
// 32-byte stripes, so the four dependency chains (add, rotate, multiply)
// overlap. The scalar multiplier is the bottleneck (eight 64-bit multiplies a
// stripe: 14.7 GB/s here), and lane × P2 is off the chains, so one lane pair
// a stripe takes it from one SIMD multiply: 15.1 GB/s on 256 MiB. Lanes 1-2
// in one stripe and 3-4 in the next, not 1-2 in both, measured 5-10% faster
// again (paired runs, same code size). (All four lanes in SIMD measured 13.8:
// V8 emulates i64x2.mul with three 32-bit multiplies; lanes 1-2 wholly in
// SIMD, accumulators in a v128, 10.3: the emulated multiply is on the chain.)

const P1: u64 = 0x9E3779B185EBCA87
const P2: u64 = 0xC2B2AE3D27D4EB4F
const P3: u64 = 0x165667B19E3779F9
const P4: u64 = 0x85EBCA77C2B2AE63
const P5: u64 = 0x27D4EB2F165667C5

/** P2 in both lanes, loaded in the loop: V8 would rebuild a v128 constant at every use. */
const P2_PAIR: usize = memory.data<u64>([0xC2B2AE3D27D4EB4F, 0xC2B2AE3D27D4EB4F], 16)

/** rotl(acc + product, 31) × P1: the part of a round on the accumulator's dependency chain. */
// @ts-ignore: decorator
@inline function finish(acc: u64, product: u64): u64 {
  return rotl<u64>(acc + product, 31) * P1
}

/** One lane's round: rotl(acc + lane × P2, 31) × P1. */
// @ts-ignore: decorator
@inline function round(acc: u64, lane: u64): u64 {
  return rotl<u64>(acc + lane * P2, 31) * P1
}

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
    let v1 = seed + P1 + P2
    let v2 = seed + P2
    let v3 = seed
    let v4 = seed - P1
    // Two stripes per iteration: half the loop overhead, same dependency chains.
    for (; end - p >= 64; p += 64) {
      const a = i64x2.mul(v128.load(p), v128.load(P2_PAIR))
      v1 = finish(v1, i64x2.extract_lane(a, 0))
      v2 = finish(v2, i64x2.extract_lane(a, 1))
      v3 = round(v3, load<u64>(p, 16))
      v4 = round(v4, load<u64>(p, 24))
      const b = i64x2.mul(v128.load(p, 48), v128.load(P2_PAIR))
      v1 = round(v1, load<u64>(p, 32))
      v2 = round(v2, load<u64>(p, 40))
      v3 = finish(v3, i64x2.extract_lane(b, 0))
      v4 = finish(v4, i64x2.extract_lane(b, 1))
    }
    if (end - p >= 32) {
      v1 = round(v1, load<u64>(p))
      v2 = round(v2, load<u64>(p, 8))
      v3 = round(v3, load<u64>(p, 16))
      v4 = round(v4, load<u64>(p, 24))
      p += 32
    }
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
