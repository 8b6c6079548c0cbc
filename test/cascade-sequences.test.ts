/**
 * Format v2's sequence forms: data built for each form comes out in it (with
 * the children the rule gives), reads back value by value and in bulk, and the
 * decimal form keeps every double's bits (−0, NaN payloads, infinities and
 * values needing more digits are exceptions).
 */
import { describe, expect, it } from 'vitest'
import { chooseExponent, decimalOf, decimalParts } from '../src/cascade/sequences/decimal.js'
import { MAX_EXPONENT } from '../src/cascade/constants.js'
import { POWERS_OF_TEN } from '../src/cascade/powers-of-ten.js'
import type { SequenceView } from '../src/backend/backend.js'
import { sequenceExtent } from '../src/cascade/reader/parse.js'
import { doubleWords, encodeRuns, encodeSequence, expectDecodes, parse, wordsOf } from './helpers/cascade-harness.js'
import { seededRandom } from './helpers/random.js'
import { typeScriptBackend } from '../src/backend/ts/index.js'

const random = seededRandom(77)
const int = (below: number) => Math.floor(random() * below)
const wide = () => BigInt(int(2 ** 30)) * 1024n + BigInt(int(1024))

describe('sequence forms', () => {
  it('blocks: values with no repeats across the sequence', () => {
    const words = wordsOf(Array.from({ length: 5000 }, () => wide()))
    const encoded = encodeSequence(words)
    expect(encoded.signature).toBe('blocks{frame}')
    expectDecodes(encoded, words)
  })

  it('dictionary by frequency: few wide values, skewed, in no order', () => {
    const pool = Array.from({ length: 40 }, () => wide())
    const values = Array.from({ length: 20_000 }, () => pool[Math.min(39, Math.floor(-Math.log(1 - random()) * 4))])
    const words = wordsOf(values)
    const encoded = encodeSequence(words)
    expect(encoded.signature).toMatch(/^dictionary\(\d+ entries, by frequency\)\[entries: blocks\{\w+\}, codes: blocks\{/)
    expectDecodes(encoded, words)
  })

  it('dictionary ascending: equal frequencies (the orders tie, so ascending), each block near its own values', () => {
    const pool = Array.from({ length: 400 }, () => wide()).sort((a, b) => (a < b ? -1 : 1))
    const values = Array.from({ length: 10_240 }, (_, i) => pool[10 * Math.floor(i / 256) + (i % 10)])
    const words = wordsOf(values)
    const encoded = encodeSequence(words)
    expect(encoded.signature).toMatch(/^dictionary\(400 entries, ascending\)/)
    expectDecodes(encoded, words)
  })

  it('runs: long runs of wide values across block edges, read through the checkpoints', () => {
    const values: bigint[] = []
    while (values.length < 100_000) {
      const value = wide(), length = 1 + int(1500)
      for (let r = 0; r < length; r++) values.push(value)
    }
    values.length = 100_000
    const words = wordsOf(values)
    const encoded = encodeSequence(words)
    expect(encoded.signature).toMatch(/^runs\(\d+ runs\)\[run values: blocks\{frame\}, run starts: blocks\{/)
    expectDecodes(encoded, words)
  })

  it('runs never searched outside a block: one run covering several checkpoints, then short runs', () => {
    const short = Array.from({ length: 1000 }, () => wide())
    const values = [...Array(5000).fill(9n), ...Array.from({ length: 3000 }, (_, i) => short[Math.floor(i / 3)])]
    const words = wordsOf(values)
    const encoded = encodeRuns(words)
    expect(encoded.signature).toMatch(/^runs\(1001 runs\)/)
    expectDecodes(encoded, words)
  })

  it('decimal: prices with two digits, exceptions kept raw (−0, NaN with a payload, ±Infinity, 1/3)', () => {
    const nanPayload = new Float64Array(new BigInt64Array([0x7ff8_0000_dead_beefn]).buffer)[0]
    const special = [-0, nanPayload, Infinity, -Infinity, 1 / 3, 1e300]
    const values = Array.from({ length: 9000 }, (_, i) => (i % 1000 === 999 ? special[(i / 1000) % special.length | 0] : int(1_000_000) / 100))
    const words = doubleWords(values)
    const encoded = encodeSequence(words, 'double')
    expect(encoded.signature).toMatch(/^decimal\(n \/ 10\^2, 9 exceptions\)\[integers: blocks\{frame\}\]$/)
    expectDecodes(encoded, words)
    // Straight to doubles (n / 10^e, exceptions converted): the same bits, from several starts.
    for (const [first, n] of [[0, 9000], [999, 1], [1000, 3000], [4998, 4002]]) {
      const out = new Float64Array(n + 2)
      expect(typeScriptBackend.decodeFloat64(encoded.view, first, n, 'sortable', out, 1)).toBe(-1)
      const got = new BigInt64Array(out.buffer, 8, n), wanted = new BigInt64Array(Float64Array.from(values.slice(first, first + n)).buffer)
      expect([...got], `[${first}, ${first + n})`).toEqual([...wanted])
    }
  })

  it('decimal over a dictionary: few distinct decimals', () => {
    const pool = [0, 0.5, 1.25, 7.75, 12.5, 99.99]
    const words = doubleWords(Array.from({ length: 8000 }, () => pool[int(pool.length)]))
    const encoded = encodeSequence(words, 'double')
    expect(encoded.signature).toMatch(/^decimal\(n \/ 10\^2, 0 exceptions\)\[integers: (dictionary|blocks)/)
    expectDecodes(encoded, words)
  })

  it('doubles that are no decimals stay raw blocks; integers never take the decimal form', () => {
    const words = doubleWords(Array.from({ length: 3000 }, () => random() * 1e6))
    expect(encodeSequence(words, 'double').signature).toMatch(/^blocks/)
    const integers = wordsOf(Array.from({ length: 3000 }, (_, i) => BigInt(i * 100)))
    expect(encodeSequence(integers, 'integer').signature).not.toMatch(/decimal/)
  })
})

describe('the decimal rule', () => {
  it('divides by 10^e exactly: one power for each exponent the rule tries, each the exact integer', () => {
    expect(POWERS_OF_TEN).toHaveLength(MAX_EXPONENT + 1)
    // BigInt of an integral double is exact: each power must be 10^e itself, not a neighbour.
    POWERS_OF_TEN.forEach((power, e) => expect(BigInt(power)).toBe(10n ** BigInt(e)))
  })

  it('a value encodes iff n / 10^e gives its bits back; -0 and NaN never do', () => {
    expect(decimalOf(0.1, 1)).toBe(1)
    expect(decimalOf(0.3, 1)).toBe(3)
    expect(decimalOf(0.3, 0)).toBeNaN()
    expect(decimalOf(-0, 3)).toBeNaN()
    expect(decimalOf(0, 3)).toBe(0)
    expect(decimalOf(NaN, 2)).toBeNaN()
    expect(decimalOf(2 ** 53, 0)).toBeNaN()
    expect(decimalOf(-123.456, 3)).toBe(-123456)
    expect(decimalOf(1e-18, 18)).toBe(1)
  })

  it('the exponent: the smallest estimate on the fixed sample, ties to the smaller e', () => {
    // All values have exactly 3 decimals: e = 3 encodes them all, in the fewest bits.
    const words = doubleWords(Array.from({ length: 5000 }, () => int(100000) / 1000))
    expect(chooseExponent(words, 5000)).toBe(3)
    // Integers as doubles: e = 0.
    expect(chooseExponent(doubleWords([1, 2, 3, 4]), 4)).toBe(0)
    // Nothing encodes at any e.
    expect(chooseExponent(doubleWords([NaN, -0, Infinity]), 3)).toBe(-1)
  })

  it('an exception\'s slot holds the n before it, or the first encoded n', () => {
    const { integers, positions } = decimalParts(doubleWords([NaN, NaN, 1.5, NaN, 2.5, -0]), 6, 1)
    expect(positions).toEqual([0, 1, 3, 5])
    expect(Array.from(new BigInt64Array(integers.buffer))).toEqual([15n, 15n, 15n, 15n, 25n, 25n])
  })
})

describe('a sequence dictionary\'s codes in patched blocks, mapped as they are read (TypeScript)', () => {
  // Four common values and 31 rare ones at every 97th value: codes 0-3 in the low fields, the rare ones patched.
  const pool = Array.from({ length: 64 }, () => wide())
  const values = Array.from({ length: 3000 }, (_, i) => (i % 97 === 5 ? pool[4 + ((i * 7) % 60)] : pool[int(4)]))
  const words = wordsOf(values)
  const encoded = encodeSequence(words)
  const cascade = encoded.view.cascade as { codes: SequenceView; entries: SequenceView }
  const codes = new Int32Array(2 * values.length)
  typeScriptBackend.decodeRaw(cascade.codes, 0, values.length, codes, 0)
  const k = cascade.entries.count
  const [codesStart] = sequenceExtent(cascade.codes)
  const width = (cascade.codes.records[0] >>> 8) & 0xff
  /** The sequence with block 0's record of codes changed at `offset` (8 = base, 16 = aux) to `value`. */
  const withRecord = (offset: number, value: number) => {
    const bytes = encoded.bytes.slice()
    new DataView(bytes.buffer).setUint32(codesStart + 13 + offset, value, true)
    return parse(bytes, values.length, 'integer').view
  }
  const decodeError = (view: SequenceView, first: number, count: number) => {
    try {
      typeScriptBackend.decodeRaw(view, first, count, new Int32Array(2 * count), 0)
    } catch (error) {
      return (error as Error).message
    }
    return 'no error'
  }

  it('reads back exactly, from any start (whole blocks, blocks begun and ended mid-way)', () => {
    expect(k).toBe(35)
    expect(encoded.signature).toMatch(/^dictionary\(35 entries, by frequency\)\[entries: blocks\{\w+\}, codes: blocks\{patched\}\]$/)
    expect(width).toBe(2)
    expectDecodes(encoded, words)
    for (const [first, count] of [[5, 1019], [1000, 50], [1023, 1025], [2047, 953]]) {
      const out = new Int32Array(2 * count)
      typeScriptBackend.decodeRaw(encoded.view, first, count, out, 0)
      expect([...out]).toEqual([...words.subarray(2 * first, 2 * (first + count))])
    }
  })

  it('a low field\'s code beyond the entries is refused, naming the value, where no patch is read', () => {
    // Base raised by k: every code of block 0 is past the entries; read where no patch lies.
    let lastPatch = 0
    for (let i = 0; i < 1024; i++) if (codes[2 * i] >= 2 ** width) lastPatch = i
    const first = lastPatch + 1
    expect(first).toBeLessThan(1024)
    expect(decodeError(withRecord(8, k), first, 1024 - first))
      .toBe(`test.oixk: values: value ${first} has dictionary code ${k + codes[2 * first]}, beyond its ${k} entries`)
  })

  it('a patch\'s code beyond the entries is refused, naming the value, while every low field\'s is fine', () => {
    // Divisor 2: low fields' codes stay ≤ 6, patches' codes from 18 on become 36 and above.
    let bad = -1
    for (let i = 0; i < 1024 && bad < 0; i++) if (2 * codes[2 * i] >= k) bad = i
    expect(bad).toBeGreaterThan(0)
    expect(decodeError(withRecord(16, 2), 0, 1024))
      .toBe(`test.oixk: values: value ${bad} has dictionary code ${2 * codes[2 * bad]}, beyond its ${k} entries`)
  })
})
