/**
 * Format v2's block pool: data built for each kind comes out as that kind, in
 * exactly the bytes its size formula gives, and reads back value by value and
 * in bulk (writing nothing outside the range asked for); ties go to the lower
 * kind, and a patched block's to the larger low width; the blocks estimate is
 * exact up to 64 blocks; wide blocks stay frame blocks.
 */
import { describe, expect, it } from 'vitest'
import { analyseBlock, createAnalysis } from '../src/cascade/block-analysis.js'
import { blocksNodeEstimate, chooseKind } from '../src/cascade/block-pool.js'
import { Kind } from '../src/cascade/constants.js'
import { encodeBlocks, expectDecodes, wordsOf } from './helpers/cascade-harness.js'
import { seededRandom } from './helpers/random.js'
import { typeScriptBackend } from '../src/backend/ts/index.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'

const random = seededRandom(2024)
const int = (below: number) => Math.floor(random() * below)
const big = (bits: number) => BigInt(int(2 ** Math.min(bits, 30))) * 2n ** BigInt(Math.max(0, bits - 30)) + BigInt(int(2 ** Math.max(0, Math.min(30, bits - 30))))

/** One block's values per kind, each built so that kind is the smallest. */
const blocks: Record<string, bigint[]> = {
  constant: Array(1024).fill(-5n),
  frame: Array.from({ length: 1024 }, () => BigInt(int(1 << 20)) - 500_000n),
  // 600 distinct 40-bit values: entries cost 600 × 40 bits, indexes 10 bits each, below 40 bits per value.
  dictionary: (() => {
    const pool = Array.from({ length: 600 }, () => big(40))
    return Array.from({ length: 1024 }, (_, i) => (i < 600 ? pool[i] : pool[int(600)]))
  })(),
  runs: Array.from({ length: 1024 }, (_, i) => BigInt(Math.floor(i / 64)) * 1_000_003n + 7n),
  // 1,000 zeros and 24 wide values: the top value costs nothing, the rest are listed.
  frequent: Array.from({ length: 1024 }, (_, i) => (i % 43 === 0 ? big(40) : 0n)),
  // Mostly 3-bit values with a few 36-bit ones, in no run: low bits for all, patches for the few.
  patched: Array.from({ length: 1024 }, (_, i) => (i % 97 === 5 ? big(36) : BigInt(1 + int(7)))),
  linear: Array.from({ length: 1024 }, (_, i) => 1_600_000_000_000n + 60_123n * BigInt(i) + BigInt(int(16))),
}

describe('block kinds', () => {
  for (const [name, values] of Object.entries(blocks)) {
    it(`${name}: chosen for data built for it, read back exactly`, () => {
      const words = wordsOf(values)
      const encoded = encodeBlocks(words)
      expect(encoded.signature).toBe(`blocks{${name}}`)
      expectDecodes(encoded, words)
    })
  }

  it('the data length is the smallest of the exact sizes (every kind sized by its formula)', () => {
    const a = createAnalysis()
    for (const values of Object.values(blocks)) {
      const words = wordsOf(values)
      analyseBlock(words, 0, values.length, a)
      if (a.range === 0) continue
      const { size } = chooseKind(a)
      const encoded = encodeBlocks(words)
      // Form byte, 12-byte header, one record, the data, 8 padding bytes.
      expect(encoded.bytes.length).toBe(1 + 12 + 24 + size + 8)
    }
  })

  it('partial last blocks and every block length 1..40 read back', () => {
    for (let n = 1; n <= 40; n++) {
      for (const source of Object.values(blocks)) {
        const values = [...source, ...source.slice(0, n)]
        const words = wordsOf(values)
        expectDecodes(encodeBlocks(words), words)
      }
    }
  })

  it('dictionary blocks of every entry width 1..53 read back (fields across word edges at every offset)', () => {
    let dictionaries = 0
    for (let width = 1; width <= 53; width++) {
      // k distinct entries of `width` bits (the widest one sets the width), each used several times.
      const k = Math.min(2 ** width, 300)
      const entries = new Set<bigint>([2n ** BigInt(width) - 1n])
      while (entries.size < k) entries.add(big(width) % 2n ** BigInt(width))
      const pool = [...entries]
      const values = Array.from({ length: 1024 + 333 }, (_, i) => 123_456_789n + (i < k ? pool[i] : pool[int(k)]))
      const words = wordsOf(values)
      const encoded = encodeBlocks(words)
      if (!encoded.signature.includes('dictionary')) continue
      dictionaries++
      expectDecodes(encoded, words)
    }
    // Narrow entries come out as frame blocks (indexes cost as much as the values): widths 13..51 here.
    expect(dictionaries).toBe(39)
  })

  it('dictionary blocks whose base has a low word of 0 or just below 2^32 read back (no carry, a carry each)', () => {
    for (const base of [5n * 2n ** 32n, 6n * 2n ** 32n - 3n, -(2n ** 40n)]) {
      const pool = [0n, ...Array.from({ length: 599 }, () => big(40))]
      const values = Array.from({ length: 1024 }, (_, i) => base + (i < 600 ? pool[i] : pool[int(600)]))
      const words = wordsOf(values)
      const encoded = encodeBlocks(words)
      expect(encoded.signature, String(base)).toBe('blocks{dictionary}')
      expectDecodes(encoded, words)
    }
  })

  it('frequent blocks: bitmap and list positions, with and without the exceptions\' divisor', () => {
    // e exceptions among 1,024: the list (10 bits each) is smaller below 103 exceptions.
    const cases: [string, bigint[], number][] = [
      // 11 exceptions of 20 random bits: listed (14 bytes against a 128-byte bitmap).
      ['list', Array.from({ length: 1024 }, (_, i) => (i % 100 === 0 ? 5n + BigInt(1 + int(1 << 20)) : 5n)), 1 << 10],
      // 342 exceptions: the bitmap (128 bytes) beats a list of 10-bit positions (428).
      ['bitmap', Array.from({ length: 1024 }, (_, i) => (i % 3 === 0 ? 5n + BigInt(i & 7) : 5n)), 0],
      // Exceptions in millions beside an odd top value: their divisor (10^6) is worth its 8 bytes; the block's is 1.
      ['divisor', Array.from({ length: 1024 }, (_, i) => (i % 50 === 0 ? 1_000_000n * BigInt(1 + int(30000)) : 7n)), (1 << 10) | (1 << 11)],
    ]
    for (const [label, values, flags] of cases) {
      const words = wordsOf(values)
      const encoded = encodeBlocks(words)
      expect(encoded.signature, label).toBe('blocks{frequent}')
      expect(encoded.view.records[0] & 0xff).toBe(Kind.frequent)
      expect((encoded.view.records[0] >>> 16) & ~1023, label).toBe(flags)
      expectDecodes(encoded, words)
    }
  })

  it('frequent blocks take the exceptions\' divisor from 2 on, where it saves bytes', () => {
    // 128 exceptions (bitmap) of 20 bits, their differences all even, one of them 2: gx = 2 saves
    // 128 bits against its 8 bytes (8 + 304 < 320 bytes of fields).
    const values = Array.from({ length: 1024 }, (_, i) => (i % 8 === 0 ? 1_000n + 2n * BigInt(i === 8 ? 1 : int(1 << 19)) : 7n))
    values[0] = 1_000n
    const words = wordsOf(values)
    const encoded = encodeBlocks(words)
    expect(encoded.signature).toBe('blocks{frequent}')
    expect((encoded.view.records[0] >>> 16) & ~1023).toBe(1 << 11)
    expectDecodes(encoded, words)
  })

  it('patched blocks: of two low widths of the same size, the larger', () => {
    // Widths 11 (128 values of 1,024..2,040), 4 (112 of 8..15), 3 (783 of 4..7) and one 0. Low width 4
    // patches the 128 (1 + 512 + 128 bitmap + 112 bytes of 7-bit high parts = 753); low width 3 the
    // 240 (1 + 384 + 128 + 240 bytes of 8-bit high parts = 753); every other width more.
    const values = Array.from({ length: 1024 }, (_, i) =>
      i % 8 === 0 ? 1_024n + BigInt((i * 37) % 1024) : i % 8 === 1 && i < 896 ? 8n + BigInt((i >>> 3) % 8) : i === 2 ? 0n : 4n + BigInt(i % 4))
    const words = wordsOf(values)
    const encoded = encodeBlocks(words)
    expect(encoded.signature).toBe('blocks{patched}')
    const a = createAnalysis()
    analyseBlock(words, 0, 1024, a)
    expect(chooseKind(a).size).toBe(753)
    // The record's width is the low width.
    expect((encoded.view.records[0] >>> 8) & 0xff).toBe(4)
    expectDecodes(encoded, words)
  })

  it('linear blocks whose last value carries into the next high word by exactly one read back', () => {
    // A line of slope q + 1023/1024 (written back as q + 1022/1024 with residuals 0 or 1) whose last
    // value is base + 2^32 - base's low word: the reader's bound on the block's largest offset must
    // see the carry, which one less would miss.
    for (let q = 1; q <= 4; q++) {
      const line = Array.from({ length: 1024 }, (_, j) => BigInt(Math.floor((j * (1024 * q + 1023)) / 1024)))
      const words = wordsOf(line.map((x) => 2n ** 33n - line[1023] + x))
      const encoded = encodeBlocks(words)
      expect(encoded.signature).toBe('blocks{linear}')
      const records = encoded.view.records
      expect([(records[0] >>> 8) & 0xff, records[4] & 1023, records[3], (records[2] >>> 0) + 1023 * q + 1022]).toEqual([1, 1022, 1, 2 ** 32])
      expectDecodes(encoded, words)
    }
  })

  it('a linear block whose base passes -2^63 is stored wrapped and reads back exactly on both backends', () => {
    // ρ = 0, -11, 0, …: base = v0 - 11 = -2^63 - 10, below i64, kept as its low 64 bits (2^63 - 10).
    const low = -(2n ** 63n)
    const values = [low + 1n, low, ...[21n, 31n, 41n, 51n, 61n, 71n].map((offset) => low + offset)]
    const encoded = encodeBlocks(wordsOf(values))
    expect(encoded.signature).toBe('blocks{linear}')
    const records = encoded.view.records
    expect([records[2], records[3], records[4], (records[0] >>> 8) & 0xff]).toEqual([-10, 0x7fffffff, 10240, 4])
    expectDecodes(encoded, wordsOf(values))
    const bytes = flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, values.map((n) => ({ n })), { format: 2 })!
    for (const backend of ['ts', 'wasm'] as const) {
      const column = openColumns(bytes, { backend }).getColumn('n')!
      const out = new BigInt64Array(values.length)
      column.readValues(0, out)
      expect([...out]).toEqual(values)
      expect(values.map((_, document) => column.getInt64BigInt(document))).toEqual(values)
    }
  })

  it('single reads as numbers: each value exact, NaN beyond 2^53, also where only the block\'s base is beyond', () => {
    // A runs block whose base, -(2^53 + 1), is no double: its other runs' values are safe integers.
    const far = -(2n ** 53n) - 1n
    const runs = Array.from({ length: 1024 }, (_, i) => (i < 64 ? far : far + 2n ** 50n + BigInt(1000 * (i >> 6) + 7)))
    for (const values of [...Object.values(blocks), runs]) {
      const words = wordsOf(values)
      const encoded = encodeBlocks(words)
      if (values === runs) expect(encoded.signature).toBe('blocks{runs}')
      for (let index = 0; index < values.length; index++) {
        const value = values[index], safe = value >= -(2n ** 53n) + 1n && value <= 2n ** 53n - 1n
        const number = typeScriptBackend.getNumber(encoded.view, index)
        if (safe ? number !== Number(value) : number === number) throw new Error(`${encoded.signature} value ${index}: ${number}, wrote ${value}`)
      }
    }
  })

  it('single reads as numbers of frame blocks beside v2 kinds: divisors, wide fields, offsets and bases past 2^53', () => {
    // A runs block first, so the sequence is a cascade and its frame blocks take the number path.
    const frames = [
      Array.from({ length: 1024 }, () => 1000n * BigInt(int(1 << 20)) - 7n),
      Array.from({ length: 1024 }, () => 2n ** 52n - 7n * big(43)),
      // g = 2^40, 20-bit fields: offsets of 2^13 and more pass 2^53 (then read in 64 bits).
      Array.from({ length: 1024 }, (_, i) => 2n ** 40n * BigInt(i % 3 === 0 ? int(1 << 13) : int(1 << 20)) - 2n ** 53n),
      // g × field = 321 × 28059810762433 = 2^53 + 1, which a double rounds to 2^53: read in 64 bits.
      Array.from({ length: 1024 }, (_, i) => -(2n ** 52n) + 321n * [0n, 1n, 28059810762433n][i % 3]),
      // A base below -2^53: values past it by less than 2 are no safe integers, the rest are.
      Array.from({ length: 1024 }, (_, i) => -(2n ** 53n) - 1n + BigInt(i === 0 ? 0 : int(1 << 20))),
      // 60- and 64-bit fields: past what a double's field read holds.
      Array.from({ length: 1024 }, (_, i) => (i === 0 ? 0n : big(60))),
      Array.from({ length: 1024 }, (_, i) => [-(2n ** 63n), 2n ** 63n - 1n, 0n, 5n][i & 3]),
    ]
    const values = [...blocks.runs, ...frames.flat()]
    const encoded = encodeBlocks(wordsOf(values))
    expect(encoded.signature).toBe('blocks{frame runs}')
    expect(Array.from({ length: 1 + frames.length }, (_, block) => encoded.view.records[6 * block] & 0xff)).toEqual([Kind.runs, ...frames.map(() => Kind.frame)])
    expectDecodes(encoded, wordsOf(values))
    for (let index = 0; index < values.length; index++) {
      const value = values[index], safe = value >= -(2n ** 53n) + 1n && value <= 2n ** 53n - 1n
      const number = typeScriptBackend.getNumber(encoded.view, index)
      if (safe ? number !== Number(value) : number === number) throw new Error(`value ${index}: ${number}, wrote ${value}`)
    }
  })

  it('a blocks node\'s estimate is its exact size up to 64 blocks: constant blocks cost no data', () => {
    // Equal values (constant blocks), every kind after them, then a partial block: 2,048 to 8,192 values.
    const kinds = Object.values(blocks).flat()
    for (const values of [Array(2048).fill(9n), [...Array(1024).fill(-3n), ...kinds], [...kinds, ...Array(1500).fill(0n)].slice(0, 4500)]) {
      const words = wordsOf(values)
      const { n, d } = blocksNodeEstimate(words, values.length)
      expect(n % d).toBe(0n)
      expect(Number(n / d)).toBe(encodeBlocks(words).bytes.length)
    }
    // Form byte, header, two records, no data, padding.
    const constant = blocksNodeEstimate(wordsOf(Array(2048).fill(9n)), 2048)
    expect(Number(constant.n / constant.d)).toBe(1 + 12 + 2 * 24 + 8)
  })

  it('ties go to the lower kind: two values alternating are frame, not dictionary or runs', () => {
    // {0, 1} alternating: frame 1 bit each (128 bytes); dictionary 1 + 128; runs 1024 runs.
    const words = wordsOf(Array.from({ length: 1024 }, (_, i) => BigInt(i & 1)))
    expect(encodeBlocks(words).signature).toBe('blocks{frame}')
    // A line with no jitter is linear of width 0 (0 data bytes) unless constant.
    const line = wordsOf(Array.from({ length: 1024 }, (_, i) => BigInt(3 * i)))
    expect(encodeBlocks(line).signature).toBe('blocks{linear}')
  })

  it('blocks whose range is 2^51 or more are frame blocks (v1\'s packed form), the extremes included', () => {
    const wide = [-(2n ** 63n), 2n ** 63n - 1n, 0n, 5n]
    const words = wordsOf(Array.from({ length: 1024 }, (_, i) => wide[i & 3]))
    const encoded = encodeBlocks(words)
    expect(encoded.signature).toBe('blocks{frame}')
    expectDecodes(encoded, words)
    const edge = wordsOf(Array.from({ length: 1024 }, (_, i) => (i % 100 === 0 ? 2n ** 51n - 1n : 0n)))
    expect(encodeBlocks(edge).signature).toBe('blocks{frequent}')
    const over = wordsOf(Array.from({ length: 1024 }, (_, i) => (i % 100 === 0 ? 2n ** 51n : 0n)))
    expect(encodeBlocks(over).signature).toBe('blocks{frame}')
    expectDecodes(encodeBlocks(edge), edge)
  })

  it('random blocks of every shape read back (500 blocks)', () => {
    for (let trial = 0; trial < 500; trial++) {
      const n = 1 + int(1024), distinct = 1 + int(40), bits = 1 + int(50)
      const pool = Array.from({ length: distinct }, () => big(bits) - (random() < 0.3 ? 2n ** BigInt(bits - 1) : 0n))
      let run = 1 + int(30)
      const values: bigint[] = []
      while (values.length < n) {
        const value = pool[int(distinct)]
        for (let r = 0; r < run && values.length < n; r++) values.push(value)
        run = 1 + int(30)
      }
      const words = wordsOf(values)
      expectDecodes(encodeBlocks(words), words)
    }
  })
})
