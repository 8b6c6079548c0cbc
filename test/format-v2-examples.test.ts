/**
 * docs/format-v2.md's worked examples are what the writer writes: the page's
 * §9 must contain the output of scripts/format-v2-examples.ts, and §10.8 its
 * output with the argument `dictionaries`, byte for byte.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'

it('docs/format-v2.md §9 is the examples script\'s output', () => {
  const output = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/format-v2-examples.ts'], { encoding: 'utf8' })
  const page = readFileSync('docs/format-v2.md', 'utf8')
  expect(output.length).toBeGreaterThan(1000)
  expect(page).toContain(output)
}, 60_000)

it('docs/format-v2.md §10.8 is the examples script\'s dictionaries output', () => {
  const output = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/format-v2-examples.ts', 'dictionaries'], { encoding: 'utf8' })
  const page = readFileSync('docs/format-v2.md', 'utf8')
  expect(output).toContain('written: front')
  expect(page).toContain(output)
}, 60_000)
