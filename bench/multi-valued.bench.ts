/**
 * Multi-valued columns against single-valued ones over the same documents (issue 27):
 * 1,000,000 documents with 0-3 keyword and integral values each (about 1.44 M values,
 * 200 terms), and a shape with 0-8 values; beside each multi column, a dense column
 * holding one value per document. Asks facetCounts(), facetCounts(10% DocSet),
 * termFilter(['tag3', 'tag7']) and rangeFilter(10, 60) of both, on WebAssembly and
 * TypeScript, format 1 and 2 files, and prints multi / single ratios side by side
 * (target: each ≤ 3×); topK beside them (no target); then a multi facet over 3M documents
 * with WebAssembly against one frame (16 ms). Medians of tinybench runs; one process, so ratios compare.
 * Run: node --expose-gc --import tsx bench/multi-valued.bench.ts [--quick]
 */
import { cpus } from 'node:os'
import { typeScriptBackend } from '../src/backend/ts/index.js'
import { createWasmBackend } from '../src/backend/wasm/index.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { measure, printTable, seededRandom, type Measured } from './common.js'
import { multiValuedDocuments, smallCount, TERMS } from './multi-documents.js'

const quick = process.argv.includes('--quick')
const MAX_DOC = quick ? 200_000 : 1_000_000
const { schema, docs, values } = multiValuedDocuments(MAX_DOC)
const SHAPES = [
  { key: 'small', label: `0-3 values (${(values.small / 1e6).toFixed(2)} M)` },
  { key: 'large', label: `0-8 values (${(values.large / 1e6).toFixed(2)} M)` },
]
const QUESTIONS = ['facetCounts()', 'facetCounts(10% DocSet)', "termFilter(['tag3', 'tag7'])", 'rangeFilter(10, 60)']
/** Asked beside the targets' questions, with no target of their own. */
const ALSO = ["topK(10, 'descending')", "topK(10, 'ascending', 10% DocSet)"]

console.log(`multi-valued columns: node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${MAX_DOC.toLocaleString('en')} documents`)
const rows: string[][] = [], alsoRows: string[][] = []
for (const format of [1, 2] as const) {
  const bytes = flushColumns(schema as never, docs as never, { format })!
  for (const [backendName, backend] of [['wasm', createWasmBackend()], ['ts', typeScriptBackend]] as const) {
    const reader = openColumns(bytes, { backend })
    const random = seededRandom(10)
    const tenth = DocSet.fromDocuments(reader, Array.from({ length: MAX_DOC }, (_, d) => d).filter(() => random() < 0.1))
    for (const shape of SHAPES) {
      const column = (kind: string, multi: boolean) => reader.getColumn(`${kind}${multi ? 's' : ''}_${shape.key}`)!
      const tasks = (multi: boolean): Measured[] => {
        const keywords = column('tag', multi), integers = column('num', multi)
        const out = reader.createDocSet()
        return [
          () => keywords.facetCounts(),
          () => keywords.facetCounts(tenth),
          () => keywords.termFilter(['tag3', 'tag7'], undefined, out),
          () => integers.rangeFilter(10, 60, undefined, out),
          () => integers.topK(10, 'descending'),
          () => integers.topK(10, 'ascending', tenth),
        ].map((run, index) => ({ name: `${multi ? 'multi' : 'single'} ${[...QUESTIONS, ...ALSO][index]}`, itemsPerCall: MAX_DOC, run }))
      }
      const multi = tasks(true), single = tasks(false)
      // Side by side in one tinybench run, so a neighbour's burst hits both alike.
      const asked = [...QUESTIONS, ...ALSO]
      const measured = await measure(asked.flatMap((_, index) => [multi[index], single[index]]), quick ? 150 : 400, quick ? 50 : 100)
      asked.forEach((question, index) => {
        const m = measured[2 * index].millisecondsPerCall, s = measured[2 * index + 1].millisecondsPerCall
        const row = [`v${format}`, backendName, shape.label, question, `${m.toFixed(2)} ms`, `${s.toFixed(2)} ms`, `${(m / s).toFixed(1)}×`]
        ;(index < QUESTIONS.length ? rows : alsoRows).push(row)
      })
    }
    reader.close()
  }
}
printTable('multi vs single-valued column of the same documents (median per call; target: ratio ≤ 3×)',
  ['format', 'backend', 'shape', 'question', 'multi', 'single', 'ratio'], rows)
printTable('also asked (no target)', ['format', 'backend', 'shape', 'question', 'multi', 'single', 'ratio'], alsoRows)

// Issue 27: a multi facet over 3M documents within one frame (16 ms) with WebAssembly. The first call
// also marks each document's first values (kept while the reader is open), so it is timed on its own.
if (!quick) {
  const BIG = 3_000_000
  const random = seededRandom(33)
  const term = () => TERMS[Math.floor(random() ** 2 * TERMS.length)]
  const bigDocs = Array.from({ length: BIG }, () => ({ tags: Array.from({ length: smallCount(random) }, term) }))
  const bigSchema = { fields: [{ name: 'tags', type: 'keyword', facet: true, multi: true }] }
  const frameRows: string[][] = []
  const FIRSTS = 7
  for (const format of [1, 2] as const) {
    const bytes = flushColumns(bigSchema as never, bigDocs as never, { format })!
    const backend = createWasmBackend()
    // The first facet of each of FIRSTS fresh readers (it marks the first values, and with format 2
    // decodes the codes once): a single call each, the median reported. No gc() before them: a
    // forced collection slowed the next call (bench/results/multi-valued.md).
    const firsts: number[] = [], opens: number[] = []
    for (let round = 0; round < FIRSTS; round++) {
      const opening = performance.now()
      const fresh = openColumns(bytes, { backend })
      opens.push(performance.now() - opening)
      const started = performance.now()
      fresh.getColumn('tags')!.facetCounts()
      firsts.push(performance.now() - started)
      fresh.close()
    }
    firsts.sort((a, b) => a - b)
    opens.sort((a, b) => a - b)
    const first = firsts[FIRSTS >> 1], open = opens[FIRSTS >> 1]
    const reader = openColumns(bytes, { backend })
    const tags = reader.getColumn('tags')!
    const pick = seededRandom(11)
    const tenth = DocSet.fromDocuments(reader, Array.from({ length: BIG }, (_, d) => d).filter(() => pick() < 0.1))
    tags.facetCounts()
    const measured = await measure([
      { name: 'facetCounts()', itemsPerCall: BIG, run: () => tags.facetCounts() },
      { name: 'facetCounts(10% DocSet)', itemsPerCall: BIG, run: () => tags.facetCounts(tenth) },
    ], 400, 100)
    const verdict = (ms: number) => (ms <= 16 ? 'within' : 'OVER')
    frameRows.push([`v${format}`, `open (checks the offsets; median of ${FIRSTS}, ${opens[0].toFixed(1)}-${opens[FIRSTS - 1].toFixed(1)})`, `${open.toFixed(2)} ms`, verdict(open)])
    frameRows.push([`v${format}`, `first facetCounts() (marks first values; median of ${FIRSTS} readers, ${firsts[0].toFixed(1)}-${firsts[FIRSTS - 1].toFixed(1)})`, `${first.toFixed(2)} ms`, verdict(first)])
    for (const m of measured) frameRows.push([`v${format}`, m.name, `${m.millisecondsPerCall.toFixed(2)} ms`, verdict(m.millisecondsPerCall)])
    reader.close()
  }
  printTable(`multi facet over ${BIG.toLocaleString('en')} documents with 0-3 values, WebAssembly (target: one frame, ≤ 16 ms)`,
    ['format', 'question', 'time', 'frame'], frameRows)
}
