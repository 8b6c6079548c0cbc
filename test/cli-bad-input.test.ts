// The writer's bad-input table through `oixk build`: every entry that NDJSON can
// express gives exit 1, the table's exact message after FILE:LINE, and no output
// file (nor a temp file) afterwards.
import { readFile, writeFile } from 'node:fs/promises'
import { beforeAll, describe, expect, it } from 'vitest'
import { BAD_VALUES, GOOD, SCHEMA, TRACE } from './helpers/bad-input-table.js'
import { openColumns } from '../src/read/open.js'
import { run } from './helpers/run-cli.js'
import { tempDirectory } from './helpers/temp-directory.js'

/** JSON text for a value, integers exact (bigints as digits); null when JSON cannot say it. */
function toJson(value: unknown): string | null {
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : null
  if (value instanceof Date) return null
  if (Array.isArray(value)) {
    const items = value.map(toJson)
    return items.includes(null) ? null : `[${items.join(',')}]`
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => [key, toJson(item)] as const)
    return entries.some(([, item]) => item === null) ? null : `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${item}`).join(',')}}`
  }
  return JSON.stringify(value)
}

// Inputs the CLI reads differently by design: JSON integers are exact (2^53 is a valid integer
// or date there, a bigint), -1 as {bits} is a number, not a negative bigint, 45 is a number,
// and JSON has no undefined.
const NOT_THE_SAME_IN_JSON = new Set([
  'integral number beyond 2^53', 'date number beyond 2^53', 'fractional given negative bigint bits', 'geo lat a small bigint',
  'fractional given {bits: undefined}', 'undefined inside a multi array',
])

const { path, names } = tempDirectory('oixk-bad-')
beforeAll(async () => {
  await writeFile(path('schema.json'), JSON.stringify(SCHEMA))
})

describe('oixk build refuses every bad input of the writer table and writes nothing', () => {
  const expressible = BAD_VALUES.filter(([title, bad]) => !NOT_THE_SAME_IN_JSON.has(title) && toJson({ ...TRACE, ...bad }) !== null)

  it('covers most of the table', () => {
    expect(expressible.length).toBeGreaterThanOrEqual(BAD_VALUES.length - 11)
  })

  for (const [title, bad, message] of expressible) {
    it(title, async () => {
      const docs = path('docs.ndjson')
      await writeFile(docs, `${toJson(GOOD[0])}\n${toJson({ ...TRACE, ...bad })}\n${toJson(GOOD[2])}\n`)
      const output = path('out.oixk')
      const { code, stderr } = await run('build', '--schema', path('schema.json'), '--docs', docs, '-o', output)
      expect(code).toBe(1)
      // NDJSON has no bigints: the CLI words the date remedy for digits, and shows digits as written (no `n`).
      const cliMessage = message.replace('use bigint beyond 2^53', 'beyond 2^53, write its digits alone (no fraction or exponent)')
        .replace(/(-?\d+)n is outside/, '$1 is outside')
      expect(stderr).toBe(`oixk build: ${docs}:2: ${cliMessage}\n`)
      expect((await names()).sort()).toEqual(['docs.ndjson', 'schema.json'])
    })
  }
})

describe('oixk build reads an integer written with an exponent or a fraction exactly, beyond 2^53 too', () => {
  // Such a literal was a double, already rounded (9007199254740993.0 read as 2^53), then refused as unsafe.
  for (const [line, message] of [
    ['{"i":12345678901234567890e0}', 'field "i" of document 0: integer 12345678901234567890 is outside the signed 64-bit range [-2^63, 2^63 - 1]'],
    ['{"d":1e20}', 'field "d" of document 0: date in milliseconds 100000000000000000000 is outside the signed 64-bit range [-2^63, 2^63 - 1]'],
  ]) {
    it(line, async () => {
      const docs = path('docs.ndjson')
      await writeFile(docs, `${line}\n`)
      const { code, stderr } = await run('build', '--schema', path('schema.json'), '--docs', docs, '-o', path('out.oixk'))
      expect([code, stderr]).toEqual([1, `oixk build: ${docs}:1: ${message}\n`])
    })
  }
  it('stores 1e16, 9007199254740993.0 and 9.223372036854775807e18 as the integers they write', async () => {
    const docs = path('exact.ndjson')
    await writeFile(docs, '{"i":1e16}\n{"i":9007199254740993.0}\n{"i":-9.223372036854775808e18,"d":90071992547409930e-1}\n')
    const { code, stderr } = await run('build', '--schema', path('schema.json'), '--docs', docs, '-o', path('exact.oixk'))
    expect([code, stderr]).toEqual([0, ''])
    const reader = openColumns(await readFile(path('exact.oixk')))
    expect([0, 1, 2].map((document) => reader.column('i').getInt64BigInt(document))).toEqual([10n ** 16n, 2n ** 53n + 1n, -(2n ** 63n)])
    expect(reader.column('d').getInt64BigInt(2)).toBe(2n ** 53n + 1n)
  })
})
