/**
 * `npm run bench` / `npm run bench:quick`: the real-data suites, one child
 * process each (so one suite's heap, JIT state and WebAssembly memory never
 * colour the next), then the report (Markdown + SVG) from their JSON.
 * `node --import tsx bench/real-data.ts [--quick] [SUITE...]`.
 */
import { spawnSync } from 'node:child_process'

const SUITES = ['size', 'decode', 'open', 'queries'] as const

const quick = process.argv.includes('--quick')
const chosen = process.argv.slice(2).filter((argument) => argument !== '--quick')
const unknown = chosen.filter((name) => !(SUITES as readonly string[]).includes(name))
if (unknown.length > 0) {
  console.error(`unknown suite ${unknown.join(', ')}; known: ${SUITES.join(', ')}`)
  process.exit(2)
}
const suites = chosen.length > 0 ? chosen : SUITES
const failed: string[] = []
const started = performance.now()
for (const suite of suites) {
  const suiteStarted = performance.now()
  console.log(`\n== ${suite}${quick ? ' (quick)' : ''}`)
  const result = spawnSync(process.execPath, [
    '--expose-gc', '--import', 'tsx', `bench/suites/${suite}.ts`, ...(quick ? ['--quick'] : []),
  ], { stdio: 'inherit' })
  const seconds = ((performance.now() - suiteStarted) / 1000).toFixed(1)
  if (result.status !== 0) {
    failed.push(suite)
    console.error(`${suite} failed (exit ${result.status ?? result.signal}) after ${seconds} s`)
  } else console.log(`${suite} done in ${seconds} s`)
}
const report = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench-report.ts', ...(quick ? ['--quick'] : [])], { stdio: 'inherit' })
if (report.status !== 0) failed.push('report')
console.log(`\nall done in ${((performance.now() - started) / 1000).toFixed(1)} s${failed.length > 0 ? `; FAILED: ${failed.join(', ')}` : ''}`)
process.exit(failed.length > 0 ? 1 : 0)
