// The integers of a decimal node as doubles (form 3, docs/format-v2.md §2.4): n / 10^e
// by a correctly rounded conversion and an IEEE division, exactly the TypeScript
// reader's n / POWERS_OF_TEN[e]; as raw SortableBits, or as the doubles themselves
// (the sortable double decode, which would decode those bits straight back). The
// integer forms convert what they decode when asked (`convert`), so that a dictionary
// converts its entries once and a runs node each run's value once.

/** What an integer decode does with its values: nothing, raw SortableBits of n / 10^e, or the doubles. */
export const KEEP: i32 = 0
export const RAW: i32 = 1
export const DOUBLES: i32 = 2

/** SortableBits.Encode (and Decode) of bits. */
// @ts-ignore: decorator
@inline export function sortable(bits: i64): i64 {
  return bits ^ ((bits >> 63) & 0x7FFF_FFFF_FFFF_FFFF)
}

/** 1.5 × 2^52: an integer n in [-2^51, 2^51) added to its bits gives the bits of 1.5 × 2^52 + n. */
const MAGIC: i64 = 0x4338_0000_0000_0000

/** Two integers n of a vector to n / p at q (exact conversions by the magic bits; see toDoubles). */
// @ts-ignore: decorator
@inline function convertPair(q: usize, n: v128, magic: v128, magicDouble: v128, powers: v128, raw: bool, low63: v128): void {
  const x = f64x2.div(f64x2.sub(i64x2.add(n, magic), magicDouble), powers)
  if (!raw) {
    v128.store(q, x)
    return
  }
  // The sign of each i64 lane spread over it: its high word's sign, shuffled to both words.
  const signs = i32x4.shr_s(x, 31)
  v128.store(q, v128.xor(x, v128.and(i32x4.shuffle(signs, signs, 1, 1, 3, 3), low63)))
}

/** The integers [q, end) to doubles one at a time (any i64: the conversion rounds as TypeScript's does). */
function convertEach(q: usize, end: usize, p: f64, raw: bool): void {
  for (; q < end; q += 8) {
    const x = reinterpret<i64>(<f64>load<i64>(q) / p)
    store<i64>(q, raw ? sortable(x) : x)
  }
}

/**
 * The count integers n at o to n / p in place (convert: RAW or DOUBLES; KEEP leaves them).
 * Eight at a time when all are in [-2^51, 2^51): each converted exactly by the magic bits,
 * then divided two to a vector; others one at a time.
 */
export function toDoubles(o: usize, count: u32, convert: i32, p: f64): void {
  if (convert == KEEP) return
  const raw = convert == RAW
  const magic = i64x2.splat(MAGIC), magicDouble = f64x2.splat(reinterpret<f64>(MAGIC))
  const powers = f64x2.splat(p), bias = i64x2.splat(1 << 51), low63 = i64x2.splat(0x7FFF_FFFF_FFFF_FFFF)
  const end = o + (<usize>count << 3)
  let q = o
  for (; q + 64 <= end; q += 64) {
    const a = v128.load(q), b = v128.load(q, 16), c = v128.load(q, 32), d = v128.load(q, 48)
    // n + 2^51 in [0, 2^52) for all eight iff their or is below 2^52 (a negative one sets the top bit).
    const any = v128.or(v128.or(i64x2.add(a, bias), i64x2.add(b, bias)), v128.or(i64x2.add(c, bias), i64x2.add(d, bias)))
    if (((<u64>i64x2.extract_lane(any, 0) | <u64>i64x2.extract_lane(any, 1)) >>> 52) != 0) {
      convertEach(q, q + 64, p, raw)
      continue
    }
    convertPair(q, a, magic, magicDouble, powers, raw, low63)
    convertPair(q + 16, b, magic, magicDouble, powers, raw, low63)
    convertPair(q + 32, c, magic, magicDouble, powers, raw, low63)
    convertPair(q + 48, d, magic, magicDouble, powers, raw, low63)
  }
  convertEach(q, end, p, raw)
}
