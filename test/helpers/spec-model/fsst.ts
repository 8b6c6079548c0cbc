/**
 * FSST symbol tables for v2 keyword dictionaries, from docs/format-v2.md
 * §10.2 (table bytes, canonical order, the optimal parse with its tie-break)
 * and §10.5 (training: sample, nine rounds of gains, the best round).
 */
import { note } from './choices.js'

/** A symbol table in canonical order: code c is symbol c. */
export type SymbolTable = Uint8Array[]

/** One code of a parse: a symbol (its code) or an escaped byte (code −1). */
interface Code {
  code: number
  bytes: Uint8Array
}

const ESCAPE = 255
const SAMPLE_BYTES = 32768
const ROUNDS = 9

/** Unsigned lexicographic byte order, a prefix first. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return a.length - b.length
}

/** Canonical order (§10.2): by length, then by bytes. */
function canonical(symbols: Uint8Array[]): SymbolTable {
  return [...symbols].sort((a, b) => a.length - b.length || compareBytes(a, b))
}

/** A table's bytes (§10.2): the eight per-length counts, then the symbols. */
export function tableBytes(table: SymbolTable): number[] {
  const out = new Array<number>(8).fill(0)
  for (const s of table) out[s.length - 1]++
  for (const s of table) out.push(...s)
  return out
}

/** Symbols by first byte, to find the matches at a position quickly. */
const firstByteIndex = new WeakMap<SymbolTable, number[][]>()

function byFirstByte(table: SymbolTable): number[][] {
  let index = firstByteIndex.get(table)
  if (!index) {
    index = Array.from({ length: 256 }, () => [])
    table.forEach((s, c) => index![s[0]].push(c))
    firstByteIndex.set(table, index)
  }
  return index
}

/**
 * The parse of §10.2: fewest code bytes; among equal parses the longer symbol
 * at the first position where they differ. Costs are computed from the end,
 * then the parse walks forward taking the longest symbol that keeps the optimum.
 */
function parse(table: SymbolTable, piece: Uint8Array): Code[] {
  const n = piece.length
  const index = byFirstByte(table)
  const cost = new Array<number>(n + 1).fill(0)
  const matches: number[][] = []
  for (let i = n - 1; i >= 0; i--) {
    matches[i] = index[piece[i]].filter((c) => {
      const s = table[c]
      if (i + s.length > n) return false
      for (let j = 1; j < s.length; j++) if (piece[i + j] !== s[j]) return false
      return true
    })
    let best = 2 + cost[i + 1] // an escape
    for (const c of matches[i]) best = Math.min(best, 1 + cost[i + table[c].length])
    cost[i] = best
  }
  const out: Code[] = []
  for (let i = 0; i < n; ) {
    const optimal = matches[i].filter((c) => 1 + cost[i + table[c].length] === cost[i])
    if (optimal.length > 1) note('tie fsst parse longer symbol')
    let pick = -1
    for (const c of optimal) if (pick < 0 || table[c].length > table[pick].length) pick = c
    if (pick >= 0) {
      out.push({ code: pick, bytes: table[pick] })
      i += table[pick].length
    } else {
      out.push({ code: -1, bytes: piece.subarray(i, i + 1) })
      i++
    }
  }
  return out
}

const codeByteCount = (codes: Code[]): number => codes.reduce((sum, c) => sum + (c.code < 0 ? 2 : 1), 0)

/** A piece's code bytes (§10.2): symbol codes, escapes as 255 then the byte. */
export function encodePiece(table: SymbolTable, piece: Uint8Array): number[] {
  const out: number[] = []
  for (const c of parse(table, piece)) {
    if (c.code < 0) out.push(ESCAPE, c.bytes[0])
    else out.push(c.code)
  }
  return out
}

/** The training sample (§10.5 step 1): every piece up to 32,768 bytes, else k evenly spaced pieces; each its first 32,768 bytes. */
function sample(pieces: Uint8Array[]): Uint8Array[] {
  const m = pieces.length
  const T = pieces.reduce((sum, p) => sum + p.length, 0)
  if (T <= SAMPLE_BYTES) return pieces
  note('fsst sampled training')
  const k = Math.ceil((m * SAMPLE_BYTES) / T)
  return Array.from({ length: k }, (_, j) => pieces[Math.floor((j * m) / k)].subarray(0, SAMPLE_BYTES))
}

/** The next round's table from one round's parse (§10.5 step 2). */
function nextTable(parses: Code[][]): SymbolTable {
  const gains = new Map<string, { bytes: Uint8Array; gain: number }>()
  const addGain = (bytes: Uint8Array, gain: number): void => {
    const key = bytes.join(',')
    const entry = gains.get(key)
    if (entry) entry.gain += gain
    else gains.set(key, { bytes, gain })
  }
  for (const codes of parses) {
    codes.forEach((c, i) => {
      addGain(c.bytes, c.bytes.length) // escapes gain too
      if (c.bytes.length >= 2) addGain(c.bytes.subarray(0, 1), 1)
      const next = codes[i + 1]
      if (next && c.bytes.length + next.bytes.length <= 8) {
        const pair = new Uint8Array(c.bytes.length + next.bytes.length)
        pair.set(c.bytes)
        pair.set(next.bytes, c.bytes.length)
        addGain(pair, pair.length)
      }
    })
  }
  const candidates = [...gains.values()].filter((e) => e.gain > 2 * e.bytes.length)
  candidates.sort((a, b) => b.gain - a.gain || compareBytes(a.bytes, b.bytes))
  if (candidates.length > 255 && candidates[254].gain === candidates[255].gain) note('tie fsst cut among equal gains')
  return canonical(candidates.slice(0, 255).map((e) => Uint8Array.from(e.bytes)))
}

/** Trains a table on the pieces (§10.5): nine sized rounds, the smallest wins, ties to the earliest. */
export function trainTable(pieces: Uint8Array[]): SymbolTable {
  const pieceSample = sample(pieces)
  let table: SymbolTable = []
  let best: SymbolTable = []
  let bestSize = Infinity
  for (let round = 0; round < ROUNDS; round++) {
    const parses = pieceSample.map((p) => parse(table, p))
    const size = tableBytes(table).length + parses.reduce((sum, codes) => sum + codeByteCount(codes), 0)
    if (size === bestSize) note('tie fsst earliest round')
    if (size < bestSize) {
      bestSize = size
      best = table
    }
    if (round + 1 < ROUNDS) table = nextTable(parses)
  }
  return best
}
