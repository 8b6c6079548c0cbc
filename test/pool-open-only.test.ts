// Node's query pool against the reader on files that open but may be corrupt (seeded mutants that
// pass the open): each question, over all documents and over a DocSet, must give the reader's
// answer or raise the reader's error, message included, on both backends. (The pool splits a
// question into ranges of documents, one per worker; the reader meets the ranges in order.)
import { afterAll, describe, expect, it } from 'vitest'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { DocSet } from '../src/kernels/doc-set.js'
import type { Column } from '../src/read/column.js'
import { openColumns } from '../src/read/open.js'
import { createQueryPool, type PooledSegment, type QueryPool } from '../src/node/query-pool.js'
import { extraSeeds, FUZZ_FILE_NAME, fuzzSeeds, mutantAt } from './helpers/fuzz-check.js'

const RUN_SEED = 0x9001
const MUTANTS = 6000

function show(value: unknown): string {
  return JSON.stringify(value, (_, item) => typeof item === 'bigint' ? `${item}n`
    : ArrayBuffer.isView(item) ? Array.from(item as unknown as ArrayLike<number>)
      : item instanceof DocSet ? Array.from(item.toArray()) : item)
}

async function outcome(call: () => unknown): Promise<string> {
  try {
    return `ok ${show(await call())}`
  } catch (error) {
    return error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error)
  }
}

/** [question, the reader's call, the pool's call] for one column, with docs (a DocSet of each) or without. */
function questions(column: Column, segment: PooledSegment, docs?: DocSet, pooled?: DocSet): [string, () => unknown, () => unknown][] {
  const name = column.name, asked: [string, () => unknown, () => unknown][] = []
  if (column.type === 'keyword' || column.type === 'bool') asked.push(['facetCounts', () => column.facetCounts(docs), () => segment.facetCounts(name, pooled)])
  if (column.type === 'keyword') {
    const terms = [0, 2, 5].filter((ordinal) => ordinal < column.dictionary!.termCount).map((ordinal) => column.dictionary!.termBytes(ordinal).slice())
    asked.push(['topTerms', () => column.topTerms(3, docs), () => segment.topTerms(name, 3, pooled)])
    asked.push(['termFilter', () => column.termFilter(terms, docs), () => segment.termFilter(name, terms, pooled)])
  }
  if (column.type === 'integral' || column.type === 'date') {
    const lo = Number(column.minRaw), hi = Number(column.maxRaw), middle = Math.floor(lo / 2 + hi / 2)
    if (Number.isSafeInteger(lo) && Number.isSafeInteger(hi) && lo <= hi) {
      asked.push(['rangeFilter', () => column.rangeFilter(lo, middle, docs), () => segment.rangeFilter(name, lo, middle, pooled)])
      if (lo < hi) asked.push(['histogram', () => column.histogram([lo, middle, hi + 1], docs), () => segment.histogram(name, [lo, middle, hi + 1], pooled)])
    }
    asked.push(['aggregate', () => column.aggregate(docs), () => segment.aggregate(name, pooled)])
  }
  return asked
}

const backends = wasmUnavailableReason() === null ? (['wasm', 'ts'] as const) : (['ts'] as const)
const pools: QueryPool[] = []
afterAll(async () => { await Promise.all(pools.map((pool) => pool.close())) })

describe.each(backends)('the pool against the reader on files that open (%s)', (backend) => {
  it(`${MUTANTS} mutants: the reader's answer or its error, question by question`, async () => {
    const pool = createQueryPool({ threads: 2, backend })
    pools.push(pool)
    const seeds = fuzzSeeds(), differences: string[] = []
    let opened = 0
    for (let index = 0; index < MUTANTS && differences.length < 10; index++) {
      const mutant = mutantAt(seeds, RUN_SEED, index)
      let reader
      try { reader = openColumns(mutant.bytes, { backend, fileName: FUZZ_FILE_NAME }) } catch { continue }
      const segment = await pool.open(mutant.bytes, { fileName: FUZZ_FILE_NAME })
      opened++
      const thirds = Array.from({ length: reader.maxDoc }, (_, doc) => doc).filter((doc) => doc % 3 === 0)
      const docs = DocSet.fromDocuments(reader, thirds), pooled = DocSet.fromDocuments(segment, thirds)
      for (const column of reader.columns) {
        for (const [question, read, ask] of [...questions(column, segment), ...questions(column, segment, docs, pooled)]) {
          const [expected, got] = [await outcome(read), await outcome(ask)]
          if (got !== expected) differences.push(`mutantAt(fuzzSeeds(), ${RUN_SEED}, ${index}) [${mutant.op}] ${column.name} ${question}: reader ${expected.slice(0, 160)}; pool ${got.slice(0, 160)}`)
        }
      }
      reader.close()
      await segment.close()
    }
    expect(differences).toEqual([])
    expect(opened).toBeGreaterThan(500)
  }, 120_000)

  it('an integer aggregate over a range takes the whole sequence\'s way, so it meets the same corrupt code', async () => {
    // A format 2 date column, a sequence dictionary of 153 entries over 1,100 values, whose codes
    // block 1 has base 2^64 - 1: value 1030 (not a third's) has a code beyond the entries. The reader
    // counts the selected codes (at most a quarter as many entries as values) and answers; the pool's
    // second worker, with 76 values, decoded them all and raised.
    const mutant = mutantAt([...fuzzSeeds(), ...extraSeeds(21, 20)], 21, 7881)
    expect(mutant.op).toBe('v2/all/1100: column 3 values codes block 1 base = 18446744073709551615')
    const reader = openColumns(mutant.bytes, { backend, fileName: FUZZ_FILE_NAME })
    const pool = createQueryPool({ threads: 2, backend })
    pools.push(pool)
    const segment = await pool.open(mutant.bytes, { fileName: FUZZ_FILE_NAME })
    const thirds = Array.from({ length: reader.maxDoc }, (_, doc) => doc).filter((doc) => doc % 3 === 0)
    const expected = await outcome(() => reader.column('date_dense').aggregate(DocSet.fromDocuments(reader, thirds)))
    expect(expected).toMatch(/^ok \{"count":367,/)
    expect(await outcome(() => segment.aggregate('date_dense', DocSet.fromDocuments(segment, thirds)))).toBe(expected)
    reader.close()
  })
})
