/**
 * v2 files whose data forces each block kind and each sequence form (docs/format-v2.md),
 * for the backend duels of test/cascade-wasm.test.ts and bench/cascade-decode.ts, and
 * a description of what a sequence became (forms, kinds, flags) so each case can assert
 * that it covers its encoding.
 */
import type { SequenceView } from '../../src/backend/backend.js'
import { flushColumns } from '../../src/write/columns-writer.js'
import { seededRandom } from './random.js'

const KIND_NAMES = ['constant', 'frame', 'table', 'dictionary', 'runs', 'frequent', 'patched', 'linear']

/** A sequence's shape: "blocks" with its kinds, or a form with its children's shapes. */
export interface Shape {
  form: 'blocks' | 'dictionary' | 'runs' | 'decimal'
  /** Blocks: kind names, one per block. */
  kinds: string[]
  /** Frequent and patched blocks: "list" or "bitmap" (and "+gcd" for frequent blocks storing a divisor), per block. */
  flags: string[]
  order?: number
  exponent?: number
  exceptions?: number
  children: Shape[]
}

/** What the sequence became. */
export function shapeOf(view: SequenceView): Shape {
  const cascade = view.cascade
  if (cascade === null || cascade.form === 0) {
    const kinds: string[] = [], flags: string[] = []
    for (let block = 0; block < view.blockCount; block++) {
      const word = view.records[6 * block], kind = word & 0xff, param = word >>> 16
      kinds.push(KIND_NAMES[kind])
      if (kind === 5 || kind === 6) flags.push(`${param & 1024 ? 'list' : 'bitmap'}${param & 2048 ? '+gcd' : ''}`)
    }
    return { form: 'blocks', kinds, flags, children: [] }
  }
  if (cascade.form === 1) return { form: 'dictionary', kinds: [], flags: [], order: cascade.order, children: [shapeOf(cascade.entries), shapeOf(cascade.codes)] }
  if (cascade.form === 2) return { form: 'runs', kinds: [], flags: [], children: [shapeOf(cascade.values), shapeOf(cascade.starts)] }
  return { form: 'decimal', kinds: [], flags: [], exponent: cascade.exponent, exceptions: cascade.exceptionCount, children: [shapeOf(cascade.integers)] }
}

/** Every kind and flag anywhere in the shape. */
export function kindsIn(shape: Shape): Set<string> {
  const found = new Set([...shape.kinds, ...shape.flags])
  for (const child of shape.children) for (const kind of kindsIn(child)) found.add(kind)
  return found
}

/** One column of a case: its schema type, values per document (null: none; arrays: multi) and what it must become. */
export interface CascadeColumn {
  name: string
  type: string
  multi?: boolean
  values: (number | bigint | string | null | (number | bigint | string)[])[]
  /** Checks the value sequence's shape (throws, through expect, when the data no longer forces its encoding). */
  expectShape: (shape: Shape) => void
}

/** A v2 file of the columns (every column has one value per document, or none). */
export function cascadeFile(columns: CascadeColumn[]): Uint8Array {
  const documents = columns[0].values.length
  const docs = Array.from({ length: documents }, (_, index) => {
    const document: Record<string, unknown> = {}
    for (const column of columns) if (column.values[index] !== null) document[column.name] = column.values[index]
    return document
  })
  const schema = { fields: columns.map((column) => ({ name: column.name, type: column.type, column: true, multi: column.multi ?? false })) }
  return flushColumns(schema, docs, { format: 2 })!
}

const TWO_51 = 2n ** 51n, TWO_63 = 2n ** 63n

/** Values for block-kind columns: `count` values, block b drawn by make(b, j, random). */
function perBlock(count: number, seed: number, make: (block: number, j: number, random: () => number) => bigint): bigint[] {
  const random = seededRandom(seed)
  return Array.from({ length: count }, (_, index) => make(index >>> 10, index & 1023, random))
}

const pickOf = (random: () => number, n: number) => Math.floor(random() * n)

/**
 * Block kinds: each column's blocks differ from block to block (so no sequence form wins), and
 * counts are not multiples of 1,024 (a partial last block).
 */
export function blockKindColumns(count = 5000): CascadeColumn[] {
  const blocksOf = (kind: string, flag?: string) => (shape: Shape) => {
    if (shape.form !== 'blocks') throw new Error(`expected blocks, got ${shape.form}`)
    const full = shape.kinds.slice(0, Math.floor(count / 1024))
    if (!full.every((k) => k === kind)) throw new Error(`expected ${kind} blocks, got ${shape.kinds.join(', ')}`)
    if (flag !== undefined && !shape.flags.slice(0, full.length).every((f) => f === flag)) throw new Error(`expected ${flag}, got ${shape.flags.join(', ')}`)
  }
  // Block b's values lie in a range of its own, 2^46 apart (negative for odd blocks): the sequence
  // forms, whose children span every block, would need wider fields than the blocks.
  const blockBase = (block: number) => (block % 2 ? -1n : 1n) * BigInt(block + 1) * 2n ** 46n
  const random = seededRandom(14)
  const own = Array.from({ length: 64 }, () => Array.from({ length: 32 }, () => BigInt(pickOf(random, 2 ** 30)) * 64n + BigInt(pickOf(random, 64))))
  const wide = (block: number, which: number) => blockBase(block) + own[block][which % 32]
  // 300 values a block: indexes of 9 bits (beyond v1's table kernels' 8).
  const pool = Array.from({ length: 64 }, () => Array.from({ length: 300 }, () => BigInt(pickOf(random, 2 ** 30)) * 64n + BigInt(pickOf(random, 64))))
  return [
    { name: 'dictionary', type: 'integral', values: perBlock(count, 1, (b, _j, r) => wide(b, pickOf(r, 21))), expectShape: blocksOf('dictionary') },
    { name: 'dictionaryLarge', type: 'integral', values: perBlock(count, 16, (b, _j, r) => blockBase(b) + pool[b][pickOf(r, 300)]), expectShape: blocksOf('dictionary') },
    {
      // Runs of 20-60 values of wide values, each run's value new.
      name: 'runs', type: 'integral', values: (() => {
        const random = seededRandom(2), out: bigint[] = []
        for (let run = 0; out.length < count; run++) {
          // Runs end at block ends, so that each block keeps to its own range.
          const length = Math.min(20 + pickOf(random, 40), 1024 - (out.length & 1023)), value = blockBase(out.length >>> 10) + BigInt(pickOf(random, 1 << 20)) + BigInt(run & 1)
          for (let i = 0; i < length && out.length < count; i++) out.push(value)
        }
        return out
      })(),
      expectShape: blocksOf('runs'),
    },
    { name: 'frequentList', type: 'integral', values: perBlock(count, 3, (b, j, r) => (j % 211 === 5 ? wide(b, 1) + BigInt(pickOf(r, 1 << 30)) : wide(b, 0))), expectShape: blocksOf('frequent', 'list') },
    { name: 'frequentBitmap', type: 'integral', values: perBlock(count, 4, (b, _j, r) => (r() < 0.2 ? wide(b, 2) + BigInt(pickOf(r, 1 << 24)) : wide(b, 0))), expectShape: blocksOf('frequent', 'bitmap') },
    { name: 'frequentGcd', type: 'integral', values: perBlock(count, 5, (b, _j, r) => (r() < 0.2 ? wide(b, 3) + 1000n * BigInt(pickOf(r, 1 << 14)) : wide(b, 0))), expectShape: blocksOf('frequent', 'bitmap+gcd') },
    { name: 'frequentListGcd', type: 'integral', values: perBlock(count, 6, (b, j, r) => (j % 97 === 1 ? wide(b, 3) + 3000n * BigInt(pickOf(r, 1 << 12)) : wide(b, 0))), expectShape: blocksOf('frequent', 'list+gcd') },
    { name: 'patchedList', type: 'integral', values: perBlock(count, 7, (b, j, r) => (j % 150 === 7 ? 2n ** 44n + BigInt(pickOf(r, 1 << 30)) : BigInt(pickOf(r, 1000) - 500 * b))), expectShape: blocksOf('patched', 'list') },
    { name: 'patchedBitmap', type: 'integral', values: perBlock(count, 8, (b, _j, r) => (r() < 0.15 ? TWO_51 - 1n - BigInt(pickOf(r, 1 << 20)) : BigInt(pickOf(r, 1 << 16) + 77 * b) * 3n)), expectShape: blocksOf('patched', 'bitmap') },
    { name: 'linear', type: 'integral', values: perBlock(count, 9, (b, j, r) => BigInt((b * 1024 + j) * 1000 + pickOf(r, 8)) - 2n ** 45n), expectShape: blocksOf('linear') },
    { name: 'linearDown', type: 'date', values: perBlock(count, 10, (b, j, r) => 1_700_000_000_000n - BigInt((b * 1024 + j) * 60_013 + pickOf(r, 100))), expectShape: blocksOf('linear') },
    // Around the narrow limit: block 0 spans 2^51 - 1 (narrow: patched), block 1 exactly 2^51 (frame).
    { name: 'edge51', type: 'integral', values: perBlock(count, 15, (b, j, r) => (j === 0 ? 0n : j % 200 === 9 ? (b === 1 ? TWO_51 : TWO_51 - 1n) : BigInt(pickOf(r, 1 << 20)))), expectShape: (shape) => {
      if (shape.form !== 'blocks' || shape.kinds[0] !== 'patched' || shape.kinds[1] !== 'frame') throw new Error(`expected patched then frame blocks, got ${JSON.stringify(shape)}`)
    } },
    // Wide blocks (range ≥ 2^51): frame, beside constant blocks and values near ±2^63.
    { name: 'wide', type: 'integral', values: perBlock(count, 11, (b, j, r) => (b === 1 ? 42n : j === 3 ? TWO_63 - 1n : j === 4 ? -TWO_63 : BigInt(pickOf(r, 1 << 30)) * (2n ** 33n) - TWO_63 / 2n)), expectShape: (shape) => {
      if (shape.form !== 'blocks' || shape.kinds[0] !== 'frame' || shape.kinds[1] !== 'constant') throw new Error(`expected frame and constant blocks, got ${JSON.stringify(shape)}`)
    } },
  ]
}

/** Sequence forms over integers: dictionaries of both orders, runs, keyword ordinals, multi-valued offsets. */
export function formColumns(count = 6000): CascadeColumn[] {
  const random = seededRandom(21)
  const dictionaryOf = (order: number) => (shape: Shape) => {
    if (shape.form !== 'dictionary' || shape.order !== order) throw new Error(`expected a dictionary of order ${order}, got ${JSON.stringify(shape)}`)
  }
  // Eight distinct values near the ends of the int64 range, uniformly: ascending order wins the tie.
  const ends = [-(TWO_63), -(TWO_63) + 1n, -5n, 0n, 7n, 2n ** 52n + 3n, TWO_63 - 2n, TWO_63 - 1n]
  // Four common values spread among 60 rare ones: the frequency order gives the common ones codes 0-3.
  const rare = Array.from({ length: 64 }, (_, i) => BigInt(i) * 1_000_003n - 31n * 1_000_003n)
  const skewed = () => (random() < 0.96 ? rare[[3, 20, 41, 60][pickOf(random, 4)]] : rare[pickOf(random, 64)])
  const runs: bigint[] = []
  while (runs.length < count) {
    const value = BigInt(pickOf(random, 1 << 30)) * 4099n - 2n ** 40n, length = 500 + pickOf(random, 2500)
    for (let i = 0; i < length && runs.length < count; i++) runs.push(value)
  }
  // 600 and 3,000 distinct values: codes of 10 bits, and more entries than a decode keeps at hand.
  const many = (k: number) => Array.from({ length: k }, () => BigInt(pickOf(random, 2 ** 30)) * 2n ** 30n + BigInt(pickOf(random, 2 ** 30)))
  const six = many(600), huge = many(3000)
  const terms = Array.from({ length: 37 }, (_, i) => `term-${String(i).padStart(3, '0')}`)
  const term = () => terms[random() < 0.9 ? [5, 17, 30][pickOf(random, 3)] : pickOf(random, 37)]
  return [
    { name: 'dictionaryAscending', type: 'integral', values: Array.from({ length: count }, () => ends[pickOf(random, 8)]), expectShape: dictionaryOf(0) },
    { name: 'dictionaryFrequency', type: 'integral', values: Array.from({ length: count }, skewed), expectShape: dictionaryOf(1) },
    // Each value about as often as the others: codes of 10 bits in frame blocks.
    { name: 'dictionaryWide', type: 'integral', values: Array.from({ length: count }, (_, i) => six[(i * 7) % 600]), expectShape: (shape) => {
      if (shape.form !== 'dictionary' || shape.children[1].kinds[0] !== 'frame') throw new Error(`expected a dictionary with frame codes, got ${JSON.stringify(shape)}`)
    } },
    { name: 'dictionaryHuge', type: 'integral', values: Array.from({ length: count }, (_, i) => huge[i < 3000 ? i : pickOf(random, 3000)]), expectShape: dictionaryOf(0) },
    { name: 'sequenceRuns', type: 'integral', values: runs, expectShape: (shape) => {
      if (shape.form !== 'runs') throw new Error(`expected runs, got ${JSON.stringify(shape)}`)
    } },
    { name: 'keyword', type: 'keyword', values: Array.from({ length: count }, term), expectShape: dictionaryOf(1) },
  ]
}

/** Decimal doubles: over blocks with exceptions (NaN, -0, ±Infinity, 1e300, a subnormal), over a dictionary and over runs. */
export function decimalColumns(count = 5000): CascadeColumn[] {
  const random = seededRandom(31)
  const specials = [Number.NaN, -0, 1e300, -1e300, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 5e-324, 0.1 + 0.2]
  const decimalOf = (exponent: number, child: Shape['form']) => (shape: Shape) => {
    if (shape.form !== 'decimal' || shape.exponent !== exponent || shape.children[0].form !== child) throw new Error(`expected decimal e ${exponent} over ${child}, got ${JSON.stringify(shape)}`)
  }
  const prices = [9.99, 19.99, 0.5, 1234.56, -3.25, 100, 0.01]
  const runs: number[] = []
  while (runs.length < count) {
    const value = (pickOf(random, 2_000_000) - 1_000_000) / 100, length = 300 + pickOf(random, 2000)
    for (let i = 0; i < length && runs.length < count; i++) runs.push(value)
  }
  return [
    {
      name: 'decimal', type: 'fractional',
      values: Array.from({ length: count }, (_, i) => (i % 97 === 13 ? specials[(i / 97) % specials.length | 0] : (pickOf(random, 2_000_000) - 1_000_000) / 1000)),
      expectShape: (shape) => {
        decimalOf(3, 'blocks')(shape)
        if ((shape.exceptions ?? 0) < 40) throw new Error(`expected exceptions, got ${shape.exceptions}`)
      },
    },
    // Large integers n (|n| ≥ 2^51: the kernels' one-at-a-time conversion), exponent 0.
    { name: 'decimalWide', type: 'fractional', values: Array.from({ length: count }, () => (pickOf(random, 2 ** 21) - 2 ** 20) * 2 ** 31 + pickOf(random, 2 ** 31)), expectShape: decimalOf(0, 'blocks') },
    { name: 'decimalDictionary', type: 'fractional', values: Array.from({ length: count }, () => prices[pickOf(random, prices.length)]), expectShape: decimalOf(2, 'dictionary') },
    { name: 'decimalRuns', type: 'fractional', values: runs, expectShape: decimalOf(2, 'runs') },
  ]
}

/** A geo point column (two decimal sequences) and a multi-valued integral column (an offsets sequence), with documents lacking values. */
export function geoAndMultiColumns(count = 3000): CascadeColumn[] {
  const random = seededRandom(41)
  return [
    {
      name: 'place', type: 'geo_point',
      values: Array.from({ length: count }, () => (random() < 0.1 ? null : { lat: (pickOf(random, 1_800_000) - 900_000) / 10_000, lon: (pickOf(random, 3_600_000) - 1_800_000) / 10_000 } as unknown as number)),
      expectShape: (shape) => {
        if (shape.form !== 'decimal') throw new Error(`expected decimal latitudes, got ${JSON.stringify(shape)}`)
      },
    },
    {
      name: 'tags', type: 'integral', multi: true,
      values: Array.from({ length: count }, () => (random() < 0.2 ? null : Array.from({ length: 1 + pickOf(random, 4) }, () => [3n, 1_000_000_007n, -5n, 2n ** 50n + 1n, 77n][pickOf(random, 5)]))),
      expectShape: (shape) => {
        if (shape.form !== 'dictionary') throw new Error(`expected a dictionary, got ${JSON.stringify(shape)}`)
      },
    },
  ]
}
