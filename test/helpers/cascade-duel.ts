/**
 * Shared by the WebAssembly-against-TypeScript cascade tests (cascade-wasm and
 * cascade-wasm-corrupt): files built to force encodings, duels of every read on
 * both backends, and surgery on a file's fields with its checksum fixed.
 */
import { expect } from 'vitest'
import type { SequenceView } from '../../src/backend/backend.js'
import { createValueBuffer, type ValueArrayKind } from '../../src/read/buffers.js'
import type { Column } from '../../src/read/column.js'
import { openColumns } from '../../src/read/open.js'
import type { ColumnsReader } from '../../src/read/reader.js'
import { type CascadeColumn, cascadeFile, shapeOf } from './cascade-data.js'
import { attempt, Duel, duelColumn, picker, sameOutcome } from './duel.js'
import { fixChecksum } from './file-surgery.js'
import { seededRandom } from './random.js'

export const FILE_NAME = 'cascade.oixk'

export function openBoth(bytes: Uint8Array): [ColumnsReader, ColumnsReader] {
  return [openColumns(bytes, { backend: 'ts', fileName: FILE_NAME }), openColumns(bytes, { backend: 'wasm', fileName: FILE_NAME })]
}

const ARRAYS = { int64: BigInt64Array, float64: Float64Array, int32: Int32Array } as const

/** Bytes of a view, for bit-exact comparison (NaN payloads, -0). */
const bytesOf = (view: ArrayBufferView) => Buffer.from(view.buffer, view.byteOffset, view.byteLength)

/**
 * Random runs read by the TS backend into plain arrays and by WebAssembly into ValueBuffers
 * (in place) of each kind: same outcome, and the same contents even after a refused value.
 */
export function duelValueBuffers(duel: Duel, a: Column, b: Column, random: () => number, runs: number): void {
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
export function duelColumns(columns: CascadeColumn[], seed: number): void {
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
export function narrowCodeColumns(): CascadeColumn[] {
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
export function typedCodeColumns(): { columns: CascadeColumn[]; expected: Map<string, number[]> } {
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


/** Writes `value` into the `width`-bit field `index` of the bit stream at byte `start` (v1's packing). */
export function setField(bytes: Uint8Array, start: number, index: number, width: number, value: number): void {
  for (let bit = 0; bit < width; bit++) {
    const at = index * width + bit, byte = start + (at >>> 3), mask = 1 << (at & 7)
    bytes[byte] = (value >>> bit) & 1 ? bytes[byte] | mask : bytes[byte] & ~mask
  }
}

/** Reads the `width`-bit field `index` of the stream at byte `start`. */
export function getField(bytes: Uint8Array, start: number, index: number, width: number): number {
  let value = 0
  for (let bit = 0; bit < width; bit++) {
    const at = index * width + bit
    if (bytes[start + (at >>> 3)] & (1 << (at & 7))) value |= 1 << bit
  }
  return value
}

/** A block of a form-0 sequence: its kind, width, param and where its data starts in the file. */
export function blockOf(view: SequenceView, block: number): { kind: number; width: number; param: number; data: number; base: bigint } {
  const word = view.records[6 * block]
  const base = BigInt.asIntN(64, (BigInt(view.records[6 * block + 3]) << 32n) | BigInt(view.records[6 * block + 2] >>> 0))
  return { kind: word & 0xff, width: (word >>> 8) & 0xff, param: word >>> 16, data: view.dataStart + view.records[6 * block + 1], base }
}

/** The file of the columns, changed by `patch` (given the TS reader of the intact file), with its checksum fixed. */
export function patched(columns: CascadeColumn[], patch: (bytes: Uint8Array, reader: ColumnsReader) => void): Uint8Array {
  const bytes = cascadeFile(columns)
  const reader = openColumns(bytes, { backend: 'ts' })
  patch(bytes, reader)
  reader.close()
  return fixChecksum(bytes)
}

/** Every read of the column on both backends gives the same outcome (errors included). */
export function duelCorrupt(bytes: Uint8Array, name: string): void {
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
export function expectSameError(bytes: Uint8Array, name: string, read: (column: Column) => unknown, message: string): void {
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
export function readsAt(index: number, int32 = false): ((column: Column) => unknown)[] {
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
