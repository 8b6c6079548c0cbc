/**
 * The WebAssembly backend reads v2 cascades (assembly/cascade/) exactly as the
 * TypeScript reference (src/cascade/reader/decode-ts.ts): files whose data forces
 * each block kind and each sequence form, read with both backends by every
 * accessor, into plain arrays and ValueBuffers of each kind. Corrupt files:
 * cascade-wasm-corrupt.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { createValueBuffer } from '../src/read/buffers.js'
import { type CascadeColumn, blockKindColumns, cascadeFile, decimalColumns, formColumns, geoAndMultiColumns, shapeOf } from './helpers/cascade-data.js'
import { attempt } from './helpers/duel.js'
import { seededRandom } from './helpers/random.js'
import {
  openBoth, duelColumns, narrowCodeColumns, typedCodeColumns,
} from './helpers/cascade-duel.js'

const available = wasmUnavailableReason() === null

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
