// Exact block choices (docs/format.md §6): records, data bytes, offsets and padding of integer sequences.
import { describe, expect, it } from 'vitest'
import xxhash from 'xxhash-wasm'
import { flushColumns, openColumns } from '../src/index.js'

interface Block { kind: number; width: number; dataOffset: number; base: bigint; aux: bigint }
const CONSTANT = 0, PACKED = 1, TABLE = 2

/** bits(x) of an unsigned bigint. */
const bits = (x: bigint) => x.toString(2).length - (x === 0n ? 1 : 0)

/** Reference bit packing from the spec: Σ u_j · 2^(j·width), little-endian, ceil(n·width/8) bytes. */
function pack(units: bigint[], width: number): number[] {
  let acc = 0n
  units.forEach((u, j) => { acc |= u << BigInt(j * width) })
  const out: number[] = []
  for (let i = 0; i < Math.ceil((units.length * width) / 8); i++) out.push(Number((acc >> BigInt(8 * i)) & 0xffn))
  return out
}
const i64le = (v: bigint) => pack([BigInt.asUintN(64, v)], 64)

/** Writes values as one dense column and returns its value sequence: header, records (from bytes and from the reader), data. */
function sequenceOf(values: bigint[], type: 'integral' | 'date' = 'integral') {
  const bytes = flushColumns({ fields: [{ name: 'v', type, column: true }] }, values.map((v) => ({ v })))!
  const reader = openColumns(bytes, { maxDoc: values.length })
  reader.verify()
  const column = reader.getColumn('v')!
  const seq = column.values
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length)
  const headerAt = seq.dataStart - 24 * seq.blockCount - 12
  expect(headerAt).toBe(column.sectionOffset) // a dense integral section is just the sequence
  const count = view.getUint32(headerAt, true)
  const blockCount = view.getUint32(headerAt + 4, true)
  const dataLength = view.getUint32(headerAt + 8, true)
  const blocks: Block[] = []
  for (let b = 0; b < blockCount; b++) {
    const at = headerAt + 12 + 24 * b
    expect(view.getUint16(at + 2, true)).toBe(0) // reserved
    const block = {
      kind: bytes[at], width: bytes[at + 1], dataOffset: view.getUint32(at + 4, true),
      base: view.getBigInt64(at + 8, true), aux: view.getBigInt64(at + 16, true),
    }
    // The reader's copy of the records: kind | width << 8, dataOffset, baseLow, baseHigh, auxLow, auxHigh.
    const r = seq.records.subarray(6 * b, 6 * b + 6)
    expect([r[0], r[1], r[2], r[3], r[4], r[5]]).toEqual([
      block.kind | (block.width << 8), block.dataOffset,
      Number(BigInt.asIntN(32, block.base)), Number(BigInt.asIntN(32, block.base >> 32n)),
      Number(BigInt.asIntN(32, block.aux)), Number(BigInt.asIntN(32, block.aux >> 32n)),
    ])
    blocks.push(block)
  }
  expect(column.sectionLength).toBe(12 + 24 * blockCount + dataLength)
  const data = [...bytes.subarray(seq.dataStart, seq.dataStart + dataLength)]
  expect(data.slice(-8)).toEqual([0, 0, 0, 0, 0, 0, 0, 0])
  const readBack = new BigInt64Array(values.length)
  column.readValues(0, readBack)
  expect([...readBack]).toEqual(values)
  return { bytes, column, count, blockCount, dataLength, blocks, data }
}

const repeat = (pattern: bigint[], n: number) => Array.from({ length: n }, (_, i) => pattern[i % pattern.length])
const range = (n: number, f: (i: number) => bigint) => Array.from({ length: n }, (_, i) => f(i))

describe('block forms', () => {
  it('constant blocks have no data but still record the running offset', () => {
    const values = [...repeat([5n], 1024), ...range(1024, (i) => BigInt(i % 4)), ...repeat([-7n], 1024)]
    const s = sequenceOf(values)
    expect(s.blocks).toEqual([
      { kind: CONSTANT, width: 0, dataOffset: 0, base: 5n, aux: 0n },
      { kind: PACKED, width: 2, dataOffset: 0, base: 0n, aux: 1n },
      { kind: CONSTANT, width: 0, dataOffset: 256, base: -7n, aux: 0n },
    ])
    expect(s.dataLength).toBe(256 + 8)
    expect(s.data.slice(0, 256)).toEqual(repeat([0b11100100n], 256).map(Number)) // u = 0,1,2,3 → 0xE4
  })

  it('packed with g = 1', () => {
    const s = sequenceOf([3n, 4n, 6n])
    expect(s.blocks).toEqual([{ kind: PACKED, width: 2, dataOffset: 0, base: 3n, aux: 1n }])
    expect(s.data).toEqual([0x34, 0, 0, 0, 0, 0, 0, 0, 0]) // u = 0,1,3 → 0 | 1<<2 | 3<<4 = 0x34
  })

  it('timestamps in whole seconds use divisor 1000; whole days use 86,400,000 (Lucene testDateCompression)', () => {
    const random = ((seed) => () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32)(42)
    const seconds = range(1024, () => BigInt(Math.floor(random() * 86400 * 365)))
    seconds[100] = 0n
    seconds[200] = 1n // differences with gcd 1 in seconds
    const base = 1_600_000_000_000n
    const dates = seconds.map((s) => base + 1000n * s)
    const s = sequenceOf(dates, 'date')
    const maxSeconds = seconds.reduce((a, b) => (b > a ? b : a))
    expect(s.blocks).toEqual([{ kind: PACKED, width: bits(maxSeconds), dataOffset: 0, base, aux: 1000n }])
    expect(bits(maxSeconds)).toBe(25)
    expect(s.data.slice(0, -8)).toEqual(pack(seconds, 25))
    // One value off by a millisecond: g drops to 1 and every field widens by ~10 bits.
    const rough = sequenceOf(dates.map((d, i) => (i === 5 ? d + 1n : d)), 'date')
    expect(rough.blocks[0].aux).toBe(1n)
    expect(rough.blocks[0].width).toBe(bits(maxSeconds * 1000n))
    expect(rough.dataLength - s.dataLength).toBe(1024 * (35 - 25) / 8)
    const days = range(1024, (i) => -86_400_000n * BigInt(i * 37 % 1000) + 86_400_000n * 3n)
    const d = sequenceOf(days, 'date')
    expect(d.blocks[0]).toEqual({ kind: PACKED, width: bits(999n), dataOffset: 0, base: -86_400_000n * 996n, aux: 86_400_000n })
  })

  it('GCD with negative values', () => {
    // -30, -10, 50: base -30, differences 0, 20, 80, g 20, u 0, 1, 4 → width bits(4) = 3 (not 2), 0 | 1<<3 | 4<<6 = 0x108.
    expect(sequenceOf([-30n, -10n, 50n]).blocks[0]).toEqual({ kind: PACKED, width: 3, dataOffset: 0, base: -30n, aux: 20n })
    expect(sequenceOf([-30n, -10n, 50n]).data.slice(0, 2)).toEqual([0x08, 0x01])
    // -30, -10, 30: u 0, 1, 3 → width 2, byte 0 | 1<<2 | 3<<4 = 0x34.
    const s = sequenceOf([-10n, -30n, 30n])
    expect(s.blocks[0]).toEqual({ kind: PACKED, width: 2, dataOffset: 0, base: -30n, aux: 20n })
    expect(s.data).toEqual([0b110001, 0, 0, 0, 0, 0, 0, 0, 0]) // u = 1, 0, 3
  })

  it('width 64 with the i64 extremes; g taken on wrapped unsigned differences', () => {
    const min = -(2n ** 63n), max = 2n ** 63n - 1n
    // Differences 0, 1, 2^64 - 1 → g 1, width 64. Table: T = 24 + 1 = 25 > P = 24 → packed.
    const s = sequenceOf([min, min + 1n, max])
    expect(s.blocks).toEqual([{ kind: PACKED, width: 64, dataOffset: 0, base: min, aux: 1n }])
    expect(s.data).toEqual([...i64le(0n), ...i64le(1n), ...i64le(-1n), 0, 0, 0, 0, 0, 0, 0, 0])
    // Only the two extremes: the one difference 2^64 - 1 is itself g, so width 1 (aux stored as -1).
    const two = sequenceOf([max, min, max])
    expect(two.blocks).toEqual([{ kind: PACKED, width: 1, dataOffset: 0, base: min, aux: -1n }])
    expect(two.data.slice(0, 1)).toEqual([0b101])
    // Ranges beyond 2^53 with a common factor: g 2^60, u 0, 3, 4.
    expect(sequenceOf([0n, 3n << 60n, 1n << 62n]).blocks[0]).toEqual({ kind: PACKED, width: 3, dataOffset: 0, base: 0n, aux: 1n << 60n })
    expect(sequenceOf([0n, 3n << 40n, 1n << 42n]).blocks[0]).toEqual({ kind: PACKED, width: 3, dataOffset: 0, base: 0n, aux: 1n << 40n })
  })

  it('one huge value does not widen another block', () => {
    const small = range(1024, (i) => BigInt(i % 16))
    const wide = range(1024, (i) => BigInt(i))
    wide[500] = 1n << 62n
    const s = sequenceOf([...small, ...wide])
    expect(s.blocks).toEqual([
      { kind: PACKED, width: 4, dataOffset: 0, base: 0n, aux: 1n },
      { kind: PACKED, width: 63, dataOffset: 512, base: 0n, aux: 1n }, // 1,024 distinct values: no table
    ])
    expect(s.dataLength).toBe(512 + 1024 * 63 / 8 + 8)
    expect(s.column.sectionLength).toBe(12 + 48 + 512 + 8064 + 8)
    expect(s.data.slice(0, 512)).toEqual(pack(small, 4))
    expect(s.data.slice(512, -8)).toEqual(pack(wide, 63))
  })

  it('table for {0, 6, 600}; packed for {0, 3, 200} (docs §6.2)', () => {
    const t = sequenceOf(repeat([0n, 6n, 600n], 1024))
    // P = 1024 × bits(100) / 8 = 896; R = bits(600) = 10 > 8; T = 3 × 8 + 1024 × 2 / 8 = 280 < 896.
    expect(t.blocks).toEqual([{ kind: TABLE, width: 2, dataOffset: 0, base: 0n, aux: 3n }])
    expect(t.dataLength).toBe(280 + 8)
    expect(t.data.slice(0, 24)).toEqual([...i64le(0n), ...i64le(6n), ...i64le(600n)])
    // Indexes 0,1,2,0 | 1,2,0,1 | 2,0,1,2 → 0x24, 0x49, 0x92, repeating.
    expect(t.data.slice(24, 27)).toEqual([0x24, 0x49, 0x92])
    expect(t.data.slice(24, -8)).toEqual(pack(repeat([0n, 1n, 2n], 1024), 2))
    const p = sequenceOf(repeat([0n, 3n, 200n], 1024))
    expect(p.blocks).toEqual([{ kind: PACKED, width: 8, dataOffset: 0, base: 0n, aux: 1n }]) // R = 8, not > 8
    expect(p.data.slice(0, -8)).toEqual(repeat([0n, 3n, 200n], 1024).map(Number))
  })

  it('table/packed tie goes to packed; one value more and the table wins', () => {
    // Values {0, 1, 256}: g 1, width bits(256) = 9, R = 9 > 8, k = 3, index width bits(2) = 2.
    // n = 27: P = ceil(27·9/8) = ceil(30.375) = 31; T = 8·3 + ceil(27·2/8) = 24 + 7 = 31 → T = P, not < → packed.
    const tie = repeat([256n, 0n, 1n], 27)
    const s = sequenceOf(tie)
    expect(s.blocks).toEqual([{ kind: PACKED, width: 9, dataOffset: 0, base: 0n, aux: 1n }])
    expect(s.dataLength).toBe(31 + 8)
    expect(s.data.slice(0, -8)).toEqual(pack(tie, 9))
    // The same tie after dividing by g: {0, 2, 512} has R = bits(512) = 10, so the table is weighed
    // (24 + 7 = 31 < ceil(27·10/8) = 34), but with g = 2 the packed width is 9: P = 31 = T → packed.
    const tieAfterGcd = repeat([512n, 0n, 2n], 27)
    const g = sequenceOf(tieAfterGcd)
    expect(g.blocks).toEqual([{ kind: PACKED, width: 9, dataOffset: 0, base: 0n, aux: 2n }])
    expect(g.data.slice(0, -8)).toEqual(pack(tie, 9))
    // n = 28: P = ceil(252/8) = 32; T = 24 + ceil(56/8) = 31 < 32 → table.
    const t = sequenceOf(repeat([256n, 0n, 1n], 28))
    expect(t.blocks).toEqual([{ kind: TABLE, width: 2, dataOffset: 0, base: 0n, aux: 3n }])
    expect(t.dataLength).toBe(31 + 8)
    expect(t.data.slice(0, -8)).toEqual([...i64le(0n), ...i64le(1n), ...i64le(256n), ...pack(repeat([2n, 0n, 1n], 28), 2)])
  })

  it('256 distinct wide values → table (8-bit indexes); 257 → packed', () => {
    // v_j = j·2^40 + j²: increasing in j, g = gcd(2^40 + 1, 2^41 + 4, …) = 1, width bits(255·2^40 + 65025) = 48.
    const v = (j: number) => (BigInt(j) << 40n) + BigInt(j * j)
    const js = range(1024, (i) => BigInt((i * 7) % 256))
    const t = sequenceOf(js.map((j) => v(Number(j))))
    // P = 1024·48/8 = 6144; T = 256·8 + 1024 = 3072 → table.
    expect(t.blocks).toEqual([{ kind: TABLE, width: 8, dataOffset: 0, base: 0n, aux: 256n }])
    expect(t.dataLength).toBe(3072 + 8)
    expect(t.data.slice(0, 2048)).toEqual(range(256, (j) => v(j)).flatMap(i64le))
    expect(t.data.slice(2048, -8)).toEqual(js.map(Number))
    const p = sequenceOf(range(1024, (i) => v((i * 7) % 257)))
    expect(p.blocks).toEqual([{ kind: PACKED, width: 49, dataOffset: 0, base: 0n, aux: 1n }])
    expect(p.dataLength).toBe(1024 * 49 / 8 + 8)
  })

  it('ranges from 2^53 up are computed exactly (doubles would round 2^53 + 1)', () => {
    // More than 256 distinct values (no table), g = 1, and a range of 2^53 + 1 or more.
    for (const [low, high] of [[0n, 2n ** 53n + 1n], [-(2n ** 53n) - 1n, 3n]]) {
      const values = range(1024, (i) => (i === 1023 ? high : low + BigInt(i)))
      const s = sequenceOf(values)
      expect(s.blocks).toEqual([{ kind: PACKED, width: bits(high - low), dataOffset: 0, base: low, aux: 1n }])
      expect(s.data.slice(0, -8)).toEqual(pack(values.map((v) => v - low), bits(high - low)))
    }
  })

  it('values around 32-bit boundaries: a range that borrows across 2^32, high word 1 with the low sign bit set, a range of 2^53 + 1', () => {
    const borrow = sequenceOf(repeat([2n ** 32n - 1n, 2n ** 32n, 2n ** 32n + 254n], 1024))
    expect(borrow.blocks).toEqual([{ kind: PACKED, width: 8, dataOffset: 0, base: 2n ** 32n - 1n, aux: 1n }])
    expect(sequenceOf([6442450944n, 6442450945n]).blocks).toEqual([{ kind: PACKED, width: 1, dataOffset: 0, base: 6442450944n, aux: 1n }])
    expect(sequenceOf([0n, 2n ** 53n + 1n]).blocks).toEqual([{ kind: PACKED, width: 1, dataOffset: 0, base: 0n, aux: 2n ** 53n + 1n }])
  })

  it('a sequence whose data passes 16 MiB: all four bytes of dataLength', () => {
    // 2,200,000 scattered values below 2^63: 2,149 blocks of about 8,060 data bytes each.
    const value = (i: number) => (BigInt(i) * 0x9e3779b97f4a7c15n) & 0x7fffffffffffffffn
    const documents = Array.from({ length: 2_200_000 }, (_, i) => ({ v: value(i) }))
    const bytes = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, documents)!
    const column = openColumns(bytes, { backend: 'ts' }).getColumn('v')!
    const headerAt = column.values.dataStart - 24 * column.values.blockCount - 12
    const dataLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(headerAt + 8, true)
    expect(dataLength).toBe(column.sectionLength - 12 - 24 * column.values.blockCount)
    expect(dataLength).toBeGreaterThan(2 ** 24)
    expect([column.getInt64BigInt(0), column.getInt64BigInt(2_199_999)]).toEqual([value(0), value(2_199_999)])
  })

  it('partial last block: 2,500 values → 1,024 + 1,024 + 452', () => {
    const values = range(2500, (i) => BigInt((i * 5) % 8))
    const s = sequenceOf(values)
    expect([s.count, s.blockCount]).toEqual([2500, 3])
    expect(s.blocks.map((b) => [b.kind, b.width, b.dataOffset])).toEqual([[PACKED, 3, 0], [PACKED, 3, 384], [PACKED, 3, 768]])
    // 452 × 3 = 1356 bits = 169.5 bytes → 170; the top 4 bits of byte 169 stay zero.
    expect(s.dataLength).toBe(384 + 384 + 170 + 8)
    expect(s.data.slice(768, 938)).toEqual(pack(values.slice(2048), 3))
    expect(s.data[937] >> 4).toBe(0)
    expect(s.data.slice(938)).toEqual([0, 0, 0, 0, 0, 0, 0, 0])
    expect(s.column.sectionLength).toBe(12 + 72 + 946)
  })
})

/** §6.1–6.2 written out with bigints: the canonical records and data bytes of a whole sequence. */
function canonical(values: bigint[]): { blocks: Block[]; data: number[] } {
  const blocks: Block[] = []
  const data: number[] = []
  const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b))
  for (let first = 0; first < values.length; first += 1024) {
    const vs = values.slice(first, first + 1024)
    const dataOffset = data.length
    const min = vs.reduce((a, b) => (b < a ? b : a)), max = vs.reduce((a, b) => (b > a ? b : a))
    if (min === max) {
      blocks.push({ kind: CONSTANT, width: 0, dataOffset, base: min, aux: 0n })
      continue
    }
    const diffs = vs.map((v) => BigInt.asUintN(64, v - min))
    const g = diffs.reduce(gcd, 0n)
    const width = bits((max - min) / g)
    const P = Math.ceil((vs.length * width) / 8)
    const distinct = [...new Set(vs)].sort((a, b) => (a < b ? -1 : 1))
    const k = distinct.length, indexWidth = bits(BigInt(k - 1))
    const T = 8 * k + Math.ceil((vs.length * indexWidth) / 8)
    if (k >= 2 && k <= 256 && bits(max - min) > 8 && T < P) {
      const index = new Map(distinct.map((v, i) => [v, BigInt(i)]))
      blocks.push({ kind: TABLE, width: indexWidth, dataOffset, base: min, aux: BigInt(k) })
      data.push(...distinct.flatMap(i64le), ...pack(vs.map((v) => index.get(v)!), indexWidth))
    } else {
      blocks.push({ kind: PACKED, width, dataOffset, base: min, aux: BigInt.asIntN(64, g) })
      data.push(...pack(diffs.map((d) => d / g), width))
    }
  }
  data.push(0, 0, 0, 0, 0, 0, 0, 0)
  return { blocks, data }
}

describe('random sequences against a bigint reference of the spec', () => {
  let seed = 77
  const u32 = () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }
  const below = (n: number) => u32() % n
  const i64 = () => BigInt.asIntN(64, (BigInt(u32()) << 32n) | BigInt(u32()))
  const shapes: Record<string, () => () => bigint> = {
    few: () => { const set = Array.from({ length: 1 + below(300) }, i64); return () => set[below(set.length)] },
    frame: () => {
      const width = 1 + below(64), base = i64(), g = [1n, 2n, 1000n, 86_400_000n, 1n << BigInt(below(64)), i64()][below(6)]
      return () => BigInt.asIntN(64, base + g * (BigInt.asUintN(width, i64()) >> BigInt(below(width))))
    },
    extremes: () => { const set = [-(2n ** 63n), 2n ** 63n - 1n, 0n, 1n, -1n, -(2n ** 63n) + 1n]; return () => set[below(set.length)] },
    runs: () => { let v = i64(); return () => (below(200) === 0 ? (v = BigInt(below(1000))) : v) },
    small: () => () => BigInt(below(600)) - 300n,
    // Ranges at the writer's int32 / double / bigint boundaries (2^31, 2^32, 2^53), bases of any sign.
    boundaries: () => {
      const base = i64() >> BigInt(below(64)), g = BigInt(1 + below(3))
      const span = [2n ** 31n - 1n, 2n ** 31n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n][below(7)]
      return () => BigInt.asIntN(64, base + g * [0n, span, BigInt.asUintN(64, i64()) % (span + 1n)][below(3)])
    },
  }
  for (const shape of Object.keys(shapes)) {
    it(`${shape} values`, () => {
      for (let round = 0; round < 12; round++) {
        const next = shapes[shape]()
        const values = Array.from({ length: 1 + below(2600) }, next)
        const s = sequenceOf(values)
        const expected = canonical(values)
        expect(s.blocks).toEqual(expected.blocks)
        expect(s.data).toEqual(expected.data)
        for (let i = 0; i < values.length; i += 1 + below(50)) expect(s.column.getRawBigInt(i)).toBe(values[i])
      }
    })
  }
})

describe('the worked example of docs/format.md §6.3', () => {
  it('10, 12, 14, 20: the exact 46-byte sequence, and the whole file', async () => {
    const bytes = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, [{ v: 10 }, { v: 12 }, { v: 14 }, { v: 20 }])!
    const sequence = [
      0x04, 0, 0, 0, 0x01, 0, 0, 0, 0x0a, 0, 0, 0, // count 4, blockCount 1, dataLength 10
      0x01, 0x03, 0, 0, 0, 0, 0, 0, // packed, width 3, reserved, dataOffset 0
      0x0a, 0, 0, 0, 0, 0, 0, 0, // base 10
      0x02, 0, 0, 0, 0, 0, 0, 0, // g 2
      0x88, 0x0a, // fields 0, 1, 2, 5
      0, 0, 0, 0, 0, 0, 0, 0, // padding
    ]
    const directory = [
      0x01, 0x01, 0x76, 0x02, 0x00, 0x04, 0x04, // 1 column, name "v", integral, dense, 4 docs, 4 values
      ...i64le(10n), ...i64le(20n), 0x0c, 0x2e, // min 10, max 20, section at 12, 46 bytes
    ]
    const body = [0x4f, 0x49, 0x58, 0x4b, 1, 0, 0, 0, 4, 0, 0, 0, ...sequence, ...directory, ...i64le(58n), 0x4b, 0x58, 0x49, 0x4f]
    expect(body.length).toBe(95)
    const { h64Raw } = await xxhash()
    const checksum = h64Raw(Uint8Array.from(body), 0n) // an independent XXH64
    expect([...bytes]).toEqual([...body, ...i64le(checksum)])
    const column = openColumns(bytes).getColumn('v')!
    expect(column.getInt64(3)).toBe(20)
    expect(sequenceOf([10n, 12n, 14n, 20n]).data).toEqual([0x88, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0])
  })
})
