// Typed reads of a sequence dictionary (the Node build). Into int32: when every entry
// passes the read's check (an int32, or an ordinal below the limit), the entries are
// narrowed once into ENTRIES32 and each chunk's codes gather them straight into the
// destination, four bytes a value, with no i64 values in between and no check per value.
// Whole patched blocks take their codes as bytes, halves (patched-bytes.ts) or u32
// (patched-units.ts); whole frame blocks, and patched ones with a list of positions, whose
// fields cannot name a code ≥ k gather them straight from the packed bits (slicedInt32);
// other chunks decode their codes to CODES first. Anything else (an entry that fails, a codes block that fails to
// decode, a code ≥ k) leaves the chunk to the caller, which reads it again the general way
// and reports the first error in order. Into doubles: exactEntries converts the entries into
// the dictionary's own table once, where they are all exact, for its decode to gather.
import { BLOCK_SHIFT, BLOCK_VALUES, KIND_PACKED, OK, RECORD_BYTES, bitsOf, isSafeInteger, recordAux, recordBase, recordDataOffset, recordKind, recordWidth } from '../../common'
import { U_BUFFER, unpackU32 } from '../../query-common'
import { CODES, COUNT_MASK, FORM_ENTRIES, FORM_ENTRIES_MAX, KIND_PATCHED, LIST_FLAG, blocksData, blocksEnd, blocksRecords, bytesOf, field, nodeCount, recordParam } from '../common'
import { gatherGroups32 } from '../widths'
import { CODE_BYTES, CODE_HALVES, patchedCodeBytes, patchedCodeHalves } from '../blocks/patched-bytes'
import { largestUnit, patchedUnits } from '../blocks/patched-units'
import { blocksDecode } from './blocks'
import { byteOffset } from './codes'
import { entriesTableHolds } from './dictionary'
import { DOUBLES, KEEP, toDoubles } from './doubles'

/** The narrowed entries (4 bytes each) of the dictionary named by narrowedNode. */
const ENTRIES32: usize = memory.data(4 * FORM_ENTRIES_MAX, 16)
/** The dictionary node whose entries ENTRIES32 holds for the current read (0: none), and whether all passed. */
let narrowedNode: usize = 0
let narrowedAll = false

/** Starts a read: ENTRIES32 holds nothing (the same address may name another file's node next time). */
export function forgetNarrowedEntries(): void {
  narrowedNode = 0
}

/** The node's k entries decoded into FORM_ENTRIES (its count, or 0 where they do not fit or fail to decode). */
function entriesDecoded(node: usize): u32 {
  const entries = node + 6, k = nodeCount(entries)
  if (k > FORM_ENTRIES_MAX) return 0
  // FORM_ENTRIES is written over: no read may take its last contents as they are.
  entriesTableHolds(0, KEEP, 1)
  return blocksDecode(entries, 0, k, FORM_ENTRIES) == OK ? k : 0
}

/** Whether every entry of the node passes (ordinals: below limit; else an int32), ENTRIES32 then holding them. */
function narrowEntries(node: usize, ordinals: bool, limit: u32): bool {
  if (narrowedNode == node) return narrowedAll
  narrowedNode = node
  narrowedAll = false
  const k = entriesDecoded(node)
  if (k == 0) return false
  for (let j: u32 = 0; j < k; j++) {
    const v = load<i64>(FORM_ENTRIES + (<usize>j << 3))
    if (ordinals ? <u64>v >= <u64>limit : v != <i64><i32>v) return false
    store<i32>(ENTRIES32 + (<usize>j << 2), <i32>v)
  }
  narrowedAll = true
  return true
}

/**
 * Whether every entry of the dictionary node is an exact double (|v| ≤ 2^53 - 1): then FORM_ENTRIES
 * holds them converted, kept for the read (keepDecodedEntries), so that the dictionary's decode
 * gathers them without decoding them again.
 */
export function exactEntries(node: usize): bool {
  const k = entriesDecoded(node)
  if (k == 0) return false
  for (let j: u32 = 0; j < k; j++) if (!isSafeInteger(load<i64>(FORM_ENTRIES + (<usize>j << 3)))) return false
  toDoubles(FORM_ENTRIES, k, DOUBLES, 1)
  entriesTableHolds(node, DOUBLES, 1)
  return true
}

/** CODE_BYTES' 1,024 codes (each below k) through ENTRIES32 to out: four entries a 16-byte store (a store per value bound the scalar loop). */
function gatherBytes32(out: usize): void {
  for (let j: usize = 0; j < BLOCK_VALUES; j += 8) {
    const x = load<u64>(CODE_BYTES + j), o = out + (j << 2)
    let a = v128.load32_zero(ENTRIES32 + byteOffset(x, 0, 2))
    a = v128.load32_lane(ENTRIES32 + byteOffset(x, 1, 2), a, 1)
    a = v128.load32_lane(ENTRIES32 + byteOffset(x, 2, 2), a, 2)
    a = v128.load32_lane(ENTRIES32 + byteOffset(x, 3, 2), a, 3)
    v128.store(o, a)
    let b = v128.load32_zero(ENTRIES32 + byteOffset(x, 4, 2))
    b = v128.load32_lane(ENTRIES32 + byteOffset(x, 5, 2), b, 1)
    b = v128.load32_lane(ENTRIES32 + byteOffset(x, 6, 2), b, 2)
    b = v128.load32_lane(ENTRIES32 + byteOffset(x, 7, 2), b, 3)
    v128.store(o, b, 16)
  }
}

/** CODE_HALVES' 1,024 codes (each below k) through ENTRIES32 to out. */
function gatherHalves32(out: usize): void {
  for (let j: usize = 0; j < BLOCK_VALUES; j += 4) {
    const x = load<u64>(CODE_HALVES + (j << 1))
    let a = v128.load32_zero(ENTRIES32 + <usize>((x << 2) & 0x3FFFC))
    a = v128.load32_lane(ENTRIES32 + <usize>((x >>> 14) & 0x3FFFC), a, 1)
    a = v128.load32_lane(ENTRIES32 + <usize>((x >>> 30) & 0x3FFFC), a, 2)
    v128.store(out + (j << 2), v128.load32_lane(ENTRIES32 + <usize>((x >>> 46) & 0x3FFFC), a, 3))
  }
}

/** U_BUFFER's 1,024 fields u (base + u each below k) through ENTRIES32 from entry base on to out. */
function gatherUnits32(base: u32, out: usize): void {
  const table = ENTRIES32 + (<usize>base << 2)
  for (let j: usize = 0; j < BLOCK_VALUES; j += 4) {
    const x = load<u64>(U_BUFFER + (j << 2)), y = load<u64>(U_BUFFER + (j << 2), 8)
    let a = v128.load32_zero(table + <usize>((x << 2) & 0x3_FFFF_FFFC))
    a = v128.load32_lane(table + <usize>((x >>> 30) & 0x3_FFFF_FFFC), a, 1)
    a = v128.load32_lane(table + <usize>((y << 2) & 0x3_FFFF_FFFC), a, 2)
    v128.store(out + (j << 2), v128.load32_lane(table + <usize>((y >>> 30) & 0x3_FFFF_FFFC), a, 3))
  }
}

/** CODES' first take codes through ENTRIES32 to out if all are below k; false (nothing written) otherwise. */
function mapCodes32(take: u32, k: u32, out: usize): bool {
  let above: u64 = 0
  for (let j: u32 = 0; j < take; j++) above |= <u64>(load<u64>(CODES + (<usize>j << 3)) >= <u64>k)
  if (above != 0) return false
  for (let j: u32 = 0; j < take; j++) {
    store<i32>(out + (<usize>j << 2), load<i32>(ENTRIES32 + (<usize>load<u32>(CODES + (<usize>j << 3)) << 2)))
  }
  return true
}

/**
 * A whole frame block, or patched block with a list of positions, of codes base + u (g 1) whose
 * 2^W codes from base all lie below k (and W ≤ 16): its fields gathered straight from ENTRIES32's
 * slice at base, unchecked (gather.ts: groupRun32), then a patched block's exceptions remapped one
 * by one. False where the block is not such, or (corrupt) a list that does not increase or an
 * exception's code ≥ k, the chunk then partly written: the caller reads it again the general way,
 * which reports the first bad value. (positions.ts' list walk, for 4-byte values: written apart, as
 * a mode of that walk reshaped the browsers' kernels, which have no int32 gathers.)
 */
function slicedInt32(record: usize, p: usize, k: u32, out: usize): bool {
  const kind = recordKind(record), base = recordBase(record), W = recordWidth(record)
  // base + 2^W > k, written so that no base (a corrupt one near 2^63) can wrap it.
  if (recordAux(record) != 1 || base < 0 || W > 16 || base > <i64>k - (<i64>1 << W)) return false
  const table = ENTRIES32 + (<usize>base << 2)
  if (kind == KIND_PACKED) {
    gatherGroups32(p, BLOCK_VALUES >>> 3, table, out, W)
    return true
  }
  const param = recordParam(record), e = param & COUNT_MASK
  if ((param & LIST_FLAG) == 0) return false
  const lows = p + 1, positions = lows + bytesOf(BLOCK_VALUES, W), pw = bitsOf(<u64>(BLOCK_VALUES - 1))
  const highs = positions + bytesOf(e, pw), hw: u32 = load<u8>(p)
  gatherGroups32(lows, BLOCK_VALUES >>> 3, table, out, W)
  // Code = base + low + high × 2^W at each listed position, which must increase within the block.
  let previous: i32 = -1
  for (let rank: u32 = 0; rank < e; rank++) {
    const position = <u32>field(positions, rank, pw)
    if (<i32>position <= previous || position >= BLOCK_VALUES) return false
    previous = <i32>position
    const code = base + <i64>field(lows, position, W) + (<i64>field(highs, rank, hw) << W)
    if (<u64>code >= <u64>k) return false
    store<i32>(out + (<usize>position << 2), load<i32>(ENTRIES32 + (<usize>code << 2)))
  }
  return true
}

/**
 * Values [start, start + take) (take ≤ 1,024) of the dictionary node as int32 to out, if every
 * entry passes the read's check (ordinals: below limit; else an int32) and every code of the
 * chunk is below k; false otherwise, the chunk then unwritten or (slicedInt32) partly written.
 */
export function dictionaryInt32(node: usize, start: u32, take: u32, ordinals: bool, limit: u32, out: usize): bool {
  if (!narrowEntries(node, ordinals, limit)) return false
  const entries = node + 6, codes = blocksEnd(entries), k = nodeCount(entries)
  const record = blocksRecords(codes) + <usize>(start >>> BLOCK_SHIFT) * RECORD_BYTES
  const kind = recordKind(record), p = blocksData(codes) + recordDataOffset(record)
  if (take == BLOCK_VALUES && (start & (BLOCK_VALUES - 1)) == 0 && kind == KIND_PATCHED) {
    if (patchedCodeBytes(record, p, k)) {
      gatherBytes32(out)
      return true
    }
    if (patchedCodeHalves(record, p, k)) {
      gatherHalves32(out)
      return true
    }
    if (slicedInt32(record, p, k, out)) return true
    if (patchedUnits(record, p, BLOCK_VALUES) && largestUnit(BLOCK_VALUES) < k) {
      gatherUnits32(0, out)
      return true
    }
  }
  if (take == BLOCK_VALUES && (start & (BLOCK_VALUES - 1)) == 0 && kind == KIND_PACKED) {
    if (slicedInt32(record, p, k, out)) return true
    // Codes base + u: u32 fields unpacked by vectors, their largest checked once.
    const base = recordBase(record), W = recordWidth(record)
    if (recordAux(record) == 1 && base >= 0 && base < <i64>k && W <= 16) {
      unpackU32(p, 0, BLOCK_VALUES, W)
      if (<u64>largestUnit(BLOCK_VALUES) < <u64>(k - <u32>base)) {
        gatherUnits32(<u32>base, out)
        return true
      }
    }
  }
  return blocksDecode(codes, start, take, CODES) == OK && mapCodes32(take, k, out)
}
