/**
 * matchOrdinals for the TS backend (assembly/query-ordinals.ts in TypeScript): each selected
 * ordinal looked up in a byte per term, in one pass; byte fields are read where they are
 * packed, other blocks decoded. -1 at a value not below the term count: the caller's pass,
 * which names it, runs instead.
 */
import type { SequenceView } from '../backend.js'
import type { BitsetMemory } from '../query-kernels.js'
import { BLOCK_VALUES, BlockKind } from '../../format/constants.js'
import { orBits, popcount, selectionBits } from '../bits.js'
import { decodeRaw } from './decode.js'
import { plainBytesBelow } from '../../cascade/region-sequence.js'
import { block, decoded, forEachBlock, loadBlock } from './query-scan.js'

let members: Uint8Array = new Uint8Array(0)
let found = 0

/** See QueryKernels.matchOrdinals. */
export function matchOrdinals(
  sequence: SequenceView, first: number, count: number, memberBytes: Uint8Array,
  selection: BitsetMemory | null, selectionStart: number, out: BitsetMemory, outStart: number,
): number {
  const decodedFound = matchDecodedBytes(sequence, first, count, memberBytes, selection, selectionStart, out.words, outStart)
  if (decodedFound >= 0) return decodedFound
  members = memberBytes
  found = 0
  forEachBlock(sequence, first, count, outStart - selectionStart, selection, selectionStart, out.words, matchBlock)
  return found
}

function matchBlock(
  sequence: SequenceView, blockIndex: number, from: number, to: number, outShift: number,
  selection: Int32Array | null, selectionBit: number, out: Int32Array,
): void {
  if (found < 0) return
  loadBlock(sequence, blockIndex)
  const k = members.length, base = block.baseLow
  // Byte fields over a base of at least 0: ordinal base + u, u at most k - 1 - base (none when base ≥ k).
  const bytes = block.kind === BlockKind.packed && block.width === 8 && block.packedFast && block.divisor === 1 &&
    block.baseHigh === 0 && base >= 0
  if (!bytes) decodeRaw(sequence, blockIndex * BLOCK_VALUES + from, to - from, decoded, 0)
  const data = sequence.bytes, start = block.byteStart, largest = k - 1 - base
  for (let position = from; position < to; position += 32) {
    const n = Math.min(32, to - position)
    const word = selectionBits(selection, selectionBit + position - from, n)
    if (word === 0) continue
    let mask = 0
    if (bytes) {
      for (let j = 0, at = start + position; j < n; j++, at++) {
        const u = data[at]
        if (u > largest) { found = -1; return }
        mask |= members[base + u] << j
      }
    } else {
      for (let j = 0, at = 2 * (position - from); j < n; j++, at += 2) {
        const low = decoded[at]
        if (decoded[at + 1] !== 0 || low >>> 0 >= k) { found = -1; return }
        mask |= members[low] << j
      }
    }
    mask &= word
    if (mask === 0) continue
    orBits(out, selectionBit + outShift + position - from, mask)
    found += popcount(mask)
  }
}

/**
 * A decoded view of 8-bit fields over base 0 (format 2's dictionary codes decoded once,
 * decoded-codes.ts) whose every field is below the term count, as its blocks' extremes show:
 * matchMemberBytes over the whole range. -1: not such a view.
 */
function matchDecodedBytes(
  sequence: SequenceView, first: number, count: number, memberBytes: Uint8Array,
  selection: BitsetMemory | null, selectionStart: number, out: Int32Array, outStart: number,
): number {
  const view = plainBytesBelow(sequence, memberBytes.length)
  if (view === null) return -1
  return matchMemberBytes(view.bytes, view.dataStart + first, count, memberBytes, selection === null ? null : selection.words, selectionStart, out, outStart)
}

/**
 * Sets out bit outStart + i for each byte i < count at bytes[at + i] whose member byte is 1 and
 * whose selection bit selectionStart + i is set (null: all), 32 a step with no check per value
 * (the caller knows every byte is below members.length); how many matched.
 */
export function matchMemberBytes(
  bytes: Uint8Array, at: number, count: number, members: Uint8Array,
  selected: Int32Array | null, selectionStart: number, out: Int32Array, outStart: number,
): number {
  let matched = 0
  for (let position = 0; position < count; position += 32) {
    const n = Math.min(32, count - position)
    const word = selectionBits(selected, selectionStart + position, n)
    if (word === 0) continue
    let mask = 0
    for (let j = 0, b = at + position; j < n; j++, b++) mask |= members[bytes[b]] << j
    mask &= word
    if (mask === 0) continue
    orBits(out, outStart + position, mask)
    matched += popcount(mask)
  }
  return matched
}
