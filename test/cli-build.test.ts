/**
 * `oixk build` and `oixk merge` output beyond the file: the one-line summary,
 * schema warnings, --max-errors and duplicate keys. Exact texts throughout.
 */
import { readFile, symlink, writeFile } from 'node:fs/promises'
import { beforeAll, describe, expect, it } from 'vitest'
import { openColumns } from '../src/read/open.js'
import { type CliResult, run } from './helpers/run-cli.js'
import { tempDirectory } from './helpers/temp-directory.js'

const { path, names, expectNoTempFiles } = tempDirectory('oixk-cli-build-')

const SCHEMA = { fields: [
  { name: 'flag', type: 'bool', column: true },
  { name: 'id', type: 'integral', column: true },
  { name: 'where', type: 'geo_point', column: true },
  { name: 'body', type: 'text' },
] }

async function build(docs: string, lines: readonly string[], ...extra: string[]): Promise<CliResult> {
  await writeFile(path(docs), lines.map((line) => line + '\n').join(''))
  return run('build', '--schema', path('schema.json'), '--docs', path(docs), '-o', path('out.oixk'), ...extra)
}

async function sizeOf(name: string): Promise<number> {
  return (await readFile(path(name))).length
}

beforeAll(async () => {
  await writeFile(path('schema.json'), JSON.stringify(SCHEMA))
})

describe('documents files larger than a read', () => {
  it('lines that cross the 1 MiB pieces the file is read in are whole documents', async () => {
    // 3,000 lines of 398-461 bytes (about 1.29 MB): some line spans the end of the first piece.
    const lines = Array.from({ length: 3000 }, (_, id) => `{"id":${id},"body":"${'x'.repeat(380 + ((id * 37) % 61))}"}`)
    expect(lines.reduce((total, line) => total + line.length + 1, 0)).toBeGreaterThan(1 << 20)
    const result = await build('long.ndjson', lines)
    expect([result.code, result.stderr]).toEqual([0, ''])
    const id = openColumns(await readFile(path('out.oixk'))).getColumn('id')!
    expect(Array.from({ length: 3000 }, (_, document) => id.getInt64(document))).toEqual(Array.from({ length: 3000 }, (_, document) => document))
  })
})

describe('an OUT that is an input', () => {
  it('is refused before anything is read: the documents were written over with the columns file', async () => {
    const lines = ['{"id":1}', '{"id":2}']
    await writeFile(path('self.ndjson'), lines.map((line) => line + '\n').join(''))
    await symlink(path('self.ndjson'), path('link.ndjson'))
    for (const [flag, out] of [['--docs', path('self.ndjson')], ['--docs', path('link.ndjson')], ['--schema', path('schema.json')]] as const) {
      const result = await run('build', '--schema', path('schema.json'), '--docs', path('self.ndjson'), '-o', out)
      expect([result.code, result.stdout, result.stderr.split('\n')[0]]).toEqual([2, '', `oixk build: OUT ${out} is the ${flag} file; give the columns file a path of its own`])
    }
    expect(await readFile(path('self.ndjson'), 'utf8')).toBe('{"id":1}\n{"id":2}\n')
    expect(JSON.parse(await readFile(path('schema.json'), 'utf8'))).toEqual(SCHEMA)
  })
})

describe('a --max-doc whose tables no memory holds', () => {
  it('exits 2 (the environment\'s limit, not the input\'s fault), names the flag and writes nothing', async () => {
    const offsets = 'field "tags": maxDoc 4294967295: a multi-valued column\'s offsets (8 bytes a document) take 34359738368 bytes in memory, ' +
      'more than this process can allocate (Invalid typed array length: 8589934592)'
    await writeFile(path('tags.json'), JSON.stringify({ fields: [{ name: 'tags', type: 'integral', column: true, multi: true }] }))
    await writeFile(path('tags.ndjson'), '{"tags":[1,2]}\n')
    const built = await run('build', '--schema', path('tags.json'), '--docs', path('tags.ndjson'), '--max-doc', '4294967295', '-o', path('huge.oixk'))
    expect(built).toEqual({ code: 2, stdout: '', stderr: `oixk build: --max-doc 4294967295: ${offsets}\n` })
    expect([await run('build', '--schema', path('tags.json'), '--docs', path('tags.ndjson'), '-o', path('small.oixk'))].map((result) => result.code)).toEqual([0])
    const merged = await run('merge', '--max-doc', '4294967295', '-o', path('huge.oixk'), path('small.oixk'))
    expect(merged).toEqual({ code: 2, stdout: '', stderr: `oixk merge: --max-doc 4294967295: ${offsets}\n` })
    expect((await names()).filter((name) => name.startsWith('huge'))).toEqual([])
    await expectNoTempFiles()
  })
})

describe('summary line', () => {
  it('build prints file, documents (maxDoc), columns and bytes on stdout, singular for one', async () => {
    const one = await build('one.ndjson', ['{"flag":true}'])
    expect(one).toEqual({ code: 0, stdout: `wrote ${path('out.oixk')}: 1 document, 1 column, ${await sizeOf('out.oixk')} bytes\n`, stderr: '' })
    const padded = await build('two.ndjson', ['{"flag":true,"id":1}', '{"where":{"lat":1,"lon":2}}'], '--max-doc', '7')
    expect(padded).toEqual({ code: 0, stdout: `wrote ${path('out.oixk')}: 7 documents, 3 columns, ${await sizeOf('out.oixk')} bytes\n`, stderr: '' })
  })

  it('merge prints the same line for its output', async () => {
    await build('left.ndjson', ['{"flag":true}', '{"id":3}'])
    await writeFile(path('left.oixk'), await readFile(path('out.oixk')))
    const merged = await run('merge', '-o', path('merged.oixk'), path('left.oixk'), path('left.oixk'))
    expect(merged).toEqual({ code: 0, stdout: `wrote ${path('merged.oixk')}: 4 documents, 2 columns, ${await sizeOf('merged.oixk')} bytes\n`, stderr: '' })
  })

  it('is not printed when no file is written', async () => {
    const none = await run('build', '--schema', path('schema.json'), '--docs', path('empty.ndjson'), '-o', path('none.oixk'))
    expect(none.code).toBe(2) // no such DOCS file: nothing on stdout either
    expect(none.stdout).toBe('')
    await writeFile(path('empty.ndjson'), '{}\n')
    const empty = await run('build', '--schema', path('schema.json'), '--docs', path('empty.ndjson'), '-o', path('none.oixk'))
    expect(empty.code).toBe(0)
    expect(empty.stdout).toBe('')
  })
})

describe('schema warnings', () => {
  it('prints one stderr line per field that gets no column, then builds as usual', async () => {
    const schema = { fields: [...SCHEMA.fields, { name: 'x', type: 'integral' }, { name: 'title', type: 'text', facet: true }] }
    await writeFile(path('warn-schema.json'), JSON.stringify(schema))
    await writeFile(path('warn.ndjson'), '{"flag":true,"x":5,"title":"t"}\n')
    const result = await run('build', '--schema', path('warn-schema.json'), '--docs', path('warn.ndjson'), '-o', path('warn.oixk'))
    expect(result).toEqual({
      code: 0,
      stdout: `wrote ${path('warn.oixk')}: 1 document, 1 column, ${await sizeOf('warn.oixk')} bytes\n`,
      stderr: 'oixk build: warning: field "x" (integral) has neither "column" nor "facet": it gets no column\n'
        + 'oixk build: warning: field "title" (text) is marked "facet", but text fields never get a column\n',
    })
  })
})

describe('--max-errors and bad lines', () => {
  // Line 1 good; 2 invalid JSON; 3 a duplicate key; 4 good; 5 a wrong value; 6 not an object;
  // 7 blank; 8 a nested duplicate key; 9 an unknown field; 10 good, using the column line 5 failed in.
  const LINES = [
    '{"flag":true}',
    '{"flag":tru}',
    '{"flag":true,"id":1,"flag":false}',
    '{"id":4}',
    '{"id":7,"flag":"yes"}',
    '[1]',
    ' ',
    '{"where":{"lat":1,"lon":2,"lat":3}}',
    '{"nope":1}',
    '{"flag":false,"id":9}',
  ]
  const MESSAGES = [
    ':2: invalid JSON: Unexpected character \'}\' at position 11: expected \'true\'',
    ':3: duplicate key "flag"',
    ':5: field "flag" of document 4: expected a boolean, got the string "yes"',
    ':6: expected a JSON object (a document; {} for one without values)',
    ':7: blank line; every line must hold one JSON document (only the file\'s final newline may be followed by nothing)',
    ':8: duplicate key "lat" in where',
    ':9: document 8: unknown field "nope" (not in the schema)',
  ]
  const report = (docs: string, count: number) => MESSAGES.slice(0, count).map((message) => `oixk build: ${path(docs)}${message}\n`).join('')

  it('by default stops at the first bad line with exactly one message', async () => {
    await writeFile(path('out.oixk'), 'old')
    expect(await build('bad.ndjson', LINES)).toEqual({ code: 1, stdout: '', stderr: report('bad.ndjson', 1) })
    expect(await build('bad.ndjson', LINES, '--max-errors', '1')).toEqual({ code: 1, stdout: '', stderr: report('bad.ndjson', 1) })
    expect(await readFile(path('out.oixk'), 'utf8')).toBe('old')
  })

  it('reports every bad line up to N, skipping them, then sums up and writes nothing', async () => {
    await writeFile(path('out.oixk'), 'old')
    expect(await build('bad.ndjson', LINES, '--max-errors', '100')).toEqual({
      code: 1,
      stdout: '',
      stderr: report('bad.ndjson', 7) + `oixk build: 7 bad lines in ${path('bad.ndjson')}; nothing was written to ${path('out.oixk')}\n`,
    })
    expect(await build('bad.ndjson', LINES, '--max-errors=3')).toEqual({
      code: 1,
      stdout: '',
      stderr: report('bad.ndjson', 3) + `oixk build: stopped at line 5 of ${path('bad.ndjson')} after 3 bad lines (--max-errors 3); nothing was written to ${path('out.oixk')}\n`,
    })
    expect(await readFile(path('out.oixk'), 'utf8')).toBe('old')
    expect((await names()).filter((name) => name.startsWith('.'))).toEqual([])
    await expectNoTempFiles()
  })

  it('one bad line under a higher limit is summed up in the singular; an absent OUT stays absent', async () => {
    const result = await run('build', '--schema', path('schema.json'), '--docs', path('bad.ndjson'), '-o', path('never.oixk'), '--max-errors', '2')
    expect(result.code).toBe(1)
    await writeFile(path('single.ndjson'), '{"flag":true}\n{"flag":1}\n{"flag":false}\n')
    const single = await run('build', '--schema', path('schema.json'), '--docs', path('single.ndjson'), '-o', path('never.oixk'), '--max-errors', '2')
    expect(single).toEqual({
      code: 1,
      stdout: '',
      stderr: `oixk build: ${path('single.ndjson')}:2: field "flag" of document 1: expected a boolean, got the number 1\n`
        + `oixk build: 1 bad line in ${path('single.ndjson')}; nothing was written to ${path('never.oixk')}\n`,
    })
    expect((await names()).includes('never.oixk')).toBe(false)
  })

  it('the good lines around skipped ones give the file they would give alone', async () => {
    // With the bad lines replaced by {}, the build succeeds: the bad documents left nothing behind.
    const cleaned = LINES.map((line, index) => ([0, 3, 9].includes(index) ? line : '{}'))
    expect((await build('clean.ndjson', cleaned)).code).toBe(0)
    const dump = JSON.parse((await run('dump', path('out.oixk'))).stdout)
    expect(dump.columns.map((column: { name: string; raw: string[][] }) => [column.name, column.raw])).toEqual([
      ['flag', [['1'], [], [], [], [], [], [], [], [], ['0']]],
      ['id', [[], [], [], ['4'], [], [], [], [], [], ['9']]],
    ])
  })

  it('problems that are not one line\'s stop at once, after the bad lines so far', async () => {
    const result = await build('bad.ndjson', LINES, '--max-errors', '100', '--max-doc', '4')
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: report('bad.ndjson', 2) + `oixk build: ${path('bad.ndjson')}:5: --max-doc 4 is smaller than the number of documents in ${path('bad.ndjson')}\n`,
    })
  })

  it('a byte order mark is skipped before line 1 only', async () => {
    await writeFile(path('bom.ndjson'), '\uFEFF{"flag":true}\n\uFEFF{"flag":false}\n')
    const result = await run('build', '--schema', path('schema.json'), '--docs', path('bom.ndjson'), '-o', path('bom.oixk'))
    expect(result).toEqual({ code: 1, stdout: '', stderr: `oixk build: ${path('bom.ndjson')}:2: invalid JSON: Unexpected character U+FEFF at position 0: expected a JSON value\n` })
    // A file of only a byte order mark is an empty file, as one without it is (it was a blank line 1).
    for (const [name, text] of [['nothing.ndjson', ''], ['only-bom.ndjson', '\uFEFF']]) {
      await writeFile(path(name), text)
      expect(await run('build', '--schema', path('schema.json'), '--docs', path(name), '-o', path('none.oixk')), name).toEqual({
        code: 0, stdout: '',
        stderr: `oixk build: no document of ${path(name)} has a value for a column or facet field, so no columns file is written (a segment without columns has no file)\n`,
      })
    }
  })
})

describe('number literals that are not integers though their doubles are', () => {
  it('are refused in integral fields as 1.5 is, and read as their doubles elsewhere', async () => {
    // Each became the integer its double is, without a word (1e-400 is 0), where 1.5 was refused.
    for (const literal of ['1.00000000000000001', '0.99999999999999999', '9007199254740991.4', '1e-400']) {
      const result = await build('inexact.ndjson', [`{"id":${literal}}`])
      expect(result, literal).toEqual({ code: 1, stdout: '', stderr: `oixk build: ${path('inexact.ndjson')}:1: field "id" of document 0: value ${literal} is not an integer (its nearest double is ${Number(literal)})\n` })
    }
    // Integers written with a fraction or an exponent stay integers; a geo point takes the doubles.
    const result = await build('exact.ndjson', ['{"id":1.0}', '{"id":100e-2}', '{"id":25E1,"where":{"lat":1.00000000000000001,"lon":-0.99999999999999999}}'])
    expect([result.code, result.stderr]).toEqual([0, ''])
    const reader = openColumns(await readFile(path('out.oixk')))
    expect([0, 1, 2].map((document) => reader.getColumn('id')!.getInt64(document))).toEqual([1, 1, 250])
    expect([...reader.getColumn('where')!.getGeoPoint(2)]).toEqual([1, -1])
  })
})
