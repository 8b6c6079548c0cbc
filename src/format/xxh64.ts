// XXH64 in pure TypeScript without BigInt (which is ~50x slower and allocates per
// operation): 64-bit values live as (lo, hi) int32 pairs so V8 keeps them in registers,
// and 64-bit products are assembled from 32-bit pieces (see mulHi).

// Primes as [low, high] int32 halves.
const P1L = 0x85ebca87 | 0, P1H = 0x9e3779b1 | 0
const P2L = 0x27d4eb4f | 0, P2H = 0xc2b2ae3d | 0
const P3L = 0x9e3779f9 | 0, P3H = 0x165667b1 | 0
const P4L = 0xc2b2ae63 | 0, P4H = 0x85ebca77 | 0
const P5L = 0x165667c5 | 0, P5H = 0x27d4eb2f | 0

// High half of the last helper result. Helpers return the low half and park the high
// half here so that returning a 64-bit value never allocates.
let H = 0

const TWO_M32 = 2 ** -32

/**
 * High 32 bits of the unsigned 32x32 product a*b. The float product is off by at most
 * 2^10 and subtracting the exact low half (Math.imul) leaves a multiple of 2^32 within
 * 2^11, so rounding recovers the high half exactly; faster than summing four
 * 16-bit-limb Math.imul partials.
 */
function mulHi(a: number, b: number): number {
  return Math.round(((a >>> 0) * (b >>> 0) - (Math.imul(a, b) >>> 0)) * TWO_M32) | 0
}

function mul(aL: number, aH: number, bL: number, bH: number): number {
  H = (mulHi(aL, bL) + Math.imul(aL, bH) + Math.imul(aH, bL)) | 0
  return Math.imul(aL, bL)
}

function add(aL: number, aH: number, bL: number, bH: number): number {
  const lo = (aL + bL) | 0
  H = (aH + bH + ((lo >>> 0) < (bL >>> 0) ? 1 : 0)) | 0
  return lo
}

/** Rotate left by r in 1..31 (all XXH64 rotations are). */
function rotl(lo: number, hi: number, r: number): number {
  H = (hi << r) | (lo >>> (32 - r))
  return (lo << r) | (hi >>> (32 - r))
}

/** rotl(acc + lane * P2, 31) * P1: the per-lane step outside the unrolled main loop. */
function round(aL: number, aH: number, lL: number, lH: number): number {
  const mL = mul(lL, lH, P2L, P2H)
  const sL = add(aL, aH, mL, H)
  const rL = rotl(sL, H, 31)
  return mul(rL, H, P1L, P1H)
}

/** Fold one final accumulator into h: h = (h ^ round(0, v)) * P1 + P4. */
function mergeRound(hL: number, hH: number, vL: number, vH: number): number {
  const kL = round(0, 0, vL, vH)
  const mL = mul(hL ^ kL, hH ^ H, P1L, P1H)
  return add(mL, H, P4L, P4H)
}

/** Little-endian word read byte by byte (for unaligned input and the tail). */
function u32(b: Uint8Array, p: number): number {
  return b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24)
}

// The four accumulators between calls of addStripes, as (low, high) pairs.
const accumulators = new Int32Array(8)

/**
 * Runs the XXH64 round over `stripes` 32-byte stripes read as aligned little-endian
 * words from words[first...]. round() is written out per accumulator because V8's
 * inlining budget stops short of eight helper calls (helpers stay calls), and the
 * constants are copied into locals because TurboFan does not fold module-level
 * bindings.
 */
function addStripes(words: Int32Array, first: number, stripes: number): void {
  let v1l = accumulators[0], v1h = accumulators[1], v2l = accumulators[2], v2h = accumulators[3]
  let v3l = accumulators[4], v3h = accumulators[5], v4l = accumulators[6], v4h = accumulators[7]
  const p1l = P1L, p1h = P1H, p1u = P1L >>> 0, p2l = P2L, p2h = P2H, p2u = P2L >>> 0
  const twoM32 = TWO_M32
  let ll = 0, lh = 0, ml = 0, mh = 0, sl = 0, sh = 0, rl = 0, rh = 0
  for (let word = first, end = first + 8 * stripes; word < end; word += 8) {
      ll = words[word]; lh = words[word + 1]; ml = Math.imul(ll, p2l)
      mh = ((Math.round(((ll >>> 0) * p2u - (ml >>> 0)) * twoM32) | 0) + Math.imul(ll, p2h)
        + Math.imul(lh, p2l)) | 0
      sl = (v1l + ml) | 0; sh = (v1h + mh + ((sl >>> 0) < (ml >>> 0) ? 1 : 0)) | 0
      rl = (sl << 31) | (sh >>> 1); rh = (sh << 31) | (sl >>> 1); v1l = Math.imul(rl, p1l)
      v1h = ((Math.round(((rl >>> 0) * p1u - (v1l >>> 0)) * twoM32) | 0) + Math.imul(rl, p1h)
        + Math.imul(rh, p1l)) | 0

      ll = words[word + 2]; lh = words[word + 3]; ml = Math.imul(ll, p2l)
      mh = ((Math.round(((ll >>> 0) * p2u - (ml >>> 0)) * twoM32) | 0) + Math.imul(ll, p2h)
        + Math.imul(lh, p2l)) | 0
      sl = (v2l + ml) | 0; sh = (v2h + mh + ((sl >>> 0) < (ml >>> 0) ? 1 : 0)) | 0
      rl = (sl << 31) | (sh >>> 1); rh = (sh << 31) | (sl >>> 1); v2l = Math.imul(rl, p1l)
      v2h = ((Math.round(((rl >>> 0) * p1u - (v2l >>> 0)) * twoM32) | 0) + Math.imul(rl, p1h)
        + Math.imul(rh, p1l)) | 0

      ll = words[word + 4]; lh = words[word + 5]; ml = Math.imul(ll, p2l)
      mh = ((Math.round(((ll >>> 0) * p2u - (ml >>> 0)) * twoM32) | 0) + Math.imul(ll, p2h)
        + Math.imul(lh, p2l)) | 0
      sl = (v3l + ml) | 0; sh = (v3h + mh + ((sl >>> 0) < (ml >>> 0) ? 1 : 0)) | 0
      rl = (sl << 31) | (sh >>> 1); rh = (sh << 31) | (sl >>> 1); v3l = Math.imul(rl, p1l)
      v3h = ((Math.round(((rl >>> 0) * p1u - (v3l >>> 0)) * twoM32) | 0) + Math.imul(rl, p1h)
        + Math.imul(rh, p1l)) | 0

      ll = words[word + 6]; lh = words[word + 7]; ml = Math.imul(ll, p2l)
      mh = ((Math.round(((ll >>> 0) * p2u - (ml >>> 0)) * twoM32) | 0) + Math.imul(ll, p2h)
        + Math.imul(lh, p2l)) | 0
      sl = (v4l + ml) | 0; sh = (v4h + mh + ((sl >>> 0) < (ml >>> 0) ? 1 : 0)) | 0
      rl = (sl << 31) | (sh >>> 1); rh = (sh << 31) | (sl >>> 1); v4l = Math.imul(rl, p1l)
      v4h = ((Math.round(((rl >>> 0) * p1u - (v4l >>> 0)) * twoM32) | 0) + Math.imul(rl, p1h)
        + Math.imul(rh, p1l)) | 0
    }
  accumulators[0] = v1l; accumulators[1] = v1h; accumulators[2] = v2l; accumulators[3] = v2h
  accumulators[4] = v3l; accumulators[5] = v3h; accumulators[6] = v4l; accumulators[7] = v4h
}

// Unaligned input is copied through this in chunks (aligned word loads beat byte loads).
const CHUNK_STRIPES = 512
const chunkWords = new Int32Array(8 * CHUNK_STRIPES)

/** Hashes the stripes of bytes[start, start + 32 × stripes) into the accumulators. */
function addStripesOfBytes(b: Uint8Array, start: number, stripes: number): void {
  const absolute = b.byteOffset + start
  if ((absolute & 3) === 0 && absolute + 32 * stripes <= 0xffffffff) {
    // One word view per call (not cached: a cache would keep the last file's buffer alive).
    addStripes(new Int32Array(b.buffer, absolute, 8 * stripes), 0, stripes)
    return
  }
  for (let done = 0; done < stripes; done += CHUNK_STRIPES) {
    const chunk = Math.min(CHUNK_STRIPES, stripes - done)
    for (let word = 0, p = start + 32 * done; word < 8 * chunk; word++, p += 4) chunkWords[word] = u32(b, p)
    addStripes(chunkWords, 0, chunk)
  }
}

/** XXH64 of bytes[start, end) with the given seed; returns the hash as two uint32 halves written into out[0] (low) and out[1] (high). Allocates at most one word view. */
export function xxh64Into(
  bytes: Uint8Array, start: number, end: number, seedLow: number, seedHigh: number, out: Uint32Array,
): void {
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || start > end || end > bytes.length) {
    throw new RangeError(`xxh64: range [${start}, ${end}) outside 0..${bytes.length}`)
  }
  const b = bytes
  const sL = seedLow | 0, sH = seedHigh | 0
  const len = end - start
  let p = start
  let hL: number, hH: number
  if (len >= 32) {
    let v1l = add(sL, sH, add(P1L, P1H, P2L, P2H), H), v1h = H
    let v2l = add(sL, sH, P2L, P2H), v2h = H
    let v3l = sL, v3h = sH
    // seed - P1 as seed + (2^64 - P1); P1L != 0, so no borrow reaches the high half.
    let v4l = add(sL, sH, -P1L | 0, ~P1H), v4h = H
    accumulators[0] = v1l; accumulators[1] = v1h; accumulators[2] = v2l; accumulators[3] = v2h
    accumulators[4] = v3l; accumulators[5] = v3h; accumulators[6] = v4l; accumulators[7] = v4h
    const stripes = Math.floor(len / 32)
    addStripesOfBytes(b, p, stripes)
    p += 32 * stripes
    v1l = accumulators[0]; v1h = accumulators[1]; v2l = accumulators[2]; v2h = accumulators[3]
    v3l = accumulators[4]; v3h = accumulators[5]; v4l = accumulators[6]; v4h = accumulators[7]
    hL = rotl(v1l, v1h, 1); hH = H
    hL = add(hL, hH, rotl(v2l, v2h, 7), H); hH = H
    hL = add(hL, hH, rotl(v3l, v3h, 12), H); hH = H
    hL = add(hL, hH, rotl(v4l, v4h, 18), H); hH = H
    hL = mergeRound(hL, hH, v1l, v1h); hH = H
    hL = mergeRound(hL, hH, v2l, v2h); hH = H
    hL = mergeRound(hL, hH, v3l, v3h); hH = H
    hL = mergeRound(hL, hH, v4l, v4h); hH = H
  } else {
    hL = add(sL, sH, P5L, P5H); hH = H
  }
  hL = add(hL, hH, len | 0, Math.floor(len / 4294967296)); hH = H
  for (; p + 8 <= end; p += 8) {
    const kL = round(0, 0, u32(b, p), u32(b, p + 4))
    hL = rotl(hL ^ kL, hH ^ H, 27)
    hL = mul(hL, H, P1L, P1H)
    hL = add(hL, H, P4L, P4H); hH = H
  }
  if (p + 4 <= end) {
    const kL = mul(u32(b, p), 0, P1L, P1H)
    hL = rotl(hL ^ kL, hH ^ H, 23)
    hL = mul(hL, H, P2L, P2H)
    hL = add(hL, H, P3L, P3H); hH = H
    p += 4
  }
  for (; p < end; p++) {
    const kL = mul(b[p], 0, P5L, P5H)
    hL = rotl(hL ^ kL, hH ^ H, 11)
    hL = mul(hL, H, P1L, P1H); hH = H
  }
  // Avalanche: h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3; h ^= h >> 32.
  hL = mul(hL ^ (hH >>> 1), hH, P2L, P2H); hH = H
  hL = mul(hL ^ ((hL >>> 29) | (hH << 3)), hH ^ (hH >>> 29), P3L, P3H); hH = H
  out[0] = hL ^ hH
  out[1] = hH
}

const scratch = new Uint32Array(2)
const MASK32 = 0xffffffffn

/** Convenience: XXH64 of bytes[start, end) (seed 0 unless given) as a bigint. */
export function xxh64(bytes: Uint8Array, start = 0, end = bytes.length, seed = 0n): bigint {
  xxh64Into(bytes, start, end, Number(seed & MASK32), Number((seed >> 32n) & MASK32), scratch)
  return (BigInt(scratch[1]) << 32n) | BigInt(scratch[0])
}
