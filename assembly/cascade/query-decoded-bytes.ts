// Range filters over a decoded view of bytes (format 2's dictionary codes
// decoded once, src/cascade/decoded-codes.ts) with every value wanted: one
// pass over the whole range, 64 fields to two out words, with no block
// records and no selection words between. queryMatchRange takes the same loop
// for a whole block of byte fields with every value wanted (format 1's keyword
// ordinals of up to 256 terms).

/**
 * Sets bit j of the words at `out` (the first value's bit starts a word) for
 * each field j < count of the bytes at p with lo ≤ field ≤ hi (lo ≤ hi ≤ 255);
 * other bits are left as they are. Returns how many matched.
 */
export function queryMatchBytes(p: usize, count: u32, lo: u32, hi: u32, out: usize): u32 {
  const lo8 = i8x16.splat(<i8>lo), span8 = i8x16.splat(<i8>(hi - lo))
  let matched: u32 = 0, j: u32 = 0
  for (; j + 64 <= count; j += 64) {
    const q = p + j
    const m0 = <u32>i8x16.bitmask(i8x16.le_u(i8x16.sub(v128.load(q), lo8), span8))
    const m1 = <u32>i8x16.bitmask(i8x16.le_u(i8x16.sub(v128.load(q, 16), lo8), span8))
    const m2 = <u32>i8x16.bitmask(i8x16.le_u(i8x16.sub(v128.load(q, 32), lo8), span8))
    const m3 = <u32>i8x16.bitmask(i8x16.le_u(i8x16.sub(v128.load(q, 48), lo8), span8))
    const low = m0 | (m1 << 16), high = m2 | (m3 << 16)
    const o = out + (<usize>j >>> 3)
    store<u32>(o, load<u32>(o) | low)
    store<u32>(o, load<u32>(o, 4) | high, 4)
    matched += <u32>popcnt(low) + <u32>popcnt(high)
  }
  for (; j < count; j++) {
    if (<u32>load<u8>(p + j) - lo > hi - lo) continue
    const o = out + (<usize>(j >>> 5) << 2)
    store<u32>(o, load<u32>(o) | (<u32>1 << (j & 31)))
    matched++
  }
  return matched
}

/**
 * counts[field]++ (u32 at `area`, n of them, zeroed here) for each field j < count
 * of the bytes at p whose selection bit selStart + j is set, every field below n
 * (the caller knows it from the view's extremes): the selection's words read where
 * they are, a set bit at a time, with no block steps, copies or packing.
 */
export function queryCountSelectedBytes(p: usize, count: u32, sel: usize, selStart: u32, area: usize, n: u32): void {
  memory.fill(area, 0, <usize>n << 2)
  for (let position: u32 = 0; position < count; position += 32) {
    const at = selStart + position
    let word = <u32>(load<u64>(sel + (<usize>(at >>> 5) << 2)) >>> <u64>(at & 31))
    const left = count - position
    if (left < 32) word &= (<u32>1 << left) - 1
    const q = p + position
    while (word != 0) {
      const slot = area + (<usize>load<u8>(q + ctz(word)) << 2)
      store<u32>(slot, load<u32>(slot) + 1)
      word &= word - 1
    }
  }
}
