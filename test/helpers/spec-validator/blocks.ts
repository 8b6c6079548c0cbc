/**
 * Blocks of a form-0 sequence (format-v2.md §3): the open-time layout rules of
 * each kind (§3.8) and the value of one slot, which the sequence rules need to
 * decode run starts, offsets and keyword ordinal entries at open.
 */
import { type Sites, P52, P53, bitsN, c8, fail, field, fieldN, rdU64, toI64 } from './bytes.js'

/** One block record (§2.1) with its data made absolute. */
export interface Block {
  kind: number
  n: number
  width: number
  param: number
  base: bigint
  aux: bigint
  data: number
  /** Derived once per block so reading every value stays linear: exception rank by slot (−1: none), run starts. */
  cache?: { rank?: Int32Array; starts?: number[] }
}

/**
 * Records a stream's last byte when it has unused high bits, so tests can set one.
 * Only frame blocks are checked (§3.8: "v1's zero unused high bits ... only in frame
 * blocks"); for the other kinds the site is recorded but left to the full check.
 */
function tail(b: Uint8Array, p: number, nbits: number, what: string, sites: Sites | null, check: boolean): void {
  if (nbits % 8 === 0) return
  sites?.tails.push({ off: p + (nbits >> 3), size: 1, label: what })
  if (check && b[p + (nbits >> 3)] >> (nbits & 7)) fail(`${what}: unused high bits of last byte not zero`)
}

/**
 * §3.1–§3.7 sizes and §3.8 open-time rules for one block; returns its data length.
 * `dataEnd` is the end of the sequence's data area: no block may read past it.
 */
export function blockLayout(b: Uint8Array, blk: Block, dataEnd: number, what: string, sites: Sites | null): number {
  const { kind, n, width: W, param } = blk
  const pw = bitsN(n - 1)
  const g = BigInt.asUintN(64, blk.aux) // aux is read as an unsigned divisor
  // §3.8: dictionary, runs and patched divisors lie in 1..2^52 − 1, and g (2^W − 1) < 2^53.
  const divisor = (unitWidth: number) => {
    if (g === 0n || g >= P52) fail(`${what}: divisor outside 1..2^52 − 1`)
    if (g * ((1n << BigInt(unitWidth)) - 1n) >= P53) fail(`${what}: offsets could reach 2^53`)
  }
  const inData = (len: number) => {
    if (blk.data + len > dataEnd) fail(`${what}: block data past data area`)
  }
  switch (kind) {
    case 0:
      if (param !== 0) fail(`${what}: constant param ≠ 0`)
      // v1 §6.1: a constant block has width 0 and aux 0.
      if (W !== 0 || blk.aux !== 0n) fail(`${what}: constant width/aux ≠ 0`)
      return 0
    case 1: {
      if (param !== 0) fail(`${what}: frame param ≠ 0`)
      // v1 §8.1: packed has width 1..64 and g ≥ 1 (g ≠ 0 as an unsigned divisor).
      if (W < 1 || W > 64) fail(`${what}: frame width outside 1..64`)
      if (blk.aux === 0n) fail(`${what}: frame divisor 0`)
      const len = c8(n * W)
      inData(len)
      tail(b, blk.data, n * W, what, sites, true)
      return len
    }
    case 3: {
      const k = (param & 1023) + 1
      const ew = (param >> 10) + 1
      if (k < 2 || k > n) fail(`${what}: dictionary k outside 2..n`)
      if (W !== bitsN(k - 1)) fail(`${what}: dictionary width ≠ bits(k − 1)`)
      divisor(ew)
      const len = c8(k * ew) + c8(n * W)
      inData(len)
      tail(b, blk.data, k * ew, `${what} entries`, sites, false)
      tail(b, blk.data + c8(k * ew), n * W, `${what} indexes`, sites, false)
      return len
    }
    case 4: {
      const r = param + 1
      if (r < 2 || r > n) fail(`${what}: runs r outside 2..n`)
      // §3.8: a runs block of width 0 (which a writer never makes) is refused too.
      if (W === 0) fail(`${what}: runs width 0`)
      if (W > 64) fail(`${what}: runs width > 64`)
      divisor(W)
      const len = c8(r * W) + c8((r - 1) * pw)
      inData(len)
      tail(b, blk.data, r * W, `${what} run values`, sites, false)
      tail(b, blk.data + c8(r * W), (r - 1) * pw, `${what} run starts`, sites, false)
      return len
    }
    case 5: {
      if (param >> 12) fail(`${what}: frequent unknown param bits`)
      const e = param & 1023
      const list = (param >> 10) & 1
      const hasGx = (param >> 11) & 1
      if (e < 1 || e > n - 1) fail(`${what}: frequent e outside 1..n − 1`)
      // §3.5: positions are listed exactly when the list is smaller than the bitmap.
      if (list !== (c8(e * pw) < c8(n) ? 1 : 0)) fail(`${what}: list flag disagrees with size rule`)
      let gx = 1n
      if (hasGx) {
        inData(8)
        gx = rdU64(b, blk.data)
        if (gx < 2n || gx >= P52) fail(`${what}: frequent gx outside 2..2^52 − 1`)
      }
      if (W > 64) fail(`${what}: frequent width > 64`)
      let d = blk.aux - blk.base
      if (d < 0n) d = -d
      if (d + gx * ((1n << BigInt(W)) - 1n) >= P53) fail(`${what}: frequent offsets could reach 2^53`)
      const posLen = list ? c8(e * pw) : c8(n)
      const len = (hasGx ? 8 : 0) + posLen + c8(e * W)
      inData(len)
      const pp = blk.data + (hasGx ? 8 : 0)
      tail(b, pp, list ? e * pw : n, `${what} positions`, sites, false)
      tail(b, pp + posLen, e * W, `${what} exceptions`, sites, false)
      return len
    }
    case 6: {
      if (param >> 11) fail(`${what}: patched unknown param bits`)
      const e = param & 1023
      const list = (param >> 10) & 1
      if (e < 1 || e > n) fail(`${what}: patched e outside 1..n`)
      if (list !== (c8(e * pw) < c8(n) ? 1 : 0)) fail(`${what}: list flag disagrees with size rule`)
      inData(1)
      const hw = b[blk.data]
      const lw = W
      if (hw === 0) fail(`${what}: patched hw = 0`)
      if (lw + hw > 52) fail(`${what}: patched lw + hw > 52`)
      divisor(lw + hw)
      const posLen = list ? c8(e * pw) : c8(n)
      const len = 1 + c8(n * lw) + posLen + c8(e * hw)
      inData(len)
      tail(b, blk.data + 1, n * lw, `${what} low`, sites, false)
      tail(b, blk.data + 1 + c8(n * lw), list ? e * pw : n, `${what} positions`, sites, false)
      tail(b, blk.data + 1 + c8(n * lw) + posLen, e * hw, `${what} high`, sites, false)
      return len
    }
    case 7: {
      if (n < 2) fail(`${what}: linear block of one value`)
      if (param !== 0) fail(`${what}: linear param ≠ 0`)
      if (W > 52) fail(`${what}: linear width > 52`)
      let f = blk.aux >> 10n // floor(s / 1024), s signed
      if (f < 0n) f = -f
      if (f * BigInt(n - 1) + BigInt(n - 1) + (1n << BigInt(W)) >= P53) fail(`${what}: linear offsets could reach 2^53`)
      const len = c8(n * W)
      inData(len)
      tail(b, blk.data, n * W, what, sites, false)
      return len
    }
    default:
      return fail(`${what}: block kind ${kind}`)
  }
}

/**
 * Value j of a block whose layout passed `blockLayout` (§3.1–§3.7). Block dictionary
 * indexes are range-checked here, as §3.8 says they are when read.
 */
export function blockValue(b: Uint8Array, blk: Block, j: number, what: string): bigint {
  const { kind, n, width: W, param, base, aux } = blk
  const pw = bitsN(n - 1)
  switch (kind) {
    case 0:
      return base
    case 1:
      return toI64(base + aux * field(b, blk.data, j, W))
    case 3: {
      const k = (param & 1023) + 1
      const ew = (param >> 10) + 1
      const idx = fieldN(b, blk.data + c8(k * ew), j, W)
      if (idx >= k) fail(`${what}: block dictionary index ≥ k`)
      return toI64(base + aux * field(b, blk.data, idx, ew))
    }
    case 4: {
      // The run holding j: the last q whose start (run 0 starts at 0) is ≤ j, scanning in order.
      const r = param + 1
      const cache = (blk.cache ??= {})
      cache.starts ??= Array.from({ length: r - 1 }, (_, q) => fieldN(b, blk.data + c8(r * W), q, pw))
      let run = 0
      for (let q = 1; q < r && cache.starts[q - 1] <= j; q++) run = q
      return toI64(base + aux * field(b, blk.data, run, W))
    }
    case 5:
    case 6: {
      const e = param & 1023
      const list = (param >> 10) & 1
      const lw = kind === 6 ? W : 0
      const pp = kind === 5 ? blk.data + ((param >> 11) & 1 ? 8 : 0) : blk.data + 1 + c8(n * lw)
      const cache = (blk.cache ??= {})
      if (!cache.rank) {
        // j's rank among the exceptions: its first place in the list, or the set bits before it in the bitmap.
        const rank = new Int32Array(n).fill(-1)
        if (list) {
          for (let q = e - 1; q >= 0; q--) {
            const p = fieldN(b, pp, q, pw)
            if (p < n) rank[p] = q
          }
        } else {
          for (let q = 0, seen = 0; q < n; q++) if ((b[pp + (q >> 3)] >> (q & 7)) & 1) rank[q] = seen++
        }
        cache.rank = rank
      }
      const rank = cache.rank[j]
      const xp = pp + (list ? c8(e * pw) : c8(n))
      if (kind === 5) {
        if (rank < 0) return base
        const gx = (param >> 11) & 1 ? rdU64(b, blk.data) : 1n
        return toI64(aux + gx * field(b, xp, rank, W))
      }
      let q = field(b, blk.data + 1, j, lw)
      if (rank >= 0) q += field(b, xp, rank, b[blk.data]) << BigInt(lw)
      return toI64(base + aux * q)
    }
    case 7:
      // §3.7: t + floor(j s / 1024) + field j, the product taken in 64 bits.
      return toI64(base + (BigInt.asIntN(64, BigInt(j) * aux) >> 10n) + field(b, blk.data, j, W))
    default:
      return fail(`${what}: block kind ${kind}`)
  }
}
