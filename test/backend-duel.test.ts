/**
 * Differential test of the two backends: the same bytes opened with 'ts' and
 * 'wasm' must give identical results from every accessor, identical bulk reads
 * into every destination type (and identical errors when a destination cannot
 * hold a value), identical verify() verdicts, and for corrupt files identical
 * errors (class and message) at open, at read time and in verify.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { int64ToBigInt } from '../src/format/int64.js'
import { openColumnsFile } from '../src/node/files.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { corruptCases } from './helpers/corrupt-cases.js'
import { attempt, Duel, duelReaders, type Pick, picker } from './helpers/duel.js'
import {
  type Block, bits, buildFile, col, fixChecksum, packedBlock, parseFile, richBytes, RICH_MAX_DOC, tableBlock,
} from './helpers/file-surgery.js'
import { DIVISORS, ieeeOfSortable, MAX_INT64, MIN_INT64, randomBits, randomDocuments, termPool } from './helpers/random-columns.js'
import { seededRandom } from './helpers/random.js'

const FILE_NAME = 'duel.oixk'

/** Opens bytes with both backends, compares the open outcome and, when both open, everything else. */
function duelBytes(bytes: Uint8Array, maxDoc: number | undefined, pick: Pick, runs = 6, limit = 20_000): Duel {
  const duel = new Duel()
  const open = (backend: 'ts' | 'wasm') => attempt(() => openColumns(bytes, { fileName: FILE_NAME, maxDoc, backend }))
  const ts = open('ts'), wasm = open('wasm')
  compareOpen(duel, ts, wasm)
  if (ts.ok && wasm.ok) {
    const a = ts.value as ColumnsReader, b = wasm.value as ColumnsReader
    try {
      expect(b.backendName).toBe('wasm')
      duelReaders(duel, a, b, pick, runs, limit)
    } finally {
      a.close()
      b.close()
    }
  } else {
    if (ts.ok) (ts.value as ColumnsReader).close()
    if (wasm.ok) (wasm.value as ColumnsReader).close()
  }
  return duel
}

function compareOpen(duel: Duel, ts: ReturnType<typeof attempt>, wasm: ReturnType<typeof attempt>): void {
  duel.comparisons++
  if (ts.ok !== wasm.ok) duel.note(`open: ts ${ts.ok ? 'opens' : `throws ${ts.kind}: ${ts.message}`}; wasm ${wasm.ok ? 'opens' : `throws ${wasm.kind}: ${wasm.message}`}`)
  else if (!ts.ok && !wasm.ok && (ts.kind !== wasm.kind || ts.message !== wasm.message)) {
    duel.note(`open: ts ${ts.kind}: ${ts.message}; wasm ${wasm.kind}: ${wasm.message}`)
  }
}

function expectNoMismatch(duel: Duel): void {
  expect(duel.mismatches).toEqual([])
  expect(duel.comparisons).toBeGreaterThan(0)
}

/** Block records (kind, width, base, aux) of every sequence of a file, via the TS reader. */
function blockShapes(bytes: Uint8Array): { kind: number; width: number; base: bigint; aux: bigint }[] {
  const reader = openColumns(bytes, { backend: 'ts' })
  const shapes = reader.columns.flatMap((column) => [column.offsets, column.values, column.longitudes].flatMap((sequence) => {
    if (sequence === null) return []
    return Array.from({ length: sequence.blockCount }, (_, block) => {
      const r = sequence.records, at = 6 * block
      return { kind: r[at] & 0xff, width: r[at] >>> 8, base: int64ToBigInt(r[at + 2], r[at + 3]), aux: int64ToBigInt(r[at + 4], r[at + 5]) }
    })
  }))
  reader.close()
  return shapes
}

it('the WebAssembly kernels are available (npm run build:wasm)', () => {
  expect(wasmUnavailableReason()).toBeNull()
})

describe('random files: every type × layout, every block form', () => {
  const seen = { widths: new Set<number>(), divisors: new Set<bigint>(), kinds: new Set<number>() }
  const sizes = [1, 2, 7, 1023, 1024, 1025, 2049, 3000]
  for (let seed = 1; seed <= 16; seed++) {
    it(`seed ${seed}`, () => {
      const random = seededRandom(seed * 7919)
      const maxDoc = seed <= sizes.length ? sizes[seed - 1] : 1 + Math.floor(random() * 4000)
      const { schema, docs } = randomDocuments(random, maxDoc)
      const bytes = flushColumns(schema, docs, { maxDoc })!
      for (const shape of blockShapes(bytes)) {
        seen.kinds.add(shape.kind)
        if (shape.kind === 1) { seen.widths.add(shape.width); seen.divisors.add(shape.aux) }
      }
      expectNoMismatch(duelBytes(bytes, maxDoc, picker(random)))
    })
  }
  // Every width 1..64 is guaranteed by the deterministic file below; the random ones must reach most.
  it('the random files covered constant, packed and table blocks, most widths and every divisor', () => {
    expect([...seen.kinds].sort()).toEqual([0, 1, 2])
    expect(seen.widths.size).toBeGreaterThanOrEqual(50)
    for (const divisor of DIVISORS) expect(seen.divisors.has(divisor), `divisor ${divisor}`).toBe(true)
  })
})

/**
 * One integral column whose blocks are packed with every width 1..64 for each divisor that
 * allows it, bases at and near ±2^63, constants and tables between them, and a partial last block.
 */
function everyWidthFile(random: () => number): { bytes: Uint8Array; expected: { kind: number; width: number; base: bigint; aux: bigint }[] } {
  const values: bigint[] = []
  const expected: { kind: number; width: number; base: bigint; aux: bigint }[] = []
  let block = 0
  for (const divisor of DIVISORS) {
    for (let width = 1; width <= 64; width++) {
      const span = divisor * ((1n << BigInt(width)) - 1n)
      if (span >= 1n << 64n) continue
      const bases = [MIN_INT64, MIN_INT64 + 3n, -1000n, 0n, MAX_INT64 - span].filter((base) => base + span <= MAX_INT64)
      const base = bases[block++ % bases.length]
      const units = Array.from({ length: 1024 }, (_, i) => (i === 0 ? 0n : i === 1 ? 1n : i === 2 ? (1n << BigInt(width)) - 1n : randomBits(random, width)))
      values.push(...units.map((unit) => base + divisor * unit))
      expected.push({ kind: 1, width, base, aux: divisor })
      if (width % 9 === 0) {
        const constant = BigInt.asIntN(64, randomBits(random, 64))
        values.push(...Array<bigint>(1024).fill(constant))
        expected.push({ kind: 0, width: 0, base: constant, aux: 0n })
      }
      if (width % 11 === 0) {
        const entries = [...new Set(Array.from({ length: 2 + Math.floor(random() * 255) }, () => BigInt.asIntN(64, randomBits(random, 64))))].sort((a, b) => (a < b ? -1 : 1))
        values.push(...entries, ...Array.from({ length: 1024 - entries.length }, () => entries[Math.floor(random() * entries.length)]))
        expected.push({ kind: 2, width: bits(BigInt(entries.length - 1)), base: entries[0], aux: BigInt(entries.length) })
      }
    }
  }
  values.push(MIN_INT64, MAX_INT64, ...Array.from({ length: 331 }, () => BigInt.asIntN(64, randomBits(random, 64))))
  expected.push({ kind: 1, width: 64, base: MIN_INT64, aux: 1n })
  const bytes = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, values.map((v) => ({ v })))!
  return { bytes, expected }
}

describe('deterministic coverage', () => {
  it('every packed width 1..64 × divisors 1, 1000, 7, 2^40 × bases near ±2^63, constants, tables, partial last block', () => {
    const random = seededRandom(64)
    const { bytes, expected } = everyWidthFile(random)
    expect(blockShapes(bytes)).toEqual(expected)
    expectNoMismatch(duelBytes(bytes, undefined, picker(random), 40))
  })

  it('divisors whose low word has its top bit set: a flush verifies with both backends', () => {
    const failures: string[] = []
    for (const divisor of [3382217132n, 3n << 31n, (1n << 32n) - 1n, (5n << 40n) + (1n << 31n), (1n << 61n) + (1n << 31n)]) {
      const values = [0n, divisor, 2n * divisor, 0n]
      const bytes = flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, values.map((n) => ({ n })))!
      expect(blockShapes(bytes)).toEqual([{ kind: 1, width: 2, base: 0n, aux: divisor }])
      for (const backend of ['ts', 'wasm'] as const) {
        const outcome = attempt(() => openColumns(bytes, { backend }).verify())
        if (!outcome.ok) failures.push(`${backend}, g = ${divisor}: ${outcome.message}`)
      }
    }
    expect(failures).toEqual([])
  })

  it('the same values as date and fractional columns, dense / optional / multi', () => {
    const random = seededRandom(65)
    const raws = Array.from({ length: 5000 }, (_, i) => (i % 1024 < 2 ? [MIN_INT64, MAX_INT64][i & 1] : BigInt.asIntN(64, randomBits(random, 1 + (i >> 10) * 15))))
    const ieee = (raw: bigint) => ({ bits: ieeeOfSortable(raw) })
    const docs = raws.map((raw, i) => ({
      date: raw, frac: ieee(raw), sparse: i % 3 === 0 ? null : raw, many: i % 4 === 0 ? [raw, ieee(raw).bits & 0xffffn] : i % 4 === 1 ? null : [raw],
    }))
    const schema = { fields: [
      { name: 'date', type: 'date', column: true }, { name: 'frac', type: 'fractional', column: true },
      { name: 'sparse', type: 'integral', column: true }, { name: 'many', type: 'integral', column: true, multi: true },
    ] }
    expectNoMismatch(duelBytes(flushColumns(schema, docs)!, 5000, picker(random), 20))
  })
})

/** A random block no flush writes but open accepts: any width, base and divisor, random data; tables with some bad indexes. */
function randomRecordBlock(random: () => number, n: number, ordinals: number): Block {
  const pick = picker(random)
  const shape = pick(ordinals > 0 ? 4 : 3)
  if (shape === 0) return { kind: 0, width: 0, reserved: 0, base: BigInt.asIntN(64, randomBits(random, 64)), aux: 0n, data: new Uint8Array(0) }
  if (shape === 1) {
    const entries = [...new Set(Array.from({ length: 2 + pick(255) }, () => (ordinals > 0 ? BigInt(pick(ordinals + 2)) : BigInt.asIntN(64, randomBits(random, 64)))))]
    if (entries.length < 2) entries.push(entries[0] + 1n)
    entries.sort((a, b) => (a < b ? -1 : 1))
    const width = bits(BigInt(entries.length - 1))
    const bad = pick(3) === 0 && entries.length < 1 << width
    return tableBlock(entries, Array.from({ length: n }, () => (bad && pick(100) === 0 ? entries.length + pick((1 << width) - entries.length) : pick(entries.length))))
  }
  const width = shape === 3 ? Math.max(1, bits(BigInt(ordinals))) : 1 + pick(64)
  const base = shape === 3 ? 0n : [0n, MIN_INT64, MAX_INT64, -1n, BigInt.asIntN(64, randomBits(random, 64))][pick(5)]
  const aux = shape === 3 ? 1n : [1n, 1000n, 7n, 1n << 40n, -1n, MIN_INT64, MAX_INT64, BigInt.asIntN(64, randomBits(random, 64)) | 1n][pick(8)]
  const data = Uint8Array.from({ length: Math.ceil((n * width) / 8) }, () => pick(256))
  if ((n * width) & 7) data[data.length - 1] &= (1 << ((n * width) & 7)) - 1
  return { kind: 1, width, reserved: 0, base, aux, data }
}

describe('block records no flush writes (open accepts them; verify does not)', () => {
  for (let seed = 1; seed <= 12; seed++) {
    it(`seed ${seed}`, () => {
      const random = seededRandom(seed * 104729)
      const maxDoc = 1 + Math.floor(random() * 4500)
      const terms = termPool(random, Math.min(maxDoc, 300))
      const docs = Array.from({ length: maxDoc }, (_, d) => ({ b: d % 2 === 0, d, f: d / 3, i: d, k: terms[d % terms.length] }))
      const schema = { fields: [
        { name: 'b', type: 'bool', column: true }, { name: 'd', type: 'date', column: true }, { name: 'f', type: 'fractional', column: true },
        { name: 'i', type: 'integral', column: true }, { name: 'k', type: 'keyword', facet: true },
      ] }
      const model = parseFile(flushColumns(schema, docs)!)
      for (const name of ['b', 'd', 'f', 'i', 'k']) {
        const blocks: Block[] = []
        for (let first = 0; first < maxDoc; first += 1024) blocks.push(randomRecordBlock(random, Math.min(1024, maxDoc - first), name === 'k' ? terms.length : 0))
        col(model, name).section.values = { count: maxDoc, blocks, padding: new Uint8Array(8) }
      }
      expectNoMismatch(duelBytes(buildFile(model), maxDoc, picker(random), 12))
    })
  }
})

describe('golden files', () => {
  const golden = join(dirname(fileURLToPath(import.meta.url)), 'golden')
  for (const file of readdirSync(golden).filter((name) => name.endsWith('.oixk')).sort()) {
    it(file, () => {
      const bytes = new Uint8Array(readFileSync(join(golden, file)))
      expectNoMismatch(duelBytes(bytes, undefined, picker(seededRandom(bytes.length)), 30))
    })
  }
})

describe('openColumnsFile reads straight into either backend', () => {
  const directory = mkdtempSync(join(tmpdir(), 'oixk-duel-'))
  afterAll(() => rmSync(directory, { recursive: true, force: true }))
  it('a random file from disk', async () => {
    const random = seededRandom(5)
    const { schema, docs } = randomDocuments(random, 1500)
    const path = join(directory, 'random.oixk')
    writeFileSync(path, flushColumns(schema, docs)!)
    const a = await openColumnsFile(path, { backend: 'ts', fileName: FILE_NAME }), b = await openColumnsFile(path, { backend: 'wasm', fileName: FILE_NAME })
    const duel = new Duel()
    duelReaders(duel, a, b, picker(random))
    a.close()
    b.close()
    expectNoMismatch(duel)
  })
})

describe('a Node Buffer', () => {
  // A Buffer's slice is a view (its buffer the whole pool), not a copy: records at unaligned offsets,
  // copied at open, once came out of the wrong bytes (a RangeError, or wrong words).
  it('inside a larger buffer at offsets 0..3 opens with either backend as its bytes do', () => {
    const random = seededRandom(9)
    const { schema, docs } = randomDocuments(random, 2100)
    const bytes = flushColumns(schema, docs)!
    for (let offset = 0; offset < 4; offset++) {
      const pool = Buffer.alloc(bytes.length + 5)
      const buffer = pool.subarray(offset, offset + bytes.length)
      buffer.set(bytes)
      for (const backend of ['ts', 'wasm'] as const) {
        const a = openColumns(buffer, { backend, fileName: FILE_NAME }), b = openColumns(bytes, { backend: 'wasm', fileName: FILE_NAME })
        const duel = new Duel()
        duelReaders(duel, a, b, picker(random), 2)
        a.close()
        b.close()
        expectNoMismatch(duel)
      }
    }
  })
})

describe('corrupt files: identical verdicts and messages', () => {
  const cases = corruptCases()
  it('there are at least 30 cases', () => expect(cases.length).toBeGreaterThanOrEqual(30))
  for (const { name, bytes, maxDoc } of cases) {
    it(name, () => expectNoMismatch(duelBytes(bytes(), maxDoc, picker(seededRandom(name.length)), 8)))
  }
  it('200 seeded single-byte changes of the rich fixture (checksum fixed)', () => {
    const random = seededRandom(0x5eed)
    const original = richBytes()
    const mismatches: string[] = []
    for (let trial = 0; trial < 200; trial++) {
      const bytes = original.slice()
      const position = Math.floor(random() * (bytes.length - 8))
      bytes[position] ^= 1 + Math.floor(random() * 255)
      const duel = duelBytes(fixChecksum(bytes), RICH_MAX_DOC, picker(random), 3)
      mismatches.push(...duel.mismatches.map((m) => `byte ${position} ^ ${bytes[position] ^ original[position]}: ${m}`))
    }
    expect(mismatches).toEqual([])
  })
})

/**
 * Integral column "n" of 2048 values (or keyword "k" with 400 terms): block 0 packed
 * from the given values, block 1 a table whose value 100 (value index 1124) has a bad index.
 */
function twoErrorsFile(keyword: boolean, block0: bigint[]): Uint8Array {
  const terms = termPool(seededRandom(9), 400)
  const docs = Array.from({ length: 2048 }, (_, d) => (keyword ? { k: terms[d % 400] } : { n: d }))
  const schema = { fields: [keyword ? { name: 'k', type: 'keyword', facet: true } : { name: 'n', type: 'integral', column: true }] }
  const model = parseFile(flushColumns(schema, docs)!)
  const sequence = model.columns[0].section.values
  const min = block0.reduce((a, b) => (b < a ? b : a)), max = block0.reduce((a, b) => (b > a ? b : a))
  sequence.blocks[0] = packedBlock(block0, min, 1n, bits(max - min))
  sequence.blocks[1] = tableBlock([0n, 150n, 399n], Array.from({ length: 1024 }, (_, i) => (i === 100 ? 3 : i % 3)))
  return buildFile(model)
}

describe('runs that hold two problems: the same one is reported', () => {
  const beyond = (limit: bigint) => Array.from({ length: 1024 }, (_, i) => (i === 700 ? limit : BigInt(i % 400)))
  const cases: [string, Uint8Array, 'n' | 'k', () => Float64Array | Int32Array | BigInt64Array][] = [
    ['beyond 2^53 in block 0, bad table index in block 1 → Float64Array', twoErrorsFile(false, beyond(1n << 60n)), 'n', () => new Float64Array(1024)],
    ['beyond int32 in block 0, bad table index in block 1 → Int32Array', twoErrorsFile(false, beyond(1n << 40n)), 'n', () => new Int32Array(1024)],
    ['ordinal ≥ termCount in block 0, bad table index in block 1 → Int32Array', twoErrorsFile(true, beyond(400n)), 'k', () => new Int32Array(1024)],
    ['ordinal ≥ termCount in block 0, bad table index in block 1 → BigInt64Array', twoErrorsFile(true, beyond(400n)), 'k', () => new BigInt64Array(1024)],
  ]
  for (const [name, bytes, field, make] of cases) {
    it(name, () => {
      const a = openColumns(bytes, { fileName: FILE_NAME, backend: 'ts' }).getColumn(field)!
      const b = openColumns(bytes, { fileName: FILE_NAME, backend: 'wasm' }).getColumn(field)!
      const duel = new Duel()
      for (const first of [0, 512, 600, 1000]) duel.readValues(`readValues(${first}, ${make().constructor.name}(1024))`, a, b, first, make, 'latitude')
      expect(duel.mismatches).toEqual([])
    })
  }
})

describe('destinations after an error', () => {
  // ColumnsBackend.decodeFloat64/decodeInt32: "values from there on are not written": the ones before are.
  it('a failed bulk read leaves the same values in the destination with both backends', () => {
    const values = Array.from({ length: 2048 }, (_, i) => (i === 1500 ? 1n << 60n : BigInt(i)))
    const bytes = flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, values.map((n) => ({ n })))!
    const a = openColumns(bytes, { backend: 'ts' }).getColumn('n')!, b = openColumns(bytes, { backend: 'wasm' }).getColumn('n')!
    const duel = new Duel()
    duel.compareAfterError = true
    duel.readValues('readValues(0, Float64Array(2048))', a, b, 0, () => new Float64Array(2048), 'latitude')
    duel.readValues('readValues(0, Int32Array(2048)), value 1500 beyond int32', a, b, 0, () => new Int32Array(2048), 'latitude')
    expect(duel.mismatches).toEqual([])
  })
})
