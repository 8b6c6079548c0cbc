// Questions over format 2 runs sequences (form 2) answered a run at a time
// (src/cascade/query-run-form.ts): range filters, facets, histograms and aggregates
// (integers exact, doubles added in value order) equal the format 1 file's for every
// DocSet, both backends, and over random runs of values at the kernels' level.
import { describe, expect, it } from 'vitest'
import type { ColumnsBackend } from '../src/backend/backend.js'
import { createAggregateState } from '../src/backend/query-kernels.js'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { signature, summarize } from '../src/cascade/describe.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { seededRandom } from './helpers/random.js'

const BACKENDS = wasmUnavailableReason() === null ? (['ts', 'wasm'] as const) : (['ts'] as const)
const N = 30_000
// Long runs of sorted values (a runs sequence wins): integers rising and falling (the least value
// found anew at each run), doubles (with -0 and +0 apart) and terms.
const run = (i: number) => Math.floor(i / 700)
const docs = Array.from({ length: N }, (_, i) => ({
  level: run(i) * 1_000_003 - 20_000_000,
  fall: 50_000_000 - run(i) * 1_000_003,
  ratio: [-2.5, -0, 0, 0.1, 0.30000000000000004, 1e300][run(i) % 6] * (run(i) % 7 === 3 ? -1 : 1),
  stage: `s${String(run(i) % 13).padStart(2, '0')}`,
}))
const schema = { fields: [
  { name: 'level', type: 'integral', column: true }, { name: 'fall', type: 'integral', column: true }, { name: 'ratio', type: 'fractional', column: true }, { name: 'stage', type: 'keyword', facet: true },
] }
const v1Bytes = flushColumns(schema, docs)!
const v2Bytes = flushColumns(schema, docs, { format: 2 })!

function docSets(reader: ColumnsReader): (DocSet | undefined)[] {
  const random = seededRandom(0x2f0e)
  const sets: (DocSet | undefined)[] = [undefined, reader.allDocuments()]
  for (const density of [0.001, 0.1, 0.6]) sets.push(DocSet.fromDocuments(reader, Array.from({ length: N }, (_, d) => d).filter(() => random() < density)))
  sets.push(DocSet.fromDocuments(reader, Array.from({ length: 900 }, (_, d) => 690 + d)))
  return sets
}

describe.each(BACKENDS)('format 2 runs sequences, a run at a time (%s backend)', (backend) => {
  it('each column is a runs sequence', () => {
    using reader = openColumns(v2Bytes, { backend })
    expect(reader.columns.map((column) => signature(summarize(column.values, 2)).replace(/\[.*/, ''))).toEqual(['runs(43 runs)', 'runs(43 runs)', 'runs(41 runs)', 'runs(43 runs)'])
  })

  it('range filters, facets, histograms and aggregates equal the format 1 file\'s for every DocSet', () => {
    using v1 = openColumns(v1Bytes, { backend })
    using v2 = openColumns(v2Bytes, { backend })
    const [sets1, sets2] = [docSets(v1), docSets(v2)]
    const text = (value: unknown) => JSON.stringify(value, (_, x) => (typeof x === 'bigint' ? `${x}n` : Object.is(x, -0) ? '-0' : x))
    const questions: [string, (reader: ColumnsReader, docs?: DocSet) => unknown][] = [
      ['level range', (r, d) => [...r.getColumn('level')!.rangeFilter(-19_000_000, 5_000_000, d).toArray()]],
      ['level range at run values', (r, d) => [...r.getColumn('level')!.rangeFilter(-20_000_000 + 1_000_003, -20_000_000 + 3 * 1_000_003, d).toArray()]],
      ['level histogram', (r, d) => [...r.getColumn('level')!.histogram([-30_000_000, -10_000_000, 0, 1_000_003, 30_000_000], d)]],
      ['level aggregate', (r, d) => r.getColumn('level')!.aggregate(d)],
      ['fall aggregate', (r, d) => r.getColumn('fall')!.aggregate(d)],
      ['ratio range', (r, d) => [...r.getColumn('ratio')!.rangeFilter(-0, 0.2, d).toArray()]],
      ['ratio histogram', (r, d) => [...r.getColumn('ratio')!.histogram([-3, -1, 0, 0.2, 1e301], d)]],
      ['ratio aggregate', (r, d) => r.getColumn('ratio')!.aggregate(d)],
      ['stage facet', (r, d) => [...r.getColumn('stage')!.facetCounts(d)]],
      ['stage terms', (r, d) => [...r.getColumn('stage')!.termFilter(['s03', 's11'], d).toArray()]],
    ]
    for (const [name, question] of questions) {
      sets1.forEach((set, index) => {
        expect(text(question(v2, sets2[index])), `${name}, set ${index}`).toBe(text(question(v1, set)))
      })
    }
  })

  it('counts, matches and sums over random runs of values and selections equal a model (runs cut at both ends)', () => {
    using reader = openColumns(v2Bytes, { backend })
    using v1 = openColumns(v1Bytes, { backend: 'ts' })
    const random = seededRandom(0x51a7)
    const column = reader.getColumn('level')!, stage = reader.getColumn('stage')!
    const query = (column as unknown as { backend: ColumnsBackend }).backend.query
    const levels = Array.from({ length: N }, (_, d) => BigInt(docs[d].level)), stages = Array.from({ length: N }, (_, d) => v1.getColumn('stage')!.getOrdinal(d))
    for (let trial = 0; trial < 40; trial++) {
      const first = Math.floor(random() * N), count = Math.floor(random() * (N - first + 1)), start = Math.floor(random() * 40)
      const words = random() < 0.3 ? null : Int32Array.from({ length: ((start + count + 31) >>> 5) + 1 }, () => (random() * 2 ** 32) | 0)
      const chosen = Array.from({ length: count }, (_, i) => words === null || ((words[(start + i) >>> 5] >>> ((start + i) & 31)) & 1) === 1)
      const selection = words === null ? null : query.allocateBitset(words.length)
      selection?.words.set(words!)
      const counts = new Uint32Array(13), expected = new Uint32Array(13)
      chosen.forEach((yes, i) => { if (yes) expected[stages[first + i]]++ })
      query.countValues(stage.values, first, count, selection, start, counts)
      const out = query.allocateBitset(((count + 31) >>> 5) + 1), lo = -15_000_000n, hi = 2_000_006n
      const found = query.matchRange(column.values, first, count, Int32Array.of(...[lo, hi].flatMap((v) => [Number(BigInt.asIntN(32, v)), Number(v >> 32n)])), selection, start, out, 0)
      const matched = chosen.flatMap((yes, i) => (yes && levels[first + i] >= lo && levels[first + i] <= hi ? [i] : []))
      const set = Array.from({ length: count }, (_, i) => i).filter((i) => ((out.words[i >>> 5] >>> (i & 31)) & 1) === 1)
      const state = createAggregateState()
      query.aggregate(column.values, first, count, 'integer', selection, start, state)
      const kept = levels.slice(first, first + count).filter((_, i) => chosen[i])
      const sum = (BigInt.asIntN(64, BigInt(state.words[7]) << 32n | BigInt(state.words[6] >>> 0)) << 64n) | (BigInt(state.words[5] >>> 0) << 32n | BigInt(state.words[4] >>> 0))
      out.release()
      selection?.release()
      expect([[...counts], found, set, state.numbers[0], String(sum)], `[${first}, ${first + count}) from bit ${start}`)
        .toEqual([[...expected], matched.length, matched, kept.length, String(kept.reduce((a, b) => a + b, 0n))])
    }
  })

  it('matching runs next to one another are set together, and a run of one value between them that does not match stays unset', () => {
    // Runs matching [4, 6] around a single 9 and a single 3, and a run of 7 at the end: long runs, so a runs sequence.
    const values = [...Array(3000).fill(5), 9, ...Array(2000).fill(5), ...Array(1500).fill(4), 3, ...Array(2500).fill(6), ...Array(3000).fill(7)]
    const bytes = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, values.map((v) => ({ v })), { format: 2 })!
    using reader = openColumns(bytes, { backend })
    const column = reader.getColumn('v')!
    expect(signature(summarize(column.values, 2))).toMatch(/^runs\(7 runs\)/)
    const expected = values.flatMap((v, d) => (v >= 4 && v <= 6 ? [d] : []))
    expect([...column.rangeFilter(4, 6).toArray()]).toEqual(expected)
    const odd = DocSet.fromDocuments(reader, values.map((_, d) => d).filter((d) => d % 2 === 1))
    expect([...column.rangeFilter(4, 6, odd).toArray()]).toEqual(expected.filter((d) => d % 2 === 1))
  })
})
