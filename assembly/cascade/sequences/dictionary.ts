// Form 1 (sequence dictionary): u8 form, u8 order, u32 count, then the entries
// (a form-0 node of k values) at node + 6 and the codes (form 0, count values)
// right after them; value i = entries[codes[i]]. Codes ≥ k are corrupt (status 6).
// Decodes follow the TypeScript reader's order: codes in chunks of 1,024 from the
// first value, each chunk decoded whole (block errors first), then checked in order.
import {
  BLOCK_SHIFT, BLOCK_VALUES, KIND_CONSTANT, KIND_PACKED, OK, RECORD_BYTES, recordAux, recordBase, recordDataOffset, recordKind,
  recordWidth,
} from '../../common'
import { decodeBlock } from '../../decode'
import { gatherIndexes, tableIndexes } from '../blocks/dictionary'
import {
  CODES, FORM_ENTRIES, FORM_ENTRIES_MAX, GCD_FLAG, KIND_DICTIONARY, KIND_FREQUENT, KIND_PATCHED, KIND_RUNS, blocksData, blocksEnd,
  blocksRecords, codeError, nodeCount, recordParam, wideField,
} from '../common'
import { blocksDecode, blocksGet } from './blocks'
import { KEEP, toDoubles } from './doubles'

/** Value `index` of the dictionary node to out; status 0, 5 (a codes or entries block) or 6. */
export function dictionaryFormGet(node: usize, index: u32, out: usize): i32 {
  const entries = node + 6, codes = blocksEnd(entries), k = nodeCount(entries)
  const status = blocksGet(codes, index, out)
  if (status != OK) return status
  const code = load<i64>(out)
  if (<u64>code >= <u64>k) return codeError(node, index, <u32>code, k)
  return blocksGet(entries, <u32>code, out)
}

/** Whether every codes block of values [start, end) is constant or frame (no block of them can fail). */
function plainCodes(codes: usize, start: u32, end: u32): bool {
  const records = blocksRecords(codes)
  for (let block = start >>> BLOCK_SHIFT; block <= (end - 1) >>> BLOCK_SHIFT; block++) {
    if (recordKind(records + <usize>block * RECORD_BYTES) > KIND_PACKED) return false
  }
  return true
}

/** Whether base + step × u stays in [0, k) for every u < 2^W (k ≤ 2^32). */
// @ts-ignore: decorator
@inline function spanBelow(base: i64, step: i64, W: u32, k: u32): bool {
  // base < k and step, 2^W below 2^32: no term overflows.
  return base >= 0 && base < <i64>k && step >= 0 && W < 32 && <u64>step <= 0xFFFF_FFFF && base + step * ((<i64>1 << W) - 1) < <i64>k
}

/**
 * Whether the record alone proves every code of its block below k (no check needed): its kind's
 * values are base + aux × a field of known width (frequent: the top value, or aux + gx × a field;
 * patched: fields of lw + hw bits). Linear blocks are not proved.
 */
function codesBelow(record: usize, p: usize, k: u32): bool {
  const kind = recordKind(record), param = recordParam(record)
  let low = recordBase(record), step = recordAux(record), W = recordWidth(record)
  if (kind == KIND_CONSTANT) W = 0
  else if (kind == KIND_DICTIONARY) W = (param >>> 10) + 1
  else if (kind == KIND_PATCHED) W += load<u8>(p)
  else if (kind == KIND_FREQUENT) {
    if (!spanBelow(low, 0, 0, k)) return false
    low = step
    step = (param & GCD_FLAG) != 0 ? load<i64>(p) : 1
  } else if (kind != KIND_PACKED && kind != KIND_RUNS) return false
  return spanBelow(low, step, W, k)
}

/** Whether every codes block of values [start, end) proves its codes below k (codesBelow). */
function chunkBelow(codes: usize, start: u32, end: u32, k: u32): bool {
  const records = blocksRecords(codes), data = blocksData(codes)
  for (let block = start >>> BLOCK_SHIFT; block <= (end - 1) >>> BLOCK_SHIFT; block++) {
    const record = records + <usize>block * RECORD_BYTES
    if (!codesBelow(record, data + recordDataOffset(record), k)) return false
  }
  return true
}

/**
 * Codes [0, take) at `codes` (i64) mapped through the k values at table to out; returns `take`,
 * or the position of the first code ≥ k (the values before it written). Two values a 16-byte
 * store: stores bound this loop. `checked` false: the codes are known to be below k.
 */
function mapCodes(codes: usize, take: u32, table: usize, k: u32, out: usize, checked: bool): u32 {
  let j: u32 = 0
  // Two loops, not one testing `checked`: V8 does not split a loop on an invariant (ad hoc: 1.05 → 0.53 G values/s).
  if (checked) {
    for (; j + 2 <= take; j += 2) {
      const c0 = load<u64>(codes + (<usize>j << 3)), c1 = load<u64>(codes + (<usize>j << 3), 8)
      if (c0 >= <u64>k || c1 >= <u64>k) break
      v128.store(out + (<usize>j << 3), v128.load64_lane(table + (<usize>c1 << 3), v128.load64_zero(table + (<usize>c0 << 3)), 1))
    }
  } else {
    for (; j + 2 <= take; j += 2) {
      const c0 = load<u32>(codes + (<usize>j << 3)), c1 = load<u32>(codes + (<usize>j << 3), 8)
      v128.store(out + (<usize>j << 3), v128.load64_lane(table + (<usize>c1 << 3), v128.load64_zero(table + (<usize>c0 << 3)), 1))
    }
  }
  for (; j < take; j++) {
    const code = load<u64>(codes + (<usize>j << 3))
    if (code >= <u64>k) return j
    store<i64>(out + (<usize>j << 3), load<i64>(table + (<usize>code << 3)))
  }
  return take
}

/**
 * Codes [start, start + take) mapped through the k values at table to out, for chunks of plain
 * codes (plainCodes): a frame block of g = 1 (code = base + field) goes straight from its fields
 * (v1's table kernels for widths ≤ 8, four indexes a load up to 14), other blocks through CODES.
 * False at a code ≥ k, for the caller to find it in order.
 */
function gatherCodes(codes: usize, start: u32, take: u32, table: usize, k: u32, out: usize): bool {
  const records = blocksRecords(codes), data = blocksData(codes), count = nodeCount(codes)
  const end = start + take
  for (let index = start, o = out; index < end;) {
    const block = index >>> BLOCK_SHIFT
    const from = index & (BLOCK_VALUES - 1), to = min(end - (block << BLOCK_SHIFT), BLOCK_VALUES)
    const record = records + <usize>block * RECORD_BYTES
    const base = recordBase(record), W = recordWidth(record)
    const p = data + recordDataOffset(record)
    let status = OK
    if (recordKind(record) == KIND_PACKED && recordAux(record) == 1 && W <= 14 && base >= 0 && base < <i64>k) {
      // Codes base + u for u < 2^W: the table from entry base, as long as the codes stay below k.
      const slice = table + (<usize>base << 3), limit = k - <u32>base
      if (W <= 8) status = tableIndexes(p, min(BLOCK_VALUES, count - (block << BLOCK_SHIFT)), from, to, W, slice, min(limit, <u32>1 << W), o)
      else status = gatherIndexes(p, from, to, W, slice, limit, o)
    } else {
      decodeBlock(record, data, block, from, to, CODES)
      if (mapCodes(CODES, to - from, table, k, o, true) != to - from) return false
    }
    if (status != OK) return false
    o += <usize>(to - from) << 3
    index += to - from
  }
  return true
}

/**
 * Values [first, first + n) of the dictionary node to out, converted for a decimal (convert,
 * p: doubles.ts; the entries once when decoded together); status 0, 5 or 6.
 */
export function dictionaryFormDecode(node: usize, first: u32, n: u32, out: usize, convert: i32 = KEEP, p: f64 = 1): i32 {
  const entries = node + 6, codes = blocksEnd(entries), k = nodeCount(entries)
  // The entries decoded once when they are few beside the values read, else each read where it lies.
  const table = k <= FORM_ENTRIES_MAX && k <= 4 * n
  if (table) {
    const status = blocksDecode(entries, 0, k, FORM_ENTRIES)
    if (status != OK) return status
    toDoubles(FORM_ENTRIES, k, convert, p)
  }
  for (let done: u32 = 0; done < n; done += BLOCK_VALUES) {
    const take = min(n - done, BLOCK_VALUES), start = first + done
    const o = out + (<usize>done << 3)
    if (table && plainCodes(codes, start, start + take) && gatherCodes(codes, start, take, FORM_ENTRIES, k, o)) continue
    const status = blocksDecode(codes, start, take, CODES)
    if (status != OK) return status
    if (table) {
      const mapped = mapCodes(CODES, take, FORM_ENTRIES, k, o, !chunkBelow(codes, start, start + take, k))
      if (mapped != take) return codeError(node, start + mapped, load<u32>(CODES + (<usize>mapped << 3)), k)
      continue
    }
    const records = blocksRecords(entries), data = blocksData(entries)
    for (let j: u32 = 0; j < take; j++) {
      const code = load<i64>(CODES + (<usize>j << 3))
      if (<u64>code >= <u64>k) return codeError(node, start + j, <u32>code, k)
      // Constant and frame entries blocks (ascending entries mostly are) read here, the others by blocksGet.
      const record = records + <usize>(<u32>code >>> BLOCK_SHIFT) * RECORD_BYTES, kind = recordKind(record), W = recordWidth(record)
      const at = o + (<usize>j << 3)
      if (kind == KIND_CONSTANT) store<i64>(at, recordBase(record))
      else if (kind == KIND_PACKED) {
        store<i64>(at, recordBase(record) + recordAux(record) * <i64>wideField(data + recordDataOffset(record), <u32>code & (BLOCK_VALUES - 1), W))
      } else {
        const entry = blocksGet(entries, <u32>code, at)
        if (entry != OK) return entry
      }
    }
    toDoubles(o, take, convert, p)
  }
  return OK
}
