// Form 1 (sequence dictionary): u8 form, u8 order, u32 count, then the entries
// (a form-0 node of k values) at node + 6 and the codes (form 0, count values)
// right after them; value i = entries[codes[i]]. Codes ≥ k are corrupt (status 6).
// Decodes follow the TypeScript reader's order: codes in chunks of 1,024 from the
// first value, each chunk decoded whole (block errors first), then checked in order.
import {
  BLOCK_SHIFT, BLOCK_VALUES, KIND_CONSTANT, KIND_PACKED, NUMBER_SLOT, OK, RECORD_BYTES, isSafeInteger, recordAux, recordBase,
  recordDataOffset, recordKind, recordWidth,
} from '../../common'
import {
  CODES, FORM_ENTRIES, FORM_ENTRIES_MAX, GCD_FLAG, KIND_DICTIONARY, KIND_FREQUENT, KIND_PATCHED, KIND_RUNS, blocksData, blocksEnd,
  blocksRecords, codeError, nodeCount, recordParam, wideField,
} from '../common'
import { patchedField } from '../blocks/patched'
import { forgetPairs } from '../gather'
import { gatherCodes, mapCodes } from './codes'
import { blocksDecode, blocksGet } from './blocks'
import { KEEP, toDoubles } from './doubles'
import { CHUNK_KEEPS } from '../widths'

/** Value `index` of the dictionary node to out; status 0, 5 (a codes or entries block) or 6. */
export function dictionaryFormGet(node: usize, index: u32, out: usize): i32 {
  const entries = node + 6, codes = blocksEnd(entries), k = nodeCount(entries)
  const status = blocksGet(codes, index, out)
  if (status != OK) return status
  const code = load<i64>(out)
  if (<u64>code >= <u64>k) return codeError(node, index, <u64>code, k)
  return blocksGet(entries, <u32>code, out)
}

/** Set by blocksValue when its read failed (the caller then answers NaN, and JS reads again to report). */
let valueFailed = false

/**
 * Value `index` of a form-0 node, returned rather than stored: constant, frame and patched blocks
 * read here (a single read passes the code, then the entry, in registers, not through memory);
 * other kinds through blocksGet. valueFailed set where the read fails.
 */
// @ts-ignore: decorator
@inline function blocksValue(node: usize, index: u32): i64 {
  const records = blocksRecords(node), block = index >>> BLOCK_SHIFT
  const record = records + <usize>block * RECORD_BYTES, kind = recordKind(record)
  const p = blocksData(node) + recordDataOffset(record), j = index & (BLOCK_VALUES - 1)
  if (kind == KIND_PACKED) return recordBase(record) + recordAux(record) * <i64>wideField(p, j, recordWidth(record))
  if (kind == KIND_CONSTANT) return recordBase(record)
  if (kind == KIND_PATCHED) {
    const n = min(BLOCK_VALUES, nodeCount(node) - (block << BLOCK_SHIFT))
    return recordBase(record) + recordAux(record) * <i64>patchedField(record, p, n, j)
  }
  if (blocksGet(node, index, NUMBER_SLOT) != OK) {
    valueFailed = true
    return 0
  }
  return load<i64>(NUMBER_SLOT)
}

/**
 * Value `index` of the dictionary node as an exact double; NaN where dictionaryFormGet would
 * fail or the value is beyond 2^53 - 1 (the caller then reads it with cascadeGet, which reports).
 */
export function dictionaryFormNumber(node: usize, index: u32): f64 {
  const entries = node + 6, codes = blocksEnd(entries), k = nodeCount(entries)
  valueFailed = false
  const code = blocksValue(codes, index)
  if (valueFailed || <u64>code >= <u64>k) return NaN
  const value = blocksValue(entries, <u32>code)
  return !valueFailed && isSafeInteger(value) ? <f64>value : NaN
}

/** Whether a codes block of values [start, end) is a dictionary block (the one kind whose read can fail: status 5). */
function dictionaryBlocks(codes: usize, start: u32, end: u32): bool {
  const records = blocksRecords(codes)
  for (let block = start >>> BLOCK_SHIFT; block <= (end - 1) >>> BLOCK_SHIFT; block++) {
    if (recordKind(records + <usize>block * RECORD_BYTES) == KIND_DICTIONARY) return true
  }
  return false
}

/** A table for entries beyond FORM_ENTRIES_MAX, in memory JS gives (cascadeEntriesTable): its address and entries, or 0. */
let bigTable: usize = 0
let bigEntries: u32 = 0

/** Where dictionaries of more than FORM_ENTRIES_MAX entries (up to `entries`) keep their entries while decoded; 0, 0: nowhere. */
export function setEntriesTable(address: usize, entries: u32): void {
  bigTable = address
  bigEntries = address == 0 ? 0 : entries
}

/**
 * While a read decodes a sequence a chunk at a time (keepEntries, set by its kernel for that call
 * alone), the dictionary node whose entries the table holds, and how they were converted: the
 * next chunk of the same node uses them as they are. Never kept from one call to the next.
 */
let keepEntries = false
/** The values the read keeping entries asks for in all (its chunks each ask for 1,024 at most). */
let keptReadValues: u32 = 0
let keptNode: usize = 0
let keptConvert: i32 = 0
let keptP: f64 = 0

/** Starts (true, for a read of `values` values) or ends (false) a read whose chunks may share their dictionary's decoded entries. */
export function keepDecodedEntries(keep: bool, values: u32 = 0): void {
  // Not in browsers' kernels (CHUNK_KEEPS false): fewer bytes.
  keepEntries = CHUNK_KEEPS && keep
  keptReadValues = keepEntries ? values : 0
  keptNode = 0
}

/**
 * FORM_ENTRIES now holds the node's entries converted (convert, p) where a read keeps them
 * (keepDecodedEntries), or (node 0) nothing a read may take as they are: for typed reads that
 * decode the entries there themselves (codes-typed.ts).
 */
export function entriesTableHolds(node: usize, convert: i32, p: f64): void {
  keptNode = keepEntries ? node : 0
  keptConvert = convert
  keptP = p
  // Entry pairs (gather.ts) built from the table's last contents are stale.
  forgetPairs()
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
 * Values [first, first + n) of the dictionary node to out, converted for a decimal (convert,
 * p: doubles.ts; the entries once when decoded together); status 0, 5 or 6.
 */
export function dictionaryFormDecode(node: usize, first: u32, n: u32, out: usize, convert: i32 = KEEP, p: f64 = 1): i32 {
  const entries = node + 6, codes = blocksEnd(entries), k = nodeCount(entries)
  // The entries decoded once when they are few beside the values read (in static memory, or in the
  // table JS gives for more), else each read where it lies. A read kept across chunks counts all its
  // values: measured by its 1,024-value chunks, dictionaries of more than 4,096 entries were read
  // entry by entry, 13 times slower.
  let table: usize = 0, capacity: u32 = 0
  if (<u64>k <= 4 * <u64>max(n, keptReadValues)) {
    if (k <= FORM_ENTRIES_MAX) {
      table = FORM_ENTRIES
      capacity = FORM_ENTRIES_MAX
    } else if (k <= bigEntries) {
      table = bigTable
      capacity = bigEntries
    }
  }
  if (table != 0 && !(keepEntries && keptNode == node && keptConvert == convert && keptP == p)) {
    keptNode = 0
    const status = blocksDecode(entries, 0, k, table)
    if (status != OK) return status
    toDoubles(table, k, convert, p)
    // Entry pairs (gather.ts) built from the table's last contents are stale; built now, they serve every block of the read.
    forgetPairs()
    if (keepEntries) {
      keptNode = node
      keptConvert = convert
      keptP = p
    }
  }
  for (let done: u32 = 0; done < n; done += BLOCK_VALUES) {
    const take = min(n - done, BLOCK_VALUES), start = first + done
    const o = out + (<usize>done << 3)
    // Block by block (codes.ts), unless a dictionary block's index error must come first; at a bad code, below, in order.
    if (table != 0 && !dictionaryBlocks(codes, start, start + take) && gatherCodes(codes, start, take, table, k, capacity, o)) continue
    const status = blocksDecode(codes, start, take, CODES)
    if (status != OK) return status
    if (table != 0) {
      const mapped = mapCodes(CODES, take, table, k, o, !chunkBelow(codes, start, start + take, k))
      if (mapped != take) return codeError(node, start + mapped, load<u64>(CODES + (<usize>mapped << 3)), k)
      continue
    }
    const records = blocksRecords(entries), data = blocksData(entries)
    for (let j: u32 = 0; j < take; j++) {
      const code = load<i64>(CODES + (<usize>j << 3))
      if (<u64>code >= <u64>k) return codeError(node, start + j, <u64>code, k)
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
