/**
 * An FSST symbol table as the writer uses it: up to 255 symbols of 1 to 8 bytes,
 * looked up by their first two bytes, and the shortest code string of a piece
 * of text under it (code 255 escapes one literal byte). Written from the
 * published description of FSST (Boncz, Neumann, Leis, VLDB 2020): a static
 * table of short symbols, one byte per code. The parse here is optimal (fewest
 * codes, by dynamic programming; ties to the longer symbol) rather than greedy:
 * it is the writer's choice only, and the decoder is the same.
 */
import { FSST_ESCAPE, FSST_MAX_SYMBOL_BYTES } from '../constants.js'
import type { ByteSink } from '../../write/byte-sink.js'

/** The lookups of a table without symbols of two bytes or more: never written. */
const NO_FIRST = new Int32Array(65536)
const NO_COUNTS = new Uint8Array(65536)

/** A table: symbols[code], plus lookups by first byte and first two bytes. */
export class SymbolTable {
  /** Code of the one-byte symbol per byte value, or -1. */
  readonly single = new Int16Array(256).fill(-1)
  /** Codes of symbols of 2 or more bytes, grouped by their first two bytes b0 b1 (longest first): multi[first[k] .. first[k] + counts[k]) for k = b0 << 8 | b1. */
  private readonly first: Int32Array
  private readonly counts: Uint8Array
  private readonly multi: Int32Array

  /** symbols must be distinct, 1 to 8 bytes each, at most 255. */
  constructor(readonly symbols: readonly Uint8Array[]) {
    const long: number[] = []
    symbols.forEach((symbol, code) => {
      if (symbol.length === 1) this.single[symbol[0]] = code
      else long.push(code)
    })
    const key = (code: number) => (symbols[code][0] << 8) | symbols[code][1]
    long.sort((a, b) => key(a) - key(b) || symbols[b].length - symbols[a].length || a - b)
    this.multi = Int32Array.from(long)
    // Without symbols of two bytes or more the lookups stay empty: shared, not 320 KB per table (training makes many).
    this.first = long.length === 0 ? NO_FIRST : new Int32Array(65536)
    this.counts = long.length === 0 ? NO_COUNTS : new Uint8Array(65536)
    long.forEach((code, slot) => {
      if (this.counts[key(code)]++ === 0) this.first[key(code)] = slot
    })
  }

  /**
   * The codes of bytes [start, end) with the fewest code bytes (an escape costs two), into
   * `codes` (symbol codes, or -1 - byte for an escaped byte); returns how many. Ties go to the
   * longer symbol at the earliest position, so the parse is a pure function of the table.
   */
  parse(bytes: Uint8Array, start: number, end: number, codes: Int32Array): number {
    const length = end - start
    const cost = scratchCost(length + 1)
    const choice = scratchChoice(length)
    cost[length] = 0
    for (let at = length - 1; at >= 0; at--) {
      const first = bytes[start + at]
      let best = 0x7fffffff, chosen = 0
      if (at + 1 < length) {
        const key = (first << 8) | bytes[start + at + 1]
        for (let slot = this.first[key], end = slot + this.counts[key]; slot < end; slot++) {
          const code = this.multi[slot], symbol = this.symbols[code]
          if (at + symbol.length > length) continue
          let matches = true
          for (let index = 2; index < symbol.length; index++) {
            if (bytes[start + at + index] !== symbol[index]) { matches = false; break }
          }
          if (matches && 1 + cost[at + symbol.length] < best) { best = 1 + cost[at + symbol.length]; chosen = code }
        }
      }
      const single = this.single[first]
      const byteCost = (single >= 0 ? 1 : 2) + cost[at + 1]
      if (byteCost < best) { best = byteCost; chosen = single >= 0 ? single : -1 - first }
      cost[at] = best
      choice[at] = chosen
    }
    let count = 0
    for (let at = 0; at < length;) {
      const code = choice[at]
      codes[count++] = code
      at += code >= 0 ? this.symbols[code].length : 1
    }
    return count
  }

  /** The table's bytes in the file: u8 count per length 1..8, then the symbols in code order. */
  serialize(): Uint8Array {
    let size = 8
    for (const symbol of this.symbols) size += symbol.length
    const out = new Uint8Array(size)
    let at = 8
    for (const symbol of this.symbols) {
      out[symbol.length - 1]++
      out.set(symbol, at)
      at += symbol.length
    }
    return out
  }

  /** Appends the code bytes of the parsed codes (escapes as 255 then the byte); bytes, not a number[] of 8 bytes a code. */
  static emit(codes: Int32Array, count: number, out: ByteSink): void {
    out.reserve(2 * count)
    const bytes = out.bytes
    let at = out.length
    for (let index = 0; index < count; index++) {
      const code = codes[index]
      if (code >= 0) bytes[at++] = code
      else {
        bytes[at++] = FSST_ESCAPE
        bytes[at++] = -1 - code
      }
    }
    out.length = at
  }
}

/** Symbols in the table's canonical code order: by length, then by their bytes. */
export function canonicalOrder(symbols: Uint8Array[]): Uint8Array[] {
  return symbols.slice().sort((a, b) => a.length - b.length || compareBytes(a, b))
}

/** Unsigned lexicographic order of two byte strings. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length)
  for (let index = 0; index < length; index++) if (a[index] !== b[index]) return a[index] - b[index]
  return a.length - b.length
}

/** The longest symbol a table may hold. */
export const MAX_SYMBOL = FSST_MAX_SYMBOL_BYTES

/**
 * Scratch kept between parses, up to pieces of this many bytes; a longer piece gets arrays of its
 * own, dropped after it (kept, a huge term's scratch held memory for the rest of the process).
 */
const KEPT_SCRATCH = 1 << 16
let costs = new Int32Array(256)
let choices = new Int32Array(256)
function scratchCost(length: number): Int32Array {
  if (length > KEPT_SCRATCH) return new Int32Array(length)
  if (costs.length < length) costs = new Int32Array(2 * length)
  return costs
}
function scratchChoice(length: number): Int32Array {
  if (length > KEPT_SCRATCH) return new Int32Array(length)
  if (choices.length < length) choices = new Int32Array(2 * length)
  return choices
}
