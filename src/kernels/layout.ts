/**
 * Documents ↔ values for the three layouts, around the value kernels:
 * dense passes the DocSet as the value selection; optional compacts DocSet bits
 * through the presence bitmap (and spreads value matches back); multi maps
 * documents to their values and back in the matchAny kernel, through two bitsets
 * made from the offsets once (documentStarts).
 * Only the backend seam is called, so the same code serves every backend.
 */
import type { ColumnsBackend, SequenceView } from '../backend/backend.js'
import type { BitsetMemory } from '../backend/query-kernels.js'
import { orBits, popcount, selectionBits, wordsFor } from '../backend/bits.js'
import type { Column, DocumentStarts } from '../read/column.js'
import type { DocSet } from './doc-set.js'

/** Documents per offsets chunk. */
export const DOCUMENT_CHUNK = 4096
const offsetWords = new Int32Array(2 * (DOCUMENT_CHUNK + 1))
/** offsets[d - chunkStart] after loadOffsets: value runs of the chunk's documents (and the one after the last). */
export const chunkOffsets = new Uint32Array(DOCUMENT_CHUNK + 1)

/** Decodes offsets of documents [start, start + count] (count + 1 entries) into chunkOffsets. */
export function loadOffsets(backend: ColumnsBackend, offsets: SequenceView, start: number, count: number): void {
  backend.decodeRaw(offsets, start, count + 1, offsetWords, 0)
  for (let index = 0; index <= count; index++) chunkOffsets[index] = offsetWords[2 * index]
}

/** Compresses the bits of `bits` at the set positions of `mask` into the low bits (pext). */
export function compressBits(bits: number, mask: number): number {
  let result = 0, position = 0
  for (let rest = mask; rest !== 0; rest &= rest - 1, position++) if ((bits & rest & -rest) !== 0) result |= 1 << position
  return result
}

/** Deposits the low bits of `bits` at the set positions of `mask` (pdep). */
export function depositBits(bits: number, mask: number): number {
  let result = 0, from = 0
  for (let rest = mask; rest !== 0; rest &= rest - 1, from++) if (((bits >>> from) & 1) !== 0) result |= rest & -rest
  return result
}

/** Whether any bit in [start, end) is set. */
export function anyBitInRange(words: Int32Array, start: number, end: number): boolean {
  while (start < end) {
    const n = Math.min(32, end - start)
    if (selectionBits(words, start, n) !== 0) return true
    start += n
  }
  return false
}

/** A value selection for a query and whether the caller must release it. */
export interface ValueSelection {
  selection: BitsetMemory | null
  temporary: boolean
}

/**
 * The values of the selected documents as a selection over [0, valueCount):
 * null for all documents (every value), the DocSet itself for dense columns,
 * else a temporary bitset (release it with releaseSelection).
 */
export function selectValues(column: Column, backend: ColumnsBackend, docs: DocSet | null): ValueSelection {
  if (docs === null) return { selection: null, temporary: false }
  if (column.layout === 'dense') return { selection: docs.memory, temporary: false }
  const valueCount = column.totalValueCount
  const bitset = backend.query.allocateBitset(wordsFor(valueCount))
  const out = bitset.words
  const documents = docs.words
  if (column.layout === 'optional') {
    const presence = column.presence!.words
    let position = 0
    for (let word = 0; word < documents.length; word++) {
      const present = presence[word]
      if (present === 0) continue
      const chosen = documents[word] & present
      if (chosen !== 0) orBits(out, position, present === -1 ? chosen : compressBits(chosen, present))
      position += popcount(present)
    }
    return { selection: bitset, temporary: true }
  }
  // Multi: the kernel sets each selected document's values.
  try {
    const { starts, nonempty } = documentStarts(column, backend, 0, column.maxDoc, 0, valueCount)
    backend.query.matchAny(starts, nonempty, valueCount, column.maxDoc, docs.memory, null, bitset)
  } catch (error) {
    bitset.release()
    throw error
  }
  return { selection: bitset, temporary: true }
}

/** Gives back a temporary selection. */
export function releaseSelection(selected: ValueSelection): void {
  if (selected.temporary) selected.selection!.release()
}

/**
 * Sets in `out` (already cleared) every document with a matching value, from a
 * value bitset of an optional or multi column (multi: any matching value).
 */
export function valuesToDocuments(column: Column, backend: ColumnsBackend, matches: BitsetMemory, out: DocSet): void {
  if (column.layout === 'optional') {
    const presence = column.presence!.words, words = out.words, matched = matches.words
    let position = 0
    for (let word = 0; word < words.length; word++) {
      const present = presence[word]
      if (present === 0) continue
      const n = popcount(present)
      const bits = selectionBits(matched, position, n)
      if (bits !== 0) words[word] = present === -1 ? bits : depositBits(bits, present)
      position += n
    }
    return
  }
  // Multi: the kernel maps values to documents.
  const { starts, nonempty } = documentStarts(column, backend, 0, column.maxDoc, 0, column.totalValueCount)
  backend.query.matchAny(starts, nonempty, column.totalValueCount, column.maxDoc, null, matches, out.memory)
}

/**
 * A multi column's DocumentStarts of documents [from, to) (from a multiple of 32), whose values
 * are [first, end): made on first use (decoding the offsets once) and kept until close.
 */
export function documentStarts(column: Column, backend: ColumnsBackend, from: number, to: number, first: number, end: number): DocumentStarts {
  const key = `${from}:${to}`
  const kept = column.documentStarts.get(key)
  if (kept !== undefined) return kept
  const starts = backend.query.allocateBitset(wordsFor(end - first + 1))
  const nonempty = backend.query.allocateBitset(Math.max(1, wordsFor(to - from)))
  try {
    backend.query.markDocumentStarts(column.offsets!, column.values, from, to, starts, nonempty)
  } catch (error) {
    starts.release()
    nonempty.release()
    throw error
  }
  const made = { starts, nonempty }
  column.documentStarts.set(key, made)
  return made
}
