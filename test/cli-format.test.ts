/**
 * The CLI and format 2: build --format 2 and merge --format 2 (a v1 file
 * converted), which equal each other byte for byte; dump prints the same JSON
 * for the v1 and v2 files; verify runs v2's full check; inspect shows each
 * sequence's cascade; --format accepts 1 and 2 only.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { beforeAll, describe, expect, it } from 'vitest'
import { run } from './helpers/run-cli.js'
import { tempDirectory } from './helpers/temp-directory.js'

const { path } = tempDirectory('oixk-cli-format-')

const SCHEMA = { fields: [
  { name: 'when', type: 'date', column: true },
  { name: 'price', type: 'fractional', column: true },
  { name: 'city', type: 'keyword', facet: true },
  { name: 'tags', type: 'keyword', facet: true, multi: true },
  { name: 'at', type: 'geo_point', column: true },
] }
const CITIES = ['SEA', 'LAX', 'JFK', 'ORD']

beforeAll(async () => {
  const lines = Array.from({ length: 5000 }, (_, i) => JSON.stringify({
    when: 1_600_000_000_000 + Math.floor(i / 7) * 60_000,
    price: (i * 37 % 10_000) / 100,
    city: CITIES[(i * 7) % 4 === 0 ? 0 : i % 4],
    tags: i % 3 === 0 ? [] : [CITIES[i % 2], CITIES[2 + (i % 2)]],
    at: { lat: 47 + (i % 100) / 1000, lon: -122 - (i % 50) / 1000 },
  }))
  await writeFile(path('schema.json'), JSON.stringify(SCHEMA))
  await writeFile(path('docs.ndjson'), lines.join('\n') + '\n')
})

describe('format 2 on the command line', () => {
  it('build --format 2, and merge --format 2 of the v1 file, write the same bytes; both print the summary', async () => {
    const v1 = await run('build', '--schema', path('schema.json'), '--docs', path('docs.ndjson'), '-o', path('v1.oixk'))
    expect(v1.code).toBe(0)
    const v2 = await run('build', '--schema', path('schema.json'), '--docs', path('docs.ndjson'), '--format', '2', '-o', path('v2.oixk'))
    expect(v2.code).toBe(0)
    const built = await readFile(path('v2.oixk'))
    expect(v2.stdout).toBe(`wrote ${path('v2.oixk')}: 5000 documents, 5 columns, ${built.length} bytes\n`)
    expect(built.readUInt32LE(4)).toBe(2)
    expect(built.length).toBeLessThan((await readFile(path('v1.oixk'))).length)
    const merged = await run('merge', '--format', '2', '-o', path('converted.oixk'), path('v1.oixk'))
    expect(merged.code).toBe(0)
    expect((await readFile(path('converted.oixk'))).equals(built)).toBe(true)
    // And back: merge of the v2 file in format 1 is the v1 build.
    expect((await run('merge', '-o', path('back.oixk'), path('v2.oixk'))).code).toBe(0)
    expect((await readFile(path('back.oixk'))).equals(await readFile(path('v1.oixk')))).toBe(true)
  })

  it('dump prints the same JSON for both files; verify passes for both', async () => {
    const [a, b] = [await run('dump', path('v1.oixk')), await run('dump', path('v2.oixk'))]
    expect(a.code).toBe(0)
    expect(b.stdout).toBe(a.stdout)
    expect((await run('verify', path('v2.oixk'))).code).toBe(0)
  })

  it('inspect names the format and shows each sequence\'s cascade', async () => {
    const { code, stdout } = await run('inspect', path('v2.oixk'))
    expect(code).toBe(0)
    expect(stdout).toMatch(/^format {18}2 \(cascading encodings, docs\/format-v2\.md\)$/m)
    expect(stdout).toMatch(/^ {2}values {16}(blocks|dictionary|runs|decimal)/m)
    expect(stdout).toMatch(/^ {2}latitudes {13}decimal \(n \/ 10\^3, 0 exceptions\): 5000 values, \d+ bytes$/m)
    expect(stdout).toMatch(/^ {4}integers /m)
    // Each keyword dictionary: its form, and what decoding it cost at this open.
    expect(stdout.match(/^ {4}form {16}[a-z-]+ \(\d\), \d+\.\d% of v1's form$/gm)).toHaveLength(2)
    expect(stdout.match(/^ {4}decoded at open {5}\d+ bytes held \(terms and their offsets; digits terms need none\), \d+\.\d{3} ms at this open$/gm)).toHaveLength(2)
  })

  it('--format takes 1 or 2 only', async () => {
    const bad = await run('build', '--schema', path('schema.json'), '--docs', path('docs.ndjson'), '--format', '3', '-o', path('x.oixk'))
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--format must be 1 or 2, got "3"')
    expect((await run('merge', '--format', 'v2', '-o', path('y.oixk'), path('v1.oixk'))).stderr).toContain('--format must be 1 or 2, got "v2"')
  })
})
