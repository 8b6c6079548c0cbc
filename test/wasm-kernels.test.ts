// The WebAssembly kernels (assembly/) called directly through their raw ABI,
// compared with the pure-TypeScript backend and with reference code: files
// written by flushColumns are copied into the module's memory and the decode,
// get and canonical-check kernels run on their sequences (XXH64 and rank:
// wasm-kernels-scan.test.ts). Build first: npm run build:wasm.
import { describe, expect, it } from 'vitest'
import type { SequenceView } from '../src/backend/backend.js'
import { int64Result } from '../src/format/int64.js'
import { flushColumns, openColumns, typeScriptBackend } from '../src/index.js'
import { buildFile, constantBlock, packedBlock, parseFile, tableBlock } from './helpers/file-surgery.js'
import { seededRandom } from './helpers/random.js'
import { allocate, allocatedEnd, bytesAt, kernels, NO_LIMIT, reset, scratchI64, scratchU32, wordsAt } from './helpers/raw-kernels.js'

/** checkCanonical's record in the scratch: kind, width, base, aux. */
const canonicalScratch = () => [scratchU32(0), scratchU32(1), scratchI64(1), scratchI64(2)]

/** A sequence of a file placed in memory: where its records and data are. */
interface Placed { view: SequenceView; records: number; data: number; count: number }

/** Copies a file into memory (misaligned by `misalign` bytes, so records are unaligned) and locates its sequences. */
function place(bytes: Uint8Array, misalign: number): Placed[] {
  const at = allocate(bytes.length, misalign)
  bytesAt(at, bytes.length).set(bytes)
  const reader = openColumns(bytes, { backend: 'ts' })
  const placed: Placed[] = []
  for (const column of reader.columns) {
    for (const view of [column.values, column.longitudes, column.offsets]) {
      if (view === null) continue
      placed.push({ view, records: at + view.dataStart - 24 * view.blockCount, data: at + view.dataStart, count: view.count })
    }
  }
  return placed
}

/** Raw words of values [first, first + n) by the TS backend. */
function reference(view: SequenceView, first: number, n: number): Int32Array {
  const words = new Int32Array(2 * n)
  typeScriptBackend.decodeRaw(view, first, n, words, 0)
  return words
}

/** A file with one dense integral column `name`. */
const integralFile = (values: readonly (bigint | number)[], name = 'v') =>
  flushColumns({ fields: [{ name, type: 'integral', column: true }] }, values.map((v) => ({ [name]: v })))!

function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return -2
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return index
  return -1
}


const TWO_63 = 1n << 63n
const bitLength = (value: bigint) => (value === 0n ? 0 : value.toString(2).length)

/**
 * One dense integral column whose block b is packed with width b + 1 (every width
 * the divisor leaves room for), g = divisor, bases alternately near -2^63 and
 * near 2^63; then constant and table blocks and a partial last block.
 */
function widthsFile(divisor: bigint, seed: number): { bytes: Uint8Array; values: bigint[] } {
  const random = seededRandom(seed)
  const randomBits = (width: number) => {
    let value = 0n
    for (let done = 0; done < width; done += 16) value = (value << 16n) | BigInt(Math.floor(random() * 65536))
    return value & ((1n << BigInt(width)) - 1n)
  }
  const values: bigint[] = []
  const maxWidth = 64 - bitLength(divisor - 1n) // divisor × (2^W - 1) must fit 64 bits
  for (let width = 1; width <= maxWidth; width++) {
    const span = divisor * ((1n << BigInt(width)) - 1n)
    const slack = BigInt.asUintN(64, -1n) - span
    const offset = slack < 1000n ? slack : BigInt(Math.floor(random() * 1000))
    const base = width % 2 === 0 ? -TWO_63 + offset : TWO_63 - 1n - span - offset
    for (let index = 0; index < 1024; index++) {
      // Units 0, 1 and 2^W - 1 fix the block's base, divisor and width.
      const unit = index === 5 ? 0n : index === 100 ? 1n : index === 900 ? (1n << BigInt(width)) - 1n : randomBits(width)
      values.push(base + divisor * unit)
    }
  }
  for (let index = 0; index < 1024; index++) values.push(-TWO_63 + 17n) // constant
  const far = [-TWO_63, -5n, 7n, 1n << 40n, TWO_63 - 1n]
  for (let index = 0; index < 1024; index++) values.push(far[Math.floor(random() * far.length)]) // table, 5 entries
  // Tables of 256 and of 200 entries (8-bit indexes; only the second needs its indexes checked).
  const spread = (j: number) => BigInt(j) * 1_000_003n + BigInt(j * j) - 99n
  for (let index = 0; index < 1024; index++) values.push(spread(index % 256))
  for (let index = 0; index < 1024; index++) values.push(spread((index * 7) % 200))
  for (let index = 0; index < 700; index++) values.push(BigInt(Math.floor(random() * 8192)) * divisor - 4096n) // partial block
  return { bytes: integralFile(values), values }
}

/** Every type and layout, random values: value, offset, longitude sequences. */
function mixedFile(seed: number): Uint8Array {
  const random = seededRandom(seed)
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]
  const terms = Array.from({ length: 300 }, (_, index) => `term-${index * 7919}`)
  const docs = Array.from({ length: 5000 }, (_, d) => {
    const doc: Record<string, unknown> = {}
    if (random() < 0.7) doc.i = BigInt(Math.floor(random() * 2 ** 40)) - (1n << 39n)
    doc.f = Array.from({ length: Math.floor(random() * 3) }, () => pick([0.5, -0.25, 1e300, -1e-300, random() * 100 - 50, 3]))
    if (random() < 0.5) doc.k = pick(terms)
    doc.d = new Date(1_700_000_000_000 + Math.floor(d / 10) * 1000)
    if (random() < 0.9) doc.b = random() < 0.5
    if (random() < 0.8) doc.g = { lat: random() * 180 - 90, lon: random() * 360 - 180 }
    return doc
  })
  const fields = [['i', 'integral'], ['f', 'fractional'], ['k', 'keyword'], ['d', 'date'], ['b', 'bool'], ['g', 'geo_point']]
  return flushColumns({ fields: fields.map(([name, type]) => ({ name, type, column: true, multi: name === 'f' })) }, docs)!
}

const DIVISORS = [1n, 1000n, 7n, 1n << 40n]
const widthFiles = DIVISORS.map((divisor, index) => widthsFile(divisor, 11 + index))
const mixedFiles = [mixedFile(1), mixedFile(2)]
const allFiles = [...widthFiles.map((file) => file.bytes), ...mixedFiles]

describe('decodeRaw and getRaw match the TS backend', () => {
  it('the width files hold every packed width, constants and tables', () => {
    DIVISORS.forEach((divisor, file) => {
      const view = openColumns(widthFiles[file].bytes, { backend: 'ts' }).getColumn('v')!.values
      const forms = new Set(Array.from({ length: view.blockCount }, (_, b) => `${view.records[6 * b] & 0xff}:${view.records[6 * b] >>> 8}`))
      for (let width = 1; width <= 64 - bitLength(divisor - 1n); width++) expect(forms.has(`1:${width}`)).toBe(true)
      expect(forms.has('0:0') && forms.has('2:3') && forms.has('2:8')).toBe(true)
    })
  })

  it('whole sequences and runs starting and ending inside blocks, records aligned and not', () => {
    const random = seededRandom(5)
    for (const [index, bytes] of allFiles.entries()) {
      reset()
      const sequences = place(bytes, index % 8)
      const out = allocate(8 * Math.max(...sequences.map((sequence) => sequence.count)))
      for (let run = -sequences.length; run < 300; run++) {
        const sequence = sequences[(run + sequences.length) % sequences.length]
        const first = run < 0 ? 0 : Math.floor(random() * sequence.count)
        const n = run < 0 ? sequence.count : Math.min(sequence.count - first, Math.floor(random() * (run % 3 === 0 ? 40 : 5000)))
        expect(kernels.decodeRaw(sequence.records, sequence.data, sequence.count, first, n, out)).toBe(0)
        expect(firstDifference(wordsAt(out, 2 * n), reference(sequence.view, first, n))).toBe(-1)
      }
    }
    // The values themselves, not only agreement with the TS backend.
    reset()
    const [sequence] = place(widthFiles[2].bytes, 3)
    const out = allocate(8 * sequence.count)
    kernels.decodeRaw(sequence.records, sequence.data, sequence.count, 0, sequence.count, out)
    expect([...new BigInt64Array(kernels.memory.buffer, out, sequence.count)]).toEqual(widthFiles[2].values)
  })

  it('no read past the 8 padding bytes: sequences ending exactly at the end of memory', () => {
    const random = seededRandom(12)
    for (const divisor of [1n, 1000n, 1n << 33n, (1n << 32n) + 3n]) {
      for (let width = 1; width <= 64 - bitLength(divisor - 1n); width++) {
        for (const count of [1024, 1000, 9, 2048 + 1023]) {
          const values = Array.from({ length: count }, (_, i) =>
            -TWO_63 + divisor * (i === 0 ? 0n : i === 1 ? (1n << BigInt(width)) - 1n : BigInt(Math.floor(random() * 2 ** Math.min(width, 52)))))
          const bytes = integralFile(values)
          const view = openColumns(bytes, { backend: 'ts' }).getColumn('v')!.values
          const start = view.dataStart - 24 * view.blockCount
          const dataLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(start - 4, true)
          const sequence = bytes.subarray(start, view.dataStart + dataLength)
          reset()
          const out = allocate(8 * count)
          if (kernels.memory.buffer.byteLength - allocatedEnd() < sequence.length) kernels.memory.grow(1)
          const at = kernels.memory.buffer.byteLength - sequence.length
          bytesAt(at, sequence.length).set(sequence)
          const records = at, data = at + 24 * view.blockCount
          for (const [first, n] of [[0, count], [count - 1, 1], [Math.floor(count / 3), count - Math.floor(count / 3)]]) {
            expect(kernels.decodeRaw(records, data, count, first, n, out)).toBe(0)
            expect(firstDifference(wordsAt(out, 2 * n), reference(view, first, n))).toBe(-1)
          }
          expect(kernels.getRaw(records, data, count - 1, out)).toBe(0)
          expect(new BigInt64Array(kernels.memory.buffer, out, 1)[0]).toBe(values[count - 1])
          expect(kernels.checkCanonical(records, data, count, out)).toBe(-1)
          expect(kernels.decodeFloat64Sortable(records, data, count, 0, count, out)).toBe(0)
        }
      }
    }
  })

  it('getRaw of every value of the width files and of random indexes elsewhere', () => {
    const random = seededRandom(6)
    for (const [index, bytes] of allFiles.entries()) {
      reset()
      const out = allocate(8)
      for (const sequence of place(bytes, index % 8)) {
        const all = index < widthFiles.length
        for (let probe = 0; probe < (all ? sequence.count : 500); probe++) {
          const at = all ? probe : Math.floor(random() * sequence.count)
          expect(kernels.getRaw(sequence.records, sequence.data, at, out)).toBe(0)
          typeScriptBackend.getRaw(sequence.view, at)
          const words = wordsAt(out, 2)
          if (words[0] !== int64Result[0] || words[1] !== int64Result[1]) expect([at, words[0], words[1]]).toEqual([at, int64Result[0], int64Result[1]])
        }
      }
    }
  })
})

describe('typed decoders', () => {
  it('decodeFloat64Sortable gives the SortableBits decode of every raw value', () => {
    reset()
    for (const sequence of [...place(mixedFiles[0], 1), ...place(widthFiles[0].bytes, 2)]) {
      const n = sequence.count - 3
      const out = allocate(8 * n)
      expect(kernels.decodeFloat64Sortable(sequence.records, sequence.data, sequence.count, 3, n, out)).toBe(0)
      const raw = new BigInt64Array(reference(sequence.view, 3, n).buffer)
      const expected = raw.map((b) => b ^ ((b >> 63n) & 0x7fffffffffffffffn))
      expect(firstDifference(wordsAt(out, 2 * n), new Int32Array(expected.buffer))).toBe(-1)
    }
  })

  /** Runs a typed decoder and checks its status, the values before a failure and the scratch. */
  function expectTyped(decode: (out: number) => number, raw: BigInt64Array, fails: (v: bigint) => boolean, failure: number, float: boolean): void {
    const out = allocate(8 * raw.length)
    const bad = raw.findIndex(fails)
    expect(decode(out)).toBe(bad < 0 ? 0 : failure)
    const written = bad < 0 ? raw.length : bad
    const result = float ? new Float64Array(kernels.memory.buffer, out, written) : new Int32Array(kernels.memory.buffer, out, written)
    expect([...result]).toEqual([...raw.subarray(0, written)].map(Number))
    if (bad >= 0) expect([scratchU32(0), scratchI64(1)]).toEqual([bad, raw[bad]])
  }

  it('decodeFloat64Exact converts integers and stops at the first beyond 2^53 - 1', () => {
    reset()
    for (const { records, data, count, view } of [...place(mixedFiles[1], 5), ...place(widthFiles[1].bytes, 0)]) {
      for (const first of [0, 517, Math.floor(count / 2)]) {
        const n = Math.min(count - first, 9000)
        const raw = new BigInt64Array(reference(view, first, n).buffer)
        expectTyped((out) => kernels.decodeFloat64Exact(records, data, count, first, n, out), raw, (v) => v > 2n ** 53n - 1n || v < 1n - 2n ** 53n, 2, true)
      }
    }
  })

  it('decodeInt32: integers in int32, ordinals below the limit', () => {
    reset()
    for (const { records, data, count, view } of [...place(mixedFiles[0], 6), ...place(widthFiles[3].bytes, 7)]) {
      for (const limit of [NO_LIMIT, 300, 100, 1]) {
        const first = 211, n = Math.min(count - first, 7000)
        const raw = new BigInt64Array(reference(view, first, n).buffer)
        const fails = limit === NO_LIMIT ? (v: bigint) => v !== BigInt.asIntN(32, v) : (v: bigint) => v < 0n || v >= BigInt(limit)
        expectTyped((out) => kernels.decodeInt32(records, data, count, first, n, limit, out), raw, fails, limit === NO_LIMIT ? 2 : 3, false)
      }
    }
  })
})

describe('table index out of range', () => {
  // Block 1 is a table of 3 entries with 2-bit indexes: index 3 at value 1024 + 100 is out of range.
  const model = parseFile(integralFile(Array.from({ length: 3000 }, (_, n) => n), 'n'))
  const sequence = model.columns[0].section.values
  sequence.blocks[1] = tableBlock([0n, 150n, 399n], Array.from({ length: 1024 }, (_, i) => (i === 100 ? 3 : i % 3)))
  const bytes = buildFile(model)

  const expectScratch = () => expect([scratchU32(0), scratchU32(1), scratchU32(2)]).toEqual([1, 3, 3])

  it('decodeRaw, getRaw and the typed decoders report block, index and entries', () => {
    reset()
    const [placed] = place(bytes, 1)
    const out = allocate(8 * 3000)
    const { records, data, count } = placed
    for (const [first, n] of [[0, 3000], [1124, 1], [1000, 200], [1100, 25]]) {
      expect(kernels.decodeRaw(records, data, count, first, n, out)).toBe(1)
      expectScratch()
      expect(kernels.decodeFloat64Sortable(records, data, count, first, n, out)).toBe(1)
      expectScratch()
      expect(kernels.decodeFloat64Exact(records, data, count, first, n, out)).toBe(1)
      expect(kernels.decodeInt32(records, data, count, first, n, NO_LIMIT, out)).toBe(1)
      expect(kernels.decodeInt32(records, data, count, first, n, 5000, out)).toBe(1)
      expectScratch()
    }
    expect(kernels.decodeRaw(records, data, count, 1125, 1000, out)).toBe(0)
    expect(kernels.decodeRaw(records, data, count, 0, 1124, out)).toBe(0)
    expect(kernels.getRaw(records, data, 1124, out)).toBe(1)
    expectScratch()
    expect(kernels.getRaw(records, data, 1125, out)).toBe(0)
    expect(new BigInt64Array(kernels.memory.buffer, out, 1)[0]).toBe(399n)
    expect(kernels.checkCanonical(records, data, count, out)).toBe(-2)
    expectScratch()
  })

  it('an index byte patched in memory', () => {
    reset()
    const file = integralFile(Array.from({ length: 2048 }, (_, i) => [0n, 1000n, 2000n, 9000n, -5n][i % 5]))
    const [placed] = place(file, 0)
    const view = placed.view
    expect(view.records[6] & 0xff).toBe(2) // block 1: a table of 5 entries, 3-bit indexes
    const indexes = placed.data + view.records[7] + 8 * 5
    // Bits 80..87: index 26 (bits 78..80, was 1 for the value 0) becomes 5, index 27 (81..83) becomes 7.
    bytesAt(indexes + 10, 1)[0] = 0xff
    const out = allocate(8 * 2048)
    expect(kernels.decodeRaw(placed.records, placed.data, placed.count, 0, 2048, out)).toBe(1)
    expect([scratchU32(0), scratchU32(1), scratchU32(2)]).toEqual([1, 5, 5])
    expect(kernels.getRaw(placed.records, placed.data, 1024 + 27, out)).toBe(1)
    expect([scratchU32(0), scratchU32(1), scratchU32(2)]).toEqual([1, 7, 5])
    expect(kernels.getRaw(placed.records, placed.data, 1024 + 25, out)).toBe(0)
  })
})

describe('checkCanonical', () => {
  it('every sequence of a flushed file is canonical; min and max are the true ones', () => {
    for (const [index, bytes] of allFiles.entries()) {
      reset()
      const out = allocate(16)
      for (const sequence of place(bytes, index % 8)) {
        expect(kernels.checkCanonical(sequence.records, sequence.data, sequence.count, out)).toBe(-1)
        const raw = new BigInt64Array(reference(sequence.view, 0, sequence.count).buffer)
        const min = raw.reduce((a, b) => (b < a ? b : a)), max = raw.reduce((a, b) => (b > a ? b : a))
        expect([...new BigInt64Array(kernels.memory.buffer, out, 2)]).toEqual([min, max])
      }
    }
  })

  /** A 4-block integral sequence whose block 2 is replaced by `block` (1,024 values). */
  function withBlock(block: ReturnType<typeof constantBlock>): Placed {
    const model = parseFile(integralFile(Array.from({ length: 4000 }, (_, n) => n)))
    model.columns[0].section.values.blocks[2] = block
    return place(buildFile(model), 5)[0]
  }
  const repeat = (pattern: bigint[]) => Array.from({ length: 1024 }, (_, i) => pattern[i % pattern.length])
  /** 300 distinct values start + step × j, repeated: too many for a table. */
  const spaced = (start: bigint, step: bigint) => Array.from({ length: 1024 }, (_, i) => start + step * BigInt(i % 300))

  // [name, block, the canonical record, or null for a canonical block]
  const cases: [string, () => ReturnType<typeof constantBlock>, [number, number, bigint, bigint] | null][] = [
    ['values {0, 6, 600} stored packed → table', () => packedBlock(repeat([0n, 6n, 600n]), 0n, 6n, 7), [2, 2, 0n, 3n]],
    ['values {0, 3, 200} stored as a table → packed (range needs 8 bits only)', () => tableBlock([0n, 3n, 200n], repeat([0n, 1n, 2n]).map(Number)), [1, 8, 0n, 1n]],
    ['all equal stored packed → constant', () => packedBlock(repeat([77n]), 77n, 1n, 1), [0, 0, 77n, 0n]],
    ['a width wider than needed', () => packedBlock(repeat([10n, 20n, 110n]), 10n, 10n, 9), [1, 4, 10n, 10n]],
    ['g = 1 where the gcd is 2', () => packedBlock(spaced(4n, 2n), 4n, 1n, 10), [1, 9, 4n, 2n]],
    ['a table entry no value uses', () => tableBlock([0n, 300n, 600n], repeat([0n, 1n]).map(Number)), [1, 1, 0n, 300n]],
    ['nothing in a canonical 64-bit block', () => packedBlock(repeat([-TWO_63, TWO_63 - 1n, ...spaced(0n, 3n)]), -TWO_63, 1n, 64), null],
  ]
  for (const [name, block, canonical] of cases) {
    it(`finds ${name}`, () => {
      reset()
      const sequence = withBlock(block())
      expect(kernels.checkCanonical(sequence.records, sequence.data, sequence.count, allocate(16))).toBe(canonical === null ? -1 : 2)
      if (canonical !== null) expect(canonicalScratch()).toEqual(canonical)
    })
  }

  it('records patched in memory: the first bad block and its canonical record', () => {
    reset()
    const { bytes } = widthsFile(1n, 99)
    const [sequence] = place(bytes, 2)
    const out = allocate(16)
    const record = (block: number) => sequence.records + 24 * block
    const memory = () => new DataView(kernels.memory.buffer)
    const original = bytesAt(sequence.records, 24 * sequence.view.blockCount).slice(), saved = new DataView(original.buffer)
    const check = () => kernels.checkCanonical(sequence.records, sequence.data, sequence.count, out)
    const canonicalOf = (b: number) => [original[24 * b], original[24 * b + 1], saved.getBigInt64(24 * b + 8, true), saved.getBigInt64(24 * b + 16, true)]
    // The constant block (after the 64 packed ones): width 0 → 5.
    memory().setUint8(record(64) + 1, 5)
    expect(check()).toBe(64)
    expect(canonicalScratch()).toEqual(canonicalOf(64))
    // A table block's base (its values come from the entries): the first entry is the canonical base.
    bytesAt(sequence.records, original.length).set(original)
    memory().setBigInt64(record(65) + 8, 12345n, true)
    expect(check()).toBe(65)
    expect(canonicalScratch()).toEqual(canonicalOf(65))
    // A packed block turned constant with its width left: an earlier block wins over a later one.
    memory().setUint8(record(30), 0)
    expect(check()).toBe(30)
    expect(canonicalScratch()).toEqual([0, 0, memory().getBigInt64(record(30) + 8, true), 0n])
    bytesAt(sequence.records, original.length).set(original)
    expect(check()).toBe(-1)
  })
})
