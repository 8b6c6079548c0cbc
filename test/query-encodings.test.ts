// Facets, histograms and range filters of format 2 answered from the encodings (src/cascade/query-encodings.ts,
// query-adapter.ts): sequence dictionaries counted by code and filtered by a code span, patched blocks through v1's kernels plus their patches,
// run blocks per run (and whole blocks inside one bucket), the rest decoded. Each column's shape is
// asserted, so the test covers the path it names; answers must equal the format 1 file's, both
// backends, every DocSet density. A corrupt code gives the error a read gives.
import { describe, expect, it } from 'vitest'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { signature, summarize } from '../src/cascade/describe.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { fixChecksum, withRunOneStart } from './helpers/file-surgery.js'
import { seededRandom } from './helpers/random.js'
import type { ColumnsBackend, SequenceView } from '../src/backend/backend.js'
import { createAggregateState, type QueryKernels } from '../src/backend/query-kernels.js'
import { createCodeMatcher } from '../src/cascade/query-match-codes.js'
import { matchRunBlocks } from '../src/cascade/query-match-runs.js'
import { boundsOf } from '../src/kernels/filters.js'
import { blockBounds } from '../src/kernels/top-k-blocks.js'
import { Kind } from '../src/cascade/constants.js'

const BACKENDS = wasmUnavailableReason() === null ? (['ts', 'wasm'] as const) : (['ts'] as const)
const N = 20_500

function documents() {
  const random = seededRandom(0x5eed)
  const own = seededRandom(0xf4e9)
  const extra = seededRandom(0xf7e9)
  const terms = Array.from({ length: 300 }, (_, i) => `t${(i * 7919) % 1000}`)
  const third = seededRandom(0x0ff5)
  const fourth = seededRandom(0x4ea1)
  const many = Array.from({ length: 20_000 }, (_, i) => `k${String(i).padStart(5, '0')}`)
  const pool = seededRandom(0x9001)
  const listed = seededRandom(0x11f7)
  const stepped = seededRandom(0xb17a)
  const pools = Array.from({ length: Math.ceil(N / 1024) }, () => Array.from({ length: 200 }, () => Math.floor(pool() * 2 ** 40)))
  return Array.from({ length: N }, (_, i) => ({
    dictionaryCodes: terms[Math.floor(random() ** 3 * 300)],
    fewPatches: random() < 0.985 ? `a${Math.floor(random() * 12)}` : `z${Math.floor(random() * 200)}`,
    runBlocks: (Math.floor(i / 48) % 7) * 1_000_003 + Math.floor(i / 1024) * 99_999_989,
    patchedFrame: random() < 0.99 ? Math.floor(random() * 100) : 1_000_000 + Math.floor(random() * 1000),
    linear: i * 3 + Math.floor(random() * 4),
    frequentTerms: extra() < 0.97 ? 'top' : `x${Math.floor(extra() * 40)}`,
    frequentValues: extra() < 0.97 ? 42 : 1_000_000 + Math.floor(extra() * 100_000) * 7,
    smallDictionary: [3, 17, 1000, 5, 99999][Math.floor(random() ** 2 * 5)],
    byFrequency: ((Math.floor(own() ** 4 * 60) * 7919) % 601) * 1000,
    // Patched ordinals whose blocks start above 0 (base > 0), and codes whose patches are 12 bits wide.
    offsetOrdinals: many[(i >> 10) * 50 + Math.floor(third() * (third() < 0.7 ? 8 : 200))],
    spread: Math.floor(fourth() * 2 ** 31),
    wideHighs: third() < 0.7 ? many[100 + Math.floor(third() * 2)] : many[Math.floor(third() * 20_000)],
    // 200 wide values a block, each block its own: block dictionaries.
    blockDictionaries: pools[i >> 10][Math.floor(pool() * 200)],
    // 12 frequent terms that sort last, 1.5% of 200 rare ones: codes by frequency, patches listed.
    listedCodes: listed() < 0.985 ? `z${Math.floor(listed() * 12)}` : `a${Math.floor(listed() * 200)}`,
    // 30% exceptions among a few values: frequent blocks whose positions are a bitmap.
    // (The last 24 values of each block are the top one: the corruption test below sets their bits.)
    bitmapTerms: i % 1024 >= 1000 || stepped() < 0.7 ? 'day' : ['dawn', 'dusk', 'night'][Math.floor(stepped() * 3)],
    bitmapValues: stepped() < 0.7 ? 5 : 20 + 30 * Math.floor(stepped() * 8),
    // Empty in a few documents: the optional layout maps values to documents around the kernels.
    when: i % 97 === 5 ? undefined : new Date(Date.UTC(2020, 0, 1) + Math.floor(i / 100) * 3_600_000).toISOString(),
  }))
}

const SHAPES: Record<string, string> = {
  dictionaryCodes: 'dictionary(300 entries, by frequency)[entries: blocks{frame}, codes: blocks{patched}]',
  fewPatches: 'blocks{patched}',
  runBlocks: 'blocks{runs}',
  patchedFrame: 'blocks{patched frame}',
  linear: 'blocks{linear}',
  frequentTerms: 'blocks{frequent constant}',
  frequentValues: 'blocks{frequent constant}',
  smallDictionary: 'dictionary(5 entries, ascending)[entries: blocks{patched}, codes: blocks{frequent}]',
  byFrequency: 'dictionary(60 entries, by frequency)[entries: blocks{frame}, codes: blocks{frequent patched}]',
  offsetOrdinals: 'blocks{patched}',
  spread: 'blocks{frame frequent}',
  wideHighs: 'dictionary(5252 entries, by frequency)[entries: blocks{linear patched}, codes: blocks{patched}]',
  when: 'runs(205 runs)[run values: blocks{linear}, run starts: blocks{linear}]',
  blockDictionaries: 'blocks{dictionary frame}',
  listedCodes: 'dictionary(173 entries, by frequency)[entries: blocks{frame}, codes: blocks{patched frame}]',
  bitmapTerms: 'blocks{frequent}',
  bitmapValues: 'dictionary(9 entries, ascending)[entries: blocks{frame}, codes: blocks{frequent}]',
}

const docs = documents()
const schema = {
  fields: Object.keys(SHAPES).map((name) => ({
    name, column: true, type: name === 'when' ? 'date' : ['dictionaryCodes', 'fewPatches', 'frequentTerms', 'offsetOrdinals', 'wideHighs', 'listedCodes', 'bitmapTerms'].includes(name) ? 'keyword' : 'integral',
  })),
}
const v1Bytes = flushColumns(schema, docs)!
const v2Bytes = flushColumns(schema, docs, { format: 2 })!

/** DocSets of several densities (and none, and every document). */
function docSets(reader: ColumnsReader): (DocSet | undefined)[] {
  const random = seededRandom(0xd0c5)
  const sets: (DocSet | undefined)[] = [undefined, reader.allDocuments()]
  for (const density of [0.001, 0.1, 0.5, 0.97]) {
    sets.push(DocSet.fromDocuments(reader, Array.from({ length: N }, (_, d) => d).filter(() => random() < density)))
  }
  // Only documents of the last partial block, and one stretch across a block edge.
  sets.push(DocSet.fromDocuments(reader, [N - 3, N - 1]))
  sets.push(DocSet.fromDocuments(reader, Array.from({ length: 300 }, (_, d) => 1000 + d)))
  return sets
}

/** Edges across the column's range: a few buckets (whole blocks inside one) and many (blocks cut). */
function edgeSets(reader: ColumnsReader, name: string): number[][] {
  const column = reader.getColumn(name)!
  const min = Number(column.minRaw), max = Number(column.maxRaw)
  const even = (buckets: number) => Array.from({ length: buckets + 1 }, (_, b) => Math.floor(min + ((max - min + 1) * b) / buckets))
  return [even(3), even(7), even(101), [min + 1, Math.floor((min + max) / 2)]]
}

describe.each(BACKENDS)('format 2 facets and histograms from the encodings (%s backend)', (backend) => {
  it('each column has the shape its path needs', () => {
    using reader = openColumns(v2Bytes, { backend })
    const shapes = Object.fromEntries(reader.columns.map((column) => [column.name, signature(summarize(column.values, 2))]))
    expect(shapes).toEqual(SHAPES)
  })

  it('facetCounts equal the format 1 file\'s for every DocSet', () => {
    using v1 = openColumns(v1Bytes, { backend })
    using v2 = openColumns(v2Bytes, { backend })
    const [sets1, sets2] = [docSets(v1), docSets(v2)]
    for (const name of ['dictionaryCodes', 'fewPatches', 'frequentTerms', 'offsetOrdinals', 'wideHighs', 'bitmapTerms']) {
      sets1.forEach((set, index) => {
        expect([...v2.getColumn(name)!.facetCounts(sets2[index])], `${name} set ${index}`).toEqual([...v1.getColumn(name)!.facetCounts(set)])
      })
    }
    // Not zero: the question really counts.
    expect(v2.getColumn('fewPatches')!.facetCounts().reduce((sum, count) => sum + count, 0)).toBe(N)
  })

  it('histograms equal the format 1 file\'s for every DocSet and edge set', () => {
    using v1 = openColumns(v1Bytes, { backend })
    using v2 = openColumns(v2Bytes, { backend })
    const [sets1, sets2] = [docSets(v1), docSets(v2)]
    for (const name of ['runBlocks', 'patchedFrame', 'linear', 'smallDictionary', 'frequentValues', 'bitmapValues', 'when']) {
      for (const edges of edgeSets(v1, name)) {
        const bounds = name === 'when' ? edges.map((edge) => new Date(edge).toISOString()) : edges
        sets1.forEach((set, index) => {
          const expected = [...v1.getColumn(name)!.histogram(bounds, set)]
          expect([...v2.getColumn(name)!.histogram(bounds, sets2[index])], `${name} ${edges.length} edges, set ${index}`).toEqual(expected)
        })
      }
    }
  })

  it('a run block whose starts do not ascend (not checked at open): histograms and range filters answer what a decode reads', () => {
    // Run 1 of block 1 made to start at 200, after run 2 starts: the run walks refuse the block
    // and the decoding path answers, value by value as reads find them.
    const { bytes, word } = withRunOneStart(v2Bytes, openColumns(v2Bytes, { backend: 'ts' }).getColumn('runBlocks')!.values, 1, 200)
    expect([word & 0xff, (word >>> 16) + 1 > 2]).toEqual([4, true])
    using reader = openColumns(bytes, { backend })
    const column = reader.getColumn('runBlocks')!
    const values = new BigInt64Array(N)
    column.readValues(0, values)
    // Edges inside block 1's values (99,999,989 + 1,000,003 k), so its runs are walked.
    const edges = [0, 1_000_003, 3_000_009, 99_999_989, 102_500_000, 104_500_000, 2 * 99_999_989, 25 * 99_999_989]
    const expected = edges.slice(1).map((edge, b) => values.filter((v) => v >= BigInt(edges[b]) && v < BigInt(edge)).length)
    expect([...column.histogram(edges)]).toEqual(expected)
    const half = DocSet.fromDocuments(reader, Array.from({ length: N }, (_, d) => d).filter((d) => d % 2 === 0))
    expect([...column.histogram(edges, half)]).toEqual(edges.slice(1).map((edge, b) =>
      values.filter((v, d) => d % 2 === 0 && v >= BigInt(edges[b]) && v < BigInt(edge)).length))
    // An aggregate likewise (count, min, max and the exact sum of what reads give), all and half the documents.
    const summary = (chosen: (d: number) => boolean) => {
      const kept = [...values].filter((_, d) => chosen(d))
      return [kept.length, kept.reduce((a, b) => (b < a ? b : a)), kept.reduce((a, b) => (b > a ? b : a)), kept.reduce((a, b) => a + b, 0n)].map(Number)
    }
    const aggregateOf = (docs?: DocSet) => { const a = column.aggregate(docs); return [a.count, a.min, a.max, a.sum].map(Number) }
    expect([aggregateOf(), aggregateOf(half)]).toEqual([summary(() => true), summary((d) => d % 2 === 0)])
    // A range filter likewise: the block's runs are not matched one by one, its values are decoded.
    const [lo, hi] = [1_000_003, 99_999_989 + 3_000_009]
    expect([...column.rangeFilter(lo, hi).toArray()]).toEqual(
      [...values.keys()].filter((d) => values[d] >= BigInt(lo) && values[d] <= BigInt(hi)))
  })

  it('a frequent block whose bitmap has bits set past its e-th (not checked at open): facets count what reads give', () => {
    // Block 0's last 24 positions (values 'day', the top one) marked in its bitmap, and the unused
    // last bits of its exceptions' fields set: a walk that took those bits for exceptions would
    // count fields past the e-th. Reads take bits past the e-th for no exception.
    const view = openColumns(v2Bytes, { backend: 'ts' }).getColumn('bitmapTerms')!.values
    const word = view.records[0], e = (word >>> 16) & 1023, width = (word >>> 8) & 0xff
    expect([word & 0xff, (word >>> 16) & 3072, e > 100, (e * width) % 8 !== 0]).toEqual([Kind.frequent, 0, true, true])
    const bitmap = view.dataStart + view.records[1]
    const bytes = v2Bytes.slice()
    bytes.fill(0xff, bitmap + 125, bitmap + 128)
    bytes[bitmap + 128 + ((e * width) >>> 3)] |= (0xff << ((e * width) & 7)) & 0xff
    using v1 = openColumns(v1Bytes, { backend })
    using reader = openColumns(fixChecksum(bytes), { backend })
    const column = reader.getColumn('bitmapTerms')!
    expect(Array.from({ length: N }, (_, d) => column.getOrdinal(d))).toEqual(Array.from({ length: N }, (_, d) => v1.getColumn('bitmapTerms')!.getOrdinal(d)))
    const [sets1, sets2] = [docSets(v1), docSets(reader)]
    sets1.forEach((set, index) => {
      expect([...column.facetCounts(sets2[index])], `set ${index}`).toEqual([...v1.getColumn('bitmapTerms')!.facetCounts(set)])
    })
  })

  it('topK equals the format 1 file\'s for every column, both orders and every DocSet (blocks bounded by their encodings)', () => {
    using v1 = openColumns(v1Bytes, { backend })
    using v2 = openColumns(v2Bytes, { backend })
    const [sets1, sets2] = [docSets(v1), docSets(v2)]
    for (const name of Object.keys(SHAPES)) {
      for (const order of ['ascending', 'descending'] as const) {
        for (const k of [1, 7, 300]) {
          sets1.forEach((set, index) => {
            const expected = [...v1.getColumn(name)!.topK(k, order, set)]
            expect([...v2.getColumn(name)!.topK(k, order, sets2[index])], `${name} ${order} ${k}, set ${index}`).toEqual(expected)
          })
        }
      }
    }
  })

  it('every block\'s bound holds its values: runs, dictionary, patched and frequent blocks bounded from their records (runs exactly, from their run values)', () => {
    using reader = openColumns(v2Bytes, { backend })
    let bounded = 0, exact = 0
    for (const column of reader.columns) {
      const sequence = column.values
      if (sequence.cascade === null || sequence.cascade.form !== 0) continue
      const [lows, highs] = [blockBounds(sequence, true).bounds, blockBounds(sequence, false).bounds]
      const values = new BigInt64Array(sequence.count)
      column.readValues(0, values)
      for (let block = 0; block < sequence.blockCount; block++) {
        const own = values.subarray(block * 1024, (block + 1) * 1024)
        const [min, max] = [own.reduce((a, b) => (b < a ? b : a)), own.reduce((a, b) => (b > a ? b : a))]
        expect(lows[block] <= min && max <= highs[block], `${column.name} block ${block}: [${lows[block]}, ${highs[block]}] holds [${min}, ${max}]`).toBe(true)
        if (highs[block] < 2n ** 63n - 1n) bounded++
        if ((sequence.cascade.blocks.records[6 * block] & 0xff) !== Kind.runs) continue
        expect([lows[block], highs[block]], `${column.name} run block ${block}`).toEqual([min, max])
        exact++
      }
    }
    expect(bounded).toBeGreaterThan(100)
    expect(exact).toBeGreaterThan(10)
  })

  it('range filters over a dictionary\'s decoded copy pass over blocks by their own least and largest values, exactly', () => {
    // Ranges that start or end at a block's least or largest value (or one past it): a block whose
    // extremes meet the range must be read, and only such a block may be passed over.
    using v1 = openColumns(v1Bytes, { backend })
    using v2 = openColumns(v2Bytes, { backend })
    for (const name of ['byFrequency', 'smallDictionary', 'wideHighs']) {
      const column = v1.getColumn(name)!
      const values = new BigInt64Array(N)
      column.readValues(0, values)
      for (let block = 0; block * 1024 < N; block++) {
        const own = values.subarray(block * 1024, (block + 1) * 1024)
        const least = own.reduce((a, b) => (b < a ? b : a)), largest = own.reduce((a, b) => (b > a ? b : a))
        for (const [lo, hi] of [[least, least], [largest, largest], [largest + 1n, largest + 5n], [least - 5n, least - 1n], [least - 3n, least], [largest, largest + 3n]]) {
          const expected = column.rangeFilter(lo, hi).toArray()
          expect([...v2.getColumn(name)!.rangeFilter(lo, hi).toArray()], `${name} block ${block} [${lo}, ${hi}]`).toEqual([...expected])
        }
      }
    }
  })

  it('range and term filters equal the format 1 file\'s for every DocSet (a span of codes, or codes apart)', () => {
    using v1 = openColumns(v1Bytes, { backend })
    using v2 = openColumns(v2Bytes, { backend })
    const [sets1, sets2] = [docSets(v1), docSets(v2)]
    const cases: [string, (reader: ColumnsReader, docs: DocSet | undefined) => DocSet][] = [
      ['one term', (reader, docs) => reader.getColumn('dictionaryCodes')!.termFilter('t919', docs)],
      // A frequent code, below every patch (the patched blocks' low fields compared where packed).
      ['one frequent term, patches in a bitmap', (reader, docs) => reader.getColumn('dictionaryCodes')!.termFilter('t0', docs)],
      ['one frequent term, patches listed', (reader, docs) => reader.getColumn('listedCodes')!.termFilter('z3', docs)],
      ['terms apart', (reader, docs) => reader.getColumn('dictionaryCodes')!.termFilter(['t0', 't28', 't947'], docs)],
      ['ordinal range', (reader, docs) => reader.getColumn('dictionaryCodes')!.rangeFilter(1, 3, docs)],
      ['ascending entries', (reader, docs) => reader.getColumn('smallDictionary')!.rangeFilter(4, 1000, docs)],
      ['no entry', (reader, docs) => reader.getColumn('smallDictionary')!.rangeFilter(6, 16, docs)],
      ['frequency order', (reader, docs) => reader.getColumn('byFrequency')!.rangeFilter(100_000, 400_000, docs)],
      ['one frequent value', (reader, docs) => reader.getColumn('byFrequency')!.rangeFilter(0, 0, docs)],
      // Run blocks: runs of 48 values k × 1,000,003 (k = 0..6) over a base of 99,999,989 a block.
      ['runs inside every block', (reader, docs) => reader.getColumn('runBlocks')!.rangeFilter(1_000_003, 3_000_009, docs)],
      ['whole run blocks, and cut ones at both ends', (reader, docs) => reader.getColumn('runBlocks')!.rangeFilter(3 * 99_999_989 + 2_000_006, 10 * 99_999_989 + 500, docs)],
      ['run blocks whose bounds meet the range, no run in it', (reader, docs) => reader.getColumn('runBlocks')!.rangeFilter(5 * 99_999_989 + 1, 5 * 99_999_989 + 1_000_002, docs)],
      // After a filter that leaves wide fields in the kernels' buffers: the last, partial block's chunk reads no stale code.
      ['codes apart after wide fields', (reader, docs) => {
        // (Format 1's kernels unpack the wide fields into the buffer the member kernel reads codes from.)
        v1.getColumn('spread')!.rangeFilter(0, 2 ** 30)
        return reader.getColumn('byFrequency')!.rangeFilter(100_000, 400_000, docs)
      }],
    ]
    for (const [name, filter] of cases) {
      sets1.forEach((set, index) => {
        const expected = filter(v1, set).toArray()
        expect([...filter(v2, sets2[index]).toArray()], `${name}, set ${index}`).toEqual([...expected])
        if (index === 0 && !name.startsWith('no ') && !name.includes('no run')) expect(expected.length, name).toBeGreaterThan(0)
      })
    }
  })
})

// Aggregates and range filters that decode (src/cascade/query-adapter.ts): values of every 64-bit
// magnitude, so the exact sums (low and high words gathered apart per block) and the unsigned
// range compare of the raw-value kernels meet carries, signs and both ends of int64.
describe.each(BACKENDS)('format 2 counts over runs that start and end inside blocks (%s backend)', (backend) => {
  it('countValues and histogram equal a model over random runs and selections', () => {
    using reader = openColumns(v2Bytes, { backend })
    using v1 = openColumns(v1Bytes, { backend: 'ts' })
    const random = seededRandom(0x7a11)
    const query = (reader.getColumn('fewPatches')! as unknown as { backend: ColumnsBackend }).backend.query
    // Patched codes with list positions (fewPatches), with a bitmap (dictionaryCodes, and wide patches: wideHighs),
    // ordinals in blocks based above 0 (offsetOrdinals), patched values (patchedFrame); frequent blocks whose
    // exceptions' positions are a bitmap (bitmapTerms, bitmapValues: stepped one by one or decoded, by backend).
    for (const name of ['fewPatches', 'dictionaryCodes', 'offsetOrdinals', 'wideHighs', 'patchedFrame', 'bitmapTerms', 'bitmapValues']) {
      const column = reader.getColumn(name)!
      const keyword = column.dictionary !== null
      const model = v1.getColumn(name)!
      const raws = Array.from({ length: N }, (_, d) => (keyword ? model.getOrdinal(d) : Number(model.getInt64(d))))
      const n = keyword ? column.dictionary!.termCount : 0
      const edges = keyword ? null : [0, 10, 50, 99, 1_000_000, 1_000_500, 1_001_000]
      for (let trial = 0; trial < 40; trial++) {
        const first = Math.floor(random() * N), count = Math.floor(random() * (N - first + 1)), start = Math.floor(random() * 40)
        const words = random() < 0.3 ? null : Int32Array.from({ length: ((start + count + 31) >>> 5) + 1 }, () => (random() * 2 ** 32) | 0)
        const selected = (i: number) => words === null || ((words[(start + i) >>> 5] >>> ((start + i) & 31)) & 1) === 1
        const expected = new Uint32Array(keyword ? n : edges!.length - 1)
        for (let i = 0; i < count; i++) {
          if (!selected(i)) continue
          const value = raws[first + i]
          if (keyword) expected[value]++
          else for (let b = 0; b + 1 < edges!.length; b++) if (value >= edges![b] && value < edges![b + 1]) expected[b]++
        }
        const selection = words === null ? null : query.allocateBitset(words.length)
        selection?.words.set(words!)
        const counts = new Uint32Array(expected.length)
        if (keyword) query.countValues(column.values, first, count, selection, start, counts)
        else query.histogram(column.values, first, count, Int32Array.from(edges!.flatMap((edge) => [edge, 0])), selection, start, counts)
        selection?.release()
        expect([...counts], `${name} [${first}, ${first + count}) from bit ${start}`).toEqual([...expected])
      }
    }
  })
})

describe.each(BACKENDS)('format 2 integer aggregates over run blocks (%s backend)', (backend) => {
  it('equal a model over random runs of values and selections (runs cut at both ends)', () => {
    using reader = openColumns(v2Bytes, { backend })
    using v1 = openColumns(v1Bytes, { backend: 'ts' })
    const random = seededRandom(0xa66e)
    const column = reader.getColumn('runBlocks')!
    const query = (column as unknown as { backend: ColumnsBackend }).backend.query
    const raws = Array.from({ length: N }, (_, d) => v1.getColumn('runBlocks')!.getInt64BigInt(d))
    for (let trial = 0; trial < 60; trial++) {
      const first = Math.floor(random() * N), count = Math.floor(random() * (N - first + 1)), start = Math.floor(random() * 40)
      const words = random() < 0.3 ? null : Int32Array.from({ length: ((start + count + 31) >>> 5) + 1 }, () => (random() < 0.5 ? 0 : (random() * 2 ** 32) | 0))
      const kept = raws.slice(first, first + count).filter((_, i) => words === null || ((words[(start + i) >>> 5] >>> ((start + i) & 31)) & 1) === 1)
      const selection = words === null ? null : query.allocateBitset(words.length)
      selection?.words.set(words!)
      // Every other trial, a state that already holds a value (the runs add to it); else an empty one (they seed it).
      const state = createAggregateState()
      if (trial % 2 === 0) query.aggregate(v1.getColumn('runBlocks')!.values, 5, 1, 'integer', null, 0, state)
      query.aggregate(column.values, first, count, 'integer', selection, start, state)
      selection?.release()
      const all = trial % 2 === 0 ? [raws[5], ...kept] : kept
      if (all.length === 0) continue
      const expected = [all.length, all.reduce((a, b) => (b < a ? b : a)), all.reduce((a, b) => (b > a ? b : a)), all.reduce((a, b) => a + b, 0n)]
      const sum = (BigInt.asIntN(64, BigInt(state.words[7]) << 32n | BigInt(state.words[6] >>> 0)) << 64n) | (BigInt(state.words[5] >>> 0) << 32n | BigInt(state.words[4] >>> 0))
      const got = [state.numbers[0], BigInt(state.words[1]) << 32n | BigInt(state.words[0] >>> 0), BigInt(state.words[3]) << 32n | BigInt(state.words[2] >>> 0), sum]
      expect(got.map(String), `[${first}, ${first + count}) from bit ${start}`).toEqual(expected.map(String))
    }
  })
})

describe.each(BACKENDS)('format 2 counts refuse what format 1 refuses (%s backend)', (backend) => {
  it('a value outside [0, n) in a run block stops countValues with format 1\'s error', () => {
    // Counted per run (values as exact numbers): a run's value past the counts must not be skipped.
    const refusal = (bytes: Uint8Array) => {
      using reader = openColumns(bytes, { backend })
      const column = reader.getColumn('runBlocks')!
      const query = (column as unknown as { backend: ColumnsBackend }).backend.query
      return () => query.countValues(column.values, 0, 1124, null, 0, new Uint32Array(20))
    }
    const v1Error = (() => { try { refusal(v1Bytes)(); return null } catch (error) { return (error as Error).message } })()
    expect(v1Error).toMatch(/value 48 is 1000003, not in \[0, 20\)/)
    expect(refusal(v2Bytes)).toThrow(v1Error!)
  })
})

describe.each(BACKENDS)('format 2 aggregates and range filters over decoded values (%s backend)', (backend) => {
  const random = seededRandom(0x64b1)
  const big = () => BigInt(Math.floor(random() * 2 ** 32)) << 32n | BigInt(Math.floor(random() * 2 ** 32))
  const wide = Array.from({ length: 5000 }, (_, i) => ({
    v: i % 500 === 7 ? -(2n ** 63n) : i % 700 === 3 ? 2n ** 63n - 1n : BigInt.asIntN(64, big()),
    d: random() < 0.5 ? random() * 1e300 : -random() * 1e-300,
  }))
  const wideSchema = { fields: [{ name: 'v', type: 'integral', column: true }, { name: 'd', type: 'fractional', column: true }] }
  const [one, two] = [1, 2].map((format) => flushColumns(wideSchema, wide, { format: format as 1 | 2 })!)
  const text = (value: unknown) => JSON.stringify(value, (_, x) => (typeof x === 'bigint' ? `${x}n` : x))

  it('equal the format 1 file\'s for every DocSet', () => {
    using v1 = openColumns(one, { backend })
    using v2 = openColumns(two, { backend })
    const sets = (reader: ColumnsReader) => {
      const pick = seededRandom(0xa66)
      return [undefined, ...[0.01, 0.3, 0.9].map((density) => DocSet.fromDocuments(reader, Array.from({ length: 5000 }, (_, d) => d).filter(() => pick() < density)))]
    }
    const [sets1, sets2] = [sets(v1), sets(v2)]
    sets1.forEach((set, index) => {
      for (const name of ['v', 'd']) {
        expect(text(v2.getColumn(name)!.aggregate(sets2[index])), `${name} set ${index}`).toBe(text(v1.getColumn(name)!.aggregate(set)))
      }
      for (const [lo, hi] of [[-(2n ** 63n), -1n], [-(2n ** 62n), 2n ** 62n], [0n, 2n ** 63n - 1n], [5n, 4n]] as const) {
        const expected = [...v1.getColumn('v')!.rangeFilter(lo, hi, set).toArray()]
        expect([...v2.getColumn('v')!.rangeFilter(lo, hi, sets2[index]).toArray()], `[${lo}, ${hi}] set ${index}`).toEqual(expected)
      }
    })
    // Against the model too (both files share v1's kernels): exact sum, least and greatest, over a DocSet of every other block.
    const chosen = Array.from({ length: 5000 }, (_, d) => d).filter((d) => (d >> 10) % 2 === 0)
    const values = chosen.map((d) => wide[d].v)
    const model = { count: values.length, min: values.reduce((a, b) => (b < a ? b : a)), max: values.reduce((a, b) => (b > a ? b : a)), sum: values.reduce((a, b) => a + b, 0n) }
    const { count, min, max, sum } = v2.getColumn('v')!.aggregate(DocSet.fromDocuments(v2, chosen))
    expect(text({ count, min: BigInt(min!), max: BigInt(max!), sum: BigInt(sum) }), backend).toBe(text(model))
    // Not the extremes of int64 themselves, so a least taken from the wrong side shows.
    const inner = Array.from({ length: 1024 }, (_, d) => 2048 + d).filter((d) => d % 500 !== 7 && d % 700 !== 3)
    const innerValues = inner.map((d) => wide[d].v)
    const innerAggregate = v2.getColumn('v')!.aggregate(DocSet.fromDocuments(v2, inner))
    expect([BigInt(innerAggregate.min!), BigInt(innerAggregate.max!)]).toEqual([innerValues.reduce((a, b) => (b < a ? b : a)), innerValues.reduce((a, b) => (b > a ? b : a))])
  })
})

describe.each(BACKENDS)('format 2 integer aggregates of sequence dictionaries by code counts (%s backend)', (backend) => {
  it('equal a BigInt model: int64 extremes, a sum beyond 64 bits, every DocSet density', () => {
    const random = seededRandom(0xa99)
    const pool = [-(2n ** 63n), 2n ** 63n - 1n, 2n ** 62n + 12345n, -7n, 0n, 99n, ...Array.from({ length: 40 }, (_, i) => BigInt(i) * 1_000_000_007n - 3n ** 30n)]
    const values = Array.from({ length: 9000 }, () => pool[Math.floor(random() ** 2 * pool.length)])
    const bytes = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, values.map((v) => ({ v })), { format: 2 })!
    using reader = openColumns(bytes, { backend })
    const column = reader.getColumn('v')!
    expect(signature(summarize(column.values, 2))).toMatch(/^dictionary\(46 entries/)
    const text = (value: unknown) => JSON.stringify(value, (_, x) => (typeof x === 'bigint' ? `${x}n` : x))
    for (const density of [1, 0.5, 0.02, 0]) {
      const chosen = Array.from({ length: values.length }, (_, d) => d).filter(() => density === 1 || random() < density)
      const picked = chosen.map((d) => values[d])
      const model = picked.length === 0
        ? { count: 0 }
        : { count: picked.length, min: picked.reduce((a, b) => (b < a ? b : a)), max: picked.reduce((a, b) => (b > a ? b : a)), sum: picked.reduce((a, b) => a + b, 0n) }
      const got = column.aggregate(density === 1 ? undefined : DocSet.fromDocuments(reader, chosen))
      const answer = got.count === 0 ? { count: 0 } : { count: got.count, min: BigInt(got.min!), max: BigInt(got.max!), sum: BigInt(got.sum) }
      expect(text(answer), `density ${density}`).toBe(text(model))
    }
  })
})

describe('code filters from patched low fields', () => {
  it('hand every stretch to the decoding path when the backend has no memory for the lens', () => {
    using reader = openColumns(v2Bytes, { backend: 'ts' })
    const codes = (reader.getColumn('dictionaryCodes')!.values.cascade as unknown as { codes: SequenceView }).codes.cascade as unknown as { blocks: SequenceView }
    const decoded: number[][] = []
    const matchCodes = createCodeMatcher({} as QueryKernels, () => null)
    const out = reader.createDocSet()
    const matched = matchCodes(codes.blocks, 100, 5000, new Int32Array([0, 0, 0, 0]), 0, null, 0, out.memory, 0, (from, n) => {
      decoded.push([from, n])
      return n
    }, () => true)
    expect(matched).toBe(5000)
    expect(decoded.reduce((sum, [, n]) => sum + n, 0)).toBe(5000)
    expect(decoded[0][0]).toBe(100)
  })
})

describe('range filters over run blocks, matched run by run (query-match-runs.ts)', () => {
  /** The run column's values, its blocks, its kernels, and a matcher that records what it hands to the decoding path. */
  const setUp = (bytes: Uint8Array) => {
    const reader = openColumns(bytes, { backend: 'ts' })
    const column = reader.getColumn('runBlocks')!
    const cascade = column.values.cascade!
    if (cascade.form !== 0) throw new Error('expected blocks')
    const values = new BigInt64Array(N)
    column.readValues(0, values)
    const query = (column as unknown as { backend: ColumnsBackend }).backend.query
    const match = (lo: bigint, hi: bigint, first: number, count: number, selection: number[] | null, outStart: number) => {
      const out = query.allocateBitset(Math.ceil((outStart + count) / 32) + 1)
      const selected = selection === null ? null : query.allocateBitset(Math.ceil(count / 32) + 1)
      for (const bit of selection ?? []) selected!.words[bit >>> 5] |= 1 << (bit & 31)
      const decoded: number[][] = []
      const found = matchRunBlocks(cascade.blocks, first, count, boundsOf(lo, hi), selected, 0, out, outStart, (from, n) => {
        decoded.push([from, n])
        return 0
      })
      const bits = Array.from({ length: outStart + count }, (_, b) => b).filter((b) => ((out.words[b >>> 5] >>> (b & 31)) & 1) === 1)
      out.release()
      selected?.release()
      return { found, bits, decoded }
    }
    return { reader, values, match }
  }

  it('sets exactly the selected values in range, and decodes no valid run block', () => {
    const { reader, values, match } = setUp(v2Bytes)
    const B = 99_999_989n, STEP = 1_000_003n
    // Runs inside every block; whole blocks and blocks cut at both ends; blocks whose bounds meet the range with no run in it.
    // Stretches of whole blocks set together, ending one value short of a block's least value, or starting one past it.
    const ranges: [bigint, bigint][] = [
      [STEP, 3n * STEP], [3n * B + 2n * STEP, 10n * B + 500n], [5n * B + 1n, 5n * B + STEP - 1n],
      [values[2048], values[7 * 1024] - 1n], [values[2048] + 1n, values[7 * 1024]], [values[0], values[N - 1]], [values[0] + 1n, values[N - 1] - 1n],
    ]
    for (const [lo, hi] of ranges) {
      // Every value; then values 500 to 5,499 with every third selected, written from out bit 7.
      const all = match(lo, hi, 0, N, null, 0)
      const expected = [...values.keys()].filter((v) => values[v] >= lo && values[v] <= hi)
      expect([all.decoded, all.found, all.bits]).toEqual([[], expected.length, expected])
      const selection = Array.from({ length: 5000 }, (_, b) => b).filter((b) => b % 3 === 0)
      const part = match(lo, hi, 500, 5000, selection, 7)
      const partExpected = selection.filter((b) => values[500 + b] >= lo && values[500 + b] <= hi)
      expect([part.decoded, part.found, part.bits]).toEqual([[], partExpected.length, partExpected.map((b) => b + 7)])
    }
    reader.close()
  })

  it('hands a block whose run starts do not ascend to the decoding path, that block alone', () => {
    const view = openColumns(v2Bytes, { backend: 'ts' }).getColumn('runBlocks')!.values
    const word = view.records[6], runs = (word >>> 16) + 1, width = (word >>> 8) & 0xff
    const startsAt = view.dataStart + view.records[7] + Math.ceil((runs * width) / 8)
    const bytes = v2Bytes.slice()
    bytes[startsAt] = 200
    bytes[startsAt + 1] &= ~3
    const { reader, values, match } = setUp(fixChecksum(bytes))
    // A range that cuts block 1 (values 99,999,989 + 1,000,003 k): its runs would be walked.
    const [lo, hi] = [1_000_003n, 99_999_989n + 3_000_009n]
    const result = match(lo, hi, 0, N, null, 0)
    expect(result.decoded).toEqual([[1024, 1024]])
    // The decoding path (here matching nothing) answers for block 1; the other blocks by their runs.
    const expected = [...values.keys()].filter((v) => (v < 1024 || v >= 2048) && values[v] >= lo && values[v] <= hi)
    expect([result.found, result.bits]).toEqual([expected.length, expected])
    reader.close()
  })
})
