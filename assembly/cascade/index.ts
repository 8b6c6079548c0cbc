// The v2 cascade kernels' entry points (exported by assembly/index.ts): raw
// values and typed runs of any v2 sequence, given its node (the address of its
// form byte). The typed runs go in chunks of 1,024 values from `first`, each
// decoded whole and then converted, exactly as the TypeScript backend does
// (src/backend/ts/typed.ts): both report the same first bad value.
import { BLOCK_BUFFER, BLOCK_VALUES, NOT_REPRESENTABLE, NUMBER_SLOT, OK, ORDINAL_ERROR, SCRATCH, isSafeInteger, slotNumber } from '../common'
import { firstBeyond, sortableInPlace } from '../typed'
import { FORM_DECIMAL, FORM_DICTIONARY, nodeCount } from './common'
import { decimalDecode, decimalGet, integerDecode, integerGet } from './sequences/decimal'
import { dictionaryFormNumber, keepDecodedEntries, setEntriesTable } from './sequences/dictionary'
import { dictionaryInt32, exactEntries, forgetNarrowedEntries } from './sequences/codes-typed'
import { DOUBLES } from './sequences/doubles'
import { NARROW_CODES, REGISTER_READS } from './widths'

/** Raw i64 value `index` of the sequence at node to out; status 0, 5 or 6 (assembly/index.ts). */
export function cascadeGet(node: usize, index: u32, out: usize): i32 {
  if (load<u8>(node) == FORM_DECIMAL) return decimalGet(node, index, out)
  return integerGet(node, index, out)
}

/**
 * Value `index` of the sequence at node as an exact double, or NaN when the read fails (status 5
 * or 6) or the value is beyond 2^53 - 1: the caller then reads it with cascadeGet, which reports.
 * Returned, not stored: a single read from JS saves the scratch's round trip through memory.
 */
export function cascadeGetNumber(node: usize, index: u32): f64 {
  // Not in browsers' kernels (REGISTER_READS false): fewer bytes.
  if (REGISTER_READS && load<u8>(node) == FORM_DICTIONARY) return dictionaryFormNumber(node, index)
  return cascadeGet(node, index, NUMBER_SLOT) == OK ? slotNumber() : NaN
}

/** Raw i64 values [first, first + n) of the sequence at node to out (8-aligned); status 0, 5 or 6. */
export function cascadeDecode(node: usize, first: u32, n: u32, out: usize): i32 {
  if (load<u8>(node) == FORM_DECIMAL) return decimalDecode(node, first, n, out, true)
  return integerDecode(node, first, n, out)
}

/** cascadeDecodeFloat64SortableChunks, a dictionary's decoded entries kept from chunk to chunk (keepDecodedEntries). */
export function cascadeDecodeFloat64Sortable(node: usize, first: u32, n: u32, out: usize): i32 {
  keepDecodedEntries(true, n)
  return keptEnd(cascadeDecodeFloat64SortableChunks(node, first, n, out))
}

/**
 * Values [first, first + n) as SortableBits-decoded doubles to out; status 0, 5 or 6. A decimal
 * node's integers become doubles directly (n / 10^e), not raw bits decoded back.
 */
function cascadeDecodeFloat64SortableChunks(node: usize, first: u32, n: u32, out: usize): i32 {
  const decimal = load<u8>(node) == FORM_DECIMAL
  for (let done: u32 = 0; done < n; done += BLOCK_VALUES) {
    const take = min(n - done, BLOCK_VALUES)
    const o = out + (<usize>done << 3)
    const status = decimal ? decimalDecode(node, first + done, take, o, false) : integerDecode(node, first + done, take, o)
    if (status != OK) return status
    if (!decimal) sortableInPlace(o, take)
  }
  return OK
}

/** Ends a read begun with keepDecodedEntries(true): its status, the entries no longer kept. */
function keptEnd(status: i32): i32 {
  keepDecodedEntries(false)
  return status
}

/** Status 2 (or 3) with the position within the run at scratch+0 and the raw value at scratch+8. */
function reportValue(status: i32, position: u32, value: i64): i32 {
  store<u32>(SCRATCH, position)
  store<i64>(SCRATCH, value, 8)
  return status
}

/**
 * cascadeDecodeFloat64ExactChunks, a dictionary's decoded entries kept from chunk to chunk
 * (keepDecodedEntries). A dictionary whose entries are all exact doubles (a check of k values,
 * where they are no more than the values read) converts them once and gathers the doubles (not
 * in browsers' kernels).
 */
export function cascadeDecodeFloat64Exact(node: usize, first: u32, n: u32, out: usize): i32 {
  keepDecodedEntries(true, n)
  if (NARROW_CODES && load<u8>(node) == FORM_DICTIONARY && nodeCount(node + 6) <= n && exactEntries(node)) {
    return keptEnd(integerDecode(node, first, n, out, DOUBLES, 1))
  }
  return keptEnd(cascadeDecodeFloat64ExactChunks(node, first, n, out))
}

/** Raw values as exact doubles to out; status 2 at the first |v| > 2^53 - 1 (scratch: position, value), 5 or 6. */
function cascadeDecodeFloat64ExactChunks(node: usize, first: u32, n: u32, out: usize): i32 {
  for (let done: u32 = 0; done < n; done += BLOCK_VALUES) {
    const take = min(n - done, BLOCK_VALUES)
    // Raw values go to the block buffer, so nothing past a refused value reaches out (it may be a ValueBuffer).
    const status = cascadeDecode(node, first + done, take, BLOCK_BUFFER)
    if (status != OK) return status
    const o = out + (<usize>done << 3)
    for (let j: u32 = 0; j < take; j++) {
      const v = load<i64>(BLOCK_BUFFER + (<usize>j << 3))
      if (!isSafeInteger(v)) return reportValue(NOT_REPRESENTABLE, done + j, v)
      store<f64>(o + (<usize>j << 3), <f64>v)
    }
  }
  return OK
}

/**
 * BLOCK_BUFFER's first take values narrowed to int32 at o, four at a time while each four passes
 * (ordinals: below limit, unsigned; else an int32; every value checked: the limit also bounds
 * bools, whose dictionary entries the open does not check); returns how many were written, a
 * multiple of four: the caller's value-by-value loop goes on from there, to the end or to the
 * first refused value. One loop per case: V8 does not split a loop on an invariant.
 */
function narrowChecked(take: u32, ordinals: bool, limit: u32, o: usize): u32 {
  const groups = take >>> 2
  let g: u32 = 0
  if (ordinals) {
    const top = i64x2.splat(i64.MIN_VALUE), bound = i64x2.splat(<i64>limit ^ i64.MIN_VALUE)
    for (; g < groups; g++) {
      const a = v128.load(BLOCK_BUFFER + (<usize>g << 5)), b = v128.load(BLOCK_BUFFER + (<usize>g << 5), 16)
      // v ≥ limit unsigned, as a signed compare with the top bits flipped.
      if (v128.any_true(v128.or(i64x2.ge_s(v128.xor(a, top), bound), i64x2.ge_s(v128.xor(b, top), bound)))) break
      v128.store(o + (<usize>g << 4), i32x4.shuffle(a, b, 0, 2, 4, 6))
    }
  } else {
    for (; g < groups; g++) {
      const a = v128.load(BLOCK_BUFFER + (<usize>g << 5)), b = v128.load(BLOCK_BUFFER + (<usize>g << 5), 16)
      // Not an int32: the low word sign-extended differs from the value.
      if (v128.any_true(v128.or(i64x2.ne(i64x2.shr_s(i64x2.shl(a, 32), 32), a), i64x2.ne(i64x2.shr_s(i64x2.shl(b, 32), 32), b)))) break
      v128.store(o + (<usize>g << 4), i32x4.shuffle(a, b, 0, 2, 4, 6))
    }
  }
  return g << 2
}

/** cascadeDecodeInt32Chunks, a dictionary's decoded entries kept from chunk to chunk (keepDecodedEntries). */
export function cascadeDecodeInt32(node: usize, first: u32, n: u32, limit: u32, out: usize): i32 {
  keepDecodedEntries(true, n)
  return keptEnd(cascadeDecodeInt32Chunks(node, first, n, limit, out))
}

/**
 * Raw values as int32 to out (4 bytes each). limit = 0xFFFFFFFF: plain integers, status 2 at the
 * first value outside int32; otherwise keyword ordinals, status 3 at the first value < 0 or ≥
 * limit (scratch: position within the run, raw value). Status 5 or 6 for a corrupt dictionary.
 */
function cascadeDecodeInt32Chunks(node: usize, first: u32, n: u32, limit: u32, out: usize): i32 {
  const ordinals = limit != 0xFFFF_FFFF
  // A dictionary whose entries all pass gathers them narrowed (codes-typed.ts; not in browsers' kernels),
  // where they are no more than the values read (each read narrows them again).
  const dictionary = NARROW_CODES && load<u8>(node) == FORM_DICTIONARY && nodeCount(node + 6) <= n
  if (dictionary) forgetNarrowedEntries()
  for (let done: u32 = 0; done < n; done += BLOCK_VALUES) {
    const take = min(n - done, BLOCK_VALUES)
    const o = out + (<usize>done << 2)
    if (dictionary && dictionaryInt32(node, first + done, take, ordinals, limit, o)) continue
    const status = cascadeDecode(node, first + done, take, BLOCK_BUFFER)
    if (status != OK) return status
    for (let j = narrowChecked(take, ordinals, limit, o); j < take; j++) {
      const v = load<i64>(BLOCK_BUFFER + (<usize>j << 3))
      // Unsigned compare for ordinals: negative values look huge and fail too.
      if (ordinals ? <u64>v >= <u64>limit : v != <i64><i32>v) return reportValue(ordinals ? ORDINAL_ERROR : NOT_REPRESENTABLE, done + j, v)
      store<i32>(o + (<usize>j << 2), <i32>v)
    }
  }
  return OK
}

/**
 * Keyword ordinals [first, first + n) as raw i64 to out, chunk by chunk as cascadeDecodeInt32
 * reads them: status 3 at the first value < 0 or ≥ limit (scratch: position within the run, raw
 * value), the chunk holding it written whole; 5 or 6. A dictionary node's values are its entries,
 * which the open checked below the term count (src/cascade/reader/validate.ts): no check.
 */
export function cascadeDecodeOrdinals(node: usize, first: u32, n: u32, limit: u32, out: usize): i32 {
  if (load<u8>(node) == FORM_DICTIONARY) return integerDecode(node, first, n, out)
  for (let done: u32 = 0; done < n; done += BLOCK_VALUES) {
    const take = min(n - done, BLOCK_VALUES)
    const o = out + (<usize>done << 3)
    const status = cascadeDecode(node, first + done, take, o)
    if (status != OK) return status
    const bad = firstBeyond(o, take, limit)
    if (bad >= 0) return reportValue(ORDINAL_ERROR, done + bad, load<i64>(o + (<usize>bad << 3)))
  }
  return OK
}

/**
 * Memory JS gives the kernels for the entries of sequence dictionaries of more than 2,048 entries
 * (up to `entries`), decoded there for the length of a read; address 0: none (such dictionaries
 * are then read entry by entry).
 */
export function cascadeEntriesTable(address: usize, entries: u32): void {
  setEntriesTable(address, entries)
}

