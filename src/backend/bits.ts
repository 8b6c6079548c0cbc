/**
 * Bit helpers shared by both backends, the reader and the query API. They live
 * outside the pure-TypeScript backend so that the browser reader bundle, which
 * loads that backend on demand (rollup.config.js), has them on the WebAssembly
 * path without it.
 */
import type { PresenceView } from './backend.js'

/** Set bits in a 32-bit word. */
export function popcount(value: number): number {
  value -= (value >>> 1) & 0x55555555
  value = (value & 0x33333333) + ((value >>> 2) & 0x33333333)
  return Math.imul((value + (value >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24
}

/** Bitset words for n bits (counts reach 2^32 - 1, where (n + 31) >>> 5 wraps to 0). */
export function wordsFor(n: number): number {
  return Math.ceil(n / 32)
}

/** The low n bits set (n in 1..32). */
export function lowMask(n: number): number {
  return n >= 32 ? -1 : (1 << n) - 1
}

/** 32 bits of a bitset from bit position `bit` (any alignment), masked to n bits; null reads as all set. */
export function selectionBits(words: Int32Array | null, bit: number, n: number): number {
  if (words === null) return lowMask(n)
  const word = bit >>> 5, shift = bit & 31
  let value = words[word] >>> shift
  if (shift !== 0 && word + 1 < words.length) value |= words[word + 1] << (32 - shift)
  return value & lowMask(n)
}

/** Set bits among n of a selection (null: all set) from bit `bit`. */
export function countSelected(words: Int32Array | null, bit: number, n: number): number {
  if (words === null) return n
  let total = 0
  for (let at = 0; at < n; at += 32) total += popcount(selectionBits(words, bit + at, Math.min(32, n - at)))
  return total
}

/** ORs n bits of a selection (null: all set) from selectionBit into out from outBit; returns how many were set. */
export function orSelection(selection: Int32Array | null, selectionBit: number, out: Int32Array, outBit: number, n: number): number {
  if (selection === null) {
    setBits(out, outBit, n)
    return n
  }
  let set = 0
  for (let at = 0; at < n; at += 32) {
    const bits = selectionBits(selection, selectionBit + at, Math.min(32, n - at))
    orBits(out, outBit + at, bits)
    set += popcount(bits)
  }
  return set
}

/** Sets bits [bit, bit + n) of a bitset: whole words filled, the partial ones at the ends masked. */
export function setBits(words: Int32Array, bit: number, n: number): void {
  const end = bit + n
  let word = bit >>> 5
  const last = end >>> 5
  if (word === last) {
    if (n > 0) words[word] |= lowMask(n) << (bit & 31)
    return
  }
  if ((bit & 31) !== 0) words[word++] |= -1 << (bit & 31)
  words.fill(-1, word, last)
  if ((end & 31) !== 0) words[last] |= lowMask(end & 31)
}

/** ORs `bits` into a bitset at bit position `bit` (any alignment). */
export function orBits(words: Int32Array, bit: number, bits: number): void {
  if (bits === 0) return
  const word = bit >>> 5, shift = bit & 31
  words[word] |= bits << shift
  if (shift !== 0) {
    const spill = bits >>> (32 - shift)
    if (spill !== 0) words[word + 1] |= spill
  }
}

/** Documents with a value before `document`: the rank of its 64-document word plus a popcount. */
export function rankOf(presence: PresenceView, document: number): number {
  const words = presence.words
  const word = document >>> 5
  const below = word & 1 ? popcount(words[word - 1]) : 0
  const shift = document & 31
  const masked = shift === 0 ? 0 : words[word] & (-1 >>> (32 - shift))
  return presence.ranks[document >>> 6] + below + popcount(masked)
}
