/**
 * Integer and double sequences of format v2 (format-v2.md §2) with the
 * sequence rules of §3.8. A sequence is checked where it stands and returns
 * a lazy reader, because some open-time rules (run starts, checkpoints, keyword
 * ordinal entries, multi offsets) depend on decoded values.
 */
import { type Cursor, fail } from './bytes.js'
import { type Block, blockLayout, blockValue } from './blocks.js'

/** A checked sequence: its count and value i (decoding may still fail a read-time range check). */
export interface Seq {
  count: number
  get(i: number): bigint
  /** Form 1 only: the dictionary entries (keyword ordinal entries are range-checked at open). */
  entries?: Seq
}

/** Where a sequence stands: §2 forbids forms 1–3 inside forms 1 and 2, and form 3 inside anything. */
export type Nesting = 'top' | 'decimal' | 'child'

function checkCount(count: number, expect: number | null, what: string): void {
  if (expect !== null && count !== expect) fail(`${what}: count ${count} disagrees with parent ${expect}`)
}

/** §2.1 form 0: block records, data offsets back to back, data length = Σ + 8 with zero padding. */
function blocksForm(c: Cursor, what: string, expect: number | null): Seq {
  const count = c.u32(`${what}.count`)
  checkCount(count, expect, what)
  const blockCount = c.u32(`${what}.blockCount`)
  if (blockCount !== Math.ceil(count / 1024)) fail(`${what}: blockCount ≠ ceil(count / 1024)`)
  const dataLength = c.u32(`${what}.dataLength`)
  // Check the records are there before making one object per record.
  c.need(24 * blockCount, `${what} records`)
  const blocks: Block[] = []
  const offsets: number[] = []
  for (let i = 0; i < blockCount; i++) {
    const kind = c.u8(`${what}.b${i}.kind`)
    const width = c.u8(`${what}.b${i}.width`)
    const param = c.u16(`${what}.b${i}.param`)
    offsets.push(c.u32(`${what}.b${i}.dataOffset`))
    const base = c.i64(`${what}.b${i}.base`)
    const aux = c.i64(`${what}.b${i}.aux`)
    blocks.push({ kind, width, param, base, aux, data: 0, n: Math.min(1024, count - 1024 * i) })
  }
  c.need(dataLength, `${what} data`)
  const dataStart = c.pos
  const dataEnd = dataStart + dataLength
  c.pos = dataEnd
  let running = 0
  for (let i = 0; i < blockCount; i++) {
    if (offsets[i] !== running) fail(`${what}.b${i}: dataOffset not the running offset`)
    blocks[i].data = dataStart + running
    c.sites?.fields.push({ off: blocks[i].data, size: 1, label: `${what}.b${i}.data` })
    running += blockLayout(c.b, blocks[i], dataEnd, `${what}.b${i} kind ${blocks[i].kind}`, c.sites)
  }
  if (dataLength !== running + 8) fail(`${what}: dataLength ≠ block data + 8`)
  for (let p = dataEnd - 8; p < dataEnd; p++) if (c.b[p] !== 0) fail(`${what}: padding not zero`)
  return { count, get: (i) => blockValue(c.b, blocks[i >> 10], i & 1023, what) }
}

/** §2.2 form 1: order ≤ 1, 1 ≤ k and 2k ≤ count; codes are range-checked when read. */
function dictionaryForm(c: Cursor, what: string, expect: number | null): Seq {
  const order = c.u8(`${what}.order`)
  if (order > 1) fail(`${what}: dictionary order > 1`)
  const count = c.u32(`${what}.count`)
  checkCount(count, expect, what)
  const entries = sequence(c, `${what}.entries`, null, false, 'child')
  if (entries.count < 1 || 2 * entries.count > count) fail(`${what}: k outside 1..count/2`)
  const codes = sequence(c, `${what}.codes`, count, false, 'child')
  const get = (i: number) => {
    const code = codes.get(i)
    if (code < 0n || code >= BigInt(entries.count)) fail(`${what}: code ≥ k`)
    return entries.get(Number(code))
  }
  return { count, get, entries }
}

/**
 * §2.3 form 2: 1 ≤ r and 2r ≤ count, run starts 0 then strictly increasing below count,
 * and checkpoint b naming the run that holds value 1024 b (so a reader may seek by it).
 */
function runsForm(c: Cursor, what: string, expect: number | null): Seq {
  const count = c.u32(`${what}.count`)
  checkCount(count, expect, what)
  const r = c.u32(`${what}.runCount`)
  if (r < 1 || 2 * r > count) fail(`${what}: runs r outside 1..count/2`)
  const nb = Math.ceil(count / 1024)
  c.need(4 * nb, `${what} checkpoints`)
  const checkpoints: number[] = []
  for (let i = 0; i < nb; i++) checkpoints.push(c.u32(`${what}.checkpoint${i}`))
  const values = sequence(c, `${what}.runValues`, r, false, 'child')
  const startsSeq = sequence(c, `${what}.runStarts`, r, false, 'child')
  const starts: number[] = []
  for (let q = 0; q < r; q++) {
    const s = startsSeq.get(q)
    const ok = q === 0 ? s === 0n : s > BigInt(starts[q - 1]) && s < BigInt(count)
    if (!ok) fail(`${what}: run starts not 0 then strictly increasing below count`)
    starts.push(Number(s))
  }
  const runOf = (i: number) => {
    let lo = 0
    let hi = r - 1
    while (lo < hi) {
      const m = (lo + hi + 1) >> 1
      if (starts[m] <= i) lo = m
      else hi = m - 1
    }
    return lo
  }
  for (let i = 0; i < nb; i++) {
    if (i === 0 && checkpoints[0] !== 0) fail(`${what}: checkpoint 0 ≠ 0`)
    if (i > 0 && checkpoints[i] < checkpoints[i - 1]) fail(`${what}: checkpoints decrease`)
    if (checkpoints[i] >= r) fail(`${what}: checkpoint ≥ r`)
    if (checkpoints[i] !== runOf(1024 * i)) fail(`${what}: checkpoint ${i} does not name the run holding value ${1024 * i}`)
  }
  return { count, get: (i) => values.get(runOf(i)) }
}

/** §2.4 form 3: e ≤ 18, exceptionCount ≤ count, positions strictly increasing below count. */
function decimalForm(c: Cursor, what: string, expect: number | null): Seq {
  const e = c.u8(`${what}.e`)
  if (e > 18) fail(`${what}: decimal e > 18`)
  const count = c.u32(`${what}.count`)
  checkCount(count, expect, what)
  const E = c.u32(`${what}.exceptionCount`)
  if (E > count) fail(`${what}: exceptionCount > count`)
  c.need(12 * E, `${what} exceptions`)
  let prev = -1
  for (let k = 0; k < E; k++) {
    const p = c.u32(`${what}.position${k}`)
    if (p <= prev || p >= count) fail(`${what}: exception positions not strictly increasing below count`)
    prev = p
  }
  for (let k = 0; k < E; k++) c.i64(`${what}.exception${k}`)
  // The doubles themselves are not needed at open: only the integers' structure is checked.
  return sequence(c, `${what}.integers`, count, false, 'decimal')
}

/**
 * §2 and §3.8: one sequence of any form. `expect` is the count its parent fixes
 * (null when free), `doubles` whether it holds doubles (only those may be decimal).
 */
export function sequence(c: Cursor, what: string, expect: number | null, doubles: boolean, nesting: Nesting): Seq {
  const form = c.u8(`${what}.form`)
  if (form > 3) fail(`${what}: unknown form ${form}`)
  if (nesting === 'child' && (form === 1 || form === 2)) fail(`${what}: form ${form} inside a dictionary or runs`)
  if (form === 3 && nesting !== 'top') fail(`${what}: decimal inside a sequence`)
  if (form === 3 && !doubles) fail(`${what}: decimal in a sequence of integers`)
  if (form === 0) return blocksForm(c, what, expect)
  if (form === 1) return dictionaryForm(c, what, expect)
  if (form === 2) return runsForm(c, what, expect)
  return decimalForm(c, what, expect)
}
