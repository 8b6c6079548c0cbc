/**
 * The backend duel inside the browser: random files written by the writer
 * bundle, opened by the reader bundle with backend 'ts' and 'wasm', every
 * accessor, bulk read, verify() and query compared exactly.
 * URL parameters: files (default 6), seed (default 1).
 */
import { type Column, type ColumnsReader, DocSet, initWasm, loadTypeScriptBackend, openColumns, wasmUnavailableReason } from '../../../src/entry-reader.js'
import { flushColumns } from '../../../src/entry-writer.js'
import { randomDocuments } from '../../helpers/random-columns.js'
import { seededRandom } from '../../helpers/random.js'
import { Comparison, publish } from './compare.js'

const MAX_DOCS = [1, 2, 700, 2500, 5000]

/** Per-document accessors, bulk reads and terms. */
function compareValues(comparison: Comparison, a: Column, b: Column): void {
  const where = `field "${a.name}"`
  comparison.check(`${where} metadata`, () => [a.type, a.layout, a.documentsWithValue, a.valueCount(), a.minRaw, a.maxRaw],
    () => [b.type, b.layout, b.documentsWithValue, b.valueCount(), b.minRaw, b.maxRaw])
  const total = a.valueCount()
  const parts = a.type === 'geo_point' ? (['latitude', 'longitude'] as const) : (['latitude'] as const)
  for (const part of parts) {
    for (const make of [() => new BigInt64Array(total), () => new Float64Array(total), () => new Int32Array(total)]) {
      const left = make(), right = make()
      comparison.check(`${where} readValues(${left.constructor.name}, ${part})`, () => { a.readValues(0, left, part); return left },
        () => { b.readValues(0, right, part); return right })
    }
  }
  comparison.check(`${where} per document`, () => perDocument(a), () => perDocument(b))
  if (a.dictionary !== null) {
    comparison.check(`${where} terms`, () => Array.from({ length: a.dictionary!.termCount }, (_, o) => a.term(o)),
      () => Array.from({ length: b.dictionary!.termCount }, (_, o) => b.term(o)))
  }
}

function perDocument(column: Column): string {
  let text = ''
  for (let document = 0; document < column.maxDoc; document++) {
    text += `${column.valueCount(document)}/${column.hasValue(document) ? 1 : 0}/${column.firstValueIndex(document)};`
  }
  return text
}

/** The query API with no filter and with the same random filter on both readers. */
function compareQueries(comparison: Comparison, a: Column, b: Column, filterA: DocSet, filterB: DocSet, random: () => number): void {
  const where = `field "${a.name}"`
  const total = a.valueCount()
  const raws = Array.from({ length: 4 }, () => (total === 0 ? 0n : a.getRawBigInt(Math.floor(random() * total)))).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))
  const edges = [...new Set(raws)]
  for (const [label, docsA, docsB] of [['all', undefined, undefined], ['filtered', filterA, filterB]] as const) {
    const at = `${where} (${label})`
    comparison.check(`${at} facetCounts`, () => a.facetCounts(docsA), () => b.facetCounts(docsB))
    comparison.check(`${at} topTerms`, () => a.topTerms(5, docsA), () => b.topTerms(5, docsB))
    comparison.check(`${at} aggregate`, () => a.aggregate(docsA), () => b.aggregate(docsB))
    comparison.check(`${at} topK ascending`, () => a.topK(7, 'ascending', docsA), () => b.topK(7, 'ascending', docsB))
    comparison.check(`${at} topK descending`, () => a.topK(7, 'descending', docsA), () => b.topK(7, 'descending', docsB))
    if (a.type !== 'geo_point') {
      comparison.check(`${at} histogram ${edges.join(' ')}`, () => a.histogram(edges, docsA), () => b.histogram(edges, docsB))
      comparison.check(`${at} rangeFilter ${raws[0]} ${raws[3]}`, () => a.rangeFilter(raws[0], raws[3], docsA), () => b.rangeFilter(raws[0], raws[3], docsB))
      comparison.check(`${at} rangeFilter ${raws[1]} ${raws[2]}`, () => a.rangeFilter(raws[1], raws[2], docsA), () => b.rangeFilter(raws[1], raws[2], docsB))
    }
    if (a.type === 'fractional') {
      const numbers = [-1e300, -1, -0, 0.5, 1e300]
      comparison.check(`${at} histogram in numbers`, () => a.histogram(numbers.filter((x) => !Object.is(x, -0)), docsA), () => b.histogram(numbers.filter((x) => !Object.is(x, -0)), docsB))
      comparison.check(`${at} rangeFilter -1 0.5`, () => a.rangeFilter(-1, 0.5, docsA), () => b.rangeFilter(-1, 0.5, docsB))
    }
    if (a.dictionary !== null) {
      const count = a.dictionary.termCount
      const terms = [a.term(Math.floor(random() * count)), a.term(Math.floor(random() * count)), '\u{10FFFF}absent']
      comparison.check(`${at} termFilter`, () => a.termFilter(terms, docsA), () => b.termFilter(terms, docsB))
    }
    if (a.type === 'geo_point') {
      const box = { minLatitude: -40, maxLatitude: 60, minLongitude: 150, maxLongitude: -120 }
      comparison.check(`${at} boundingBoxFilter`, () => a.boundingBoxFilter(box, docsA), () => b.boundingBoxFilter(box, docsB))
    }
  }
}

function compareReaders(comparison: Comparison, a: ColumnsReader, b: ColumnsReader, random: () => number): void {
  comparison.check('columns', () => a.columns.map((c) => c.name), () => b.columns.map((c) => c.name))
  const chosen = Array.from({ length: a.maxDoc }, (_, document) => document).filter(() => random() < 0.4)
  const filterA = DocSet.fromDocuments(a, chosen), filterB = DocSet.fromDocuments(b, chosen)
  for (let index = 0; index < a.columns.length; index++) {
    compareValues(comparison, a.columns[index], b.columns[index])
    compareQueries(comparison, a.columns[index], b.columns[index], filterA, filterB, random)
  }
  filterA.release()
  filterB.release()
  comparison.check('verify()', () => a.verify(), () => b.verify())
}

publish(async () => {
  const parameters = new URLSearchParams(location.search)
  const files = Number(parameters.get('files') ?? 6), seed = Number(parameters.get('seed') ?? 1)
  const wasmReady = await initWasm()
  // The reader bundle keeps its pure-TypeScript backend in a chunk it imports on demand.
  await loadTypeScriptBackend()
  const comparison = new Comparison()
  const opened: { maxDoc: number; bytes: number; backends: string[] }[] = []
  for (let file = 0; file < files; file++) {
    const random = seededRandom(seed * 1000 + file)
    const maxDoc = MAX_DOCS[file % MAX_DOCS.length]
    const { schema, docs } = randomDocuments(random, maxDoc)
    // Every other file in format 2, whose sequences take the v2 kernels.
    const bytes = flushColumns(schema, docs, { maxDoc, format: file % 2 === 0 ? 1 : 2 })!
    const ts = openColumns(bytes, { backend: 'ts' }), wasm = openColumns(bytes, { backend: 'wasm' })
    opened.push({ maxDoc, bytes: bytes.length, backends: [ts.backendName, wasm.backendName] })
    compareReaders(comparison, ts, wasm, random)
    ts.close()
    wasm.close()
  }
  const simd = WebAssembly.validate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]))
  return { wasmReady, reason: wasmUnavailableReason(), simd, opened, comparisons: comparison.comparisons, mismatches: comparison.mismatches }
})
