// Fuzzing, fixed slice: seeded mutants of valid files (every type, layout and block form) are
// opened and full-checked with both backends. Each must either pass or raise CorruptIndexException
// naming the file: never another error, never a WASM trap, never > 2 s; the backends must agree on
// the verdict, the message, and (on success) every value. Plus a regression pass over test/corpus.
// Open-ended fuzzing: `npm run fuzz -- --seconds N` (scripts/fuzz.ts) saves failures to test/corpus.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openColumns } from '../src/read/open.js'
import { checkFile, examine, FUZZ_FILE_NAME, fuzzSeeds, judge, mutantAt } from './helpers/fuzz-check.js'
import { openOnlyProblems } from './helpers/open-only.js'
import { LAYOUTS, TYPES } from './helpers/random-columns.js'

const RUN_SEED = 0x0f22
const MUTANTS = 100_000
const CORPUS = join(import.meta.dirname, 'corpus')

const seeds = fuzzSeeds()

describe('fuzz: seeded mutants', () => {
  it('mutates format 2 dictionaries of every compressed form', () => {
    const seed = seeds.find((candidate) => candidate.name === 'v2/dictionaries')!
    const reader = openColumns(seed.bytes, { backend: 'ts' })
    expect(reader.columns.map((column) => column.dictionary!.encoding!.formName).sort()).toEqual(['digits', 'front', 'front-fsst', 'front-fsst', 'front-fsst', 'fsst', 'plain'])
    reader.close()
    expect(seed.fields.filter((field) => field.what.endsWith('symbols')).length).toBe(4)
  })

  it('starts from valid seeds covering every type, layout and block form', () => {
    const typeCodes = ['keyword', 'integral', 'fractional', 'date', 'bool', 'geo_point']
    const combos = new Set<string>()
    const kinds = new Map<string, Set<number>>()
    for (const seed of seeds) {
      expect(checkFile(seed.bytes), seed.name).toEqual([])
      expect(judge(seed.bytes, 'ts').ok, seed.name).toBe(true)
      if (seed.version !== 1) continue
      for (const column of seed.model.columns) {
        const type = typeCodes[column.type - 1]
        combos.add(`${type}/${LAYOUTS[column.layout]}`)
        const seen = kinds.get(type) ?? new Set<number>()
        for (const block of column.section.values.blocks) seen.add(block.kind)
        kinds.set(type, seen)
      }
    }
    const wasmReader = openColumns(seeds[0].bytes, { backend: 'wasm' })
    expect(wasmReader.backendName).toBe('wasm') // the duel really runs the WebAssembly kernels
    wasmReader.close()
    expect(combos.size).toBe(TYPES.length * LAYOUTS.length)
    for (const type of typeCodes) expect([...kinds.get(type)!].sort(), type).toEqual(type === 'bool' ? [0, 1] : [0, 1, 2])
    // Format 2 seeds: their located fields include every sequence form and block kind for the field operators.
    const v2 = seeds.filter((seed) => seed.version === 2)
    expect(v2.length).toBeGreaterThan(1)
    const forms = new Set<number>(), blockKinds = new Set<number>()
    for (const seed of v2) {
      for (const field of seed.fields) {
        if (field.what.endsWith(' form') && !field.what.includes('dictionary form')) forms.add(seed.bytes[field.at])
        if (/ block \d+ kind$/.test(field.what)) blockKinds.add(seed.bytes[field.at])
      }
    }
    expect([...forms].sort()).toEqual([0, 1, 2, 3])
    expect([...blockKinds].sort()).toEqual([0, 1, 3, 4, 5, 6, 7])
  })

  it(`${MUTANTS} mutants: success or CorruptIndexException, identical on both backends`, () => {
    const failures: string[] = []
    let accepted = 0, slowest = 0, slowestOp = ''
    const started = performance.now()
    for (let index = 0; index < MUTANTS; index++) {
      const mutant = mutantAt(seeds, RUN_SEED, index)
      const before = performance.now()
      const { problems, accepted: ok } = examine(mutant.bytes)
      const ms = performance.now() - before
      if (ms > slowest) { slowest = ms; slowestOp = mutant.op }
      if (problems.length > 0) {
        if (failures.length < 20) failures.push(`mutantAt(fuzzSeeds(), ${RUN_SEED}, ${index}) [${mutant.op}]: ${problems.join('; ')}`)
        else if (failures.length === 20) failures.push('… more failures left out')
      } else if (ok) accepted++
    }
    const seconds = (performance.now() - started) / 1000
    console.log(`fuzz: ${MUTANTS} mutants of ${seeds.length} seeds in ${seconds.toFixed(1)} s; ${accepted} accepted; ` +
      `slowest ${slowest.toFixed(1)} ms (${slowestOp}); ${failures.length} failing`)
    expect(failures).toEqual([])
  }, 300_000)
})

describe('fuzz: corpus regression', () => {
  it('every test/corpus/*.oixk file satisfies the same property, and opened alone reads and answers alike on both backends', () => {
    const files = readdirSync(CORPUS).filter((name) => name.endsWith('.oixk')).sort()
    const failures: string[] = []
    for (const name of files) {
      const bytes = new Uint8Array(readFileSync(join(CORPUS, name)))
      // Also opened alone (no verify), read and queried: the same answers or errors on both backends.
      const problems = [...checkFile(bytes), ...openOnlyProblems(bytes, FUZZ_FILE_NAME)]
      if (problems.length > 0) failures.push(`${name}: ${problems.join('; ')}`)
    }
    expect(failures).toEqual([])
  }, 120_000)
})
