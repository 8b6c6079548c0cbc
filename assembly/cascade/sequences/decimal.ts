// Form 3 (decimal doubles): u8 form, u8 e, u32 count, u32 E, E u32 positions
// (strictly increasing below count, checked at open) at node + 10, E raw i64
// exceptions after them, then the integers n (form 0, 1 or 2). Value i is the
// exception at i, or SortableBits(f64(n) / 10^e): a correctly rounded conversion
// and an IEEE division, exactly the TypeScript reader's n / POWERS_OF_TEN[e].
import { BLOCK_VALUES, OK } from '../../common'
import { FORM_BLOCKS, FORM_DICTIONARY, FORM_RUNS } from '../common'
import { DOUBLES, KEEP, RAW, sortable, toDoubles } from './doubles'
import { blocksDecode, blocksGet } from './blocks'
import { dictionaryFormDecode, dictionaryFormGet } from './dictionary'
import { runsFormDecode, runsFormGet } from './runs'

/** 10^0 .. 10^18, exact doubles. */
const POWERS: usize = memory.data<f64>([1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18], 8)

/** Value `index` of an integer node (form 0, 1 or 2) to out; its status. */
export function integerGet(node: usize, index: u32, out: usize): i32 {
  const form = load<u8>(node)
  if (form == FORM_BLOCKS) return blocksGet(node, index, out)
  if (form == FORM_DICTIONARY) return dictionaryFormGet(node, index, out)
  return runsFormGet(node, index, out)
}

/**
 * Values [first, first + n) of an integer node (form 0, 1 or 2) to out, converted to doubles
 * n / p for a decimal (convert: RAW or DOUBLES, doubles.ts); its status.
 */
export function integerDecode(node: usize, first: u32, n: u32, out: usize, convert: i32 = KEEP, p: f64 = 1): i32 {
  const form = load<u8>(node)
  if (form == FORM_DICTIONARY) return dictionaryFormDecode(node, first, n, out, convert, p)
  if (form == FORM_RUNS) return runsFormDecode(node, first, n, out, convert, p)
  if (convert == KEEP) return blocksDecode(node, first, n, out)
  // A block's worth at a time, converted while in L1.
  for (let done: u32 = 0; done < n; done += BLOCK_VALUES) {
    const take = min(n - done, BLOCK_VALUES), o = out + (<usize>done << 3)
    const status = blocksDecode(node, first + done, take, o)
    if (status != OK) return status
    toDoubles(o, take, convert, p)
  }
  return OK
}

// @ts-ignore: decorator
@inline function exceptionCount(node: usize): u32 { return load<u32>(node, 6) }
// @ts-ignore: decorator
@inline function positionAt(node: usize, rank: u32): u32 { return load<u32>(node + 10 + (<usize>rank << 2)) }
// @ts-ignore: decorator
@inline function exceptionAt(node: usize, rank: u32): i64 { return load<i64>(node + 10 + (<usize>exceptionCount(node) << 2) + (<usize>rank << 3)) }
// @ts-ignore: decorator
@inline function integersNode(node: usize): usize { return node + 10 + <usize>exceptionCount(node) * 12 }
// @ts-ignore: decorator
@inline function power(node: usize): f64 { return load<f64>(POWERS + (<usize>load<u8>(node, 1) << 3)) }

/** Value `index` of the decimal node to out (raw SortableBits); the integers' status. */
export function decimalGet(node: usize, index: u32, out: usize): i32 {
  // The exception, if any: a binary search of the positions, as the TypeScript reader's.
  let lo: i32 = 0, hi: i32 = <i32>exceptionCount(node) - 1
  while (lo <= hi) {
    const middle = (lo + hi) >>> 1
    const position = positionAt(node, middle)
    if (position == index) {
      store<i64>(out, exceptionAt(node, middle))
      return OK
    }
    if (position < index) lo = middle + 1
    else hi = middle - 1
  }
  const status = integerGet(integersNode(node), index, out)
  if (status != OK) return status
  store<i64>(out, sortable(reinterpret<i64>(<f64>load<i64>(out) / power(node))))
  return OK
}

/**
 * Values [first, first + n) of the decimal node to out: the integers decoded in place and
 * converted, then the exceptions in the range over them. raw: SortableBits (the raw decode);
 * else the doubles (the sortable double decode, which would decode those bits straight back).
 */
export function decimalDecode(node: usize, first: u32, n: u32, out: usize, raw: bool): i32 {
  const status = integerDecode(integersNode(node), first, n, out, raw ? RAW : DOUBLES, power(node))
  if (status != OK) return status
  const E = exceptionCount(node), stop = first + n
  let lo: u32 = 0, hi = E
  while (lo < hi) {
    const middle = (lo + hi) >>> 1
    if (positionAt(node, middle) < first) lo = middle + 1
    else hi = middle
  }
  for (let rank = lo; rank < E; rank++) {
    const position = positionAt(node, rank)
    if (position >= stop) break
    const bits = exceptionAt(node, rank)
    store<i64>(out + (<usize>(position - first) << 3), raw ? bits : sortable(bits))
  }
  return OK
}
