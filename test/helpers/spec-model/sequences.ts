/**
 * v2 integer and double sequences, from docs/format-v2.md §2–§4 alone: the
 * seven block kinds, forms 0–3 and the canonical rule that picks among them.
 * Exact BigInt arithmetic throughout, so nothing depends on double rounding
 * except where the document asks for it (the decimal test of §4, in
 * ./decimals.ts).
 */
import { ByteWriter, bits, c8, floorDiv, gcd, pack } from './bytes.js'
import { note } from './choices.js'
import { chooseExponent, decimalInteger, sortableBits } from './decimals.js'

const BLOCK = 1024
const NARROW = 1n << 51n
const MASK64 = (1n << 64n) - 1n

/** One block as written: its 24-byte record fields and its data (docs/format-v2.md §2.1, §3). */
export interface Block {
  kind: number
  width: number
  param: number
  base: bigint
  aux: bigint
  data: number[]
  /** Tie-breaks this block's choice went through, for the coverage count. */
  ties: string[]
}

const compareBig = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0)

function minMax(v: readonly bigint[]): [bigint, bigint] {
  let lo = v[0]
  let hi = v[0]
  for (const x of v) {
    if (x < lo) lo = x
    if (x > hi) hi = x
  }
  return [lo, hi]
}

/** A position sub-stream (§3.5): a list of pw-bit positions when strictly smaller than the n-bit bitmap. */
function positions(n: number, pw: number, where: number[]): { list: number; bytes: number[] } {
  if (c8(where.length * pw) < c8(n)) return { list: 1, bytes: pack(where.map(BigInt), pw) }
  const bitmap = new Array<number>(c8(n)).fill(0)
  for (const j of where) bitmap[j >> 3] |= 1 << (j & 7)
  return { list: 0, bytes: bitmap }
}

/** Dictionary block (§3.3): sorted distinct offsets, then each value's index. */
function dictionaryBlock(v: bigint[], m: bigint, g: bigint, w: number): Block {
  const distinct = [...new Set(v)].sort(compareBig)
  const k = distinct.length
  const index = new Map(distinct.map((d, i) => [d, BigInt(i)]))
  const iw = bits(BigInt(k - 1))
  const data = [...pack(distinct.map((d) => (d - m) / g), w), ...pack(v.map((x) => index.get(x)!), iw)]
  return { kind: 3, width: iw, param: (k - 1) | ((w - 1) << 10), base: m, aux: g, data, ties: [] }
}

/** Runs of equal adjacent values: each run's value and first position (runs blocks §3.4, form 2 §2.3). */
function runsOf(v: readonly bigint[]): { values: bigint[]; starts: bigint[] } {
  const values: bigint[] = []
  const starts: bigint[] = []
  v.forEach((x, j) => {
    if (j === 0 || x !== v[j - 1]) {
      values.push(x)
      starts.push(BigInt(j))
    }
  })
  return { values, starts }
}

/** Runs block (§3.4), or null with a single run (r ≥ 2 is required). */
function runsBlock(v: bigint[], m: bigint, g: bigint, w: number, pw: number): Block | null {
  const { values, starts } = runsOf(v)
  if (values.length < 2) return null
  const data = [...pack(values.map((x) => (x - m) / g), w), ...pack(starts.slice(1), pw)]
  return { kind: 4, width: w, param: values.length - 1, base: m, aux: g, data, ties: [] }
}

/** Frequent block (§3.5): top value as base (ties: the smallest), exceptions with optional gcd. */
function frequentBlock(v: bigint[], distinct: bigint[], pw: number): Block {
  const n = v.length
  const counts = new Map<bigint, number>()
  for (const x of v) counts.set(x, (counts.get(x) ?? 0) + 1)
  let top = v[0]
  let topCount = -1
  for (const [x, c] of counts) if (c > topCount || (c === topCount && x < top)) [top, topCount] = [x, c]
  const ties = [...counts.values()].filter((c) => c === topCount).length > 1 ? ['tie frequent top value'] : []
  const where: number[] = []
  v.forEach((x, j) => {
    if (x !== top) where.push(j)
  })
  const e = where.length
  const others = distinct.filter((x) => x !== top)
  const x0 = others[0]
  const span = others[others.length - 1] - x0
  let gx = 0n
  for (const x of others) gx = gcd(gx, x - x0)
  // The gcd flag costs 8 bytes (the u64 gx), so it must pay for itself strictly.
  const withGcd = gx >= 2n && 8 + c8(e * bits(span / gx)) < c8(e * bits(span))
  const divisor = withGcd ? gx : 1n
  const xw = bits(span / divisor)
  const p = positions(n, pw, where)
  const out = new ByteWriter()
  if (withGcd) out.i64(gx)
  out.bytes(p.bytes)
  out.bytes(pack(where.map((j) => (v[j] - x0) / divisor), xw))
  const param = e | (p.list << 10) | ((withGcd ? 1 : 0) << 11)
  return { kind: 5, width: xw, param, base: top, aux: x0, data: out.out, ties }
}

/** Patched block (§3.6) at its best low width; ties go to the larger lw. */
function patchedBlock(q: bigint[], m: bigint, g: bigint, w: number, pw: number): Block {
  const n = q.length
  let best: Block | null = null
  let bestSize = Infinity
  for (let lw = 0; lw < w; lw++) {
    const limit = 1n << BigInt(lw)
    const where: number[] = []
    q.forEach((x, j) => {
      if (x >= limit) where.push(j)
    })
    const e = where.length
    const hw = w - lw
    const size = 1 + c8(n * lw) + Math.min(c8(e * pw), c8(n)) + c8(e * hw)
    if (size > bestSize) continue
    // An equal size falls through: the larger lw replaces the smaller (ties to the larger lw).
    const ties = size === bestSize ? ['tie patched lw'] : []
    const p = positions(n, pw, where)
    const data = [hw, ...pack(q.map((x) => x & (limit - 1n)), lw), ...p.bytes, ...pack(where.map((j) => q[j] >> BigInt(lw)), hw)]
    best = { kind: 6, width: lw, param: e | (p.list << 10), base: m, aux: g, data, ties }
    bestSize = size
  }
  return best!
}

/** Linear block (§3.7): residuals from the floor line through the first and last values. */
function linearBlock(v: bigint[]): Block {
  const n = v.length
  const s = floorDiv(1024n * (v[n - 1] - v[0]), BigInt(n - 1))
  const rho = v.map((x, j) => x - v[0] - floorDiv(BigInt(j) * s, 1024n))
  const [lo, hi] = minMax(rho)
  const rw = bits(hi - lo)
  // base may fall outside i64; ByteWriter.i64 stores its low 64 bits, as §3.7 says.
  return { kind: 7, width: rw, param: 0, base: v[0] + lo, aux: s, data: pack(rho.map((r) => r - lo), rw), ties: [] }
}

/** Every candidate block for one block of values, in kind order (docs/format-v2.md §3, §4 "Blocks"). */
export function blockCandidates(v: bigint[]): Block[] {
  const n = v.length
  const [m, M] = minMax(v)
  if (m === M) return [{ kind: 0, width: 0, param: 0, base: m, aux: 0n, data: [], ties: [] }]
  const R = (M - m) & MASK64
  const u = v.map((x) => (x - m) & MASK64)
  let g = 0n
  for (const x of u) g = gcd(g, x)
  const w = bits(R / g)
  const q = u.map((x) => x / g)
  const frame: Block = { kind: 1, width: w, param: 0, base: m, aux: g, data: pack(q, w), ties: [] }
  if (R >= NARROW) return [{ ...frame, ties: ['frame (not narrow)'] }]
  const pw = bits(BigInt(n - 1))
  const distinct = [...new Set(v)].sort(compareBig)
  const out = [frame, dictionaryBlock(v, m, g, w)]
  const runs = runsBlock(v, m, g, w, pw)
  if (runs) out.push(runs)
  out.push(frequentBlock(v, distinct, pw), patchedBlock(q, m, g, w, pw), linearBlock(v))
  return out
}

/** The block rule (§4): smallest data wins, ties to the lower kind number. */
export function chooseBlock(v: bigint[]): Block {
  const candidates = blockCandidates(v)
  let best = candidates[0]
  for (const b of candidates) if (b.data.length < best.data.length) best = b
  const ties = [...best.ties]
  for (const b of candidates) if (b !== best && b.data.length === best.data.length) ties.push(`tie block kind ${best.kind}<${b.kind}`)
  return { ...best, ties }
}

/** Writes a form-0 sequence (§2.1): header, 24-byte records, data, 8 zero bytes. */
export function writeBlocks(values: bigint[]): number[] {
  const blocks: Block[] = []
  for (let start = 0; start < values.length; start += BLOCK) blocks.push(chooseBlock(values.slice(start, start + BLOCK)))
  const w = new ByteWriter()
  w.u8(0)
  w.u32(values.length)
  w.u32(blocks.length)
  w.u32(blocks.reduce((sum, b) => sum + b.data.length, 0) + 8)
  let offset = 0
  for (const b of blocks) {
    w.u8(b.kind)
    w.u8(b.width)
    w.u16(b.param)
    w.u32(offset)
    w.i64(b.base)
    w.i64(b.aux)
    offset += b.data.length
    note(`kind ${b.kind}`)
    if (b.kind === 5 || b.kind === 6) note(`kind ${b.kind} ${b.param & 1024 ? 'list' : 'bitmap'}`)
    if (b.kind === 5 && b.param & 2048) note('kind 5 gcd')
    for (const t of b.ties) note(t)
  }
  for (const b of blocks) w.bytes(b.data)
  w.bytes([0, 0, 0, 0, 0, 0, 0, 0])
  return w.out
}

/** An exact non-negative rational, compared by cross-multiplication (§4 "Estimates"). */
export type Fraction = readonly [numerator: bigint, denominator: bigint]
const add = (a: Fraction, b: Fraction): Fraction => [a[0] * b[1] + b[0] * a[1], a[1] * b[1]]
const less = (a: Fraction, b: Fraction): boolean => a[0] * b[1] < b[0] * a[1]
const whole = (x: number): Fraction => [BigInt(x), 1n]

/** Estimated size of a form-0 sequence (§4): exact up to 64 blocks, sampled every s-th block beyond. */
export function estimateBlocks(values: bigint[]): Fraction {
  const B = Math.ceil(values.length / BLOCK)
  if (B === 0) return whole(21)
  const step = Math.max(1, Math.floor(B / 64))
  let sum = 0
  let sampled = 0
  for (let b = 0; b < B; b += step, sampled++) sum += chooseBlock(values.slice(b * BLOCK, (b + 1) * BLOCK)).data.length
  return add(whole(21 + 24 * B), [BigInt(B) * BigInt(sum), BigInt(sampled)])
}

/** A candidate form: its estimate and how to write it (writing notes the choices it makes). */
interface Candidate {
  name: string
  estimate: Fraction
  write: () => number[]
}

/** Candidates 1–4 of the integer rule (§4 "Sequences of integers"), in order. */
function integerCandidates(values: bigint[]): Candidate[] {
  const count = values.length
  const out: Candidate[] = [{ name: 'form 0', estimate: estimateBlocks(values), write: () => writeBlocks(values) }]
  const counts = new Map<bigint, number>()
  for (const x of values) counts.set(x, (counts.get(x) ?? 0) + 1)
  const k = counts.size
  if (2 * k <= count) {
    const ascending = [...counts.keys()].sort(compareBig)
    const byCount = [...ascending].sort((a, b) => counts.get(b)! - counts.get(a)! || compareBig(a, b))
    const identity = ascending.every((x, i) => x === BigInt(i))
    for (const order of [0, 1]) {
      if (order === 0 && identity) continue
      const entries = order === 0 ? ascending : byCount
      const code = new Map(entries.map((x, i) => [x, BigInt(i)]))
      const codes = values.map((x) => code.get(x)!)
      out.push({
        name: `form 1/${order}`,
        estimate: add(whole(6), add(estimateBlocks(entries), estimateBlocks(codes))),
        write: () => {
          const w = new ByteWriter()
          w.u8(1)
          w.u8(order)
          w.u32(count)
          w.bytes(writeBlocks(entries))
          w.bytes(writeBlocks(codes))
          return w.out
        },
      })
    }
  }
  const { values: runValues, starts: runStarts } = runsOf(values)
  const r = runValues.length
  if (2 * r <= count) {
    const B = Math.ceil(count / BLOCK)
    out.push({
      name: 'form 2',
      estimate: add(whole(9 + 4 * B), add(estimateBlocks(runValues), estimateBlocks(runStarts))),
      write: () => {
        const w = new ByteWriter()
        w.u8(2)
        w.u32(count)
        w.u32(r)
        // checkpoint[b]: the last run starting at or before value 1024 b.
        let run = 0
        for (let b = 0; b < B; b++) {
          while (run + 1 < r && Number(runStarts[run + 1]) <= BLOCK * b) run++
          w.u32(run)
        }
        w.bytes(writeBlocks(runValues))
        w.bytes(writeBlocks(runStarts))
        return w.out
      },
    })
  }
  return out
}

/** Smallest estimate wins, ties to the earlier candidate (§4). */
function pick(candidates: Candidate[]): Candidate {
  let best = candidates[0]
  for (const c of candidates) if (less(c.estimate, best.estimate)) best = c
  return best
}

/** Writes the chosen candidate, noting its form and any estimate tie it won. */
function writeChosen(candidates: Candidate[]): number[] {
  const best = pick(candidates)
  note(best.name)
  for (const c of candidates) if (c !== best && !less(best.estimate, c.estimate)) note(`tie ${best.name}<${c.name}`)
  return best.write()
}

/** Encodes a sequence of integers (integral, date, bool, ordinals, offsets) by the integer rule of §4. */
export function encodeIntegers(values: readonly (bigint | number)[]): number[] {
  return writeChosen(integerCandidates(values.map((x) => BigInt(x))))
}

// ---- doubles (§2.4, §4 "Sequences of doubles")

/**
 * Encodes a sequence of doubles (fractional values, latitudes, longitudes) by §4:
 * the four integer candidates over the raw SortableBits, then form 3 (§2.4).
 */
export function encodeDoubles(xs: readonly number[]): number[] {
  const raw = xs.map(sortableBits)
  const candidates = integerCandidates(raw)
  const count = xs.length
  const exponent = chooseExponent(xs)
  if (exponent !== null) {
    const { e } = exponent
    const ns = xs.map((x) => decimalInteger(x, e))
    const exceptions: number[] = []
    ns.forEach((n, i) => {
      if (n === null) exceptions.push(i)
    })
    const E = exceptions.length
    if (2 * E <= count) {
      // An exception's slot repeats the previous integer (or the first one, when none precedes it).
      const first = ns.find((n) => n !== null) ?? 0
      let previous: number | null = null
      const integers = ns.map((n) => {
        if (n !== null) previous = n
        return BigInt(previous ?? first)
      })
      const inner = integerCandidates(integers)
      const innerEstimate = pick(inner).estimate
      candidates.push({
        name: 'form 3',
        estimate: add(whole(10 + 12 * E), innerEstimate),
        write: () => {
          if (exponent.tied) note('tie e* smaller')
          if (E > 0) note('form 3 exceptions')
          const w = new ByteWriter()
          w.u8(3)
          w.u8(e)
          w.u32(count)
          w.u32(E)
          for (const p of exceptions) w.u32(p)
          for (const p of exceptions) w.i64(raw[p])
          w.bytes(writeChosen(inner))
          return w.out
        },
      })
    }
  }
  return writeChosen(candidates)
}
