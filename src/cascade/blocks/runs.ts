/**
 * Run blocks (kind 4): r runs of equal values. The run values (offsets from
 * base = min, divided by aux = g, in width = bits(range / g) bits), then the
 * starts of runs 1..r-1 in bits(n - 1) bits (run 0 starts at 0); param = r - 1.
 * A value is found by binary search over the starts (at most 10 probes).
 */
import { bitsOf, bytesFor, type FieldWriter, fieldAt, smallField } from '../bits.js'
import type { BlockAnalysis } from '../block-analysis.js'
import { auxNumber, type BlockView, offsetInView, recordAux } from '../block-view.js'
import { Kind } from '../constants.js'
import { putPair } from './pairs.js'
import type { BlockRecord } from './record.js'

/** Data bytes of the run form (r ≥ 2). */
export function runsSize(a: BlockAnalysis): number {
  return bytesFor(a.runCount * a.width) + bytesFor((a.runCount - 1) * a.positionWidth)
}

/** Writes the run form. */
export function writeRuns(a: BlockAnalysis, writer: FieldWriter, record: BlockRecord): void {
  const g = a.divisor, u = a.u
  record.set(Kind.runs, a.width, a.runCount - 1, a.minLow, a.minHigh, g)
  writer.write(u[0] / g, a.width)
  for (let index = 1; index < a.n; index++) if (u[index] !== u[index - 1]) writer.write(u[index] / g, a.width)
  writer.seek(writer.offset)
  for (let index = 1; index < a.n; index++) if (u[index] !== u[index - 1]) writer.write(index, a.positionWidth)
}

/**
 * The run holding value `index`: the last run whose start is ≤ index (run 0 starts at 0; runs
 * 1..r-1 have stored starts). A fixed number of halvings for a given r, as the WebAssembly
 * kernel's, so both give the same run on any file, starts in order or not.
 */
function runOf(words: Int32Array, startsAt: number, runs: number, positionWidth: number, index: number): number {
  // Fixed halvings with no branch on the data (starts are below 1,024: int32 differences).
  const wordBase = startsAt >>> 2, first = (startsAt & 3) * 8 - positionWidth, mask = (1 << positionWidth) - 1
  let base = 0, length = runs
  while (length > 1) {
    const half = length >>> 1
    base += half & ~((index - smallField(words, wordBase, first + (base + half) * positionWidth, mask)) >> 31)
    length -= half
  }
  return base
}

/** Offset from the base of value j of the runs block whose record is word r of records (data at byte `data`, n values). */
export function runsOffset(words: Int32Array, records: Int32Array, r: number, data: number, n: number, j: number): number {
  const head = records[r], width = (head >>> 8) & 0xff, runs = (head >>> 16) + 1
  const run = runOf(words, data + ((runs * width + 7) >>> 3), runs, 32 - Math.clz32(n - 1), j)
  return recordAux(records, r) * fieldAt(words, data, run, width)
}

/** Whether the starts are 0 < start_1 < … < start_{r-1} < n, as a valid block's are (open does not check them). */
function startsIncrease(view: BlockView, startsAt: number, positionWidth: number): boolean {
  let previous = 0
  for (let run = 1; run <= view.param; run++) {
    const start = fieldAt(view.words, startsAt, run - 1, positionWidth)
    if (start <= previous || start >= view.n) return false
    previous = start
  }
  return true
}

/** Values [from, to) as (low, high) pairs into destination from word d: each run's pair made once, then repeated. */
export function runsPairs(view: BlockView, from: number, to: number, destination: Int32Array, d: number): void {
  const startsAt = view.data + bytesFor((view.param + 1) * view.width), positionWidth = bitsOf(view.n - 1)
  const baseLow = view.baseLow, baseHigh = view.baseHigh
  if (!startsIncrease(view, startsAt, positionWidth)) {
    for (let index = from; index < to; index++, d += 2) putPair(baseLow, baseHigh, offsetInView(view, runsOffset, index), destination, d)
    return
  }
  const runs = view.param + 1, g = auxNumber(view)
  let run = runOf(view.words, startsAt, runs, positionWidth, from)
  for (let position = from; position < to; run++) {
    const end = run + 1 < runs ? Math.min(to, fieldAt(view.words, startsAt, run, positionWidth)) : to
    putPair(baseLow, baseHigh, g * fieldAt(view.words, view.data, run, view.width), destination, d)
    const low = destination[d], high = destination[d + 1]
    for (; position < end; position++, d += 2) {
      destination[d] = low
      destination[d + 1] = high
    }
  }
}
