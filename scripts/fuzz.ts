/**
 * Open-ended fuzzing: `npm run fuzz -- --seconds N [--seed S]`. Mutates the
 * seed files (test/helpers/mutate.ts) with a time-based run seed (printed, so
 * a run can be repeated with --seed) and checks each mutant with both
 * backends (test/helpers/fuzz-check.ts), and opened without verify, read and
 * queried (test/helpers/open-only.ts). A failing input is saved as
 * test/corpus/<hash>.oixk, with <hash>.txt holding one line on why it failed;
 * test/fuzz.test.ts replays the corpus. Exits 1 if any input failed.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { bigSeeds, examine, extraSeeds, FUZZ_FILE_NAME, fuzzSeeds, hashHex, mutantAt } from '../test/helpers/fuzz-check.js'
import { openOnlyProblems } from '../test/helpers/open-only.js'

function option(name: string): string | undefined {
  const args = process.argv.slice(2)
  const at = args.findIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`))
  if (at < 0) return undefined
  return args[at].includes('=') ? args[at].slice(args[at].indexOf('=') + 1) : args[at + 1]
}

function number(name: string, fallback: number): number {
  const text = option(name)
  if (text === undefined) return fallback
  const value = Number(text)
  if (!Number.isFinite(value) || value < 0) {
    console.error(`--${name} needs a non-negative number, got ${JSON.stringify(text)}`)
    process.exit(2)
  }
  return value
}

const seconds = number('seconds', 60)
const runSeed = number('seed', (Date.now() ^ (process.pid << 16)) >>> 0) >>> 0
const corpus = join(import.meta.dirname, '..', 'test', 'corpus')
// the test's fixed seeds plus fresh random files of this run, and two big files for the paths small ones never take
const seeds = [...fuzzSeeds(), ...extraSeeds(runSeed, 40), ...bigSeeds()]
console.log(`fuzz: run seed ${runSeed} (repeat with --seed ${runSeed}), ${seeds.length} seed files, ${seconds} s`)

const started = Date.now()
let mutants = 0, accepted = 0, failed = 0, nextReport = started + 10_000
while (Date.now() - started < seconds * 1000) {
  const index = mutants++
  const mutant = mutantAt(seeds, runSeed, index)
  const { problems, accepted: ok } = examine(mutant.bytes)
  // Opened alone (no verify), read and asked every question: alike on both backends.
  problems.push(...openOnlyProblems(mutant.bytes, FUZZ_FILE_NAME))
  if (ok) accepted++
  if (problems.length > 0) {
    failed++
    const hash = hashHex(mutant.bytes)
    const line = `seed ${runSeed} mutant ${index} [${mutant.op}]: ${problems.join('; ')}`
    mkdirSync(corpus, { recursive: true })
    writeFileSync(join(corpus, `${hash}.oixk`), mutant.bytes)
    writeFileSync(join(corpus, `${hash}.txt`), `${line}\n`)
    console.log(`FAIL test/corpus/${hash}.oixk: ${line}`)
  }
  if (Date.now() >= nextReport) {
    console.log(`fuzz: ${mutants} mutants, ${accepted} accepted, ${failed} failed, ${((Date.now() - started) / 1000).toFixed(0)} s`)
    nextReport += 10_000
  }
}
console.log(`fuzz: done, ${mutants} mutants in ${((Date.now() - started) / 1000).toFixed(1)} s, ${accepted} accepted, ${failed} failed (run seed ${runSeed})`)
process.exit(failed > 0 ? 1 : 0)
