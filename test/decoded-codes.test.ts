/**
 * Sequence dictionary codes decoded once for queries (src/cascade/decoded-codes.ts):
 * the view holds exactly the codes, is made only for long sequences of few enough
 * entries, and every question it serves answers as on the format 1 file of the same
 * documents, on both backends. A corrupt code (valid checksum) leaves the view
 * unmade: questions refuse it, or skip it, as reads and the encodings' path do.
 */
import { describe, expect, it } from 'vitest'
import type { DictionaryCascade, SequenceView } from '../src/backend/backend.js'
import { resolveBackend } from '../src/backend/select.js'
import { wasmRuntime } from '../src/backend/wasm/runtime.js'
import { sequenceExtent } from '../src/cascade/reader/parse.js'
import { RegionSequence } from '../src/cascade/region-sequence.js'
import { DECODED_CODES_MIN_VALUES, decodeCodesView, decodedCodesBytes, spanFits } from '../src/cascade/decoded-codes.js'
import { CorruptIndexException } from '../src/format/errors.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { buildFile, fixChecksum, packedBlock, parseFile } from './helpers/file-surgery.js'
import { seededRandom } from './helpers/random.js'

const BACKENDS = ['ts', 'wasm'] as const
const FILE = 'codes.oixk'
// Not whole blocks: the last holds 67 values.
const COUNT = 40_003

const random = seededRandom(0xc0de5)
// Skewed: codes by frequency, most below 32, the rest patched above them (the shape of flights' origin).
const terms = Array.from({ length: 200 }, (_, t) => `t${String(t).padStart(3, '0')}`)
const keywords = Array.from({ length: COUNT }, () => terms[(Math.floor(random() ** 3 * 200) * 71) % 200])
// Wide integers from a pool of 1,000: skewed as keywords are (codes by frequency, 655 of them),
// and spread (codes in value order, all 1,000): views of width 16.
const pool = Array.from({ length: 1000 }, (_, i) => (((i * 2654435761) % 1_000_000_007) - 500_000_000) * 1024 + i)
const integers = Array.from({ length: COUNT }, () => pool[Math.min(999, Math.floor(-Math.log(1 - random()) * 100))])
const spread = Array.from({ length: COUNT }, () => pool[(Math.floor(random() ** 2 * 1000) * 389) % 1000])
// Integers whose entries span less than 2^width: views of the values themselves, less the least
// entry. `near`: 1,200 values apart over [-1116, 1688] (width 16); `byte`: 200 in [1000, 1255] (width 8).
const near = Array.from({ length: COUNT }, () => -1116 + ((Math.floor(random() ** 2 * 1200) * 7) % 2805))
const byte = Array.from({ length: COUNT }, () => 1000 + ((Math.floor(random() ** 3 * 200) * 13) % 256))

function files(): { v1: Uint8Array; v2: Uint8Array } {
  const schema = { fields: [{ name: 'tag', type: 'keyword', facet: true }, ...['n', 'm', 'near', 'byte'].map((name) => ({ name, type: 'integral', column: true }))] }
  const docs = keywords.map((tag, d) => ({ tag, n: integers[d], m: spread[d], near: near[d], byte: byte[d] }))
  return { v1: flushColumns(schema, docs)!, v2: flushColumns(schema, docs, { format: 2 })! }
}
const { v1, v2 } = files()

/** Bytes of a decoded view of COUNT values at `width` bits (records, a second set of base 0 with `fields`, data, padding to 4, extremes). */
const viewBytes = (width: 8 | 16, fields = false) => (((fields ? 48 : 24) * 40 + (width / 8) * COUNT + 8 + 3) & ~3) + 4 * 40

const cascadeOf = (view: SequenceView): DictionaryCascade => {
  expect(view.cascade?.form).toBe(1)
  return view.cascade as DictionaryCascade
}

/**
 * Both files open on one backend, the same documents as DocSets of five densities on each (picked
 * with `seed`), and the comparers: `same` asks both sides and expects format 2 to answer as format 1.
 */
function duel(backend: 'ts' | 'wasm', seed: number) {
  const one = openColumns(v1, { backend, fileName: FILE }), two = openColumns(v2, { backend, fileName: FILE })
  const densities = [0, 0.003, 0.1, 0.5, 1]
  const sets = densities.map((density) => {
    const pick = seededRandom(Math.round(density * 1000) + seed)
    const documents = Array.from({ length: COUNT }, (_, d) => d).filter(() => pick() < density)
    return [DocSet.fromDocuments(one, documents), DocSet.fromDocuments(two, documents)] as const
  })
  const same = <T>(what: string, ask: (side: 0 | 1) => T) => expect(ask(1), what).toEqual(ask(0))
  const ids = (docs: DocSet) => { const list = [...docs.toArray()]; docs.release(); return list }
  return { one, two, densities, sets, same, ids }
}

describe('decoded codes views', () => {
  it('hold each value as its entry\'s rank in value order, at width 8 (at most 256 entries) or 16, only for long sequences of at most 65,536 entries', () => {
    // Records, data and 8 bytes of padding, then (at a multiple of 4) two u16 extremes a block.
    expect(decodedCodesBytes(229, 3_000_000)).toBe(24 * 2930 + 3_000_000 + 8 + 4 * 2930)
    expect(decodedCodesBytes(257, 3_000_001)).toBe(24 * 2930 + 6_000_002 + 8 + 2 + 4 * 2930)
    expect(decodedCodesBytes(65_536, 3_000_000)).toBe(24 * 2930 + 6_000_000 + 8 + 4 * 2930)
    expect(decodedCodesBytes(65_537, 3_000_000)).toBe(0)
    expect(decodedCodesBytes(10, DECODED_CODES_MIN_VALUES - 1)).toBe(0)
    const sortedOf = (values: number[]) => [...new Set(values)].sort((a, b) => a - b)
    for (const backendName of BACKENDS) {
      const backend = resolveBackend(backendName)
      const reader = openColumns(v2, { backend: backendName, fileName: FILE })
      for (const [name, width, order, values] of [['tag', 8, 1, null], ['n', 16, 1, integers], ['m', 16, 0, spread]] as const) {
        const column = reader.getColumn(name)!
        const cascade = cascadeOf(column.values)
        expect(cascade.order, `${name}: 0 ascending, 1 by frequency`).toBe(order)
        const k = cascade.entries.count
        const entries = new Int32Array(2 * k)
        backend.decodeRaw(cascade.entries, 0, k, entries, 0)
        const { view, file, sorted } = decodeCodesView(backend, cascade, entries)!
        expect([view.cascade, view.count, view.blockCount, view.records[0] & 0xff, (view.records[0] >>> 8) & 0xff]).toEqual([null, COUNT, 40, 1, width])
        // A keyword's ranks are its ordinals (every term is used); an integer's, its place among the distinct values.
        const distinct = values === null ? [] : sortedOf(values)
        const expected = values === null ? Array.from({ length: COUNT }, (_, d) => column.getOrdinal(d)) : values.map((value) => distinct.indexOf(value))
        const low = (v: number) => Number(BigInt.asIntN(32, BigInt(v)))
        expect(Array.from(sorted.filter((_, at) => at % 2 === 0)), `${backendName} ${name} entries`).toEqual(values === null ? Array.from({ length: k }, (_, r) => r) : distinct.map(low))
        const stored = view.bytes.slice(view.dataStart, view.dataStart + (width / 8) * COUNT)
        expect(Array.from(width === 8 ? stored : new Uint16Array(stored.buffer, 0, COUNT)), `${backendName} ${name}`).toEqual(expected)
        // v1's kernels read them as they are.
        const back = new Int32Array(COUNT)
        expect(backend.decodeInt32(view, 0, COUNT, -1, back, 0)).toBe(-1)
        expect(Array.from(back)).toEqual(expected)
        file.release()
      }
      reader.close()
    }
  })

  it('hold the values only where the entries, in any order and either sign, span less than 2^width', () => {
    // Raw i64 entries as (low, high) words; the largest and least anywhere among them.
    const words = (values: bigint[]) => Int32Array.from(values.flatMap((v) => [Number(BigInt.asIntN(32, v)), Number(BigInt.asIntN(32, v >> 32n))]))
    const cases: [bigint[], boolean][] = [
      [[0n, 1000n, 7n, 3n], false], [[0n, 255n, 7n, 3n], true], [[5n, 3n, 258n, 4n], true], [[5n, 3n, 259n, 4n], false],
      [[-3n, 252n, 0n], true], [[-3n, 253n, 0n], false], [[2n ** 32n, 2n ** 32n + 255n], true], [[2n ** 32n + 255n, 2n ** 32n - 1n], false],
    ]
    for (const [entries, fits] of cases) expect(spanFits(words(entries), entries.length), entries.join(' ')).toBe(fits)
    // Past 256 entries, 16-bit fields.
    const wide = Array.from({ length: 300 }, (_, code) => BigInt((code * 97) % 300))
    expect(spanFits(words([...wide.slice(0, 299), 65_535n]), 300)).toBe(true)
    expect(spanFits(words([...wide.slice(0, 299), 65_536n]), 300)).toBe(false)
  })

  it('hold the values themselves less the least entry (the blocks\' base) where the entries span less than 2^width', () => {
    for (const backendName of BACKENDS) {
      const backend = resolveBackend(backendName)
      const reader = openColumns(v2, { backend: backendName, fileName: FILE })
      for (const [name, width, values] of [['near', 16, near], ['byte', 8, byte]] as const) {
        const cascade = cascadeOf(reader.getColumn(name)!.values)
        const k = cascade.entries.count
        expect(k > 256, `${name}: ${k} entries`).toBe(width === 16)
        const entries = new Int32Array(2 * k)
        backend.decodeRaw(cascade.entries, 0, k, entries, 0)
        const { view, fields, file, holdsValues, span } = decodeCodesView(backend, cascade, entries)!
        const least = Math.min(...values)
        expect([holdsValues, span]).toEqual([true, Math.max(...values) - least + 1])
        // The same data under records of base 0, for counting by field.
        expect([fields.recordsStart, fields.dataStart, view.recordsStart, view.dataStart]).toEqual([24 * 40, 48 * 40, 0, 48 * 40])
        const counted = new Int32Array(COUNT)
        expect(backend.decodeInt32(fields, 0, COUNT, span, counted, 0)).toBe(-1)
        expect(Array.from(counted)).toEqual(values.map((value) => value - least))
        for (let block = 0; block < view.blockCount; block++) {
          expect(Array.from(view.records.subarray(6 * block, 6 * block + 6)), `${backendName} ${name} block ${block}`).toEqual([1 | (width << 8), (width / 8) * 1024 * block, least, least < 0 ? -1 : 0, 1, 0])
        }
        const stored = view.bytes.slice(view.dataStart, view.dataStart + (width / 8) * COUNT)
        expect(Array.from(width === 8 ? stored : new Uint16Array(stored.buffer, 0, COUNT)), `${backendName} ${name}`).toEqual(values.map((value) => value - least))
        const back = new Int32Array(COUNT)
        expect(backend.decodeInt32(view, 0, COUNT, -1, back, 0)).toBe(-1)
        expect(Array.from(back)).toEqual(values)
        // Each block's least and largest field, topK's block bounds.
        const extremes = new Uint16Array(view.bytes.buffer, view.bytes.byteOffset + (view as RegionSequence).extremesAt, 80)
        const blocks = Array.from({ length: 40 }, (_, block) => values.slice(1024 * block, 1024 * block + 1024).map((value) => value - least))
        expect(Array.from(extremes), `${backendName} ${name} extremes`).toEqual(blocks.flatMap((fields) => [Math.min(...fields), Math.max(...fields)]))
        file.release()
      }
      reader.close()
    }
  })

  it.each(BACKENDS)('that hold the values answer ranges, histograms, aggregates and topK as the format 1 file does (%s)', (backend) => {
    const { one, two, densities, sets, same, ids } = duel(backend, 7)
    for (const [name, lo, hi] of [['near', -1116, 1688], ['byte', 1000, 1255]] as const) {
      const columns = [one.getColumn(name)!, two.getColumn(name)!] as const
      const middle = (lo + hi) >> 1
      const ranges = [[lo, lo], [lo + 3, middle], [middle, hi + 5], [hi + 1, hi + 100], [-(2 ** 40), 2 ** 40]]
      for (const [from, to] of ranges) {
        same(`${name} rangeFilter ${from} ${to}`, (side) => ids(columns[side].rangeFilter(from, to)))
        sets.forEach((pair, at) => same(`${name} rangeFilter ${from} ${to} within ${densities[at]}`, (side) => ids(columns[side].rangeFilter(from, to, pair[side]))))
      }
      const edges = [lo, lo + 10, middle, hi - 7, hi + 1]
      same(`${name} histogram`, (side) => [...columns[side].histogram(edges)])
      // And against the model: edges at and beside the extremes, one pair, and more edges than a pass each takes.
      const values = name === 'near' ? near : byte
      const edgeSets = [edges, [lo - 5, lo, lo + 1, hi, hi + 1], [middle, middle + 1], Array.from({ length: 14 }, (_, i) => lo + Math.round(((hi - lo) * i) / 12))]
      for (const set of edgeSets) {
        const expected = set.slice(1).map((edge, b) => values.filter((value) => value >= set[b] && value < edge).length)
        expect([...columns[1].histogram(set)], `${backend} ${name} histogram ${set}`).toEqual(expected)
      }
      sets.forEach((pair, at) => same(`${name} histogram over ${densities[at]}`, (side) => [...columns[side].histogram(edges, pair[side])]))
      same(`${name} aggregate`, (side) => columns[side].aggregate())
      sets.forEach((pair, at) => same(`${name} aggregate over ${densities[at]}`, (side) => columns[side].aggregate(pair[side])))
      for (const order of ['ascending', 'descending'] as const) {
        for (const k of [1, 10, 1000]) {
          same(`${name} topK ${k} ${order}`, (side) => [...columns[side].topK(k, order)])
          sets.forEach((pair, at) => same(`${name} topK ${k} ${order} over ${densities[at]}`, (side) => [...columns[side].topK(k, order, pair[side])]))
        }
      }
      // And against the model: the sum, and the 10 smallest by value then document.
      expect(columns[1].aggregate()).toMatchObject({ count: COUNT, sum: values.reduce((a, b) => a + b, 0), min: Math.min(...values), max: Math.max(...values) })
      const smallest = values.map((value, d) => [value, d]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).slice(0, 10).map(([, d]) => d)
      expect([...columns[1].topK(10, 'ascending')]).toEqual(smallest)
    }
    expect(two.decodedCodesBytes).toBe(viewBytes(16, true) + viewBytes(8, true))
    one.close()
    two.close()
  })

  it.each(BACKENDS)('answer facets, term and range filters, histograms and aggregates as the format 1 file does (%s)', (backend) => {
    const { one, two, densities, sets, same, ids } = duel(backend, 1)
    const tags = [one.getColumn('tag')!, two.getColumn('tag')!] as const
    const ns = [one.getColumn('n')!, two.getColumn('n')!] as const, ms = [one.getColumn('m')!, two.getColumn('m')!] as const
    same('facet', (side) => [...tags[side].facetCounts()])
    sets.forEach((pair, at) => same(`facet over ${densities[at]}`, (side) => [...tags[side].facetCounts(pair[side])]))
    // One term, terms in few code ranges, and terms in more than the view is matched with (the member kernels).
    // Twelve terms apart: more ordinal runs than a pass each (kernels/filters.ts, memberFilter).
    for (const chosen of [[terms[0]], [terms[0], terms[71]], terms.slice(0, 3), terms.filter((_, t) => t % 33 === 5), terms.filter((_, t) => t % 17 === 3), ['none']]) {
      same(`termFilter ${chosen}`, (side) => ids(tags[side].termFilter(chosen)))
      sets.forEach((pair, at) => same(`termFilter ${chosen} within ${densities[at]}`, (side) => ids(tags[side].termFilter(chosen, pair[side]))))
    }
    const sorted = [...pool].sort((a, b) => a - b)
    // The twelve terms against the model too (both formats share the member walk), and counted.
    const twelve = new Set(terms.filter((_, t) => t % 17 === 3))
    const expected = keywords.flatMap((keyword, d) => (twelve.has(keyword) ? [d] : []))
    for (const side of [0, 1] as const) {
      using docs = tags[side].termFilter([...twelve])
      expect([[...docs.toArray()], docs.count()]).toEqual([expected, expected.length])
    }
    for (const [lo, hi] of [[sorted[0], sorted[0]], [sorted[3], sorted[900]], [sorted[500], sorted[520]], [0, 2 ** 40], [sorted[999] + 1, 2 ** 50]]) {
      same(`rangeFilter ${lo} ${hi}`, (side) => ids(ns[side].rangeFilter(lo, hi)))
      same(`rangeFilter ${lo} ${hi} (value order)`, (side) => ids(ms[side].rangeFilter(lo, hi)))
      sets.forEach((pair, at) => same(`rangeFilter ${lo} ${hi} within ${densities[at]}`, (side) => ids(ns[side].rangeFilter(lo, hi, pair[side]))))
    }
    same('histogram', (side) => [...ns[side].histogram([sorted[0], sorted[100], 0, sorted[800], sorted[999] + 1])])
    same('aggregate', (side) => ns[side].aggregate())
    sets.forEach((pair, at) => same(`aggregate over ${densities[at]}`, (side) => ns[side].aggregate(pair[side])))
    one.close()
    two.close()
  })

  it.each(BACKENDS)('are made on a column\'s first question, reported by the reader, given back when it closes, and not made with decodedCodes false (%s)', (backend) => {
    const reader = openColumns(v2, { backend, fileName: FILE })
    const tag = reader.getColumn('tag')!, n = reader.getColumn('n')!
    expect(reader.decodedCodesBytes).toBe(0)
    const counts = [...tag.facetCounts()]
    const tagBytes = viewBytes(8)
    expect(reader.decodedCodesBytes).toBe(tagBytes)
    // Counting reads views of 8-bit codes only: n's 655 entries are counted from their encodings.
    const sum = n.aggregate()
    expect(reader.decodedCodesBytes).toBe(tagBytes)
    const matched = [...n.rangeFilter(pool[0], pool[0]).toArray()]
    expect(reader.decodedCodesBytes).toBe(tagBytes + viewBytes(16))
    reader.close()
    expect(reader.decodedCodesBytes).toBe(0)
    const encoded = openColumns(v2, { backend, fileName: FILE, decodedCodes: false })
    expect([...encoded.getColumn('tag')!.facetCounts()]).toEqual(counts)
    expect(encoded.getColumn('n')!.aggregate()).toEqual(sum)
    expect([...encoded.getColumn('n')!.rangeFilter(pool[0], pool[0]).toArray()]).toEqual(matched)
    expect(encoded.decodedCodesBytes).toBe(0)
    encoded.close()
    expect(() => openColumns(v2, { backend, fileName: FILE, decodedCodes: 'yes' as never })).toThrow(new TypeError('codes.oixk: options.decodedCodes must be true or false, not yes'))
    // Format 1 has no codes to decode.
    const one = openColumns(v1, { backend, fileName: FILE })
    one.getColumn('tag')!.facetCounts()
    expect(one.decodedCodesBytes).toBe(0)
    one.close()
  })

  it.each(BACKENDS)('serve multi-valued keyword columns (0-8 values, repeats inside a document) as their ordinals: facets and filters as format 1 (%s)', (backend) => {
    const pick = seededRandom(0x7a65)
    const tags = Array.from({ length: 20_000 }, (_, d) => Array.from({ length: d % 97 === 0 ? 0 : Math.floor(pick() * 9) }, () => terms[(Math.floor(pick() ** 3 * 200) * 71) % 200]))
    const schema = { fields: [{ name: 'tags', type: 'keyword', facet: true, multi: true }] }
    const docs = tags.map((list) => ({ tags: list }))
    const one = openColumns(flushColumns(schema, docs)!, { backend, fileName: FILE })
    const two = openColumns(flushColumns(schema, docs, { format: 2 })!, { backend, fileName: FILE })
    const columns = [one.getColumn('tags')!, two.getColumn('tags')!] as const
    expect(cascadeOf(columns[1].values).order).toBe(1)
    expect(columns[1].totalValueCount).toBeGreaterThan(DECODED_CODES_MIN_VALUES)
    const same = <T>(what: string, ask: (side: 0 | 1) => T) => expect(ask(1), what).toEqual(ask(0))
    same('first facet', (side) => [...columns[side].facetCounts()])
    expect(two.decodedCodesBytes).toBeGreaterThan(0)
    same('facet again', (side) => [...columns[side].facetCounts()])
    for (const density of [0.01, 0.3, 0.9]) {
      const chosen = Array.from({ length: tags.length }, (_, d) => d).filter((d) => (d * 7919) % 1000 < density * 1000)
      const sets = [DocSet.fromDocuments(one, chosen), DocSet.fromDocuments(two, chosen)] as const
      same(`facet over ${density}`, (side) => [...columns[side].facetCounts(sets[side])])
      same(`termFilter within ${density}`, (side) => [...columns[side].termFilter([terms[0], terms[71]], sets[side]).toArray()])
    }
    same('termFilter', (side) => [...columns[side].termFilter(terms.slice(0, 5)).toArray()])
    same('termFilter, twelve terms apart', (side) => [...columns[side].termFilter(terms.filter((_, t) => t % 17 === 3)).toArray()])
    one.close()
    two.close()
  })

  it('a first question whose copy grows the memory (detaching every view) answers as format 1 (wasm)', () => {
    const one = openColumns(v1, { backend: 'wasm', fileName: FILE }), two = openColumns(v2, { backend: 'wasm', fileName: FILE })
    const chosen = Array.from({ length: COUNT }, (_, d) => d).filter((d) => d % 7 === 3)
    const sets = [DocSet.fromDocuments(one, chosen), DocSet.fromDocuments(two, chosen)] as const
    const runtime = wasmRuntime()
    // Every free range taken: the copy's region must grow the memory.
    const regions = runtime.regions as unknown as { freeLengths: number[] }
    const taken = [...regions.freeLengths].map((length) => runtime.regions.allocate(length))
    const before = runtime.kernels.memory.buffer.byteLength
    try {
      const tags = [one.getColumn('tag')!, two.getColumn('tag')!] as const
      const counts = tags.map((tag, side) => [...tag.facetCounts(sets[side])])
      expect(runtime.kernels.memory.buffer.byteLength).toBeGreaterThan(before)
      expect(two.decodedCodesBytes).toBe(viewBytes(8))
      expect(counts[1]).toEqual(counts[0])
      const ns = [one.getColumn('n')!, two.getColumn('n')!] as const
      const matched = ns.map((n, side) => [...n.rangeFilter(pool[5], pool[400], sets[side]).toArray()])
      expect(matched[1]).toEqual(matched[0])
      expect([...sets[1].toArray()]).toEqual(chosen)
    } finally {
      for (const region of taken) runtime.regions.free(region)
      one.close()
      two.close()
    }
  })

  // Block 30's base (its least code) raised by 2^20, or by k (200): every code of the block just past the entries.
  it.each([['ts', 2 ** 20], ['wasm', 2 ** 20], ['ts', 200], ['wasm', 200]] as const)('are not made over a code past the entries: questions refuse it as reads do, or skip it (%s, base + %i)', (backend, raise) => {
    const tag = openColumns(v2, { backend: 'ts', fileName: FILE }).getColumn('tag')!
    const codes = cascadeOf(tag.values).codes
    const blocks = (codes.cascade as unknown as { blocks: SequenceView }).blocks
    const [codesStart] = sequenceExtent(codes)
    const record = codesStart + 13 + 30 * 24
    expect(blocks.records[6 * 30] & 0xff).toBe(6)
    const corrupt = v2.slice()
    const data = new DataView(corrupt.buffer)
    data.setUint32(record + 8, data.getUint32(record + 8, true) + raise, true)
    const reader = openColumns(fixChecksum(corrupt), { backend, fileName: FILE })
    const column = reader.getColumn('tag')!
    const refused = (action: () => unknown) => {
      let thrown: unknown = null
      try { action() } catch (error) { thrown = error }
      expect(thrown).toBeInstanceOf(CorruptIndexException)
      expect((thrown as Error).message).toMatch(/^codes\.oixk: .*value 30720 has dictionary code \d+, beyond its 200 entries/)
    }
    refused(() => column.getOrdinal(30_720))
    refused(() => column.facetCounts())
    refused(() => column.termFilter(terms[0]))
    // Documents before block 30 alone: counted, the corrupt block never read.
    const before = DocSet.fromDocuments(reader, Array.from({ length: 30_720 }, (_, d) => d))
    const expected = new Array<number>(200).fill(0)
    for (let d = 0; d < 30_720; d++) expected[column.lookupOrdinal(keywords[d])]++
    expect([...column.facetCounts(before)]).toEqual(expected)
    reader.close()
  })
})

describe('range filters over a decoded view pass over blocks whose own fields meet no range', () => {
  // Blocks of three kinds in turn: values of 100-119 alone, 300-319 alone, both; a sequence
  // dictionary of 40 entries, viewed as the values less 100 (each block's extremes its own).
  const count = 40 * 1024 + 5
  const pick = seededRandom(0xb10c)
  const values = Array.from({ length: count }, (_, i) => {
    const kind = Math.floor(i / 1024) % 3, low = 100 + Math.floor(pick() * 20), high = 300 + Math.floor(pick() * 20)
    return kind === 0 ? low : kind === 1 ? high : pick() < 0.5 ? low : high
  })
  const schema = { fields: [{ name: 'v', type: 'integral', column: true }] }
  const docs = values.map((v) => ({ v }))
  const [one, two] = [1, 2].map((format) => flushColumns(schema, docs, { format: format as 1 | 2 })!)
  for (const backend of BACKENDS) {
    it(`${backend}: each range's documents as format 1's, in stretches of meeting blocks (first and last blocks meeting or not)`, () => {
      const a = openColumns(one, { backend, fileName: FILE }), b = openColumns(two, { backend, fileName: FILE })
      try {
        expect(cascadeOf(b.getColumn('v')!.values).entries.count).toBe(40)
        // Only the 300s (blocks 1, 2, 4, 5, ...), only the 100s (0, 2, 3, 5, ...), a value of each, none.
        for (const [lo, hi] of [[300, 305], [100, 119], [110, 310], [200, 250]]) {
          const expected = values.flatMap((value, d) => (value >= lo && value <= hi ? [d] : []))
          const ids = (reader: typeof a) => { const set = reader.getColumn('v')!.rangeFilter(lo, hi); const list = [...set.toArray()]; set.release(); return list }
          expect(ids(a), `format 1 [${lo}, ${hi}]`).toEqual(expected)
          expect(ids(b), `format 2 [${lo}, ${hi}]`).toEqual(expected)
          const sample = DocSet.fromDocuments(b, expected.filter((_, at) => at % 3 === 0).concat([1023, 1024, 2047, 3072]).sort((x, y) => x - y))
          const within = b.getColumn('v')!.rangeFilter(lo, hi, sample)
          expect([...within.toArray()], `format 2 [${lo}, ${hi}] over a DocSet`).toEqual([...sample.toArray()].filter((d) => values[d] >= lo && values[d] <= hi))
          within.release()
          sample.release()
        }
      } finally {
        a.close()
        b.close()
      }
    })
  }
})

describe('counting blocks of 8- or 16-bit fields bounded by their largest field (as decoded views are)', () => {
  // A format 1 keyword column of 50 terms whose block 1 is packed at width 16 (base 0): its width
  // bounds it at 65,535, past the counts' 100 slots; its largest field decides. Value 1,500 set
  // to `stray`: 70 lies within the slots (counted, then refused), 40,000 past them (refused one by one).
  const terms = Array.from({ length: 50 }, (_, t) => `k${String(t).padStart(2, '0')}`)
  const file = (stray: bigint | null) => {
    const model = parseFile(flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, Array.from({ length: 3000 }, (_, d) => ({ k: terms[d % 50] })))!)
    const values = Array.from({ length: 1024 }, (_, i) => BigInt((1024 + i) % 50))
    if (stray !== null) values[1500 - 1024] = stray
    model.columns[0].section.values.blocks[1] = packedBlock(values, 0n, 1n, 16)
    return buildFile(model)
  }
  for (const backend of BACKENDS) {
    it(`${backend}: counts as the documents say, and names a stray value in either range`, () => {
      const reader = openColumns(file(null), { backend, fileName: 'wide.oixk' })
      const some = DocSet.fromDocuments(reader, Array.from({ length: 3000 }, (_, d) => d).filter((d) => d % 7 === 0))
      const expected = new Array(50).fill(0)
      for (let d = 0; d < 3000; d += 7) expected[d % 50]++
      expect(Array.from(reader.getColumn('k')!.facetCounts(some))).toEqual(expected)
      reader.close()
      for (const stray of [70n, 40_000n]) {
        const bad = openColumns(file(stray), { backend, fileName: 'wide.oixk' })
        expect(() => bad.getColumn('k')!.facetCounts(DocSet.fromDocuments(bad, [1499, 1500, 1501])))
          .toThrow(`wide.oixk: values of field "k": value 1500 is ${stray}, not in [0, 50)`)
        bad.close()
      }
    })
  }
})

describe('whole blocks of bytes counted by pairs (every document, at most 256 terms)', () => {
  // Block 1 of a 50-term keyword column packed at width 8 (base 0): a facet over every document
  // counts its bytes in pairs once its largest byte is below 50. A stray byte at each of the four
  // 16-byte loads of a 64-byte step must keep it off that path and be refused.
  const terms = Array.from({ length: 50 }, (_, t) => `k${String(t).padStart(2, '0')}`)
  const file = (at: number | null) => {
    const model = parseFile(flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, Array.from({ length: 3000 }, (_, d) => ({ k: terms[d % 50] })))!)
    const values = Array.from({ length: 1024 }, (_, i) => BigInt((1024 + i) % 50))
    if (at !== null) values[at] = 200n
    model.columns[0].section.values.blocks[1] = packedBlock(values, 0n, 1n, 8)
    return buildFile(model)
  }
  for (const backend of BACKENDS) {
    it(`${backend}: counts every document, and refuses a stray byte wherever it lies in the block`, () => {
      const reader = openColumns(file(null), { backend, fileName: 'bytes.oixk' })
      const expected = new Array(50).fill(0)
      for (let d = 0; d < 3000; d++) expected[d % 50]++
      expect(Array.from(reader.getColumn('k')!.facetCounts())).toEqual(expected)
      reader.close()
      for (const at of [5, 20, 40, 60, 1023]) {
        const bad = openColumns(file(at), { backend, fileName: 'bytes.oixk' })
        expect(() => bad.getColumn('k')!.facetCounts()).toThrow(`bytes.oixk: values of field "k": value ${1024 + at} is 200, not in [0, 50)`)
        bad.close()
      }
    })
  }
})

describe('a decoded view\'s words', () => {
  it('follow its memory\'s buffer: the same view while it stays, a new one once it is replaced (memory growth)', () => {
    let bytes = new Uint8Array(24 + 1024 + 8)
    const file = { get bytes() { return bytes }, stable: false, address: 0, release() {} }
    // Two views of one region: after growth one is asked for its words first, the other for its data's start.
    const [wordsFirst, startFirst] = [0, 1].map(() => new RegionSequence(file, 'f', 'values', 1024, 1, 8, 1024 + 8))
    const first = wordsFirst.bufferWords
    expect(wordsFirst.bufferWords).toBe(first)
    expect([wordsFirst.dataStartInBuffer, startFirst.dataStartInBuffer]).toEqual([24, 24])
    // Growth: the bytes move to a larger buffer (the old one detached), here 16 bytes into it; the
    // words must be the new buffer's, and the data's start counted from that buffer's start.
    const grown = new Uint8Array(2 * bytes.length + 16).subarray(16)
    grown.set(bytes)
    grown[24] = 0x7b
    bytes = grown
    expect(wordsFirst.bufferWords).not.toBe(first)
    expect(wordsFirst.bufferWords.length).toBe(grown.buffer.byteLength >>> 2)
    expect(wordsFirst.bufferWords[10] & 0xff).toBe(0x7b)
    expect(startFirst.dataStartInBuffer).toBe(16 + 24)
    expect(wordsFirst.dataStartInBuffer).toBe(16 + 24)
  })
})

describe('byte ranks of patched byte codes', () => {
  // Keywords of k terms skewed as tags are: codes by frequency in patched blocks of byte codes, whose
  // ranks (here the ordinals) come from vectors through up to 8 tables of 16, and one at a time above.
  for (const k of [20, 100, 128, 200]) {
    it(`${k} terms: every rank as the column's ordinal, both backends`, () => {
      const pick = seededRandom(k)
      const names = Array.from({ length: k }, (_, t) => `k${String(t).padStart(3, '0')}`)
      const docs = Array.from({ length: COUNT }, () => ({ tag: names[(Math.floor(pick() ** 3 * k) * 71) % k] }))
      const bytes = flushColumns({ fields: [{ name: 'tag', type: 'keyword', facet: true }] }, docs, { format: 2 })!
      for (const backendName of BACKENDS) {
        const backend = resolveBackend(backendName)
        const reader = openColumns(bytes, { backend: backendName, fileName: FILE })
        const column = reader.getColumn('tag')!
        const cascade = cascadeOf(column.values)
        const entries = new Int32Array(2 * k)
        backend.decodeRaw(cascade.entries, 0, k, entries, 0)
        const { view, file } = decodeCodesView(backend, cascade, entries)!
        const stored = Array.from(view.bytes.slice(view.dataStart, view.dataStart + COUNT))
        expect(stored, `${backendName}, ${k} terms`).toEqual(Array.from({ length: COUNT }, (_, d) => column.getOrdinal(d)))
        file.release()
        reader.close()
      }
    })
  }
})
