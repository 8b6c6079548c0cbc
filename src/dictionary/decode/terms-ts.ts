/**
 * The TypeScript backend's keyword term decoder, byte for byte and status for
 * status what assembly/strings/terms.ts does: each term is the first shared[t]
 * bytes of the term before it (front coding), then its piece (raw bytes, or
 * FSST codes: fsstCodesTs), checked to be above the term before it.
 *
 * Symbols and shared prefixes go 8 bytes at a time through DataViews, as the
 * kernel's word stores do, into 8 bytes of slack after the terms: a loop over
 * each symbol's 1 to 8 bytes mispredicts its end at nearly every code.
 */
import type { DecodedTerms, TermsJob } from '../../backend/backend.js'
import { FSST_ESCAPE, FSST_LENGTHS_AT } from '../constants.js'
import { BAD_CODE, NOT_INCREASING, OPEN_ESCAPE, SHARED_TOO_LONG, TOO_LONG } from './status.js'

/** Bytes written past the terms' last: one symbol's or one step's 8 at most. */
const SLACK = 8

/**
 * Decodes codes [start, end) of `term` to out[at ..] (`view` over it: at ≤ limit, and 8 bytes of
 * slack after limit); returns the new `at`, or -status (details in `detail`).
 */
function fsstCodesTs(
  table: Uint8Array, symbols: DataView, codes: Uint8Array, start: number, end: number, out: Uint8Array, view: DataView, at: number, limit: number,
  term: number, detail: Int32Array,
): number {
  for (let position = start; position < end;) {
    const code = codes[position++]
    if (code === FSST_ESCAPE) {
      if (position === end) {
        detail[0] = term
        return -OPEN_ESCAPE
      }
      out[at] = codes[position]
      position++
      at++
    } else {
      const length = table[FSST_LENGTHS_AT + code]
      if (length === 0) {
        detail[0] = term; detail[1] = position - 1 - start; detail[2] = code
        return -BAD_CODE
      }
      view.setUint32(at, symbols.getUint32(8 * code, true), true)
      view.setUint32(at + 4, symbols.getUint32(8 * code + 4, true), true)
      at += length
    }
    if (at > limit) {
      detail[0] = term
      return -TOO_LONG
    }
  }
  return at
}

/** The TypeScript backend's decodeTerms: the terms, or a status (details in `detail`). */
export function decodeTermsTs(job: TermsJob, detail: Int32Array): DecodedTerms | number {
  const { termCount, totalBytes: limit, table, shared, pieceLengths } = job
  const source = job.file.bytes
  const out = new Uint8Array(limit + SLACK)
  const view = new DataView(out.buffer)
  const symbols = table === null ? null : new DataView(table.buffer, table.byteOffset, table.byteLength)
  const offsets = new Uint32Array(termCount + 1)
  let at = 0, previous = 0, previousLength = 0, position = job.piecesStart
  for (let term = 0; term < termCount; term++) {
    const start = at
    const common = shared === null ? 0 : shared[term]
    if (common > previousLength) {
      detail[0] = term; detail[1] = common; detail[2] = previousLength
      return SHARED_TOO_LONG
    }
    if (at + common > limit) {
      detail[0] = term
      return TOO_LONG
    }
    // The bytes a step needs lie in the term before, which ends where this one starts: no write
    // here changes them. Bytes read and written past `common` are written over next.
    for (let index = 0; index < common; index += 8) {
      const low = view.getUint32(previous + index, true), high = view.getUint32(previous + index + 4, true)
      view.setUint32(at + index, low, true)
      view.setUint32(at + index + 4, high, true)
    }
    at += common
    const end = position + pieceLengths[term]
    if (table !== null) {
      at = fsstCodesTs(table, symbols!, source, position, end, out, view, at, limit, term, detail)
      if (at < 0) return -at
    } else {
      if (at + end - position > limit) {
        detail[0] = term
        return TOO_LONG
      }
      if (end - position < 32) for (let index = position; index < end; index++) out[at++] = source[index]
      else {
        out.set(source.subarray(position, end), at)
        at += end - position
      }
    }
    position = end
    if (term > 0) {
      const length = at - start, both = Math.min(length, previousLength)
      let index = common
      while (index < both && out[start + index] === out[previous + index]) index++
      if (index < both ? out[start + index] < out[previous + index] : length <= previousLength) {
        detail[0] = term
        return NOT_INCREASING
      }
    }
    previous = start
    previousLength = at - start
    offsets[term + 1] = at
  }
  return { bytes: out.subarray(0, at), offsets }
}
