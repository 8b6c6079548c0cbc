/**
 * Multi columns whose offsets' block records show whole stretches: empty documents (a constant
 * block) and documents of k values each (format 2's linear blocks with no residual bits). The
 * walks take those stretches without decoding the offsets (query-offsets.ts in both backends):
 * which chunks they recognise is asserted first, so the data keeps exercising the path, then every
 * answer against the naive model, both backends, both formats, and the kernels over document
 * ranges that start inside a block (as the worker pool's do).
 */
import { describe, expect, it } from 'vitest'
import type { ColumnsBackend } from '../src/backend/backend.js'
import { offsetsStep } from '../src/backend/ts/query-offsets.js'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { checkColumn, docSets } from './helpers/query-checks.js'
import { modelOf } from './helpers/query-model.js'
import { termPool } from './helpers/random-columns.js'
import { seededRandom } from './helpers/random.js'

const BACKENDS = wasmUnavailableReason() === null ? (['ts', 'wasm'] as const) : (['ts'] as const)
const MAX_DOC = 9300

/**
 * Values per document: 0-1,500 none, 1,501-3,599 one (but 3,071, the last of its chunk, with two
 * different ones: its block is still a line, the offset after it is not), 3,600-6,143 two,
 * 6,144-8,191 none, 8,192-9,215 one, then 0..8. The last offset of a stretch's chunk opens a block
 * of another kind.
 */
function valueCount(d: number, random: () => number): number {
  if (d <= 1500 || (d >= 6144 && d < 8192)) return 0
  if (d === 3071) return 2
  if (d < 3600 || (d >= 8192 && d < 9216)) return 1
  if (d < 6144) return 2
  return Math.floor(random() * 9)
}

function documents(): Record<string, unknown>[] {
  const random = seededRandom(61)
  const terms = termPool(random, 40)
  return Array.from({ length: MAX_DOC }, (_, d) => {
    const n = valueCount(d, random)
    if (n === 0) return {}
    if (d === 3071) return { tags: [terms[0], terms[1]], nums: [-1000, 1000] }
    // Two values of three: a value counted with the wrong document often repeats one of its own.
    if (n === 2 && d < 6144) return { tags: [terms[d % 3], terms[(d * 7 + 1) % 3]], nums: [d % 3, (d * 7 + 1) % 3] }
    // Two values of a document are often the same term (a repeat the facet counts once).
    const tags = Array.from({ length: n }, () => terms[Math.floor(random() * terms.length)])
    if (n > 1 && random() < 0.3) tags[1] = tags[0]
    return { tags, nums: Array.from({ length: n }, () => Math.floor(random() * 100) - 50) }
  })
}

const SCHEMA = { fields: [{ name: 'tags', type: 'keyword', facet: true, multi: true }, { name: 'nums', type: 'integral', column: true, multi: true }] }
const DOCS = documents()
const BYTES = { 1: flushColumns(SCHEMA as never, DOCS as never, { format: 1 })!, 2: flushColumns(SCHEMA as never, DOCS as never, { format: 2 })! }

describe('offsets stretches read from block records', () => {
  it('recognises the empty stretches in both formats and the lines of one and two values in format 2', () => {
    // Chunk c: documents [1,024 c, 1,024 c + 1,024), offsets up to the chunk's last document's end.
    const steps = (format: 1 | 2) => {
      const column = openColumns(BYTES[format], { backend: 'ts' }).getColumn('tags')!
      return Array.from({ length: Math.ceil(MAX_DOC / 1024) }, (_, c) => offsetsStep(column.offsets!, c * 1024, Math.min(1024, MAX_DOC - c * 1024), column.totalValueCount))
    }
    // Chunk 1 ends the empty stretch and starts the one-value stretch; 2 ends on a document of two
    // values; 3 holds both lines; 9 is mixed.
    expect(steps(2)).toEqual([0, -1, -1, -1, 2, 2, 0, 0, 1, -1])
    expect(steps(1)).toEqual([0, -1, -1, -1, -1, -1, 0, 0, -1, -1])
    // Ranges inside blocks (the pool's): the line of one value over documents 2,080-3,070 (not
    // 3,071, of two values), of two from 4,128 to the empty stretch, not past it.
    const column = openColumns(BYTES[2], { backend: 'ts' }).getColumn('tags')!
    const ranges = [[2080, 991], [2080, 992], [2080, 1024], [4128, 1024], [4128, 2016], [4128, 2048]]
    expect(ranges.map(([start, count]) => offsetsStep(column.offsets!, start, count, column.totalValueCount))).toEqual([1, -1, -1, 2, 2, -1])
  })

  for (const backend of BACKENDS) {
    for (const format of [1, 2] as const) {
      it(`${backend}, format ${format}: every answer equals the model's, every DocSet density`, () => {
        const reader = openColumns(BYTES[format], { backend })
        const random = seededRandom(62)
        const sets = docSets(reader, random)
        for (const column of reader.columns) {
          expect(column.layout).toBe('multi')
          checkColumn(modelOf(column), sets, random)
        }
        reader.close()
      })

      it(`${backend}, format ${format}: the kernels over document ranges that start inside a block`, () => {
        const reader = openColumns(BYTES[format], { backend })
        const column = reader.getColumn('tags')!
        const kernels = (column as unknown as { backend: ColumnsBackend }).backend.query
        const model = modelOf(column)
        const n = column.dictionary!.termCount
        for (const [from, to] of [[2080, 3104], [2080, 5152], [1504, 7200], [4128, MAX_DOC], [8224, 9248], [0, MAX_DOC]]) {
          const counts = new Uint32Array(n), expected = new Uint32Array(n)
          for (let d = from; d < to; d++) for (const ordinal of new Set(model.raw[d])) expected[Number(ordinal)]++
          kernels.countDistinct(column.offsets!, column.values, from, to, null, counts)
          expect(counts, `countDistinct [${from}, ${to})`).toEqual(expected)
          // The starts and nonempty bitsets, counted from the range's first document and value.
          const first = column.firstValueIndex(from), values = column.firstValueIndex(to - 1) + column.valueCount(to - 1) - first
          const starts = kernels.allocateBitset(((values + 1) >>> 5) + 1), nonempty = kernels.allocateBitset((to - from + 31) >>> 5)
          kernels.markDocumentStarts(column.offsets!, column.values, from, to, starts, nonempty)
          const startBits: number[] = [], nonemptyBits: number[] = []
          for (let d = from; d < to; d++) {
            if (column.valueCount(d) === 0) continue
            nonemptyBits.push(d - from)
            startBits.push(column.firstValueIndex(d) - first)
          }
          startBits.push(values)
          expect(bitsOf(nonempty.words, nonempty.wordCount), `nonempty [${from}, ${to})`).toEqual(nonemptyBits)
          expect(bitsOf(starts.words, starts.wordCount), `starts [${from}, ${to})`).toEqual(startBits)
          starts.release()
          nonempty.release()
        }
        reader.close()
      })
    }
  }
})

function bitsOf(words: Int32Array, count: number): number[] {
  const bits: number[] = []
  for (let w = 0; w < count; w++) for (let b = 0; b < 32; b++) if ((words[w] >>> b) & 1) bits.push(32 * w + b)
  return bits
}
