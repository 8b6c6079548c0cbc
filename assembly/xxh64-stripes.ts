// The XXH64 stripe loop of the Node kernels (assembly/widths.ts re-exports it;
// browsers get the compact scalar loop of scripts/bundle-widths.as, a few bytes
// less in the gzipped reader bundle). Four independent u64 accumulators over
// 32-byte stripes, so the four dependency chains (add, rotate, multiply) overlap.
// The scalar multiplier is the bottleneck (eight 64-bit multiplies a stripe),
// and lane × P2 is off the chains, so one lane pair a stripe takes it from one
// SIMD multiply. Lanes 1-2 in one stripe and 3-4 in the next, not 1-2 in both,
// measured faster again. (Not all four lanes in SIMD: V8 emulates i64x2.mul with
// three 32-bit multiplies; nor lanes 1-2 wholly in SIMD with the accumulators in
// a v128: the emulated multiply is then on the chain.)
import { P1, round } from './xxh64-round'

/** P2 in both lanes, loaded in the loop: V8 would rebuild a v128 constant at every use. */
const P2_PAIR: usize = memory.data<u64>([0xC2B2AE3D27D4EB4F, 0xC2B2AE3D27D4EB4F], 16)

/** rotl(acc + product, 31) × P1: the part of a round on the accumulator's dependency chain. */
// @ts-ignore: decorator
@inline function finish(acc: u64, product: u64): u64 {
  return rotl<u64>(acc + product, 31) * P1
}

/** Runs every whole 32-byte stripe of [p, end) through the four u64 accumulators at lanes; returns the first byte after them. */
export function xxh64Stripes(p: usize, end: usize, lanes: usize): usize {
  let v1 = load<u64>(lanes), v2 = load<u64>(lanes, 8), v3 = load<u64>(lanes, 16), v4 = load<u64>(lanes, 24)
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
  store<u64>(lanes, v1)
  store<u64>(lanes, v2, 8)
  store<u64>(lanes, v3, 16)
  store<u64>(lanes, v4, 24)
  return p
}
