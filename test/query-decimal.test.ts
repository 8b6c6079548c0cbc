// Range filters and histograms over format 2 decimal sequences (value = n / 10^e, or a raw exception)
// answered in the integers' space (src/cascade/query-decimal.ts): every range, however
// close its ends lie to a value, selects what the format 1 file selects, for every DocSet,
// both backends; exceptions (-0, NaN, infinities, values no n / 10^e gives) each alone.
import { describe, expect, it } from 'vitest'
import type { ColumnsBackend, SequenceView } from '../src/backend/backend.js'
import type { BitsetMemory, QueryKernels } from '../src/backend/query-kernels.js'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { signature, summarize } from '../src/cascade/describe.js'
import { integerBounds } from '../src/cascade/query-decimal.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { seededRandom } from './helpers/random.js'

const BACKENDS = wasmUnavailableReason() === null ? (['ts', 'wasm'] as const) : (['ts'] as const)
const N = 20_000
const random = seededRandom(0xdec1)
const SPECIAL = [-0, NaN, Infinity, -Infinity, 0.1 + 0.2, 1e300]
// Cents, sorted within each block (its records bound it), with an exception every 97 values.
const docs = Array.from({ length: N }, (_, i) => ({
  price: i % 97 === 13 ? SPECIAL[(i / 97) % SPECIAL.length | 0] : Math.round(((i >> 10) * 1000 + (i % 1024) * 3 + Math.floor(random() * 3) - 4000) * 100 + random() * 100) / 100,
}))
const schema = { fields: [{ name: 'price', type: 'fractional', column: true }] }
const v1Bytes = flushColumns(schema, docs)!
const v2Bytes = flushColumns(schema, docs, { format: 2 })!

const nextUp = (x: number) => { const f = new Float64Array([x]), w = new BigInt64Array(f.buffer); w[0] += x >= 0 ? 1n : -1n; return x === 0 ? Number.MIN_VALUE : f[0] }
const nextDown = (x: number) => -nextUp(-x)

/** A double's SortableBits as [low, high] words (the raw form of fractional values and bounds). */
function sortableWords(x: number): number[] {
  const f = new Float64Array([x]), w = new Int32Array(f.buffer)
  return w[1] < 0 ? [~w[0], w[1] ^ 0x7fffffff] : [w[0], w[1]]
}

/** A random cut of the values for a kernel call: [first, first + count), selection bit `start`, selection words or null (all). */
function cutOf(pick: () => number): Cut {
  const first = Math.floor(pick() * N), count = Math.floor(pick() * (N - first + 1)), start = Math.floor(pick() * 40)
  const words = pick() < 0.3 ? null : Int32Array.from({ length: ((start + count + 31) >>> 5) + 1 }, () => (pick() * 2 ** 32) | 0)
  return { first, count, start, words }
}

/** The query kernels the reader's columns use. */
function queryOf(reader: ColumnsReader) {
  return (reader.getColumn('price')! as unknown as { backend: ColumnsBackend }).backend.query
}

/** A random cut of the values for a kernel call. */
type Cut = { first: number; count: number; start: number; words: Int32Array | null }

/**
 * Thirty cuts (cutOf), each asked of format 1's and format 2's `price` values through the kernels
 * and the answers compared; `ask` draws the cut's own arguments, then answers for one reader.
 */
function duelOverCuts(
  backend: 'ts' | 'wasm', seed: number,
  ask: (pick: () => number, trial: number, cut: Cut) => (values: SequenceView, query: QueryKernels, cut: Cut, selection: BitsetMemory | null) => unknown,
): void {
  using v1 = openColumns(v1Bytes, { backend })
  using v2 = openColumns(v2Bytes, { backend })
  const pick = seededRandom(seed), query = queryOf(v2)
  for (let trial = 0; trial < 30; trial++) {
    const cut = cutOf(pick), answer = ask(pick, trial, cut)
    const answers = [v1, v2].map((reader) => {
      const selection = cut.words === null ? null : query.allocateBitset(cut.words.length)
      selection?.words.set(cut.words!)
      try {
        return answer(reader.getColumn('price')!.values, query, cut, selection)
      } finally {
        selection?.release()
      }
    })
    expect(answers[1], `[${cut.first}, ${cut.first + cut.count}) from bit ${cut.start}`).toEqual(answers[0])
  }
}

function docSets(reader: ColumnsReader): (DocSet | undefined)[] {
  const pick = seededRandom(0x5e7)
  return [undefined, DocSet.fromDocuments(reader, Array.from({ length: N }, (_, d) => d).filter(() => pick() < 0.3))]
}

describe.each(BACKENDS)('format 2 decimal range filters in the integers\' space (%s backend)', (backend) => {
  it('the column is a decimal sequence with exceptions', () => {
    using reader = openColumns(v2Bytes, { backend })
    expect(signature(summarize(reader.getColumn("price")!.values, 2))).toMatch(/^decimal\(n \/ 10\^2, 207 exceptions\)/)
  })

  it('ranges whose ends lie at, just above and just below values select what format 1 selects', () => {
    using v1 = openColumns(v1Bytes, { backend })
    using v2 = openColumns(v2Bytes, { backend })
    const [sets1, sets2] = [docSets(v1), docSets(v2)]
    const values = docs.map((doc) => doc.price).filter((x) => Number.isFinite(x))
    const ranges: [number, number][] = [[-0, 0], [0, 0], [-0, -0], [-Infinity, -Infinity], [-Infinity, Infinity], [0.3, 0.30000000000000004], [1e300, Infinity], [-1e9, 1e9]]
    for (let k = 0; k < 12; k++) {
      const v = values[Math.floor(random() * values.length)], w = values[Math.floor(random() * values.length)]
      const [a, b] = v <= w ? [v, w] : [w, v]
      ranges.push([a, a], [a, b], [nextUp(a), b], [a, nextDown(b)], [nextUp(a), nextDown(a) < a ? nextUp(a) : a], [nextDown(a), nextUp(a)])
    }
    for (const [lo, hi] of ranges) {
      sets1.forEach((set, index) => {
        if (!(lo <= hi)) return
        const expected = v1.getColumn('price')!.rangeFilter(lo, hi, set)
        const got = v2.getColumn('price')!.rangeFilter(lo, hi, sets2[index])
        expect([got.count(), [...got.toArray()]], `[${lo}, ${hi}] set ${index}`).toEqual([expected.count(), [...expected.toArray()]])
      })
    }
  })
})

describe.each(BACKENDS)('format 2 decimal matches at the kernels\' level (%s backend)', (backend) => {
  it('add to the bits already set and count the selected matches as format 1\'s kernel does, over cut ranges', () => {
    duelOverCuts(backend, 0x3a7c, (pick, trial, { count }) => {
      const prior = Int32Array.from({ length: ((count + 31) >>> 5) + 1 }, () => (pick() < 0.5 ? 0 : (pick() * 2 ** 32) | 0))
      const [a, b] = [(pick() - 0.3) * 1e4, (pick() - 0.3) * 1e4].sort((x, y) => x - y)
      const bounds = Int32Array.from([...sortableWords(trial % 5 === 0 ? -0 : a), ...sortableWords(trial % 7 === 0 ? Infinity : b)])
      return (values, query, { first, start }, selection) => {
        const out = query.allocateBitset(prior.length)
        out.words.set(prior)
        const found = query.matchRange(values, first, count, bounds, selection, start, out, 0)
        const bits = [...out.words]
        out.release()
        return [found, bits]
      }
    })
  })
})

describe.each(BACKENDS)('format 2 decimal histograms in the integers\' space (%s backend)', (backend) => {
  it('count what format 1 counts, edges at, above and below values, -0 and +0, infinities, for every DocSet', () => {
    using v1 = openColumns(v1Bytes, { backend })
    using v2 = openColumns(v2Bytes, { backend })
    const [sets1, sets2] = [docSets(v1), docSets(v2)]
    const pick = seededRandom(0x4157)
    const values = docs.map((doc) => doc.price).filter((x) => Number.isFinite(x))
    const at = () => values[Math.floor(pick() * values.length)]
    const edgeSets: number[][] = [[-1, -0, 1], [-1, 0, Number.MIN_VALUE, 1], [-Infinity, 0, Infinity], [-1e9, 0.3, 0.30000000000000004, 1e300, Infinity], [-1e9, 1e9]]
    for (let k = 0; k < 10; k++) {
      const some = Array.from({ length: 2 + Math.floor(pick() * 12) }, at).sort((a, b) => a - b)
      const edges = some.flatMap((x) => [nextDown(x), x, nextUp(x)]).filter((x, i, all) => i === 0 || x > all[i - 1])
      edgeSets.push(some.filter((x, i, all) => i === 0 || x > all[i - 1]), edges)
    }
    for (const edges of edgeSets) {
      sets1.forEach((set, index) => {
        const expected = [...v1.getColumn('price')!.histogram(edges, set)]
        expect([...v2.getColumn('price')!.histogram(edges, sets2[index])], `${edges} set ${index}`).toEqual(expected)
      })
    }
    // And one against a model: every value in a bucket of its own.
    const sorted = [...new Set(values)].sort((a, b) => a - b).slice(0, 50)
    const counts = sorted.slice(1).map((edge, b) => values.filter((x) => x >= sorted[b] && x < edge).length)
    expect([...v2.getColumn('price')!.histogram(sorted)]).toEqual(counts)
  })

  it('add to the counts given over cut ranges as format 1\'s kernel does', () => {
    duelOverCuts(backend, 0x415c, (pick, trial) => {
      const edges = Array.from({ length: 2 + Math.floor(pick() * 6) }, () => (pick() - 0.3) * 1e4).sort((a, b) => a - b)
      if (trial % 4 === 0) edges.unshift(-Infinity)
      const prior = Uint32Array.from({ length: edges.length - 1 }, () => Math.floor(pick() * 100))
      return (values, query, { first, count, start }, selection) => {
        const counts = prior.slice()
        query.histogram(values, first, count, Int32Array.from(edges.flatMap(sortableWords)), selection, start, counts)
        return [...counts]
      }
    })
  })
})

describe('decimal integer bounds', () => {
  it('are the least and largest n whose n / 10^e lies in the range, or every n, or none', () => {
    const bounds = (lo: number, hi: number) => Int32Array.from([...sortableWords(lo), ...sortableWords(hi)])
    const ints = (words: Int32Array | null) => (words === null ? null : Array.from({ length: words.length / 2 }, (_, i) => String(BigInt(words[2 * i + 1]) << 32n | BigInt(words[2 * i] >>> 0))))
    expect(ints(integerBounds(bounds(0.1, 0.3), 2))).toEqual(['10', '30'])
    expect(ints(integerBounds(bounds(nextUp(0.1), nextDown(0.3)), 2))).toEqual(['11', '29'])
    expect(ints(integerBounds(bounds(-0, -0), 2))).toEqual([])
    expect(ints(integerBounds(bounds(-0, 0), 2))).toEqual(['0', '0'])
    expect(ints(integerBounds(bounds(-Infinity, Infinity), 2))).toEqual(['-9223372036854775808', '9223372036854775807'])
    expect(ints(integerBounds(bounds(2 ** 60, Infinity), 0))).toBeNull()
  })
})
