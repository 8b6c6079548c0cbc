/**
 * Fixtures of test/wasm-query-kernels.test.ts: sequences of every block form and
 * width (files built with the writer, then blocks replaced), random runs and
 * selections, and a naive BigInt model of the aggregate state.
 */
import type { ColumnsBackend, SequenceView } from '../../src/backend/backend.js'
import type { AggregateState, BitsetMemory } from '../../src/backend/query-kernels.js'
import { openColumns } from '../../src/read/open.js'
import { flushColumns } from '../../src/write/columns-writer.js'
import { type Block, bits, buildFile, packFields, parseFile, tableBlock } from './file-surgery.js'
import { MAX_INT64, MIN_INT64, ieeeOfSortable, randomBits } from './random-columns.js'

export const FILE_NAME = 'query.oixk'

/** A seeded source of doubles in [0, 1). */
export type Random = () => number
/** Uniform integers below a limit. */
export const pickOf = (random: Random) => (limit: number) => Math.floor(random() * limit)

/** A packed block of n random units of width w (base, g as given; values wrap as the format says). */
export function randomPacked(random: Random, n: number, width: number, base: bigint, g: bigint): Block {
  const units = Array.from({ length: n }, () => randomBits(random, width))
  return { kind: 1, width, reserved: 0, base, aux: g, data: packFields(units, width) }
}

/** Blocks of every form: constants, tables, packed of each width 1..64 with assorted bases and divisors. */
export function randomBlock(random: Random, n: number, blockIndex: number, ordinals: number): Block {
  const pick = pickOf(random)
  if (ordinals > 0) {
    const shape = pick(4)
    if (shape === 0) return { kind: 0, width: 0, reserved: 0, base: BigInt(pick(ordinals)), aux: 0n, data: new Uint8Array(0) }
    if (shape === 1 && ordinals >= 2) {
      const entries = [...new Set(Array.from({ length: 2 + pick(Math.min(255, ordinals - 1)) }, () => BigInt(pick(ordinals))))]
      if (entries.length < 2) entries.push(entries[0] === 0n ? 1n : 0n)
      entries.sort((a, b) => (a < b ? -1 : 1))
      return tableBlock(entries, Array.from({ length: n }, () => pick(entries.length)))
    }
    // Packed with a bound (base + 2^w - 1) that may pass the ordinal count while every value stays below it.
    const base = pick(ordinals)
    const span = ordinals - 1 - base
    const width = Math.max(1, bits(BigInt(span)))
    const units = Array.from({ length: n }, () => BigInt(pick(span + 1)))
    return { kind: 1, width, reserved: 0, base: BigInt(base), aux: 1n, data: packFields(units, width) }
  }
  const shape = pick(8)
  if (shape === 0) return { kind: 0, width: 0, reserved: 0, base: BigInt.asIntN(64, randomBits(random, 64)), aux: 0n, data: new Uint8Array(0) }
  if (shape === 1) {
    const entries = [...new Set(Array.from({ length: 2 + pick(255) }, () => BigInt.asIntN(64, randomBits(random, 1 + pick(64)))))]
    if (entries.length < 2) entries.push(entries[0] + 1n)
    entries.sort((a, b) => (a < b ? -1 : 1))
    const width = bits(BigInt(entries.length - 1))
    return tableBlock(entries, Array.from({ length: n }, () => pick(entries.length)), width)
  }
  const width = 1 + (blockIndex * 7 + pick(3)) % 64
  const base = [0n, MIN_INT64, MIN_INT64 + 5n, MAX_INT64 - (1n << 20n), -1000n, BigInt.asIntN(64, randomBits(random, 64))][pick(6)]
  const g = [1n, 1n, 1000n, 7n, 1n << 40n, -1n, BigInt.asIntN(64, randomBits(random, 64)) | 1n][pick(7)]
  return randomPacked(random, n, width, base, g)
}

/** A dense integral column "n" of `count` values whose blocks are replaced by random ones (open accepts any). */
export function blocksFile(random: Random, count: number, ordinals = 0): Uint8Array {
  const schema = { fields: [{ name: 'n', type: 'integral', column: true }] }
  const model = parseFile(flushColumns(schema, Array.from({ length: count }, (_, n) => ({ n })))!)
  const sequence = model.columns[0].section.values
  sequence.blocks = sequence.blocks.map((_, index) => randomBlock(random, Math.min(1024, count - index * 1024), index, ordinals))
  return buildFile(model)
}

/** A reader's column `n` sequence with the backend it was opened with. */
export interface Opened { sequence: SequenceView; backend: ColumnsBackend; close(): void }

/** Opens bytes (as FILE_NAME) with a backend. */
export function openWith(bytes: Uint8Array, backend: ColumnsBackend): Opened {
  const reader = openColumns(bytes, { fileName: FILE_NAME, backend })
  return { sequence: reader.getColumn('n')!.values, backend, close: () => reader.close() }
}

/** Every raw value of the sequence, by decodeRaw. */
export function rawValues(opened: Opened): bigint[] {
  const count = opened.sequence.count
  const words = new Int32Array(2 * count)
  opened.backend.decodeRaw(opened.sequence, 0, count, words, 0)
  return Array.from({ length: count }, (_, i) => (BigInt(words[2 * i + 1]) << 32n) | BigInt(words[2 * i] >>> 0))
}

/**
 * Selection words for bits [0, bitCount): null, empty, sparse, dense, all, runs, or
 * cross-filter shapes (a few percent: around the kernels' sparse-block threshold,
 * also in stretches of about 1,500 bits with whole empty blocks between).
 */
export function randomSelection(random: Random, bitCount: number): Int32Array | null {
  const pick = pickOf(random)
  const shape = pick(8)
  if (shape === 0) return null
  const words = new Int32Array((bitCount + 31) >>> 5)
  const density = [0, 0.01, 0.9, 1, 0.5, -1, 0.06, -0.06][shape]
  const stretch = density === -1 ? 300 : 1500
  let run = false
  for (let bit = 0; bit < bitCount; bit++) {
    if (density < 0 && pick(stretch) === 0) run = !run
    if (density === -1 ? run : (density > 0 || run) && random() < Math.abs(density)) words[bit >>> 5] |= 1 << (bit & 31)
  }
  // Garbage beyond the used bits must not matter.
  if (words.length > 0 && (bitCount & 31) !== 0) words[words.length - 1] |= -1 << (bitCount & 31)
  return words
}

/** A backend bitset holding the words (null stays null: every value selected). */
export function bitsetOf(backend: ColumnsBackend, words: Int32Array | null): BitsetMemory | null {
  if (words === null) return null
  const bitset = backend.query.allocateBitset(words.length)
  bitset.words.set(words)
  return bitset
}

/** Bit `bit` of the words (null: all set). */
export const isSelected = (words: Int32Array | null, bit: number) => words === null || ((words[bit >>> 5] >>> (bit & 31)) & 1) === 1
/** An i64 as [low, high] int32 words. */
export const pair = (value: bigint) => [Number(BigInt.asIntN(32, value)), Number(BigInt.asIntN(32, value >> 32n))]

/** The double a SortableBits raw value stands for. */
export function doubleOfSortable(raw: bigint): number {
  const view = new DataView(new ArrayBuffer(8))
  view.setBigUint64(0, ieeeOfSortable(raw), true)
  return view.getFloat64(0, true)
}

/** A kernel call's run of values and its selection. */
export interface Run { first: number; count: number; selection: Int32Array | null; selectionStart: number }

/** A random run: from 0 or anywhere, to the end or anywhere, selection start 0 or unaligned. */
export function randomRun(random: Random, total: number): Run {
  const pick = pickOf(random)
  const first = pick(3) === 0 ? 0 : pick(total)
  const count = pick(4) === 0 ? total - first : pick(total - first + 1)
  const selectionStart = pick(2) === 0 ? 0 : pick(100)
  return { first, count, selection: randomSelection(random, selectionStart + count), selectionStart }
}

/** Each selected value of the run, as (run position, raw). */
export function* selectedValues(raws: bigint[], run: Run): Generator<[number, bigint]> {
  for (let i = 0; i < run.count; i++) if (isSelected(run.selection, run.selectionStart + i)) yield [i, raws[run.first + i]]
}

/** The model's aggregate state words and numbers after adding the run to `state`. */
export function modelAggregate(raws: bigint[], run: Run, sortable: boolean, state: AggregateState): AggregateState {
  const out = { numbers: Float64Array.from(state.numbers), words: Int32Array.from(state.words) }
  const word = (index: number) => BigInt(out.words[index] >>> 0) | (BigInt(out.words[index + 1]) << 32n)
  let count = out.numbers[0], min = word(0), max = word(2)
  let sum = BigInt.asIntN(128, word(4) | (word(6) << 64n))
  for (const [, raw] of selectedValues(raws, run)) {
    if (count === 0 || raw < min) min = raw
    if (count === 0 || raw > max) max = raw
    count++
    if (sortable) out.numbers[1] += doubleOfSortable(raw)
    else sum += raw
  }
  out.numbers[0] = count
  const setWord = (index: number, value: bigint) => out.words.set(pair(BigInt.asIntN(64, value)), index)
  setWord(0, min)
  setWord(2, max)
  setWord(4, BigInt.asIntN(64, sum))
  setWord(6, BigInt.asIntN(64, sum >> 64n))
  return out
}
