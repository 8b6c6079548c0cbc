// A whole patched block of codes as bytes, for decodeRanks (ranks.ts): a keyword's
// codes numbered by frequency mostly come as patched blocks whose low fields and
// high parts together take at most 8 bits, positions as a bitmap. Bytes take a
// quarter of the vector operations u32 values do (patched-units.ts), and
// their ranks are then looked up 16 at a time by swizzles rather than one by one.
import { largestU16, largestU8 } from '../../query-common'
import { bitsOf, recordAux, recordBase, recordWidth } from '../../common'
import { BLOCK_ENTRIES, COUNT_MASK, FORM_BLOCKS, KIND_PATCHED, LIST_FLAG, blocksData, blocksRecords, bytesOf, nodeCount, recordParam } from '../common'
import { positionsBytes } from './positions'
import { bitmapCount, expandTable, fieldBytes, fieldHalves, stageHighs } from './patched-units'

/** The block's 1,024 codes, a byte each (and 16 bytes of slack). */
export const CODE_BYTES: usize = memory.data(1024 + 16, 16)

/**
 * Whether block index / 1,024 of the node is a whole patched block (bitmap positions, base 0,
 * g 1, low and high widths at most 8 bits together) whose codes all lie below k: then
 * CODE_BYTES holds them. Any other block answers false and is decoded the general way.
 */
export function patchedBytes(node: usize, index: u32, k: u32): bool {
  if (<u32>load<u8>(node) != FORM_BLOCKS || nodeCount(node) - index < 1024) return false
  const record = blocksRecords(node) + <usize>(index >>> 10) * 24
  if (<u32>load<u8>(record) != KIND_PATCHED) return false
  return patchedCodeBytes(record, blocksData(node) + <usize>load<u32>(record, 4), k)
}

/**
 * The bitmap of the patched block of 1,024 values (record, data at p, low and high widths lw and
 * hw ≤ 8) when its positions are a bitmap of exactly e bits and its base 0 and g 1, its high parts
 * then staged as bytes (stageHighs); 0 otherwise.
 */
function stagedBitmap(record: usize, p: usize, lw: u32, hw: u32): usize {
  const param = recordParam(record), e = param & COUNT_MASK
  if ((param & LIST_FLAG) != 0 || recordBase(record) != 0 || recordAux(record) != 1) return 0
  const positions = p + 1 + bytesOf(1024, lw)
  if (bitmapCount(positions, 1024) != e) return 0
  stageHighs(positions + positionsBytes(false, e, 1024, bitsOf(1023)), e, hw)
  return positions
}

/**
 * Whether the patched block of 1,024 values (record, data at p) has bitmap positions, base 0,
 * g 1, low and high widths at most 8 bits together, and codes all below k: then CODE_BYTES
 * holds them.
 */
export function patchedCodeBytes(record: usize, p: usize, k: u32): bool {
  const lw = recordWidth(record), hw: u32 = load<u8>(p)
  if (lw + hw > 8) return false
  const positions = stagedBitmap(record, p, lw, hw)
  if (positions == 0) return false
  // The low fields' loads may reach into the bitmap after them (128 bytes), so none goes a field at a time.
  fieldBytes(p + 1, 1024, lw, CODE_BYTES, positions + 128)
  // Each bitmap byte's next high parts spread to its set positions, shifted above the low fields.
  const expand = expandTable()
  let rank: u32 = 0, most = i8x16.splat(0)
  for (let at: u32 = 0; at < 1024; at += 16) {
    const b0 = <u32>load<u8>(positions + (<usize>at >>> 3)), b1 = <u32>load<u8>(positions + (<usize>at >>> 3) + 1)
    const spread0 = i8x16.swizzle(v128.load64_zero(BLOCK_ENTRIES + rank), v128.load64_zero(expand + (<usize>b0 << 3)))
    rank += popcnt(b0)
    const spread1 = i8x16.swizzle(v128.load64_zero(BLOCK_ENTRIES + rank), v128.load64_zero(expand + (<usize>b1 << 3)))
    rank += popcnt(b1)
    const spread = v128.shuffle<u8>(spread0, spread1, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23)
    // Each high part and its shift fit a byte (lw + hw ≤ 8): the 16-bit shift moves no bit across bytes, and costs V8 one instruction where a byte shift takes several.
    const codes = i8x16.add(v128.load(CODE_BYTES + at), i16x8.shl(spread, lw))
    v128.store(CODE_BYTES + at, codes)
    most = i8x16.max_u(most, codes)
  }
  return largestU8(most) < k
}

/** The block's 1,024 codes, a u16 each (and 16 bytes of slack). */
export const CODE_HALVES: usize = memory.data(2048 + 16, 16)

/**
 * Whether the patched block of 1,024 values (record, data at p) has bitmap positions, base 0,
 * g 1, low and high widths of at most 8 bits each, and codes all below k: then CODE_HALVES
 * holds them (as patchedCodeBytes, with u16 lanes).
 */
export function patchedCodeHalves(record: usize, p: usize, k: u32): bool {
  const lw = recordWidth(record), hw: u32 = load<u8>(p)
  if (lw == 0 || lw > 8 || hw > 8) return false
  const positions = stagedBitmap(record, p, lw, hw)
  if (positions == 0) return false
  fieldHalves(p + 1, 1024, lw, CODE_HALVES, positions + 128)
  const expand = expandTable()
  let rank: u32 = 0, most = i16x8.splat(0)
  for (let at: u32 = 0; at < 1024; at += 8) {
    const b = <u32>load<u8>(positions + (<usize>at >>> 3))
    const spread = i16x8.extend_low_i8x16_u(i8x16.swizzle(v128.load64_zero(BLOCK_ENTRIES + rank), v128.load64_zero(expand + (<usize>b << 3))))
    rank += popcnt(b)
    const o = CODE_HALVES + (<usize>at << 1)
    const codes = i16x8.add(v128.load(o), i16x8.shl(spread, lw))
    v128.store(o, codes)
    most = i16x8.max_u(most, codes)
  }
  return largestU16(most) < k
}

/** Byte ranks of codes below 256: 16 tables of 16 (RANK_TABLES[c] = rank of code c, 0 past k). */
const RANK_TABLES: usize = memory.data(256, 16)

/** Fills RANK_TABLES from the u16 ranks of k ≤ 256 codes (each rank below 256). */
export function prepareRankBytes(ranks: usize, k: u32): void {
  for (let c: u32 = 0; c < 256; c++) store<u8>(RANK_TABLES + c, c < k ? <u8>load<u16>(ranks + (<usize>c << 1)) : 0)
}

/** Tables of 16 ranks a vector of codes goes through at most: with more, a load per code costs less (measured). */
const RANK_SWIZZLES_MAX: u32 = 8

/** CODE_BYTES' n codes (each below k ≤ 256) to their byte ranks at out: a swizzle per 16 codes and table, or (more tables) a load per code. */
export function storeRankBytes(n: u32, k: u32, out: usize): void {
  const tables = (k + 15) >>> 4
  if (tables > RANK_SWIZZLES_MAX) {
    for (let i: usize = 0; i < <usize>n; i++) store<u8>(out + i, load<u8>(RANK_TABLES + <usize>load<u8>(CODE_BYTES + i)))
    return
  }
  for (let i: u32 = 0; i < n; i += 16) {
    const codes = v128.load(CODE_BYTES + i)
    // Lanes whose code lies outside table t take 0 from it (swizzle indexes of 16 and more).
    let ranks = i8x16.swizzle(v128.load(RANK_TABLES), codes)
    for (let t: u32 = 1; t < tables; t++) {
      ranks = v128.or(ranks, i8x16.swizzle(v128.load(RANK_TABLES + (<usize>t << 4)), i8x16.sub(codes, i8x16.splat(<i8>(t << 4)))))
    }
    v128.store(out + i, ranks)
  }
}
