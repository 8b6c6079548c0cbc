// XXH64's primes and round, shared by the hash (xxh64.ts) and its stripe loops
// (xxh64-stripes.ts in Node; the compact loop of scripts/bundle-widths.as in browsers).

export const P1: u64 = 0x9E3779B185EBCA87
export const P2: u64 = 0xC2B2AE3D27D4EB4F
export const P3: u64 = 0x165667B19E3779F9
export const P4: u64 = 0x85EBCA77C2B2AE63
export const P5: u64 = 0x27D4EB2F165667C5

/** One lane's round: rotl(acc + lane × P2, 31) × P1. */
// @ts-ignore: decorator
@inline export function round(acc: u64, lane: u64): u64 {
  return rotl<u64>(acc + lane * P2, 31) * P1
}
