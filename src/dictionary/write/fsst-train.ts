/**
 * Trains an FSST symbol table on pieces of text (terms, or front coding's
 * suffixes), as a pure function of them: the sample is the pieces at fixed
 * positions, the rounds are fixed, ties are broken by the symbols' bytes. So a
 * flush, a merge and the full check derive the same table from the same terms.
 *
 * From the published algorithm's description: start from an empty table; each
 * round encodes the sample with the current table, counts every symbol used and
 * every pair of adjacent symbols (their concatenation, up to 8 bytes, is a
 * candidate), and keeps the 255 candidates that cover the most bytes. The table
 * that encodes the sample in the fewest bytes (its own bytes included) wins.
 */
import { FSST_MAX_SYMBOL_BYTES, FSST_MAX_SYMBOLS } from '../constants.js'
import { canonicalOrder, SymbolTable } from './fsst-table.js'

/** Pieces of text: piece i is bytes [starts[i], ends[i]). */
export interface Pieces {
  readonly bytes: Uint8Array
  readonly starts: Uint32Array
  readonly ends: Uint32Array
}

/**
 * Sample size: every piece when they hold at most this many bytes, else pieces at fixed positions
 * up to about this; a sampled piece counts its first SAMPLE_BYTES only (a term of megabytes was
 * all of a sample, parsed again in every round, at flush and at verify).
 */
export const SAMPLE_BYTES = 1 << 15
/** Training rounds (tables made); the empty table is also sized. */
export const ROUNDS = 8

/** The pieces to train on: all, or (more than SAMPLE_BYTES in all) k evenly spaced ones, piece floor(j n / k). */
export function samplePieces(pieces: Pieces): number[] {
  const count = pieces.starts.length
  let total = 0
  for (let index = 0; index < count; index++) total += pieces.ends[index] - pieces.starts[index]
  const all = Array.from({ length: count }, (_, index) => index)
  if (total <= SAMPLE_BYTES) return all
  // k pieces of average length hold about SAMPLE_BYTES: k = ceil(count × SAMPLE_BYTES / total) ≤ count.
  const k = Math.ceil((count * SAMPLE_BYTES) / total)
  // floor(j × count / k) stepped exactly in integers (j × count may pass 2^53).
  const step = Math.floor(count / k), extra = count % k
  const sample: number[] = []
  for (let j = 0, position = 0, remainder = 0; j < k; j++) {
    sample.push(position)
    position += step
    remainder += extra
    if (remainder >= k) { position++; remainder -= k }
  }
  return sample
}

/** A symbol's bytes as a string of char codes 0-255 (a map key ordered as the bytes are). */
function keyOf(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes)
}

function bytesOf(key: string): Uint8Array {
  const bytes = new Uint8Array(key.length)
  for (let index = 0; index < key.length; index++) bytes[index] = key.charCodeAt(index)
  return bytes
}

// Counts per round, by unit: a table code (0-254) or an escaped byte (256 + byte); pairs by unit × 512 + unit.
const singles = new Uint32Array(512)
const pairs = new Uint32Array(512 * 512)
// Per unit: its first byte's unit when it is a symbol of 2 or more bytes (-1 otherwise).
const firstUnits = new Int16Array(512)

/** The trained table (symbols in canonical code order). */
export function trainTable(pieces: Pieces): SymbolTable {
  const sample = samplePieces(pieces)
  const endOf = (piece: number) => Math.min(pieces.ends[piece], pieces.starts[piece] + SAMPLE_BYTES)
  let longest = 0
  for (const piece of sample) longest = Math.max(longest, endOf(piece) - pieces.starts[piece])
  const codes = new Int32Array(longest)
  let table = new SymbolTable([])
  let best = table, bestSize = Infinity
  const touched: number[] = []
  for (let round = 0; round <= ROUNDS; round++) {
    const symbols = table.symbols
    singles.fill(0)
    firstUnits.fill(-1)
    symbols.forEach((symbol, code) => {
      // A symbol's first byte stays a candidate, so single bytes can come back: as the table's symbol for it, or its escape.
      if (symbol.length > 1) firstUnits[code] = table.single[symbol[0]] >= 0 ? table.single[symbol[0]] : 256 + symbol[0]
    })
    let size = table.serialize().length
    for (const piece of sample) {
      const count = table.parse(pieces.bytes, pieces.starts[piece], endOf(piece), codes)
      let previous = -1
      for (let index = 0; index < count; index++) {
        const code = codes[index]
        const unit = code >= 0 ? code : 255 - code
        size += code >= 0 ? 1 : 2
        singles[unit]++
        if (firstUnits[unit] >= 0) singles[firstUnits[unit]]++
        if (previous >= 0) {
          const pair = previous * 512 + unit
          if (pairs[pair]++ === 0) touched.push(pair)
        }
        previous = unit
      }
    }
    if (size < bestSize) { best = table; bestSize = size }
    if (round === ROUNDS) break
    // Gain: bytes covered. Equal strings (a + bc, ab + c) add up.
    const gains = new Map<string, number>()
    const add = (key: string, count: number) => gains.set(key, (gains.get(key) ?? 0) + count * key.length)
    const keyOfUnit = (unit: number) => (unit < 256 ? keyOf(symbols[unit]) : String.fromCharCode(unit - 256))
    const keys = Array.from({ length: 512 }, (_, unit) => (unit < symbols.length || unit >= 256 ? keyOfUnit(unit) : ''))
    for (let unit = 0; unit < 512; unit++) if (singles[unit] > 0) add(keys[unit], singles[unit])
    for (const pair of touched) {
      const key = keys[Math.floor(pair / 512)] + keys[pair % 512]
      if (key.length <= FSST_MAX_SYMBOL_BYTES) add(key, pairs[pair])
      pairs[pair] = 0
    }
    touched.length = 0
    // Candidates that cover the most bytes; one that covers no more than twice its length (in the table) is dropped.
    const candidates = [...gains].filter(([key, gain]) => gain > 2 * key.length)
    candidates.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    const next = canonicalOrder(candidates.slice(0, FSST_MAX_SYMBOLS).map(([key]) => bytesOf(key)))
    // A round's table depends on the one before and the sample only: once it repeats, every later round
    // would make and size it again, so the result is the same stopped here (small dictionaries: most rounds).
    if (sameSymbols(next, symbols)) break
    table = new SymbolTable(next)
  }
  for (const pair of touched) pairs[pair] = 0
  return best
}

/** Whether two symbol lists (canonical order) are the same symbols. */
function sameSymbols(a: readonly Uint8Array[], b: readonly Uint8Array[]): boolean {
  if (a.length !== b.length) return false
  for (let index = 0; index < a.length; index++) {
    const x = a[index], y = b[index]
    if (x.length !== y.length) return false
    for (let at = 0; at < x.length; at++) if (x[at] !== y[at]) return false
  }
  return true
}
