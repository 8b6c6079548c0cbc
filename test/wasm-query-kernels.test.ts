/**
 * The WebAssembly query kernels (assembly/query-*.ts behind src/backend/wasm/query.ts)
 * against a naive BigInt model computed from decodeRaw, on sequences holding every
 * block form and width, under null / empty / sparse / dense / unaligned selections;
 * and against the TS kernels once they exist. Also: errors and memory growth.
 */
import { describe, expect, it } from 'vitest'
import type { ColumnsBackend } from '../src/backend/backend.js'
import { createAggregateState } from '../src/backend/query-kernels.js'
import { typeScriptBackend } from '../src/backend/ts/index.js'
import { createWasmBackend } from '../src/backend/wasm/index.js'
import { wasmRuntime, wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { CorruptIndexException } from '../src/format/errors.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { denseFile } from './helpers/dense-file.js'
import { bits, buildFile, parseFile, tableBlock } from './helpers/file-surgery.js'
import {
  FILE_NAME, type Opened, type Run, bitsetOf, blocksFile, isSelected, modelAggregate, openWith, pair, pickOf, randomRun,
  randomSelection, rawValues, selectedValues,
} from './helpers/query-kernel-fixtures.js'
import { MAX_INT64, MIN_INT64 } from './helpers/random-columns.js'
import { seededRandom } from './helpers/random.js'
const hasWasm = wasmUnavailableReason() === null
const wasm: ColumnsBackend | null = hasWasm ? createWasmBackend() : null
const tsReady = (() => {
  try {
    typeScriptBackend.query.allocateBitset(1).release()
    return true
  } catch (error) {
    if (error instanceof Error && error.message.includes('not implemented yet')) return false
    throw error
  }
})()

describe.skipIf(!hasWasm)('WebAssembly query kernels against a model', () => {
  for (let seed = 1; seed <= 6; seed++) {
    it(`every block form, random runs and selections (seed ${seed})`, () => {
      const random = seededRandom(seed * 7919)
      const pick = pickOf(random)
      const count = 1024 * (3 + pick(6)) - pick(1000)
      const bytes = blocksFile(random, count)
      const opened = openWith(bytes, wasm!)
      const tsOpened = tsReady ? openWith(bytes, typeScriptBackend) : null
      try {
        const raws = rawValues(opened)
        const kernels = wasm!.query
        for (let round = 0; round < 12; round++) {
          const run = randomRun(random, count)
          const selection = bitsetOf(wasm!, run.selection)
          // matchRange: bounds from the values (or extremes), output pre-filled with random bits.
          const some = () => (pick(5) === 0 ? [MIN_INT64, MAX_INT64][pick(2)] : raws[pick(count)] + BigInt(pick(3) - 1))
          let lo = some(), hi = some()
          if (pick(5) !== 0 && lo > hi) [lo, hi] = [hi, lo]
          lo = BigInt.asIntN(64, lo)
          hi = BigInt.asIntN(64, hi)
          const outStart = pick(70)
          const prefill = randomSelection(random, outStart + run.count) ?? new Int32Array((outStart + run.count + 31) >>> 5)
          const out = bitsetOf(wasm!, prefill)!
          const bounds = Int32Array.from([...pair(lo), ...pair(hi)])
          const matched = kernels.matchRange(opened.sequence, run.first, run.count, bounds, selection, run.selectionStart, out, outStart)
          const expected = Int32Array.from(prefill)
          let expectedMatched = 0
          for (const [i, raw] of selectedValues(raws, run)) {
            if (raw < lo || raw > hi) continue
            expectedMatched++
            expected[(outStart + i) >>> 5] |= 1 << ((outStart + i) & 31)
          }
          expect(matched).toBe(expectedMatched)
          expect(Array.from(out.words)).toEqual(Array.from(expected))
          // aggregate, both modes, from an empty state and from a state carried over.
          for (const sortable of [false, true]) {
            const state = createAggregateState()
            if (pick(2) === 0) {
              state.numbers[0] = 3
              state.numbers[1] = 1.5
              state.words.set([...pair(-5n), ...pair(7n), ...pair(-1n), ...pair(-1n)])
            }
            const model = modelAggregate(raws, run, sortable, state)
            kernels.aggregate(opened.sequence, run.first, run.count, sortable ? 'sortable' : 'integer', selection, run.selectionStart, state)
            expect(Array.from(state.numbers)).toEqual(Array.from(model.numbers))
            if (state.numbers[0] > 0) expect(Array.from(state.words.subarray(0, 4))).toEqual(Array.from(model.words.subarray(0, 4)))
            if (!sortable) expect(Array.from(state.words.subarray(4))).toEqual(Array.from(model.words.subarray(4)))
          }
          // histogram over edges drawn from the values.
          const edgeSet = new Set<bigint>()
          for (let e = 1 + pick(pick(2) === 0 ? 4 : 40); e >= 0; e--) edgeSet.add(pick(6) === 0 ? [MIN_INT64, MAX_INT64][pick(2)] : raws[pick(count)] + BigInt(pick(3)))
          const edges = [...edgeSet].map((edge) => BigInt.asIntN(64, edge)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
          if (edges.length >= 2) {
            const counts = Uint32Array.from({ length: edges.length - 1 }, () => pick(3))
            const expectedCounts = Array.from(counts)
            for (const [, raw] of selectedValues(raws, run)) {
              for (let b = 0; b + 1 < edges.length; b++) if (raw >= edges[b] && raw < edges[b + 1]) expectedCounts[b]++
            }
            kernels.histogram(opened.sequence, run.first, run.count, Int32Array.from(edges.flatMap(pair)), selection, run.selectionStart, counts)
            expect(Array.from(counts)).toEqual(expectedCounts)
          }
          if (tsOpened !== null) compareWithTs(opened, tsOpened, raws, run, bounds, outStart, prefill, edges)
          selection?.release()
          out.release()
        }
      } finally {
        opened.close()
        tsOpened?.close()
      }
    })
  }

  for (const ordinals of [2, 5, 228, 1000, 40000]) {
    it(`countValues over ${ordinals} ordinals`, () => {
      const random = seededRandom(ordinals)
      const pick = pickOf(random)
      const count = 1024 * 6 - pick(1000)
      const opened = openWith(blocksFile(random, count, ordinals), wasm!)
      try {
        const raws = rawValues(opened)
        for (let round = 0; round < 10; round++) {
          const run = randomRun(random, count)
          const selection = bitsetOf(wasm!, run.selection)
          const counts = Uint32Array.from({ length: ordinals }, () => pick(2))
          const expected = Array.from(counts)
          for (const [, raw] of selectedValues(raws, run)) expected[Number(raw)]++
          wasm!.query.countValues(opened.sequence, run.first, run.count, selection, run.selectionStart, counts)
          expect(Array.from(counts)).toEqual(expected)
          selection?.release()
        }
        // Fewer counts than ordinals: the first selected value beyond them is reported.
        const limit = Math.max(1, ordinals >> 1)
        const firstBad = raws.findIndex((raw) => raw >= BigInt(limit))
        if (firstBad >= 0) {
          expect(() => wasm!.query.countValues(opened.sequence, 0, count, null, 0, new Uint32Array(limit)))
            .toThrow(new CorruptIndexException(FILE_NAME, `${opened.sequence.label}: value ${firstBad} is ${raws[firstBad]}, not in [0, ${limit})`))
        }
      } finally {
        opened.close()
      }
    })
  }

  it('countValues over long runs of byte blocks (the pair-counting path) and its fallbacks', () => {
    const random = seededRandom(229)
    const pick = pickOf(random)
    const count = 300_000
    // Blocks of bytes from 0 (base 0), from 20 (base 20: the pair offset), and 6-bit blocks up to 255.
    const shapeOf = (block: number) => (block % 7 === 3 ? 2 : block % 3)
    const values = Array.from({ length: count }, (_, i) => {
      const shape = shapeOf(i >>> 10)
      return shape === 0 ? pick(229) : shape === 1 ? 20 + pick(209) : 200 + pick(56)
    })
    const opened = openWith(denseFile(count, (i) => values[i], 'n'), wasm!)
    try {
      for (const shape of ['null', 'all', 'sparse', 'unaligned'] as const) {
        const selectionStart = shape === 'unaligned' ? 13 : 0
        const first = shape === 'unaligned' ? 5000 : 0
        const n = count - first
        let words: Int32Array | null = null
        if (shape !== 'null') {
          words = new Int32Array((selectionStart + n + 31) >>> 5)
          for (let bit = 0; bit < selectionStart + n; bit++) if (shape !== 'sparse' || pick(20) === 0) words[bit >>> 5] |= 1 << (bit & 31)
        }
        const selection = bitsetOf(wasm!, words)
        const counts = new Uint32Array(256)
        const expected = new Array<number>(256).fill(0)
        for (let i = 0; i < n; i++) if (isSelected(words, selectionStart + i)) expected[values[first + i]]++
        wasm!.query.countValues(opened.sequence, first, n, selection, selectionStart, counts)
        expect(Array.from(counts)).toEqual(expected)
        selection?.release()
      }
      // 229 counts: the first value of 229 or more is reported.
      const firstBad = values.findIndex((value) => value >= 229)
      expect(() => wasm!.query.countValues(opened.sequence, 0, count, null, 0, new Uint32Array(229)))
        .toThrow(new CorruptIndexException(FILE_NAME, `${opened.sequence.label}: value ${firstBad} is ${values[firstBad]}, not in [0, 229)`))
    } finally {
      opened.close()
    }
  })

  it('a table index out of range: the reader\'s message, from every kernel', () => {
    const schema = { fields: [{ name: 'n', type: 'integral', column: true }] }
    const model = parseFile(flushColumns(schema, Array.from({ length: 2048 }, (_, n) => ({ n })))!)
    model.columns[0].section.values.blocks[1] = tableBlock([0n, 1n, 399n], Array.from({ length: 1024 }, (_, i) => (i === 100 ? 3 : i % 3)))
    const opened = openWith(buildFile(model), wasm!)
    try {
      const message = new CorruptIndexException(FILE_NAME, `${opened.sequence.label}: block 1 has table index 3, beyond its 3 entries`)
      const kernels = wasm!.query
      const out = kernels.allocateBitset(64)
      expect(() => kernels.countValues(opened.sequence, 0, 2048, null, 0, new Uint32Array(2048))).toThrow(message)
      expect(() => kernels.matchRange(opened.sequence, 0, 2048, Int32Array.from([1, 0, 2, 0]), null, 0, out, 0)).toThrow(message)
      expect(() => kernels.aggregate(opened.sequence, 0, 2048, 'integer', null, 0, createAggregateState())).toThrow(message)
      expect(() => kernels.histogram(opened.sequence, 0, 2048, Int32Array.from([1, 0, 2, 0, 3, 0]), null, 0, new Uint32Array(2))).toThrow(message)
      // Not selected: not read.
      const selection = kernels.allocateBitset(64)
      selection.words.fill(-1)
      selection.words[(1024 + 100) >>> 5] &= ~(1 << ((1024 + 100) & 31))
      expect(kernels.matchRange(opened.sequence, 0, 2048, Int32Array.from([1, 0, 2, 0]), selection, 0, out, 0)).toBe(342)
      selection.release()
      out.release()
    } finally {
      opened.close()
    }
  })

  it.skipIf(!tsReady)('tables with bad indexes and entries beyond the counts: the same outcome as the TS kernels', () => {
    const random = seededRandom(4242)
    const pick = pickOf(random)
    const count = 1024 * 5 - 300
    const schema = { fields: [{ name: 'n', type: 'integral', column: true }] }
    const model = parseFile(flushColumns(schema, Array.from({ length: count }, (_, n) => ({ n })))!)
    model.columns[0].section.values.blocks = model.columns[0].section.values.blocks.map((_, index) => {
      const n = Math.min(1024, count - index * 1024)
      const entries = [...new Set(Array.from({ length: 2 + pick(40) }, () => BigInt(pick(60))))].sort((a, b) => (a < b ? -1 : 1))
      if (entries.length < 2) entries.push(entries[0] + 1n)
      const width = bits(BigInt(entries.length - 1))
      const bad = entries.length < 1 << width
      return tableBlock(entries, Array.from({ length: n }, () => (bad && pick(400) === 0 ? entries.length + pick((1 << width) - entries.length) : pick(entries.length))))
    })
    const bytes = buildFile(model)
    const a = openWith(bytes, wasm!), b = openWith(bytes, typeScriptBackend)
    const errors = new Set<string>()
    const outcome = (call: () => unknown): { value?: unknown; error?: string } => {
      try {
        return { value: call() }
      } catch (error) {
        return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }
      }
    }
    try {
      for (let round = 0; round < 30; round++) {
        const run = randomRun(random, count)
        const limit = 20 + pick(50)
        const bounds = Int32Array.from([pick(60), 0, pick(60), 0])
        const edges = Int32Array.from([pick(20), 0, 20 + pick(20), 0, 45, 0])
        const results = [a, b].map((opened) => {
          const kernels = opened.backend.query
          const selection = bitsetOf(opened.backend, run.selection)
          const out = kernels.allocateBitset((count + 31) >>> 5)
          const counts = new Uint32Array(limit), buckets = new Uint32Array(2)
          const integer = createAggregateState(), sortable = createAggregateState()
          const found = [
            outcome(() => { kernels.countValues(opened.sequence, run.first, run.count, selection, run.selectionStart, counts); return Array.from(counts) }),
            outcome(() => kernels.matchRange(opened.sequence, run.first, run.count, bounds, selection, run.selectionStart, out, 0)),
            outcome(() => { kernels.aggregate(opened.sequence, run.first, run.count, 'integer', selection, run.selectionStart, integer); return [...integer.numbers, ...integer.words] }),
            outcome(() => { kernels.aggregate(opened.sequence, run.first, run.count, 'sortable', selection, run.selectionStart, sortable); return [...sortable.numbers] }),
            outcome(() => { kernels.histogram(opened.sequence, run.first, run.count, edges, selection, run.selectionStart, buckets); return Array.from(buckets) }),
          ]
          selection?.release()
          out.release()
          return found
        })
        expect(results[0]).toEqual(results[1])
        for (const found of results[0]) if (found.error !== undefined) errors.add(found.error.replace(/\d+/g, '#'))
      }
      // Both kinds of corruption were met (the comparison above is not vacuous).
      expect([...errors].sort()).toEqual([
        'CorruptIndexException: query.oixk: values of field "n": block # has table index #, beyond its # entries',
        'CorruptIndexException: query.oixk: values of field "n": value # is #, not in [#, #)',
      ])
    } finally {
      a.close()
      b.close()
    }
  })

  it('histograms of wide values count an odd block\'s last value by its own extremes', async () => {
    const { openColumns } = await import('../src/read/open.js')
    const schema = { fields: [{ name: 'x', type: 'fractional', column: true }] }
    // 1,023 distinct doubles (fields of more than 32 bits, counted from their extremes), the last
    // the least or the largest: pairs of values take it alone.
    const steps = Array.from({ length: 1022 }, (_, i) => 1 + i / 1000)
    for (const [values, edges, expected] of [
      [[...steps, 0.5], [0, 0.75, 1.5, 2.5], [1, 500, 522]],
      [[...steps, 9], [0, 1.5, 5, 10], [500, 522, 1]],
    ] as const) {
      const bytes = flushColumns(schema, values.map((x) => ({ x })))!
      for (const backend of [wasm!, ...(tsReady ? [typeScriptBackend] : [])]) {
        using reader = openColumns(bytes, { backend })
        expect([...reader.getColumn('x')!.histogram([...edges])], `${values} by ${edges}`).toEqual([...expected])
      }
    }
  })

  it('bitset words stay right after memory grows between allocation and use', () => {
    const random = seededRandom(99)
    const count = 5000
    const opened = openWith(blocksFile(random, count), wasm!)
    try {
      const raws = rawValues(opened)
      const out = wasm!.query.allocateBitset((count + 31) >>> 5)
      const before = out.words
      const runtime = wasmRuntime()
      const pages = runtime.kernels.memory.buffer.byteLength
      const big = runtime.regions.allocate(pages + 65536)
      expect(runtime.kernels.memory.buffer.byteLength).toBeGreaterThan(pages)
      expect(before.length).toBe(0) // detached by the growth
      const lo = raws[10], hi = raws[10] + 1000n
      const matched = wasm!.query.matchRange(opened.sequence, 0, count, Int32Array.from([...pair(lo), ...pair(hi)]), null, 0, out, 0)
      let expected = 0
      const words = out.words
      raws.forEach((raw, i) => {
        const inside = raw >= lo && raw <= hi
        if (inside) expected++
        expect(((words[i >>> 5] >>> (i & 31)) & 1) === 1).toBe(inside)
      })
      expect(matched).toBe(expected)
      runtime.regions.free(big)
      out.release()
      out.release()
    } finally {
      opened.close()
    }
  })
})

/** The same run through the TS kernels (on a TS-opened copy of the file) gives exactly the same results. */
function compareWithTs(
  opened: Opened, tsOpened: Opened, raws: bigint[], run: Run, bounds: Int32Array, outStart: number, prefill: Int32Array, edges: bigint[],
): void {
  const a = wasm!.query, b = typeScriptBackend.query
  const selA = bitsetOf(wasm!, run.selection), selB = bitsetOf(typeScriptBackend, run.selection)
  const outA = bitsetOf(wasm!, prefill)!, outB = bitsetOf(typeScriptBackend, prefill)!
  expect(a.matchRange(opened.sequence, run.first, run.count, bounds, selA, run.selectionStart, outA, outStart))
    .toBe(b.matchRange(tsOpened.sequence, run.first, run.count, bounds, selB, run.selectionStart, outB, outStart))
  expect(Array.from(outA.words)).toEqual(Array.from(outB.words))
  for (const mode of ['integer', 'sortable'] as const) {
    const stateA = createAggregateState(), stateB = createAggregateState()
    a.aggregate(opened.sequence, run.first, run.count, mode, selA, run.selectionStart, stateA)
    b.aggregate(tsOpened.sequence, run.first, run.count, mode, selB, run.selectionStart, stateB)
    // The WebAssembly state is the model's (so a difference below is the TS kernel's).
    const model = modelAggregate(raws, run, mode === 'sortable', createAggregateState())
    if (stateA.numbers[0] > 0) expect(Array.from(stateA.words.subarray(0, 4))).toEqual(Array.from(model.words.subarray(0, 4)))
    expect(Array.from(stateA.numbers)).toEqual(Array.from(stateB.numbers))
    expect(Array.from(stateA.words)).toEqual(Array.from(stateB.words))
  }
  if (edges.length >= 2) {
    const edgeWords = Int32Array.from(edges.flatMap(pair))
    const countsA = new Uint32Array(edges.length - 1), countsB = new Uint32Array(edges.length - 1)
    a.histogram(opened.sequence, run.first, run.count, edgeWords, selA, run.selectionStart, countsA)
    b.histogram(tsOpened.sequence, run.first, run.count, edgeWords, selB, run.selectionStart, countsB)
    expect(Array.from(countsA)).toEqual(Array.from(countsB))
  }
  for (const bitset of [selA, selB, outA, outB]) bitset?.release()
}
