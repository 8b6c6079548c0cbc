/**
 * Corrupt v2 cascades read alike on the WebAssembly and TypeScript backends:
 * dictionary indexes and codes past their entries raise the same errors at every
 * read that meets them, and corrupt-but-valid encodings (fields not checked at
 * open) read the same.
 */
import { describe, expect, it } from 'vitest'
import type { SequenceView } from '../src/backend/backend.js'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { createValueBuffer } from '../src/read/buffers.js'
import type { Column } from '../src/read/column.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { blockKindColumns, decimalColumns, geoAndMultiColumns, shapeOf } from './helpers/cascade-data.js'
import { attempt } from './helpers/duel.js'
import { fixChecksum } from './helpers/file-surgery.js'
import { seededRandom } from './helpers/random.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { sequenceExtent } from '../src/cascade/reader/parse.js'
import {
  FILE_NAME, openBoth, narrowCodeColumns, typedCodeColumns, setField, getField, blockOf, patched, duelCorrupt, expectSameError, readsAt,
} from './helpers/cascade-duel.js'

const available = wasmUnavailableReason() === null

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

  it('a frame codes block whose base lies within 2^W of 2^63: refused alike, never a gather from before the entries', () => {
    // base + 2^W wrapped past 2^63 once passed the slice check, and the gather read entries from base × 4 bytes
    // (wrapped to 32 bits) before the table: 1,135,329,645 as an ordinal of 7 terms, or wrong in-range values.
    for (const base of [2n ** 63n - 4n, 2n ** 63n - 1n, 2n ** 63n - 512n]) {
      const bytes = patched(typedCodeColumns().columns, (file, reader) => {
        const cascade = reader.getColumn('framed')!.values.cascade!
        if (cascade.form !== 1) throw new Error('expected a sequence dictionary')
        const record = sequenceExtent(cascade.codes)[0] + 13 + 24 * 3, view = new DataView(file.buffer, file.byteOffset)
        expect([blockOf(cascade.codes, 3).width, view.getBigInt64(record + 8, true)]).toEqual([9, 300n])
        view.setBigInt64(record + 8, base, true)
      })
      // Value 3 × 1,024 has field (3,072 × 7) mod 300 = 204: code base + 204, as an unsigned i64.
      const code = BigInt.asUintN(64, base + 204n)
      const message = `${FILE_NAME}: values of field "framed": value 3072 has dictionary code ${code}, beyond its 600 entries`
      for (const read of readsAt(3072, true)) expectSameError(bytes, 'framed', read, message)
    }
  })

  it('a filter over a DocSet passes a block with nothing selected unread on both backends: a bad code there raises on neither', () => {
    // framed: codes block 3 is 300 + a 9-bit field (k 600); the field 300 makes value 3,072 + 211 code 600.
    const bytes = patched(typedCodeColumns().columns, (file, reader) => {
      const cascade = reader.getColumn('framed')!.values.cascade!
      if (cascade.form !== 1) throw new Error('expected a sequence dictionary')
      setField(file, blockOf(cascade.codes, 3).data, 211, 9, 300)
    })
    const message = `${FILE_NAME}: values of field "framed": value 3283 has dictionary code 600, beyond its 600 entries`
    const values = typedCodeColumns().expected.get('framed')!
    const [lo, hi] = [Math.min(...values), Math.max(...values)]
    const [ts, wasm] = openBoth(bytes)
    try {
      for (const [documents, expected] of [
        // Documents in blocks 0-2 and 4 only (block 3 is values 3,072 to 4,095): answered.
        [[5, 1500, 3071, 4096, 4999], { ok: true }],
        // One document in block 3, not the bad one: its block is read whole, and refused.
        [[5, 3072], { ok: false, kind: 'CorruptIndexException', message }],
      ] as const) {
        for (const [name, reader] of [['ts', ts], ['wasm', wasm]] as const) {
          const column = reader.getColumn('framed')!
          const outcome = attempt(() => Array.from(column.rangeFilter(lo, hi, DocSet.fromDocuments(reader, documents))))
          expect(outcome.ok ? { ok: true } : outcome, `${name} ${documents}`).toEqual(expected)
          if (outcome.ok) expect(outcome.value, `${name} ${documents}`).toEqual(documents)
        }
      }
      for (const reader of [ts, wasm]) expect(attempt(() => reader.getColumn('framed')!.rangeFilter(lo, hi))).toEqual({ ok: false, kind: 'CorruptIndexException', message })
    } finally {
      ts.close()
      wasm.close()
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

  it('a runs sequence whose run values hold a bad index: single reads of its other runs answer, the bad run refused alike', () => {
    // 2,048 runs of 8 values from 20 wide values: the run values are two dictionary blocks (20 entries, 5-bit indexes).
    const random = seededRandom(5)
    const pool = Array.from({ length: 20 }, () => Math.floor(random() * 2 ** 40))
    const values = Array.from({ length: 16384 }, (_, index) => pool[((index >>> 3) * 7) % 20])
    const runsOf = (shape: ReturnType<typeof shapeOf>) => expect([shape.form, shape.children[0].kinds]).toEqual(['runs', ['dictionary', 'dictionary']])
    const bytes = patched([{ name: 'runs', type: 'integral', values, expectShape: runsOf }], (file, reader) => {
      const view = reader.getColumn('runs')!.values
      runsOf(shapeOf(view))
      const cascade = view.cascade!
      if (cascade.form !== 2) throw new Error('expected a runs sequence')
      const block = blockOf(cascade.values, 0), k = (block.param & 1023) + 1, entryWidth = (block.param >>> 10) + 1
      expect([k, block.width]).toEqual([20, 5])
      // Run 300 (values 2,400-2,407) gets index 31.
      setField(file, block.data + Math.ceil((k * entryWidth) / 8), 300, block.width, 31)
    })
    const message = `${FILE_NAME}: values of field "runs" (run values): block 0 has dictionary index 31, beyond its 20 entries`
    for (const reader of openBoth(bytes)) {
      const column = reader.getColumn('runs')!
      // Values 2,048-3,071 (runs 256-383) share a checkpoint block with the bad run; the reads around it answer before and after it is met.
      for (const document of [2300, 2399, 2408, 3000, 100]) expect(column.getInt64(document)).toBe(values[document])
      expect(attempt(() => column.getInt64(2400))).toEqual({ ok: false, kind: 'CorruptIndexException', message })
      for (const document of [2300, 2399, 2408, 3000, 100]) expect(column.getInt64(document)).toBe(values[document])
      reader.close()
    }
    duelCorrupt(bytes, 'runs')
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
