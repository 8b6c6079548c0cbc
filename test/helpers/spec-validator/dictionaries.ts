/**
 * Keyword dictionaries of format v2 (format-v2.md §10) with the open-time
 * rules of §10.6: header bounds checked before anything is allocated, then the
 * terms decoded once, in order, failing on the first status 7–12.
 */
import { type Cursor, c8, cmpBytes, fail, fieldN } from './bytes.js'
import { sequence } from './sequences.js'

/** §10.1 integer list of `tc` values, each ≤ `bound`: tag 0 packed (width ≤ 31), tag 1 a sequence. */
function list(c: Cursor, what: string, tc: number, bound: number): number[] {
  const tag = c.u8(`${what}.tag`)
  const out: number[] = []
  if (tag === 0) {
    const W = c.u8(`${what}.width`)
    if (W > 31) fail(`${what}: list width > 31`)
    const len = c8(tc * W)
    c.need(len, what)
    // Unused high bits of the last byte are left to the full check (§10.6); recorded for tests only.
    if ((tc * W) % 8) c.sites?.tails.push({ off: c.pos + len - 1, size: 1, label: `${what} list` })
    for (let j = 0; j < tc; j++) out.push(fieldN(c.b, c.pos, j, W))
    c.pos += len
  } else if (tag === 1) {
    const s = sequence(c, `${what}.seq`, tc, false, 'top')
    for (let j = 0; j < tc; j++) {
      const v = s.get(j)
      if (v < 0n || v > BigInt(bound)) fail(`${what}: list value above bound`)
      out.push(Number(v))
    }
  } else fail(`${what}: list tag ${tag}`)
  for (const v of out) if (v > bound) fail(`${what}: list value above bound`)
  return out
}

/** §10.2 FSST table: counts n1..n8 summing to at most 255, then the symbols. */
function table(c: Cursor, what: string): Uint8Array[] {
  const counts: number[] = []
  for (let L = 1; L <= 8; L++) counts.push(c.u8(`${what}.n${L}`))
  if (counts.reduce((a, x) => a + x, 0) > 255) fail(`${what}: more than 255 symbols`)
  const symbols: Uint8Array[] = []
  for (let L = 1; L <= 8; L++) {
    c.need(L * counts[L - 1], `${what} symbols`)
    for (let q = 0; q < counts[L - 1]; q++, c.pos += L) symbols.push(c.b.slice(c.pos, c.pos + L))
  }
  return symbols
}

/** §10.6 form 0: v1's dictionary (format.md §5.3, §8.1) — offsets from 0, ascending, ending at totalBytes, terms strictly increasing. */
function v1Form(c: Cursor, what: string): number {
  const tc = c.u32(`${what}.termCount`)
  const tb = c.u32(`${what}.totalBytes`)
  if (tc < 1) fail(`${what}: termCount 0`)
  if (tb > 2 ** 30) fail(`${what}: totalBytes > 2^30`)
  c.need(4 * (tc + 1), `${what} offsets`)
  const offs: number[] = []
  for (let i = 0; i <= tc; i++) offs.push(c.u32(`${what}.offset${i}`))
  if (offs[0] !== 0) fail(`${what}: offsets[0] ≠ 0`)
  for (let i = 1; i <= tc; i++) if (offs[i] < offs[i - 1]) fail(`${what}: offsets decrease`)
  if (offs[tc] !== tb) fail(`${what}: last offset ≠ totalBytes`)
  c.need(tb, `${what} term bytes`)
  const term = (i: number) => c.b.subarray(c.pos + offs[i], c.pos + offs[i + 1])
  for (let i = 1; i < tc; i++) if (cmpBytes(term(i - 1), term(i)) >= 0) fail(`${what}: terms not strictly increasing`)
  c.pos += tb
  return tc
}

/** §10.4 form 5 (digits): termCount × d = totalBytes, at most 10^d terms, integers increasing in 0..10^d − 1. */
function digitsForm(c: Cursor, what: string, tc: number, tb: number): number {
  const d = c.u8(`${what}.d`)
  if (d < 1 || d > 15) fail(`${what}: digits d outside 1..15`)
  if (tc * d !== tb) fail(`${what}: termCount × d ≠ totalBytes`)
  if (tc > 10 ** d) fail(`${what}: termCount > 10^d`)
  const s = sequence(c, `${what}.integers`, tc, false, 'top')
  let prev = -1n
  for (let t = 0; t < tc; t++) {
    const v = s.get(t)
    if (v < 0n || v >= 10n ** BigInt(d)) fail(`${what}: status 12 too many digits`)
    if (v <= prev) fail(`${what}: status 11 not increasing`)
    prev = v
  }
  return tc
}

/**
 * §10.6 forms 1–4: lists, table and pieces bounded against totalBytes before
 * decoding (P rules), then the terms decoded with statuses 7–11, and finally
 * a decoded size below totalBytes rejected.
 */
function piecesForm(c: Cursor, what: string, form: number, tc: number, tb: number): number {
  const shared = form === 3 || form === 4 ? list(c, `${what}.shared`, tc, tb) : null
  const symbols = form === 2 || form === 4 ? table(c, `${what}.table`) : null
  const lengths =
    form === 1 ? list(c, `${what}.termLengths`, tc, tb)
    : form === 3 ? list(c, `${what}.suffixLengths`, tc, tb)
    : list(c, `${what}.codeLengths`, tc, Math.min(2 * tb, 2 ** 31 - 1))
  const P = lengths.reduce((a, x) => a + x, 0)
  if (form === 1 && P !== tb) fail(`${what}: plain P ≠ totalBytes`)
  if (shared) for (let t = 0; t < tc; t += 64) if (shared[t] !== 0) fail(`${what}: restart with shared ≠ 0`)
  // A code yields ≤ 8 bytes, a front-coded term ≤ the pieces since its restart: the decoded size is bounded by P.
  const factor = form === 1 ? 1 : form === 2 ? 8 : form === 3 ? 64 : 512
  if (tb > factor * P) fail(`${what}: totalBytes > ${factor} P`)
  c.need(P, `${what} pieces`)
  // Terms are decoded back to back into totalBytes bytes; the previous term is out[prevStart, start).
  const out = new Uint8Array(tb)
  let total = 0
  let prevStart = -1
  const put = (x: number) => {
    if (total >= tb) fail(`${what}: status 9 too long`)
    out[total++] = x
  }
  for (let t = 0; t < tc; t++) {
    const raw = c.b.subarray(c.pos, c.pos + lengths[t])
    c.pos += lengths[t]
    const start = total
    if (shared && prevStart >= 0) {
      if (shared[t] > start - prevStart) fail(`${what}: status 10 shared too long`)
      for (let q = 0; q < shared[t]; q++) put(out[prevStart + q])
    }
    if (!symbols) for (const x of raw) put(x)
    else {
      for (let q = 0; q < raw.length; q++) {
        if (raw[q] === 255) {
          if (q + 1 >= raw.length) fail(`${what}: status 8 open escape`)
          put(raw[++q])
        } else if (raw[q] < symbols.length) for (const x of symbols[raw[q]]) put(x)
        else fail(`${what}: status 7 bad code`)
      }
    }
    if (prevStart >= 0 && cmpBytes(out.subarray(prevStart, start), out.subarray(start, total)) >= 0) fail(`${what}: status 11 not increasing`)
    prevStart = start
  }
  if (total < tb) fail(`${what}: terms decode to fewer bytes than totalBytes`)
  return tc
}

/** §10 and §10.6: a keyword dictionary of any form; returns termCount. */
export function dictionary(c: Cursor, what: string): number {
  const form = c.u8(`${what}.form`)
  if (form > 5) fail(`${what}: dictionary form ${form} > 5`)
  if (form === 0) return v1Form(c, what)
  const tc = c.u32(`${what}.termCount`)
  const tb = c.u32(`${what}.totalBytes`)
  if (tc === 0) fail(`${what}: termCount 0`)
  if (tb > 2 ** 30) fail(`${what}: totalBytes > 2^30`)
  // Terms are distinct, so at most one is empty.
  if (tc > tb + 1) fail(`${what}: termCount > totalBytes + 1`)
  // Every term after the first has a piece of ≥ 1 byte; checked before any list is allocated.
  if (form <= 4 && tc - 1 > c.end - c.pos) fail(`${what}: termCount − 1 above bytes left`)
  return form === 5 ? digitsForm(c, what, tc, tb) : piecesForm(c, what, form, tc, tb)
}
