// Files read and queried after the open alone, as users do (verify is the full check, run on demand):
// a slice of seeded mutants that open, read and asked every question on both backends must give the
// same answers or the same CorruptIndexException call by call (test/helpers/open-only.ts). Plus the
// least value of an aggregate whose selected values are all 2^63 - 1, which the TypeScript backend
// once reported as 0x7fffffff_00000000 on a valid file.
import { describe, expect, it } from 'vitest'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { FUZZ_FILE_NAME, fuzzSeeds, mutantAt } from './helpers/fuzz-check.js'
import { openOnlyProblems } from './helpers/open-only.js'

const RUN_SEED = 0x0dd1
const MUTANTS = 10_000

describe('files opened without verify', () => {
  it(`${MUTANTS} mutants: every read and question answers or fails alike on both backends`, () => {
    const seeds = fuzzSeeds()
    const failures: string[] = []
    for (let index = 0; index < MUTANTS && failures.length < 10; index++) {
      const mutant = mutantAt(seeds, RUN_SEED, index)
      const problems = openOnlyProblems(mutant.bytes, FUZZ_FILE_NAME)
      if (problems.length > 0) failures.push(`mutantAt(fuzzSeeds(), ${RUN_SEED}, ${index}) [${mutant.op}]: ${problems.join('; ')}`)
    }
    expect(failures).toEqual([])
  }, 120_000)
})

describe('aggregate over values at the ends of i64', () => {
  const MAX = 2n ** 63n - 1n, MIN = -(2n ** 63n)
  const values = Array.from({ length: 40 }, (_, d) => (d % 4 === 0 ? MAX : d % 4 === 1 ? MIN : BigInt(d)))
  for (const format of [1, 2] as const) {
    for (const backend of ['ts', 'wasm'] as const) {
      it(`format ${format}, ${backend}: selected values all 2^63 - 1, or all -2^63`, () => {
        const reader = openColumns(flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, values.map((v) => ({ v })), { format })!, { backend })
        const column = reader.getColumn('v')!
        const holding = (value: bigint) => DocSet.fromDocuments(reader, values.flatMap((v, d) => (v === value ? [d] : [])))
        expect(column.aggregate(holding(MAX))).toEqual({ count: 10, min: MAX, max: MAX, sum: 10n * MAX })
        expect(column.aggregate(holding(MIN))).toEqual({ count: 10, min: MIN, max: MIN, sum: 10n * MIN })
      })
    }
  }
})
