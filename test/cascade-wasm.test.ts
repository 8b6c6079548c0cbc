/**
 * The WebAssembly backend reads v2 cascades (assembly/cascade/) exactly as the
 * TypeScript reference (src/cascade/reader/decode-ts.ts): files whose data forces
 * each block kind and each sequence form, read with both backends by every
 * accessor, into plain arrays and ValueBuffers of each kind; corrupt dictionary
 * indexes and codes raise the same errors; corrupt-but-valid encodings (fields
 * not checked at open) read the same.
 */
import { describe, expect, it } from 'vitest'
import type { SequenceView } from '../src/backend/backend.js'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { createValueBuffer, type ValueArrayKind } from '../src/read/buffers.js'
import type { Column } from '../src/read/column.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import {
  type CascadeColumn, blockKindColumns, cascadeFile, decimalColumns, formColumns, geoAndMultiColumns, shapeOf,
} from './helpers/cascade-data.js'
import { attempt, Duel, duelColumn, picker, sameOutcome } from './helpers/duel.js'
import { fixChecksum } from './helpers/file-surgery.js'
import { seededRandom } from './helpers/random.js'
import { flushColumns } from '../src/write/columns-writer.js'

const FILE_NAME = 'cascade.oixk'
const available = wasmUnavailableReason() === null

function openBoth(bytes: Uint8Array): [ColumnsReader, ColumnsReader] {
  return [openColumns(bytes, { backend: 'ts', fileName: FILE_NAME }), openColumns(bytes, { backend: 'wasm', fileName: FILE_NAME })]
}

const ARRAYS = { int64: BigInt64Array, float64: Float64Array, int32: Int32Array } as const

/** Bytes of a view, for bit-exact comparison (NaN payloads, -0). */
const bytesOf = (view: ArrayBufferView) => Buffer.from(view.buffer, view.byteOffset, view.byteLength)

/**
 * Random runs read by the TS backend into plain arrays and by WebAssembly into ValueBuffers
 * (in place) of each kind: same outcome, and the same contents even after a refused value.
 */
function duelValueBuffers(duel: Duel, a: Column, b: Column, random: () => number, runs: number): void {
  const total = a.totalValueCount
  const parts = a.type === 'geo_point' ? (['latitude', 'longitude'] as const) : (['latitude'] as const)
  for (const kind of Object.keys(ARRAYS) as ValueArrayKind[]) {
    for (let run = 0; run < runs; run++) {
      const first = run === 0 ? 0 : Math.floor(random() * total)
      const length = run === 0 ? total : Math.floor(random() * Math.min(total - first, 4000)) + 1
      const part = parts[run % parts.length]
      const plain = new ARRAYS[kind](length)
      const buffer = createValueBuffer(kind, length, { backend: 'wasm' })
      try {
        bytesOf(plain).fill(0x5a)
        bytesOf(buffer.array).fill(0x5a)
        const what = `field "${a.name}" ValueBuffer ${kind} [${first}, ${first + length}) ${part}`
        const outcome = duel.check(what, () => a.readValues(first, plain, part), () => b.readValues(first, buffer.array, part))
        // After an error, contents are compared only where the duel says (a refused value: yes; corruption: no).
        if ((outcome.ok || duel.compareAfterError) && !bytesOf(plain).equals(bytesOf(buffer.array))) {
          duel.note(`${what}: contents differ${outcome.ok ? '' : ' after the error'}`)
        }
      } finally {
        buffer.release()
      }
    }
  }
}

/** Opens the columns' file with both backends, checks each column's shape, then duels everything. */
function duelColumns(columns: CascadeColumn[], seed: number): void {
  const [ts, wasm] = openBoth(cascadeFile(columns))
  try {
    expect(wasm.backendName).toBe('wasm')
    const random = seededRandom(seed), pick = picker(random)
    for (const spec of columns) {
      const a = ts.getColumn(spec.name)!, b = wasm.getColumn(spec.name)!
      spec.expectShape(shapeOf(a.values))
      const duel = new Duel()
      duel.compareAfterError = true
      duelColumn(duel, a, b, pick, 12, 6000)
      duelValueBuffers(duel, a, b, random, 6)
      expect(duel.mismatches, spec.name).toEqual([])
      expect(duel.comparisons).toBeGreaterThan(50)
    }
    const duel = new Duel()
    duel.check('verify()', () => ts.verify(), () => wasm.verify())
    expect(duel.mismatches).toEqual([])
  } finally {
    ts.close()
    wasm.close()
  }
}

/**
 * Sequence dictionaries by frequency whose codes blocks are patched with a bitmap: a keyword of 200
 * terms (low fields of 4 bits, high parts of 4: codes fit a byte) and 900 integers (5 and 5 bits:
 * codes fit a u16). The frequent values are scattered, so the frequency order wins.
 */
function narrowCodeColumns(): CascadeColumn[] {
  const random = seededRandom(77), pick = (n: number) => Math.floor(random() * n), count = 5000
  const terms = Array.from({ length: 200 }, (_, t) => `k${String(t).padStart(3, '0')}`)
  const wide = Array.from({ length: 900 }, (_, i) => BigInt(i) * 1_000_003n + 17n)
  // The widths are checked where the codes are made corrupt (below).
  const patchedCodes = (shape: ReturnType<typeof shapeOf>) => {
    const codes = shape.children[1]
    expect([shape.form, shape.order, codes.kinds, codes.flags]).toEqual(['dictionary', 1, Array(5).fill('patched'), Array(5).fill('bitmap')])
  }
  return [
    { name: 'narrowBytes', type: 'keyword', values: Array.from({ length: count }, () => terms[random() < 0.75 ? (pick(16) * 13) % 200 : pick(200)]), expectShape: patchedCodes },
    { name: 'narrowHalves', type: 'integral', values: Array.from({ length: count }, () => wide[random() < 0.75 ? (pick(32) * 27) % 900 : pick(900)]), expectShape: patchedCodes },
  ]
}

/**
 * Sequence dictionaries of int32 entries whose codes come in each way the typed reads gather
 * them (assembly/cascade/sequences/codes-typed.ts): frame codes of 9 bits (bases 0 and 300),
 * patched codes of 9-bit low fields with a list of patches (u32), and (narrowCodeColumns) bitmap
 * patched codes within a byte and a u16; 'beyond' is 'framed' with one entry just past int32,
 * met at values 1,500 and 4,000, 'beyondDoubles' the same with 2^53 (past exact doubles: float64
 * reads gather converted entries only when every entry is exact).
 */
function typedCodeColumns(): { columns: CascadeColumn[]; expected: Map<string, number[]> } {
  const random = seededRandom(91), pick = (n: number) => Math.floor(random() * n), count = 5000
  // Distinct and ascending: entry i has code i in an ascending dictionary.
  const entries = (k: number) => [...new Set(Array.from({ length: k }, () => pick(2 ** 32) - 2 ** 31))].sort((a, b) => a - b)
  const e600 = entries(600), e2000 = entries(2000), e511 = entries(511)
  const codes = (kind: string, flag: string | null, order: number) => (shape: ReturnType<typeof shapeOf>) => {
    const blocks = shape.children[1]
    expect([shape.form, shape.order, new Set(blocks.kinds), new Set(blocks.flags)]).toEqual(['dictionary', order, new Set([kind]), new Set(flag === null ? [] : [flag])])
  }
  // Blocks 0, 2, 4 take codes 0-299, blocks 1 and 3 codes 300-599 (frame blocks of base 300).
  const framed = Array.from({ length: count }, (_, i) => e600[((i >>> 10) & 1) * 300 + ((i * 7) % 300)])
  const columns: CascadeColumn[] = [
    { name: 'framed', type: 'integral', values: framed, expectShape: codes('frame', null, 0) },
    // k = 511 = 2^9 - 1: frame blocks of base 0 whose 9-bit fields reach one code past the entries.
    { name: 'framedEdge', type: 'integral', values: Array.from({ length: count }, (_, i) => e511[(i * 5) % 511]), expectShape: codes('frame', null, 0) },
    { name: 'unitsList', type: 'integral', values: Array.from({ length: count }, () => e2000[random() < 0.97 ? pick(500) : pick(2000)]), expectShape: codes('patched', 'list', 1) },
    { name: 'beyond', type: 'integral', values: framed.map((value, i) => (i === 1500 || i === 4000 ? 2 ** 31 : value)), expectShape: codes('frame', null, 0) },
    { name: 'beyondDoubles', type: 'integral', values: framed.map((value, i) => (i === 1500 || i === 4000 ? 2n ** 53n : BigInt(value))), expectShape: codes('frame', null, 0) },
    ...narrowCodeColumns(),
  ]
  const expected = new Map(columns.map((column) => [column.name, column.values as number[]]))
  return { columns, expected }
}

describe.skipIf(!available)('v2 cascades: the WebAssembly and TypeScript backends agree', () => {
  it('on every block kind (dictionary, runs, frequent list / bitmap / gcd, patched list / bitmap, linear, frame, constant)', () => {
    duelColumns(blockKindColumns(), 1)
  })

  it('on sequence dictionaries of both orders, sequence runs, keyword ordinals', () => {
    duelColumns(formColumns(), 2)
  })

  it('on decimal sequences over blocks (with exceptions), a dictionary and runs', () => {
    duelColumns(decimalColumns(), 3)
  })

  it('on geo points and multi-valued columns (offsets), with documents lacking values', () => {
    duelColumns(geoAndMultiColumns(), 4)
  })

  it('on short sequences: one value, a partial block of a few values', () => {
    for (const count of [1, 2, 3, 1025, 2049]) {
      const columns = [...blockKindColumns(count), ...decimalColumns(count)].map((column) => ({ ...column, expectShape: () => {} }))
      duelColumns(columns, count)
    }
  })

  it('on a sequence dictionary whose codes blocks are constant, frame, dictionary, runs (single reads take each: code and entry in registers)', () => {
    const random = seededRandom(17), pick = (n: number) => Math.floor(random() * n)
    // 48-bit entries at random: a dictionary of 10-bit codes beats 48-bit frames.
    const entries = Array.from({ length: 600 }, () => BigInt(pick(2 ** 24)) * 2n ** 24n + BigInt(pick(2 ** 24)))
    // Block 0 one code, block 2 mostly 16 codes, block 3 runs of 128, blocks 1 and 4 any code.
    const values = Array.from({ length: 5000 }, (_, i) => {
      switch (i >>> 10) {
        case 0: return entries[7]
        case 2: return entries[random() < 0.97 ? pick(16) : pick(600)]
        case 3: return entries[Math.floor(i / 128) % 600]
        default: return entries[pick(600)]
      }
    })
    duelColumns([{
      name: 'codeKinds', type: 'integral', values,
      expectShape: (shape) => {
        expect([shape.form, shape.order, shape.children[1].kinds]).toEqual(['dictionary', 0, ['constant', 'frame', 'dictionary', 'runs', 'frame']])
      },
    }], 17)
  })

  it('on sequence dictionaries whose codes are patched blocks of codes below 2^8 and 2^16 (a bitmap of patches)', () => {
    duelColumns(narrowCodeColumns(), 6)
  })

  it('on sequence dictionaries read into int32 and doubles (codes gathered through converted entries), and entries beyond them', () => {
    const { columns, expected } = typedCodeColumns()
    duelColumns(columns, 7)
    const bytes = cascadeFile(columns)
    for (const reader of openBoth(bytes)) {
      try {
        for (const name of ['framed', 'unitsList', 'narrowHalves', 'beyond']) {
          const column = reader.getColumn(name)!, values = expected.get(name)!
          // Whole, and from an offset inside a block (chunks straddling two blocks); 'beyond' fits doubles alone.
          for (const kind of name === 'beyond' ? (['float64'] as const) : (['int32', 'float64'] as const)) {
            for (const first of [0, 777]) {
              const buffer = createValueBuffer(kind, values.length - first, { backend: reader.backendName === 'wasm' ? 'wasm' : 'ts' })
              try {
                column.readValues(first, buffer.array)
                expect(Array.from(buffer.array), `${reader.backendName} ${name} ${kind} from ${first}`).toEqual(values.slice(first).map(Number))
              } finally {
                buffer.release()
              }
            }
          }
        }
        const beyondDoubles = reader.getColumn('beyondDoubles')!
        const message = (index: number) => `field "beyondDoubles": value ${index} (${2n ** 53n}) is beyond 2^53; read into a BigInt64Array`
        expect(attempt(() => beyondDoubles.readValues(0, new Float64Array(5000)))).toEqual({ ok: false, kind: 'RangeError', message: message(1500) })
        expect(attempt(() => beyondDoubles.readValues(1501, new Float64Array(3499)))).toEqual({ ok: false, kind: 'RangeError', message: message(4000) })
        const beyond = reader.getColumn('beyond')!
        const refused = (first: number, length: number) => attempt(() => beyond.readValues(first, new Int32Array(length)))
        expect(refused(0, 5000)).toEqual({ ok: false, kind: 'RangeError', message: `field "beyond": value 1500 (${2 ** 31}) does not fit an Int32Array; use a Float64Array or BigInt64Array` })
        expect(refused(1501, 3499)).toEqual({ ok: false, kind: 'RangeError', message: `field "beyond": value 4000 (${2 ** 31}) does not fit an Int32Array; use a Float64Array or BigInt64Array` })
        expect(refused(0, 1500)).toEqual({ ok: true, value: 1500 })
      } finally {
        reader.close()
      }
    }
  })

  it('run blocks write every value of a read and nothing past it, whatever their run lengths', () => {
    // Runs averaging 16 values (each run's first values go out before its length is looked at),
    // and runs averaging 4 (a loop per run): every read ends at a different position of a block.
    const random = seededRandom(31), values: bigint[] = []
    for (let run = 0; values.length < 6000; run++) {
      const longRuns = values.length < 3072
      const length = longRuns ? 1 + Math.floor(random() * 31) : 1 + Math.floor(random() * 7)
      const value = BigInt(Math.floor(random() * 2 ** 20)) * 3n + BigInt(run & 1)
      for (let i = 0; i < length && values.length < 6000; i++) values.push(value)
    }
    const columns: CascadeColumn[] = [{ name: 'r', type: 'integral', values, expectShape: () => {} }]
    const [ts, wasm] = openBoth(cascadeFile(columns))
    const GUARD = 32, SENTINEL = -0x5a5a5a5a5a5a5a5bn
    const buffer = createValueBuffer('int64', 4096 + 2 * GUARD, { backend: 'wasm' })
    try {
      expect(shapeOf(wasm.getColumn('r')!.values).kinds).toEqual(['runs', 'runs', 'runs', 'runs', 'runs', 'runs'])
      const expected = new BigInt64Array(values.length)
      ts.getColumn('r')!.readValues(0, expected)
      expect([...expected]).toEqual(values)
      const column = wasm.getColumn('r')!
      const wrong: string[] = []
      for (const end of [...Array.from({ length: 1024 }, (_, j) => 1024 + j), ...Array.from({ length: 1024 }, (_, j) => 4096 + j), 6000]) {
        const first = Math.max(0, end - 1 - Math.floor(random() * 3000))
        buffer.array.fill(SENTINEL)
        column.readValues(first, buffer.array.subarray(GUARD, GUARD + end - first))
        for (let i = 0; i < buffer.array.length; i++) {
          const want = i < GUARD || i >= GUARD + end - first ? SENTINEL : expected[first + i - GUARD]
          if (buffer.array[i] !== want) { wrong.push(`[${first}, ${end}) at ${i - GUARD}: ${buffer.array[i]}, not ${want}`); break }
        }
      }
      expect(wrong.slice(0, 5)).toEqual([])
    } finally {
      buffer.release()
      ts.close()
      wasm.close()
    }
  })
})

// ---------------------------------------------------------------- surgery on v2 files

/** Writes `value` into the `width`-bit field `index` of the bit stream at byte `start` (v1's packing). */
function setField(bytes: Uint8Array, start: number, index: number, width: number, value: number): void {
  for (let bit = 0; bit < width; bit++) {
    const at = index * width + bit, byte = start + (at >>> 3), mask = 1 << (at & 7)
    bytes[byte] = (value >>> bit) & 1 ? bytes[byte] | mask : bytes[byte] & ~mask
  }
}

/** Reads the `width`-bit field `index` of the stream at byte `start`. */
function getField(bytes: Uint8Array, start: number, index: number, width: number): number {
  let value = 0
  for (let bit = 0; bit < width; bit++) {
    const at = index * width + bit
    if (bytes[start + (at >>> 3)] & (1 << (at & 7))) value |= 1 << bit
  }
  return value
}

/** A block of a form-0 sequence: its kind, width, param and where its data starts in the file. */
function blockOf(view: SequenceView, block: number): { kind: number; width: number; param: number; data: number; base: bigint } {
  const word = view.records[6 * block]
  const base = BigInt.asIntN(64, (BigInt(view.records[6 * block + 3]) << 32n) | BigInt(view.records[6 * block + 2] >>> 0))
  return { kind: word & 0xff, width: (word >>> 8) & 0xff, param: word >>> 16, data: view.dataStart + view.records[6 * block + 1], base }
}

/** The file of the columns, changed by `patch` (given the TS reader of the intact file), with its checksum fixed. */
function patched(columns: CascadeColumn[], patch: (bytes: Uint8Array, reader: ColumnsReader) => void): Uint8Array {
  const bytes = cascadeFile(columns)
  const reader = openColumns(bytes, { backend: 'ts' })
  patch(bytes, reader)
  reader.close()
  return fixChecksum(bytes)
}

/** Every read of the column on both backends gives the same outcome (errors included). */
function duelCorrupt(bytes: Uint8Array, name: string): void {
  const [ts, wasm] = openBoth(bytes)
  try {
    const a = ts.getColumn(name)!, b = wasm.getColumn(name)!
    const duel = new Duel()
    const random = seededRandom(9)
    duelColumn(duel, a, b, picker(random), 12, 6000)
    duelValueBuffers(duel, a, b, random, 4)
    duel.check('verify()', () => ts.verify(), () => wasm.verify())
    expect(duel.mismatches).toEqual([])
  } finally {
    ts.close()
    wasm.close()
  }
}

/** The error both backends raise for `read`, which must be a CorruptIndexException with exactly `message`. */
function expectSameError(bytes: Uint8Array, name: string, read: (column: Column) => unknown, message: string): void {
  const [ts, wasm] = openBoth(bytes)
  try {
    const a = attempt(() => read(ts.getColumn(name)!)), b = attempt(() => read(wasm.getColumn(name)!))
    expect(a).toEqual({ ok: false, kind: 'CorruptIndexException', message })
    expect(sameOutcome(a, b)).toBe(true)
    expect(b).toEqual(a)
  } finally {
    ts.close()
    wasm.close()
  }
}

/**
 * Reads that meet value `index` of the column: one value, runs into each array type and into a
 * ValueBuffer; int32: also into an Int32Array around it, and from value 0 through its block into an
 * Int32Array and an int32 ValueBuffer (values that fit).
 */
function readsAt(index: number, int32 = false): ((column: Column) => unknown)[] {
  const around = (array: BigInt64Array | Float64Array | Int32Array) => (column: Column) => column.readValues(Math.max(0, index - 700), array)
  // From value 0 to the end of index's block: chunks that are whole blocks.
  const wholeBlocks = (column: Column) => Math.min(column.totalValueCount, (index | 1023) + 1)
  const int32Reads = int32 ? [around(new Int32Array(1500)), (column: Column) => column.readValues(0, new Int32Array(wholeBlocks(column))), (column: Column) => {
    const buffer = createValueBuffer('int32', wholeBlocks(column), { backend: 'wasm' })
    try {
      return column.readValues(0, buffer.array)
    } finally {
      buffer.release()
    }
  }] : []
  return [
    ...int32Reads,
    (column) => column.getRawBigInt(index),
    around(new BigInt64Array(1500)),
    around(new Float64Array(1500)),
    (column) => {
      const buffer = createValueBuffer('int64', 1500, { backend: column.type === 'fractional' ? 'ts' : 'wasm' })
      try {
        return column.readValues(Math.max(0, index - 700), buffer.array)
      } finally {
        buffer.release()
      }
    },
  ]
}

describe.skipIf(!available)('v2 cascades: corrupt files read alike on both backends', () => {
  it('a dictionary block index ≥ k: the same CorruptIndexException at every read that meets it', () => {
    const columns = blockKindColumns()
    const bytes = patched(columns, (file, reader) => {
      const block = blockOf(reader.getColumn('dictionary')!.values, 2)
      const k = (block.param & 1023) + 1, entryWidth = (block.param >>> 10) + 1
      expect([block.kind, k, block.width]).toEqual([3, 21, 5])
      setField(file, block.data + Math.ceil((k * entryWidth) / 8), 100, block.width, 30)
    })
    const message = `${FILE_NAME}: values of field "dictionary": block 2 has dictionary index 30, beyond its 21 entries`
    for (const read of readsAt(2 * 1024 + 100)) expectSameError(bytes, 'dictionary', read, message)
    duelCorrupt(bytes, 'dictionary')
  })

  it('a dictionary block index of exactly k at every index width 3..10 (each width its own gather loop, pairs at 3 and 4)', () => {
    // Block b of column W: k = 2^(W-1) + 2 wide values of its own (every one used), so indexes take W bits and 2^W - k of them are ≥ k.
    // (With + 1, widths 3 and 6 came out as sequence dictionaries.)
    const random = seededRandom(61)
    const widths = [3, 4, 5, 6, 7, 8, 9, 10]
    const columns = widths.map((W) => {
      const k = 2 ** (W - 1) + 2
      const pools = Array.from({ length: 5 }, (_, block) => Array.from({ length: k }, () => (block % 2 ? -1n : 1n) * BigInt(block + 1) * 2n ** 46n + BigInt(Math.floor(random() * 2 ** 30))))
      const values = Array.from({ length: 5000 }, (_, index) => pools[index >>> 10][((index & 1023) * 7 + (index >>> 10)) % k])
      // The patch below checks the block it edits (a dictionary block of W-bit indexes).
      return { name: `w${W}`, type: 'integral', values, expectShape: () => {} }
    })
    const bytes = patched(columns, (file, reader) => {
      for (const W of widths) {
        const block = blockOf(reader.getColumn(`w${W}`)!.values, 2)
        const k = (block.param & 1023) + 1, entryWidth = (block.param >>> 10) + 1
        expect([W, block.kind, k, block.width]).toEqual([W, 3, 2 ** (W - 1) + 2, W])
        // Value 2 × 1,024 + 100: inside a group of 8, past the block's first groups.
        setField(file, block.data + Math.ceil((k * entryWidth) / 8), 100, W, k)
      }
    })
    for (const W of widths) {
      const k = 2 ** (W - 1) + 2
      const message = `${FILE_NAME}: values of field "w${W}": block 2 has dictionary index ${k}, beyond its ${k} entries`
      for (const read of readsAt(2 * 1024 + 100)) expectSameError(bytes, `w${W}`, read, message)
    }
  })

  it('a dictionary block index of exactly k: histograms refuse it as reads do (TypeScript counts indexes there)', () => {
    const columns = blockKindColumns()
    const bytes = patched(columns, (file, reader) => {
      const block = blockOf(reader.getColumn('dictionary')!.values, 2)
      const k = (block.param & 1023) + 1, entryWidth = (block.param >>> 10) + 1
      setField(file, block.data + Math.ceil((k * entryWidth) / 8), 100, block.width, k)
    })
    const message = `${FILE_NAME}: values of field "dictionary": block 2 has dictionary index 21, beyond its 21 entries`
    const wide = [-(2 ** 52), 0, 2 ** 52]
    expectSameError(bytes, 'dictionary', (column) => column.histogram(wide), message)
    expectSameError(bytes, 'dictionary', (column) => column.getRawBigInt(2 * 1024 + 100), message)
    // And over a DocSet holding the value's document (dense: document = value), or only another of its block's:
    // the WebAssembly kernels decode the block's stretch whole, and TypeScript checks every index of it alike.
    for (const reader of openBoth(bytes)) {
      for (const documents of [[2 * 1024 + 7, 2 * 1024 + 100], [2 * 1024 + 7, 2 * 1024 + 900]]) {
        const docs = DocSet.fromDocuments(reader, documents)
        expect(attempt(() => reader.getColumn('dictionary')!.histogram(wide, docs))).toEqual({ ok: false, kind: 'CorruptIndexException', message })
      }
      reader.close()
    }
  })

  it('a sequence dictionary code ≥ k: the same CorruptIndexException, naming the dictionary (top level, and inside a decimal)', () => {
    const cases = [
      { columns: geoAndMultiColumns(), name: 'tags', label: 'values of field "tags"', view: (column: Column) => column.values },
      { columns: decimalColumns(), name: 'decimalDictionary', label: 'values of field "decimalDictionary" (integers)', view: (column: Column) => (column.values.cascade as { integers: SequenceView }).integers },
    ]
    for (const { columns, name, label, view } of cases) {
      let k = 0, code = 0
      // Value 1,024 + 333: in codes block 1, which must be a frame block with g = 1 (code = base + field).
      const index = 1024 + 333
      const bytes = patched(columns, (file, reader) => {
        const cascade = view(reader.getColumn(name)!).cascade!
        if (cascade.form !== 1) throw new Error('expected a sequence dictionary')
        k = cascade.entries.count
        const block = blockOf(cascade.codes, 1)
        expect([block.kind, cascade.codes.records[6 + 4], cascade.codes.records[6 + 5]]).toEqual([1, 1, 0])
        code = Number(block.base) + 2 ** block.width - 1
        expect(code).toBeGreaterThanOrEqual(k)
        setField(file, block.data, 333, block.width, 2 ** block.width - 1)
      })
      const message = `${FILE_NAME}: ${label}: value ${index} has dictionary code ${code}, beyond its ${k} entries`
      for (const read of readsAt(index)) expectSameError(bytes, name, read, message)
      duelCorrupt(bytes, name)
    }
  })

  it('a sequence dictionary code of exactly k, read into int32 through whole frame blocks and through chunks that straddle blocks', () => {
    // framed: codes block 3 is 300 + a 9-bit field (k 600); framedEdge: codes block 2 is a 9-bit field, k = 511 = 2^9 - 1.
    for (const { name, block: codesBlock, base, k, index } of [
      { name: 'framed', block: 3, base: 300, k: 600, index: 3 * 1024 + 211 },
      { name: 'framedEdge', block: 2, base: 0, k: 511, index: 2 * 1024 + 211 },
    ]) {
      const bytes = patched(typedCodeColumns().columns, (file, reader) => {
        const cascade = reader.getColumn(name)!.values.cascade!
        if (cascade.form !== 1) throw new Error('expected a sequence dictionary')
        const block = blockOf(cascade.codes, codesBlock)
        expect([block.kind, block.width, block.base, cascade.entries.count]).toEqual([1, 9, BigInt(base), k])
        // The field k - base makes code k.
        setField(file, block.data, 211, 9, k - base)
      })
      const message = `${FILE_NAME}: values of field "${name}": value ${index} has dictionary code ${k}, beyond its ${k} entries`
      for (const read of readsAt(index, true)) expectSameError(bytes, name, read, message)
      duelCorrupt(bytes, name)
    }
  })

  it('a code ≥ k made of a patch in a bitmap patched block (codes below 2^8 and 2^16): the same CorruptIndexException', () => {
    for (const [name, lw, hw] of [['narrowBytes', 4, 4], ['narrowHalves', 5, 5]] as const) {
      let k = 0, index = 0
      const bytes = patched(narrowCodeColumns(), (file, reader) => {
        const cascade = reader.getColumn(name)!.values.cascade!
        if (cascade.form !== 1) throw new Error('expected a sequence dictionary')
        k = cascade.entries.count
        // Codes block 3: u8 hw, 1,024 low fields, a bitmap of 128 bytes, then the high parts.
        const block = blockOf(cascade.codes, 3), e = block.param & 1023
        expect([block.kind, block.width, file[block.data], block.param & 1024]).toEqual([6, lw, hw, 0])
        const lows = block.data + 1, bitmap = lows + (1024 * lw) / 8, highs = bitmap + 128
        // The fifth patch (its position: the fifth set bit) gets all ones: code 2^(lw + hw) - 1 ≥ k.
        const positions = Array.from({ length: 1024 }, (_, j) => j).filter((j) => file[bitmap + (j >>> 3)] & (1 << (j & 7)))
        expect(positions.length).toBe(e)
        setField(file, lows, positions[4], lw, 2 ** lw - 1)
        setField(file, highs, 4, hw, 2 ** hw - 1)
        index = 3 * 1024 + positions[4]
      })
      const message = `${FILE_NAME}: values of field "${name}": value ${index} has dictionary code ${2 ** (lw + hw) - 1}, beyond its ${k} entries`
      for (const read of readsAt(index, true)) expectSameError(bytes, name, read, message)
      duelCorrupt(bytes, name)
    }
  })

  it('a code ≥ k made of a listed patch (9-bit low fields, every one a code): the same CorruptIndexException', () => {
    let k = 0, index = 0, code = 0
    const bytes = patched(typedCodeColumns().columns, (file, reader) => {
      const cascade = reader.getColumn('unitsList')!.values.cascade!
      if (cascade.form !== 1) throw new Error('expected a sequence dictionary')
      k = cascade.entries.count
      // Codes block 2: u8 hw, 1,024 low fields of 9 bits, e positions of 10 bits, then the high parts.
      const block = blockOf(cascade.codes, 2), e = block.param & 1023, hw = file[block.data]
      expect([block.kind, block.width, block.base, block.param & 1024]).toEqual([6, 9, 0n, 1024])
      expect(k).toBeGreaterThanOrEqual(512)
      const lows = block.data + 1, list = lows + (1024 * 9) / 8, highs = list + Math.ceil((e * 10) / 8)
      // The fifth patch gets all ones: code 2^(9 + hw) - 1, past the entries.
      const position = getField(file, list, 4, 10)
      setField(file, lows, position, 9, 511)
      setField(file, highs, 4, hw, 2 ** hw - 1)
      code = 2 ** (9 + hw) - 1
      expect(code).toBeGreaterThanOrEqual(k)
      index = 2 * 1024 + position
    })
    const message = `${FILE_NAME}: values of field "unitsList": value ${index} has dictionary code ${code}, beyond its ${k} entries`
    for (const read of readsAt(index, true)) expectSameError(bytes, 'unitsList', read, message)
    duelCorrupt(bytes, 'unitsList')
  })

  it('a patch list that does not increase: both backends read the block alike (each position searched), into int32 too', () => {
    const bytes = patched(typedCodeColumns().columns, (file, reader) => {
      const cascade = reader.getColumn('unitsList')!.values.cascade!
      if (cascade.form !== 1) throw new Error('expected a sequence dictionary')
      const block = blockOf(cascade.codes, 2), e = block.param & 1023
      const list = block.data + 1 + (1024 * 9) / 8
      // Positions 3 and 4 of the list swapped.
      const third = getField(file, list, 3, 10), fourth = getField(file, list, 4, 10)
      expect(third).toBeLessThan(fourth)
      expect(e).toBeGreaterThan(5)
      setField(file, list, 3, 10, fourth)
      setField(file, list, 4, 10, third)
    })
    const [ts, wasm] = openBoth(bytes)
    try {
      const reads = (reader: ColumnsReader) => {
        const column = reader.getColumn('unitsList')!
        const int32 = new Int32Array(column.totalValueCount), int64 = new BigInt64Array(column.totalValueCount)
        column.readValues(0, int32)
        column.readValues(0, int64)
        return { int32: Array.from(int32), int64: Array.from(int64, Number) }
      }
      const a = reads(ts), b = reads(wasm)
      expect(b.int32).toEqual(a.int32)
      expect(b.int64).toEqual(a.int64)
      expect(a.int32).toEqual(a.int64)
      // Histograms count the patches where reads find them (a search per position), with and
      // without a DocSet: a bucket per distinct value, against the values read.
      const distinct = [...new Set(a.int64)].sort((x, y) => x - y)
      const edges = [...distinct, distinct[distinct.length - 1] + 1]
      for (const reader of [ts, wasm]) {
        const column = reader.getColumn('unitsList')!
        const third = DocSet.fromDocuments(reader, Array.from({ length: reader.maxDoc }, (_, d) => d).filter((d) => d % 3 === 0))
        for (const docs of [undefined, third]) {
          const model = new Array<number>(distinct.length).fill(0)
          a.int64.forEach((value, d) => { if (docs === undefined || d % 3 === 0) model[distinct.indexOf(value)]++ })
          expect(Array.from(column.histogram(edges, docs)), `${reader.backendName} ${docs === undefined ? 'every document' : 'a DocSet'}`).toEqual(model)
        }
      }
    } finally {
      ts.close()
      wasm.close()
    }
    duelCorrupt(bytes, 'unitsList')
  })

  it('a patched codes block with 0-bit low fields (a file may hold one; no flush writes it) reads as its model on both backends', () => {
    // unitsList's codes block 2 rewritten in place, its data length kept: low width 0, e patches
    // by a bitmap, high parts of hw ≥ 9 bits (code = high, every other code 0), e and hw found to
    // fill the same bytes.
    let e = 0, hw = 0, positions: number[] = [], highs: number[] = []
    const bytes = patched(typedCodeColumns().columns, (file, reader) => {
      const cascade = reader.getColumn('unitsList')!.values.cascade!
      if (cascade.form !== 1) throw new Error('expected a sequence dictionary')
      const k = cascade.entries.count, codes = cascade.codes, block = blockOf(codes, 2)
      expect([block.kind, block.base, block.param & 1024]).toEqual([6, 0n, 1024])
      const length = codes.records[6 * 3 + 1] - codes.records[6 * 2 + 1]
      search: for (hw = 9; hw <= 16; hw++) for (e = 1; e <= 1023; e++) if (1 + 128 + Math.ceil((e * hw) / 8) === length) break search
      expect([hw <= 16, e <= 1023]).toEqual([true, true])
      const random = seededRandom(66), order = Array.from({ length: 1024 }, (_, j) => j)
      for (let j = 1023; j > 0; j--) { const r = Math.floor(random() * (j + 1)); [order[j], order[r]] = [order[r], order[j]] }
      positions = order.slice(0, e).sort((x, y) => x - y)
      highs = positions.map(() => 1 + Math.floor(random() * (Math.min(k, 2 ** hw) - 1)))
      const data = block.data
      file.fill(0, data, data + length)
      file[data] = hw
      for (const position of positions) file[data + 1 + (position >>> 3)] |= 1 << (position & 7)
      highs.forEach((high, rank) => setField(file, data + 1 + 128, rank, hw, high))
      // The record in the file: width (byte 1) 0, param (bytes 2-3) e, no list flag.
      const record = codes.recordsStart + 2 * 24
      file[record + 1] = 0
      file[record + 2] = e & 0xff
      file[record + 3] = e >>> 8
    })
    const [ts, wasm] = openBoth(bytes)
    try {
      // The model: value j of the block is entry (j patched ? its high part : 0), entries read as the values of other blocks give them.
      const all = (reader: ColumnsReader, kind: 'int64' | 'int32' | 'float64') => {
        const buffer = createValueBuffer(kind, 1024, { backend: 'wasm' })
        try {
          reader.getColumn('unitsList')!.readValues(2 * 1024, buffer.array)
          return Array.from(buffer.array as ArrayLike<number | bigint>, Number)
        } finally {
          buffer.release()
        }
      }
      const model = all(ts, 'int64')
      const patchedAt = new Map(positions.map((position, rank) => [position, highs[rank]]))
      // Values of equal codes are equal, of unequal codes unequal (the entries are distinct).
      const valueOf = new Map<number, number>()
      for (let j = 0; j < 1024; j++) {
        const code = patchedAt.get(j) ?? 0
        if (!valueOf.has(code)) valueOf.set(code, model[j])
        expect(model[j]).toBe(valueOf.get(code))
      }
      expect(new Set(valueOf.values()).size).toBe(valueOf.size)
      for (const kind of ['int64', 'int32', 'float64'] as const) {
        expect(all(wasm, kind)).toEqual(model)
        expect(all(ts, kind)).toEqual(model)
      }
    } finally {
      ts.close()
      wasm.close()
    }
    duelCorrupt(bytes, 'unitsList')
  })

  it('a multi facet decodes whole value blocks, yet a bad index outside the values it reads raises nothing', () => {
    // 3 values a document: document d holds values 3d to 3d + 2, three terms a stretch of 100 documents.
    const random = seededRandom(52)
    const terms = Array.from({ length: 1000 }, (_, t) => `t${String(t).padStart(3, '0')}`)
    const docs = Array.from({ length: 3000 }, (_, d) => ({ t: [0, 1, 2].map(() => terms[(Math.floor(d / 100) * 37 + 331 * Math.floor(random() * 3)) % 1000]) }))
    const bytes = flushColumns({ fields: [{ name: 't', type: 'keyword', facet: true, multi: true }] }, docs, { format: 2 })!
    // Value 1,024 + 333 (document 452's second) in block 1, a dictionary block of 12 entries.
    const reader = openColumns(bytes, { backend: 'ts' })
    const block = blockOf(reader.getColumn('t')!.values, 1)
    const k = (block.param & 1023) + 1, entryWidth = (block.param >>> 10) + 1
    expect([block.kind, k, block.width]).toEqual([3, 12, 4])
    setField(bytes, block.data + Math.ceil((k * entryWidth) / 8), 333, block.width, 15)
    reader.close()
    fixChecksum(bytes)
    const message = `${FILE_NAME}: values of field "t": block 1 has dictionary index 15, beyond its 12 entries`
    // Document 500 (values 1,500 to 1,502, later in block 1) alone: what it reads starts after the bad index.
    const used = [...new Set(docs.flatMap(({ t }) => t))].sort()
    const expected = new Uint32Array(used.length)
    for (const term of new Set(docs[500].t)) expected[used.indexOf(term)]++
    for (const backend of ['ts', 'wasm'] as const) {
      const corrupt = openColumns(bytes, { backend, fileName: FILE_NAME })
      const column = corrupt.getColumn('t')!
      expect(Array.from(column.facetCounts(DocSet.fromDocuments(corrupt, [500]))), backend).toEqual(Array.from(expected))
      expect(attempt(() => column.facetCounts(DocSet.fromDocuments(corrupt, [452]))), backend).toEqual({ ok: false, kind: 'CorruptIndexException', message })
      expect(attempt(() => column.facetCounts()), backend).toEqual({ ok: false, kind: 'CorruptIndexException', message })
      corrupt.close()
    }
  })

  it('fields not checked at open (bitmap popcount, run starts, list positions) read alike', () => {
    const columns = blockKindColumns()
    const cases: [string, (file: Uint8Array, view: SequenceView) => void][] = [
      // A frequent bitmap with more bits set than its e exceptions.
      ['frequentBitmap', (file, view) => {
        const block = blockOf(view, 0)
        for (let byte = 0; byte < 128; byte += 9) file[block.data + byte] |= 0x81
      }],
      // Run starts out of order and past the block.
      ['runs', (file, view) => {
        const block = blockOf(view, 1), r = block.param + 1
        const starts = block.data + Math.ceil((r * block.width) / 8)
        setField(file, starts, 3, 10, 2)
        setField(file, starts, 7, 10, 1023)
        setField(file, starts, 8, 10, getField(file, starts, 6, 10))
      }],
      // Patched list positions repeated and out of order.
      ['patchedList', (file, view) => {
        const block = blockOf(view, 0), n = 1024
        const positions = block.data + 1 + Math.ceil((n * block.width) / 8)
        setField(file, positions, 1, 10, getField(file, positions, 0, 10))
        setField(file, positions, 3, 10, 1)
      }],
      // Patched list positions that never decrease, two of them equal: still not a valid list.
      ['patchedList', (file, view) => {
        const block = blockOf(view, 1), n = 1024
        const positions = block.data + 1 + Math.ceil((n * block.width) / 8)
        setField(file, positions, 5, 10, getField(file, positions, 4, 10))
      }],
      // Frequent list positions out of order.
      ['frequentList', (file, view) => {
        const block = blockOf(view, 1)
        setField(file, block.data, 2, 10, 900)
        setField(file, block.data, 3, 10, 3)
      }],
    ]
    for (const [name, patch] of cases) {
      const bytes = patched(columns, (file, reader) => patch(file, reader.getColumn(name)!.values))
      duelCorrupt(bytes, name)
    }
  })
})
