/**
 * The WebAssembly typed decoders' one-pass paths (assembly/typed-int32.ts and
 * typed-float64.ts) at the edges their record proofs rely on: packed blocks whose
 * units only partly map into int32, bases far below int32, width 32, doubles at
 * ±(2^53 - 1) and spans of almost 2^53, widths above 32. Every case is read by
 * WASM into a plain array and in place into a ValueBuffer, and by the TS backend;
 * all three must equal the values computed with BigInt, or fail with the same
 * error having written exactly the values before the bad one.
 */
import { describe, expect, it } from 'vitest'
import { createValueBuffer } from '../src/read/buffers.js'
import { openColumns } from '../src/read/open.js'
import { attempt, sameOutcome } from './helpers/duel.js'
import { denseFile } from './helpers/dense-file.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { buildFile, canonicalSequence, col, decodeSequence, expectCorrupt, FILE_NAME, parseFile, tableBlock } from './helpers/file-surgery.js'
import { block, duel, fitsDouble, fitsInt32, INT32_MAX, INT32_MIN, SAFE } from './helpers/typed-duel.js'

describe('int32: units checked against the range that maps into int32', () => {
  it('width 32 from near INT32_MIN, every value in range (the record alone cannot prove it)', () => {
    const values = block(INT32_MIN + 5n, 1n, 32, (index) => (index === 1 ? INT32_MAX : null)).map((value) => (value > INT32_MAX ? INT32_MAX - (value % 1000n) : value))
    duel(values, 'int32', fitsInt32)
    duel(values, 'int32', fitsInt32, 13, 1000)
  })
  it('g = 3 from -10^9, width 31: values past INT32_MAX refused where they first occur', () => {
    const values = [...block(-1_000_000_000n, 3n, 31), ...block(-1_000_000_000n, 3n, 31)]
    expect(values.some((value) => value > INT32_MAX)).toBe(true)
    duel(values, 'int32', fitsInt32)
    const laterBad = values.findIndex((value, index) => index > 1100 && !fitsInt32(value))
    const lastGood = values.findLastIndex((value, index) => index < laterBad && !fitsInt32(value)) + 1
    duel(values, 'int32', fitsInt32, lastGood, laterBad - lastGood) // good values between two bad ones: read whole
    duel(values, 'int32', fitsInt32, laterBad - 9, 20) // the bad one inside a run
  })
  it('base far below int32 (-2^40, g = 2^9): units up from 2^31 map into range', () => {
    const base = -(2n ** 40n), g = 2n ** 9n
    const values = block(base, g, 32, (index) => (index >= 2 && index < 1000 ? g * BigInt(2 ** 31 + index * 1000) + base : null))
    const inRange = values.findIndex(fitsInt32)
    expect(inRange).toBeGreaterThan(1)
    duel(values, 'int32', fitsInt32)
    duel(values, 'int32', fitsInt32, 2, 998) // all in range
  })
  it('g = 1 at the widths with a function each (1-26 but 8, 28): checked units refused where they first occur', () => {
    for (const W of [...Array.from({ length: 26 }, (_, index) => index + 1).filter((width) => width !== 8), 28]) {
      // A block that fits whole, then one from INT32_MAX - 2^(W-1) whose first unit past the range is value 600.
      const base = INT32_MAX - (1n << BigInt(W - 1)), top = (1n << BigInt(W)) - 1n
      const values = [...block(-(2n ** 30n) + BigInt(W), 1n, W), ...block(base, 1n, W, (index) => (index >= 1 && index < 600 ? base + 5n + BigInt(index % 7) : index === 600 ? base + top : null))]
      expect(fitsInt32(values[1624])).toBe(W === 1)
      duel(values, 'int32', fitsInt32)
      duel(values, 'int32', fitsInt32, 1029, 900)
    }
  })
  it('a constant block beside a checked one, and runs that start and end inside groups', () => {
    const values = [...new Array(1024).fill(-12345n), ...block(INT32_MAX - 100n, 1n, 8, (index) => (index >= 2 ? INT32_MAX - BigInt(index % 100) : null))]
    for (const [first, count] of [[0, 2048], [1019, 20], [1030, 1018]]) duel(values, 'int32', fitsInt32, first, count)
  })
})

// duel() takes the ValueBuffer's array before the plain reads: a plain read that grew memory (its staging region
// is allocated with the first file instead) would detach it, and the in-place read would fail.
describe('runs longer than one copy step into plain arrays (2,048 values up to 1 MiB of output, 262,144 beyond)', () => {
  const values = Array.from({ length: 40_000 }, (_, index) => BigInt((index * 7919) % 5000) - 2500n)
  it('int32 and doubles, whole and from inside a step', () => {
    duel(values, 'int32', fitsInt32)
    duel(values, 'float64', fitsDouble, 16_000, 24_000)
    duel(values, 'float64', fitsDouble, 1, 2047 + 2048 + 5) // a whole step between two partial ones
  })
  it('raw values into a BigInt64Array at a byte offset of 8, whole and from inside a step', () => {
    const bytes = denseFile(values.length, (index) => values[index])
    const wasm = openColumns(bytes, { backend: 'wasm' }).getColumn('v')!
    for (const [first, count] of [[0, values.length], [777, 30_001]]) {
      const plain = new BigInt64Array(count + 2).fill(-1n)
      wasm.readValues(first, plain.subarray(1, count + 1))
      expect(Array.from(plain)).toEqual([-1n, ...values.slice(first, first + count), -1n])
    }
  })
  it('a value refused in a later step: the position counts the steps before it', () => {
    const bad = values.map((value, index) => (index === 35_001 ? 2n ** 31n : index === 35_002 ? 2n ** 60n : value))
    duel(bad, 'int32', fitsInt32)
    duel(bad, 'float64', fitsDouble, 100, 39_900)
  })
  it('a run of more than 1 MiB of doubles (long steps): refused near its end', () => {
    const long = Array.from({ length: 140_000 }, (_, index) => (index === 137_003 ? 2n ** 60n : BigInt((index * 7919) % 5000)))
    duel(long, 'float64', fitsDouble)
    duel(long, 'float64', fitsDouble, 5, 136_000) // whole
  })
})

describe('exact doubles: blocks proven within ±(2^53 - 1) decode in one pass', () => {
  const cases: [string, bigint[]][] = [
    ['width 32 at -(2^53 - 1)', block(-SAFE, 1n, 32)],
    ['width 32 ending at 2^53 - 1', block(SAFE - (2n ** 32n - 1n), 1n, 32)],
    ['g = 2^21, width 32: a span of 2^53 - 2^21', block(-(2n ** 52n), 2n ** 21n, 32)],
    ['g = 1000, width 13, negative base', block(-123_456_789n, 1000n, 13)],
    ['width 16 (two-byte windows), g = 7', block(5n, 7n, 16)],
    ['width 47', block(-(2n ** 46n), 1n, 47)],
    ['width 52 ending at -1', block(-(2n ** 52n), 1n, 52)],
    ['constant at -(2^53 - 1)', new Array(1024).fill(-SAFE)],
  ]
  for (const [name, values] of cases) {
    it(name, () => {
      duel(values, 'float64', fitsDouble)
      duel(values, 'float64', fitsDouble, 3, 1013)
    })
  }
  it('every width of the pairs-of-groups unpack (27, 29–31, 33–52): g > 1 with a span near 2^53, and g = 1 either side of base -2^52', () => {
    const widths = [27, 29, 30, 31, ...Array.from({ length: 20 }, (_, index) => 33 + index)]
    // g = 1 adds base - 2^52 in one step, exact from base -2^52 up; from -2^52 - 1 (not exact) the block takes the scaled mode.
    const values = widths.flatMap((W) => [
      ...block(-(2n ** 52n) + BigInt(W), 2n ** BigInt(53 - W) - 1n, W),
      ...block(-(2n ** 52n), 1n, W), ...block(-(2n ** 52n) - 1n, 1n, W), ...block(SAFE - (1n << BigInt(W)) + 1n, 1n, W),
    ])
    duel(values, 'float64', fitsDouble)
    duel(values, 'float64', fitsDouble, 1029, 40_000) // starting and ending inside pairs of groups
    duel(values, 'float64', fitsDouble, 2048 + 8, 1024 - 8 - 3) // an odd number of whole groups
  })
  it('every width with a 32-bit-lane unpack (1–28 but 27, and 32): g = 1 from -(2^53 - 1) and either side of base -2^52, g > 1 up to 2^53 - 1', () => {
    const widths = [...Array.from({ length: 28 }, (_, index) => index + 1).filter((width) => width !== 27), 32]
    // g = 1 from base -2^52 up: units become 2^52 + u by their bits, then one add of base - 2^52.
    const values = widths.flatMap((W) => {
      const g = 2n ** BigInt(53 - W) - 1n
      return [...block(-SAFE, 1n, W), ...block(-(2n ** 52n), 1n, W), ...block(-(2n ** 52n) - 1n, 1n, W), ...block(SAFE - g * ((1n << BigInt(W)) - 1n), g, W)]
    })
    duel(values, 'float64', fitsDouble)
    duel(values, 'float64', fitsDouble, 1029, 40_000) // starting and ending inside groups of 8
  })
  it('every width with a 32-bit-lane unpack below 32 (1–28 but 27): g = 1 with every value an int32 (summed in i32 lanes) and one past either end', () => {
    const widths = Array.from({ length: 28 }, (_, index) => index + 1).filter((width) => width !== 27)
    // int32 lanes from base -2^31 up to a largest value of 2^31 - 1; a block one past either edge takes the unit mode.
    const values = widths.flatMap((W) => {
      const top = 2n ** 31n - (1n << BigInt(W))
      return [...block(INT32_MIN, 1n, W), ...block(INT32_MIN - 1n, 1n, W), ...block(top, 1n, W), ...block(top + 1n, 1n, W), ...block(0n, 1n, W)]
    })
    duel(values, 'float64', fitsDouble)
    duel(values, 'float64', fitsDouble, 1029, 40_000) // starting and ending inside groups of 8
  })
  it('width 1: each value one of the block\'s two, whatever g (bools, g = 3 from -5, a span of 2^53 - 1 from -2^52)', () => {
    const values = [...block(0n, 1n, 1), ...block(-5n, 3n, 1), ...block(-(2n ** 52n), SAFE, 1), ...block(SAFE - 1n, 1n, 1), ...block(-SAFE, 1n, 1)]
    duel(values, 'float64', fitsDouble)
    duel(values, 'float64', fitsDouble, 1029, 3000) // starting and ending inside bytes of fields
  })
  it('2^53 in the middle of a block: refused there, nothing after it written', () => {
    const values = [...block(0n, 1n, 20), ...block(SAFE - 1000n, 1n, 11, (index) => (index === 517 ? SAFE + 1n : null))]
    duel(values, 'float64', fitsDouble)
    duel(values, 'float64', fitsDouble, 1500, 548)
  })
})

describe('raw values into a plain BigInt64Array: spans of constant blocks filled outside the kernels', () => {
  const MIN = -(2n ** 63n)
  // Blocks: 5, 5, 5 (one span), packed, 5, 5 + 2^32 (its low word that of 5), MIN, MIN, 7, then a last block of 700 values of 9.
  const constant = (value: bigint) => new Array<bigint>(1024).fill(value)
  const values = [...constant(5n), ...constant(5n), ...constant(5n), ...block(-3n, 1n, 13), ...constant(5n), ...constant(5n + 2n ** 32n), ...constant(MIN),
    ...constant(MIN), ...constant(7n), ...new Array<bigint>(700).fill(9n)]
  const bytes = denseFile(values.length, (index) => values[index])
  const wasm = openColumns(bytes, { backend: 'wasm' }).getColumn('v')!, ts = openColumns(bytes, { backend: 'ts' }).getColumn('v')!
  it('whole, and runs starting and ending inside spans, shorter than the 512-value threshold or not', () => {
    expect(col(parseFile(bytes), 'v').section.values.blocks.map((block) => block.kind)).toEqual([0, 0, 0, 1, 0, 0, 0, 0, 0, 0])
    for (const [first, count] of [[0, values.length], [1000, 2100], [3000, 200], [4095, 2], [4096, 2048], [5500, 4392], [9000, 892], [9500, 392], [9215, 1]]) {
      const expected = values.slice(first, first + count)
      const plain = new BigInt64Array(count + 2).fill(-1n), buffer = createValueBuffer('int64', count, { backend: 'wasm' }), model = new BigInt64Array(count)
      wasm.readValues(first, plain.subarray(1, count + 1)) // at a byte offset of 8 within its buffer
      wasm.readValues(first, buffer.array)
      ts.readValues(first, model)
      expect(Array.from(plain)).toEqual([-1n, ...expected, -1n])
      expect(Array.from(buffer.array as BigInt64Array)).toEqual(expected)
      expect(Array.from(model)).toEqual(expected)
      buffer.release()
    }
  })
  it('a bad table index after a span: the span and the values before the bad one written, as by the TS backend', () => {
    const model = parseFile(bytes)
    const sequence = col(model, 'v').section.values
    sequence.blocks[3] = tableBlock([1n, 2n, 3n], Array.from({ length: 1024 }, (_, index) => (index === 40 ? 3 : index % 3)), 2)
    const corrupt = buildFile(model)
    const outputs = [new BigInt64Array(6000).fill(-1n), new BigInt64Array(6000).fill(-1n)]
    const message = 'values of field "v": block 3 has table index 3, beyond its 3 entries'
    expectCorrupt(() => openColumns(corrupt, { backend: 'ts', fileName: FILE_NAME }).getColumn('v')!.readValues(0, outputs[0]), message)
    expectCorrupt(() => openColumns(corrupt, { backend: 'wasm', fileName: FILE_NAME }).getColumn('v')!.readValues(0, outputs[1]), message)
    const expected = [...values.slice(0, 3072), ...Array.from({ length: 40 }, (_, index) => BigInt(index % 3) + 1n), ...new Array(6000 - 3112).fill(-1n)]
    for (const output of outputs) expect(Array.from(output)).toEqual(expected)
  })
})

describe('constant spans into a plain Float64Array or Int32Array: filled outside the kernels where the kernel would write the value', () => {
  const constant = (value: bigint, blocks = 1) => new Array<bigint>(1024 * blocks).fill(value)
  const runs = [[1000, 2100], [3000, 200], [4095, 2], [4096, 3000], [5000, 3500], [7168, 1], [7000, 2216]]
  it('exact doubles: spans within ±(2^53 - 1) filled; a span at 2^53 refused at its first value, nothing after it written', () => {
    // Blocks 0-2: 5; 3: packed; 4: 2^53 - 1; 5-6: -(2^53 - 1); 7: 2^53; 8: 9.
    const values = [...constant(5n, 3), ...block(-3n, 1n, 13), ...constant(SAFE), ...constant(-SAFE, 2), ...constant(SAFE + 1n), ...constant(9n)]
    duel(values, 'float64', fitsDouble)
    for (const [first, count] of runs) duel(values, 'float64', fitsDouble, first, count)
  })
  it('int32: spans within int32 filled; a span at 2^31 refused at its first value', () => {
    const values = [...constant(INT32_MIN, 2), ...block(0n, 1n, 13), ...constant(INT32_MAX), ...constant(0n, 3), ...constant(INT32_MAX + 1n), ...constant(4n)]
    duel(values, 'int32', fitsInt32)
    for (const [first, count] of runs) duel(values, 'int32', fitsInt32, first, count)
  })
  it('a span ends at its last constant block: a packed block after it whose base is the same value is decoded, not filled', () => {
    // Block 0: 5; block 1: packed from base 5 (its record's base words equal block 0's); blocks 2-3: 5 again.
    const values = [...constant(5n), ...block(5n, 1n, 13), ...constant(5n, 2)]
    for (const [first, count] of [[0, values.length], [600, 1000], [1024, 2048]]) {
      duel(values, 'float64', fitsDouble, first, count)
      duel(values, 'int32', fitsInt32, first, count)
    }
  })
  it('SortableBits doubles: spans of 1.5, -0, -Infinity and NaN (one with payload 1) filled by their bits, bit for bit as by the TS backend', () => {
    const doubles = [1.5, 1.5, -0, -Infinity, NaN, 2.25, NaN]
    const valid = denseFile(1024 * doubles.length - 300, (index) => doubles[index >>> 10], 'v', 'fractional')
    // The last span's NaN with payload 1 (a fill from a JavaScript NaN may write the canonical one).
    const model = parseFile(valid)
    const section = col(model, 'v').section
    section.values = canonicalSequence(decodeSequence(section.values).map((raw, index) => (index >= 6144 ? 0x7ff8_0000_0000_0001n : raw)))
    const bytes = buildFile(model)
    const wasm = openColumns(bytes, { backend: 'wasm' }).getColumn('v')!, ts = openColumns(bytes, { backend: 'ts' }).getColumn('v')!
    for (const [first, count] of [[0, 1024 * doubles.length - 300], [700, 3000], [2048, 600], [4000, 1024], [6000, 700]]) {
      const plain = new Float64Array(count), model = new Float64Array(count), buffer = createValueBuffer('float64', count, { backend: 'wasm' })
      wasm.readValues(first, plain)
      wasm.readValues(first, buffer.array)
      ts.readValues(first, model)
      const expected = Array.from({ length: count }, (_, index) => doubles[(first + index) >>> 10])
      expect(Array.from(model)).toEqual(expected)
      const modelBits = new BigInt64Array(model.buffer)
      for (let index = 0; index < count; index++) if (first + index >= 6144) expect(modelBits[index]).toBe(0x7ff8_0000_0000_0001n)
      expect(Buffer.from(plain.buffer).equals(Buffer.from(model.buffer))).toBe(true)
      expect(Buffer.from(new Uint8Array(buffer.array.buffer, buffer.array.byteOffset, 8 * count)).equals(Buffer.from(model.buffer))).toBe(true)
      buffer.release()
    }
  })
  it('keyword ordinals: a span of the last term filled; a span at the term count refused at its first value, as by the TS backend', () => {
    const terms = ['a', 'b', 'c']
    const documents = Array.from({ length: 5000 }, (_, index) => ({ k: terms[index < 2048 ? 2 : index < 3072 ? index % 3 : 1] }))
    const valid = flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, documents)!
    const model = parseFile(valid)
    const section = col(model, 'k').section
    const validOrdinals = decodeSequence(section.values).map(Number)
    section.values = canonicalSequence(validOrdinals.map((ordinal, index) => BigInt(index >= 3072 && index < 4096 ? 3 : ordinal)))
    expect(section.values.blocks.map((block) => block.kind)).toEqual([0, 0, 1, 0, 0])
    for (const [bytes, bad] of [[valid, -1], [buildFile(model), 3072]] as const) {
      const wasm = openColumns(bytes, { backend: 'wasm', fileName: FILE_NAME }).getColumn('k')!, ts = openColumns(bytes, { backend: 'ts', fileName: FILE_NAME }).getColumn('k')!
      for (const [first, count] of [[0, 5000], [1000, 1500], [2500, 2500]]) {
        const outputs = [new Int32Array(count).fill(-7), new Int32Array(count).fill(-7)]
        const outcomes = [attempt(() => ts.readValues(first, outputs[0])), attempt(() => wasm.readValues(first, outputs[1]))]
        expect(sameOutcome(outcomes[0], outcomes[1])).toBe(true)
        const refusedAt = bad >= first && bad < first + count ? bad - first : -1
        expect(outcomes[0].ok).toBe(refusedAt < 0)
        const expected = validOrdinals.slice(first, first + count).map((ordinal, index) => (refusedAt >= 0 && index >= refusedAt ? -7 : ordinal))
        for (const output of outputs) expect(Array.from(output)).toEqual(expected)
      }
    }
  })
})

describe('width 1: each value one of its block\'s two, through rows of a pair once four blocks in a row had it', () => {
  // Pairs (base, g): A five times (rows built at the fourth), D (A's zero, another one), B, A (rows still A's), B C B,
  // then (raw only: beyond doubles) g = 2^32 + 3 from -2^63 four times (rows rebuilt for it) and g = 5 * 2^32, then A.
  const A: [bigint, bigint] = [0n, 1n], B: [bigint, bigint] = [-5n, 3n], C: [bigint, bigint] = [7n, 1n], D: [bigint, bigint] = [0n, 3n]
  const pairs: [bigint, bigint][] = [A, A, A, A, A, D, B, A, B, C, B]
  const wide: [bigint, bigint] = [-(2n ** 63n), 2n ** 32n + 3n]
  const rawOnly: [bigint, bigint][] = [wide, wide, wide, wide, [2n ** 62n, 5n * 2n ** 32n], A]
  const read = (values: bigint[], kind: 'int64' | 'float64', first: number, count: number) => {
    const bytes = denseFile(values.length, (index) => values[index])
    const wasm = openColumns(bytes, { backend: 'wasm' }).getColumn('v')!, ts = openColumns(bytes, { backend: 'ts' }).getColumn('v')!
    expect(col(parseFile(bytes), 'v').section.values.blocks.every((block) => block.kind === 1 && block.width === 1)).toBe(true)
    const Kind = kind === 'int64' ? BigInt64Array : Float64Array
    const buffer = createValueBuffer(kind, count, { backend: 'wasm' })
    const outputs = [new Kind(count), new Kind(count), buffer.array as BigInt64Array | Float64Array]
    // Twice each way: the second read finds the rows the first one built.
    for (let round = 0; round < 2; round++) {
      ts.readValues(first, outputs[0])
      wasm.readValues(first, outputs[1])
      wasm.readValues(first, outputs[2])
      const expected = values.slice(first, first + count).map((value) => (kind === 'int64' ? value : Number(value)))
      for (const output of outputs) expect(Array.from(output as ArrayLike<number | bigint>)).toEqual(expected)
    }
    buffer.release()
  }
  it('raw values and exact doubles, whole and from inside bytes of fields, alternately', () => {
    const values = pairs.flatMap(([base, g]) => block(base, g, 1))
    const raw = [...values, ...rawOnly.flatMap(([base, g]) => block(base, g, 1))]
    for (const [first, count] of [[0, values.length], [1029, 5000], [3, 1]]) {
      read(raw, 'int64', first, count)
      read(values, 'float64', first, count)
    }
    read(raw, 'int64', 0, raw.length)
  })
})
