/**
 * The oixk CLI, run in-process through runCli. Expected raw values are computed
 * by hand from docs/format.md (comments show how), never by the code under test.
 */
import { readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises'
import xxhash from 'xxhash-wasm'
import { beforeAll, describe, expect, it } from 'vitest'
import { openColumnsFile, ResidentLimitError } from '../src/node/index.js'
import { type CliResult, run } from './helpers/run-cli.js'
import { tempDirectory } from './helpers/temp-directory.js'

const { path, exists, expectNoTempFiles } = tempDirectory('oixk-cli-')

const SCHEMA = {
  fields: [
    { name: 'id', type: 'integral', column: true },
    { name: 'score', type: 'fractional', column: true },
    { name: 'tag', type: 'keyword', facet: true, multi: true },
    { name: 'when', type: 'date', column: true },
    { name: 'flag', type: 'bool', column: true },
    { name: 'where', type: 'geo_point', column: true },
    { name: 'body', type: 'text' },
  ],
}

// Written as text, not JSON.stringify'd, so the big integers stay exact literals.
const DOCUMENT_LINES = [
  '{"id":9223372036854775807,"score":1.0,"tag":["b","a"],"when":"2020-01-01T00:00:00Z","flag":true,"where":{"lat":0,"lon":0},"body":"hello"}',
  '{"id":-9223372036854775808,"score":-1,"tag":[],"when":0,"flag":false,"where":null}',
  '{"id":null,"score":{"bits":"7ff8000000000001"},"tag":["a"],"when":1577836800001,"flag":true,"where":{"lat":-90,"lon":180}}',
  '{"score":"-0","tag":"c","when":"1970-01-01T00:00:00.001Z","flag":false,"where":{"lat":1,"lon":-1}}',
]

// SortableBits: non-negative doubles keep their IEEE bits; Encode(-x) = -1 - bits(x).
const ONE = '4607182418800017408' // 1.0 = 0x3FF0000000000000
const MINUS_ONE = '-4607182418800017409' // -1 - 0x3FF0000000000000
const NAN_PAYLOAD = '9221120237041090561' // 0x7FF8000000000001, sign bit clear: unchanged
const MINUS_ZERO = '-1' // -1 - 0
const MINUS_NINETY = '-4636033603912859649' // 90.0 = 1.40625 * 2^6 = 0x4056800000000000
const ONE_EIGHTY = '4640537203540230144' // 180.0 = 1.40625 * 2^7 = 0x4066800000000000
const NEW_YEAR_2020 = '1577836800000' // 18262 days * 86400000 ms

const EXPECTED_DUMP = {
  maxDoc: 4,
  columns: [
    // Directory order is by name; "body" is text and has no column.
    { name: 'flag', type: 'bool', layout: 'dense', documentsWithValue: 4, valueCount: 4, minRaw: '0', maxRaw: '1', raw: [['1'], ['0'], ['1'], ['0']] },
    {
      name: 'id', type: 'integral', layout: 'optional', documentsWithValue: 2, valueCount: 2,
      minRaw: '-9223372036854775808', maxRaw: '9223372036854775807',
      raw: [['9223372036854775807'], ['-9223372036854775808'], [], []],
    },
    {
      name: 'score', type: 'fractional', layout: 'dense', documentsWithValue: 4, valueCount: 4,
      minRaw: MINUS_ONE, maxRaw: NAN_PAYLOAD, raw: [[ONE], [MINUS_ONE], [NAN_PAYLOAD], [MINUS_ZERO]],
    },
    {
      // Terms sorted a, b, c; values keep the document's order (b before a).
      name: 'tag', type: 'keyword', layout: 'multi', documentsWithValue: 3, valueCount: 4, minRaw: '0', maxRaw: '2',
      terms: ['a', 'b', 'c'], raw: [['1', '0'], [], ['0'], ['2']],
    },
    {
      name: 'when', type: 'date', layout: 'dense', documentsWithValue: 4, valueCount: 4, minRaw: '0', maxRaw: '1577836800001',
      raw: [[NEW_YEAR_2020], ['0'], ['1577836800001'], ['1']],
    },
    {
      // min/max over latitudes only.
      name: 'where', type: 'geo_point', layout: 'optional', documentsWithValue: 3, valueCount: 3, minRaw: MINUS_NINETY, maxRaw: ONE,
      raw: [[['0', '0']], [], [[MINUS_NINETY, ONE_EIGHTY]], [[ONE, MINUS_ONE]]],
    },
  ],
}

async function writeInputs(name: string, lines: readonly string[], ending = '\n'): Promise<string> {
  await writeFile(path(name), lines.map((line) => line + ending).join(''))
  return path(name)
}

async function build(name: string, lines: readonly string[], ...extra: string[]): Promise<CliResult> {
  const documents = await writeInputs(`${name}.ndjson`, lines)
  return run('build', '--schema', path('schema.json'), '--docs', documents, '-o', path(`${name}.oixk`), ...extra)
}

beforeAll(async () => {
  await writeFile(path('schema.json'), JSON.stringify(SCHEMA))
})

describe('build and dump', () => {
  it('dumps every type exactly, big integers, NaN payloads and -0 included', async () => {
    const built = await build('all', DOCUMENT_LINES)
    // Six columns: every field but the text one; maxDoc = the four lines.
    const size = (await readFile(path('all.oixk'))).length
    expect(built).toEqual({ code: 0, stdout: `wrote ${path('all.oixk')}: 4 documents, 6 columns, ${size} bytes\n`, stderr: '' })
    const dumped = await run('dump', path('all.oixk'))
    expect(dumped.code).toBe(0)
    expect(dumped.stderr).toBe('')
    expect(dumped.stdout).toBe(JSON.stringify(EXPECTED_DUMP) + '\n')
    expect((await run('dump', path('all.oixk'), '--backend', 'ts')).stdout).toBe(dumped.stdout)
    await expectNoTempFiles()
  })

  it('--max-doc adds documents without values', async () => {
    expect((await build('padded', DOCUMENT_LINES, '--max-doc', '6')).code).toBe(0)
    const dump = JSON.parse((await run('dump', path('padded.oixk'))).stdout)
    expect(dump.maxDoc).toBe(6)
    const flag = dump.columns.find((column: { name: string }) => column.name === 'flag')
    expect(flag.layout).toBe('optional')
    expect(flag.raw).toEqual([['1'], ['0'], ['1'], ['0'], [], []])
  })

  it('accepts CRLF and a missing final newline, byte for byte the same file', async () => {
    await build('lf', DOCUMENT_LINES)
    const crlf = await writeInputs('crlf.ndjson', DOCUMENT_LINES, '\r\n')
    const bare = path('bare.ndjson')
    await writeFile(bare, DOCUMENT_LINES.join('\n'))
    expect((await run('build', '--schema', path('schema.json'), '--docs', crlf, '-o', path('crlf.oixk'))).code).toBe(0)
    expect((await run('build', '--schema', path('schema.json'), '--docs', bare, '-o', path('bare.oixk'))).code).toBe(0)
    const expected = await readFile(path('lf.oixk'))
    expect(await readFile(path('crlf.oixk'))).toEqual(expected)
    expect(await readFile(path('bare.oixk'))).toEqual(expected)
  })

  it('dumps across decode chunks (70,000 values, optional layout)', async () => {
    const lines = Array.from({ length: 70_000 }, (_, document) => (document % 3 === 0 ? '{}' : `{"id":${document * 1000}}`))
    expect((await build('long', lines)).code).toBe(0)
    const dump = JSON.parse((await run('dump', path('long.oixk'))).stdout)
    expect(dump.columns).toHaveLength(1)
    expect(dump.columns[0].raw).toEqual(lines.map((_, document) => (document % 3 === 0 ? [] : [String(document * 1000)])))
  })
})

describe('build errors', () => {
  const cases: [string, string[], string][] = [
    ['a wrong value type', ['{"flag":true}', '{"flag":true}', '{"flag":1}'], ':3: field "flag" of document 2: expected a boolean'],
    ['an out-of-range integer', ['{"id":9223372036854775808}'], ':1: field "id" of document 0:'],
    ['a blank line', ['{"flag":true}', '', '{"flag":true}'], ':2: blank line'],
    ['invalid JSON', ['{"flag":true}', '{"flag":tru}'], ':2: invalid JSON: '],
    ['a line that is not an object', ['[1,2]'], ':1: expected a JSON object'],
    ['an unknown field', ['{"flag":true,"nope":1}'], ':1: document 0: unknown field "nope"'],
    ['a bad date', ['{"when":"2021-02-29"}'], ':1: field "when" of document 0: invalid date'],
    // A key holding ESC [ 2 J cleared the terminal that printed its message: control characters come escaped.
    ['a key with control characters', ['{"x\\u001b[2Jy\\u0000":1}'], ':1: document 0: unknown field "x\\u001b[2Jy\\u0000"'],
  ]
  for (const [what, lines, message] of cases) {
    it(`exits 1 on ${what}, naming file and line, and writes nothing`, async () => {
      const result = await build('bad', lines)
      expect(result.code).toBe(1)
      expect(result.stdout).toBe('')
      expect(result.stderr).toContain(`oixk build: ${path('bad.ndjson')}${message}`)
      expect(await exists('bad.oixk')).toBe(false)
      await expectNoTempFiles()
    })
  }

  it('exits 1 on a bad schema, and when --max-doc is below the line count', async () => {
    await writeFile(path('bad-schema.json'), '{"fields":[{"name":"x","type":"float"}]}')
    const documents = await writeInputs('ok.ndjson', ['{"flag":true}', '{"flag":false}'])
    const schema = await run('build', '--schema', path('bad-schema.json'), '--docs', documents, '-o', path('bad.oixk'))
    expect(schema.code).toBe(1)
    expect(schema.stderr).toContain(`${path('bad-schema.json')}: schema: field "x" has unknown type "float"`)
    const small = await run('build', '--schema', path('schema.json'), '--docs', documents, '--max-doc', '1', '-o', path('bad.oixk'))
    expect(small.code).toBe(1)
    expect(small.stderr).toContain(`${documents}:2: --max-doc 1 is smaller than the number of documents`)
    expect(await exists('bad.oixk')).toBe(false)
  })

  it('exits 2 on a missing input file or an unwritable output', async () => {
    const missing = await run('build', '--schema', path('schema.json'), '--docs', path('missing.ndjson'), '-o', path('bad.oixk'))
    expect(missing).toMatchObject({ code: 2, stdout: '' })
    expect(missing.stderr).toContain(`${path('missing.ndjson')}: no such file or directory`)
    const documents = await writeInputs('ok.ndjson', ['{"flag":true}'])
    const unwritable = await run('build', '--schema', path('schema.json'), '--docs', documents, '-o', path('no-such-dir/out.oixk'))
    expect(unwritable.code).toBe(2)
    expect(unwritable.stderr).toContain(`${path('no-such-dir/out.oixk')}: cannot write: no such file or directory`)
    expect(await exists('bad.oixk')).toBe(false)
    // A directory given as an input: Node's read error names no path, the message must.
    const tmp = path('')
    const directoryDocs = await run('build', '--schema', path('schema.json'), '--docs', tmp, '-o', path('bad.oixk'))
    expect(directoryDocs).toEqual({ code: 2, stdout: '', stderr: `oixk build: ${tmp}: is a directory\n` })
    const directorySchema = await run('build', '--schema', tmp, '--docs', documents, '-o', path('bad.oixk'))
    expect(directorySchema).toEqual({ code: 2, stdout: '', stderr: `oixk build: ${tmp}: is a directory\n` })
    // A directory as the output: the rename over it said 'resource busy or locked' for '.'.
    const directoryOut = await run('build', '--schema', path('schema.json'), '--docs', documents, '-o', tmp)
    expect(directoryOut).toEqual({ code: 2, stdout: '', stderr: `oixk build: ${tmp}: cannot write: is a directory\n` })
    // A link to no file: which file it wanted (the link's own path exists, so 'no such file' alone misled).
    await symlink(path('gone.oixk'), path('link.oixk'))
    const dangling = await run('build', '--schema', path('schema.json'), '--docs', documents, '-o', path('link.oixk'))
    expect(dangling).toEqual({
      code: 2, stdout: '',
      stderr: `oixk build: ${path('link.oixk')}: cannot write: no such file or directory (a symbolic link to ${path('gone.oixk')}, which does not exist)\n`,
    })
    await expectNoTempFiles()
    expect(await exists('bad.oixk')).toBe(false)
  })

  it('writes no file, exits 0 and leaves a stale OUT alone when no field has a value', async () => {
    const fresh = await build('empty', ['{"body":"only text"}', '{}'])
    expect(fresh.code).toBe(0)
    expect(fresh.stderr).toContain('no columns file is written')
    expect(await exists('empty.oixk')).toBe(false)
    await writeFile(path('empty.oixk'), 'stale')
    const stale = await build('empty', ['{}'])
    expect(stale.code).toBe(0)
    expect(stale.stderr).toContain('was left unchanged')
    expect(await readFile(path('empty.oixk'), 'utf8')).toBe('stale')
  })
})

describe('--backend', () => {
  it('gives the same dump and verdicts with the WebAssembly backend', async () => {
    const dumped = await run('dump', path('all.oixk'), '--backend', 'ts')
    expect(await run('dump', path('all.oixk'), '--backend', 'wasm')).toEqual(dumped)
    const verified = await run('verify', path('all.oixk'), '--backend', 'wasm')
    expect(verified).toEqual({ code: 0, stdout: `${path('all.oixk')}: ok\n`, stderr: '' })
  })

  it('refuses an unknown backend with exit 2', async () => {
    const result = await run('dump', path('all.oixk'), '--backend', 'gpu')
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--backend must be ts, wasm or auto, got "gpu"')
  })
})

describe('verify', () => {
  it('says ok, corrupt or error per file with exit 0, 1 or 2', async () => {
    const good = path('all.oixk')
    expect(await run('verify', good)).toEqual({ code: 0, stdout: `${good}: ok\n`, stderr: '' })

    const flipped = new Uint8Array(await readFile(good))
    flipped[40] ^= 0x01
    await writeFile(path('flipped.oixk'), flipped)
    const corrupt = await run('verify', good, path('flipped.oixk'))
    expect(corrupt.code).toBe(1)
    expect(corrupt.stdout).toMatch(new RegExp(`^${escape(good)}: ok\\n${escape(path('flipped.oixk'))}: corrupt: checksum mismatch: stored [0-9a-f]{16}, computed [0-9a-f]{16}\\n$`))

    const missing = await run('verify', path('flipped.oixk'), path('missing.oixk'))
    expect(missing.code).toBe(2)
    expect(missing.stdout.split('\n')[1]).toBe(`${path('missing.oixk')}: error: no such file or directory`)
    // Not a regular file: Node's own words, without its code and call.
    expect(await run('verify', '/dev/null')).toEqual({ code: 2, stdout: '/dev/null: error: not a regular file\n', stderr: '' })
    expect(await run('dump', '/dev/null')).toEqual({ code: 2, stdout: '', stderr: 'oixk dump: /dev/null: not a regular file\n' })
  })

  it('runs the full check, which dump (open checks only) does not', async () => {
    // Raise when's maxRaw (1577836800001, stored only in the directory) by one and re-checksum.
    const bytes = new Uint8Array(await readFile(path('all.oixk')))
    const view = new DataView(bytes.buffer)
    let at = -1
    for (let offset = bytes.length - 28; offset >= 12; offset--) {
      if (view.getBigInt64(offset, true) === 1577836800001n) { at = offset; break }
    }
    expect(at).toBeGreaterThan(0)
    view.setBigInt64(at, 1577836800002n, true)
    const { h64Raw } = await xxhash()
    view.setBigUint64(bytes.length - 8, h64Raw(bytes.subarray(0, bytes.length - 8), 0n), true)
    await writeFile(path('lying.oixk'), bytes)
    expect((await run('dump', path('lying.oixk'))).code).toBe(0)
    const verdict = await run('verify', path('lying.oixk'))
    expect(verdict.code).toBe(1)
    expect(verdict.stdout).toBe(`${path('lying.oixk')}: corrupt: field "when": maxRaw is 1577836800002, but the largest value is 1577836800001\n`)
  })

  it('refuses a file over the resident limit before reading it', async () => {
    // Sparse: 2 GiB on paper, nothing on disk; reading it would take seconds and 2 GiB of memory.
    await writeFile(path('huge.oixk'), '')
    await truncate(path('huge.oixk'), 2 ** 31)
    const result = await run('verify', path('huge.oixk'))
    expect(result.code).toBe(2)
    expect(result.stdout).toBe(`${path('huge.oixk')}: error: ${path('huge.oixk')} is 2147483648 bytes, over the resident limit of 1073741824 bytes (maxResidentFileBytes)\n`)
    const small = openColumnsFile(path('all.oixk'), { maxResidentFileBytes: 100 })
    await expect(small).rejects.toBeInstanceOf(ResidentLimitError)
    await expect(small).rejects.toMatchObject({ limit: 100, size: (await readFile(path('all.oixk'))).length })
    await rm(path('huge.oixk'))
  })
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

describe('merge', () => {
  const OTHER_LINES = [
    '{"id":5,"tag":["zz","b"],"flag":true,"when":"2024-02-29T12:00:00.5+01:00"}',
    '{"id":6,"score":2.5,"tag":["only-in-deleted"],"where":{"lat":45.5,"lon":-73.25}}',
    '{"tag":["d"],"flag":false,"when":-1}',
  ]

  it('follows a doc map with deletions and reordering, byte-identical to a build', async () => {
    await build('left', DOCUMENT_LINES)
    await build('right', OTHER_LINES)
    // left: 0 → 2, 1 deleted, 2 → 0, 3 → 4; right: 0 → 3, 1 deleted, 2 → 1.
    await writeFile(path('map.json'), JSON.stringify([[2, -1, 0, 4], [3, -1, 1]]))
    const merged = await run('merge', '-o', path('merged.oixk'), '--doc-map', path('map.json'), path('left.oixk'), path('right.oixk'))
    // Five documents survive; "score" still has values (left documents 0, 2 and 3), so all six columns remain.
    const size = (await readFile(path('merged.oixk'))).length
    expect(merged).toEqual({ code: 0, stdout: `wrote ${path('merged.oixk')}: 5 documents, 6 columns, ${size} bytes\n`, stderr: '' })
    await build('rebuilt', [DOCUMENT_LINES[2], OTHER_LINES[2], DOCUMENT_LINES[0], OTHER_LINES[0], DOCUMENT_LINES[3]])
    expect(await readFile(path('merged.oixk'))).toEqual(await readFile(path('rebuilt.oixk')))
    const mergedDump = await run('dump', path('merged.oixk'))
    expect(mergedDump.stdout).toBe((await run('dump', path('rebuilt.oixk'))).stdout)
    expect(mergedDump.stdout).not.toContain('only-in-deleted')
    expect((await run('verify', path('merged.oixk'))).code).toBe(0)
    await expectNoTempFiles()
  })

  it('concatenates without a doc map, and honours --max-doc', async () => {
    expect((await run('merge', '-o', path('joined.oixk'), path('left.oixk'), path('right.oixk'))).code).toBe(0)
    await build('joined-build', [...DOCUMENT_LINES, ...OTHER_LINES])
    expect(await readFile(path('joined.oixk'))).toEqual(await readFile(path('joined-build.oixk')))
    expect((await run('merge', '-o', path('wide.oixk'), '--max-doc', '9', path('left.oixk'), path('right.oixk'))).code).toBe(0)
    await build('wide-build', [...DOCUMENT_LINES, ...OTHER_LINES], '--max-doc', '9')
    expect(await readFile(path('wide.oixk'))).toEqual(await readFile(path('wide-build.oixk')))
  })

  it('exits 1 on a doc map that does not fit the inputs, writing nothing', async () => {
    const maps: [unknown, string][] = [
      [[[0, 1, 2, 3]], 'expected a JSON array of 2 doc map(s)'],
      [[[0, 1, 2, 3], [4, 5]], 'doc map 1 has 2 entries, but'],
      [[[0, 1, 2, 1.5], [4, 5, 6]], 'doc map 0 entry 3 is 1.5'],
      // An integer beyond doubles is read exact, and shown as the number it is (not quoted as a string).
      ['[[0, 1, 2, 99999999999999999999], [4, 5, 6]]', 'doc map 0 entry 3 is 99999999999999999999; expected'],
      [[[0, 1, 2, 3], [3, 4, 5]], `new document 3 is the target of ${path('left.oixk')} document 3 and of ${path('right.oixk')} document 0`],
      // Literals whose doubles are integers moved or deleted documents unseen (-0.99999999999999999 read as -1).
      ['[[0, 1, 2, 3], [4, -0.99999999999999999, 6]]', 'doc map 1 entry 1 is -0.99999999999999999, not an integer (its nearest double is -1)'],
      ['[[0, 1, 2, 1e-400], [4, 5, 6]]', 'doc map 0 entry 3 is 1e-400, not an integer (its nearest double is 0)'],
    ]
    for (const [map, message] of maps) {
      await writeFile(path('bad-map.json'), typeof map === 'string' ? map : JSON.stringify(map))
      const result = await run('merge', '-o', path('bad-merge.oixk'), '--doc-map', path('bad-map.json'), path('left.oixk'), path('right.oixk'))
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(`oixk merge: ${path('bad-map.json')}: ${message}`)
      expect(await exists('bad-merge.oixk')).toBe(false)
    }
    // A new id past --max-doc: the map and the flag are named together (either may be the mistake).
    await writeFile(path('fits.json'), JSON.stringify([[0, 1, 2, 3], [4, 5, 6]]))
    const small = await run('merge', '-o', path('bad-merge.oixk'), '--doc-map', path('fits.json'), '--max-doc', '3', path('left.oixk'), path('right.oixk'))
    expect([small.code, small.stderr.split('\n')[0]]).toEqual([1, `oixk merge: ${path('fits.json')} with --max-doc 3: ${path('left.oixk')} document 3 maps to 3, outside [0, 3) (-1 deletes)`])
    // OUT naming the map replaced it with the columns file.
    const over = await run('merge', '-o', path('fits.json'), '--doc-map', path('fits.json'), path('left.oixk'), path('right.oixk'))
    expect([over.code, over.stderr.split('\n')[0]]).toEqual([2, `oixk merge: OUT ${path('fits.json')} is the --doc-map file; give the columns file a path of its own`])
    expect(JSON.parse(await readFile(path('fits.json'), 'utf8'))).toEqual([[0, 1, 2, 3], [4, 5, 6]])
  })

  it('names the files whose fields clash, not the doc map or --max-doc', async () => {
    await writeFile(path('clash-schema.json'), JSON.stringify({ fields: [{ name: 'id', type: 'keyword', column: true }] }))
    const documents = await writeInputs('clash.ndjson', ['{"id":"seven"}'])
    expect((await run('build', '--schema', path('clash-schema.json'), '--docs', documents, '-o', path('clash.oixk'))).code).toBe(0)
    await writeFile(path('clash-map.json'), JSON.stringify([[0, 1, 2, 3], [4]]))
    const mapped = await run('merge', '-o', path('clash-merge.oixk'), '--doc-map', path('clash-map.json'), path('left.oixk'), path('clash.oixk'))
    const flagged = await run('merge', '-o', path('clash-merge.oixk'), '--max-doc', '9', path('left.oixk'), path('clash.oixk'))
    for (const result of [mapped, flagged]) {
      expect([result.code, result.stderr.split('\n')[0]]).toEqual([1, `oixk merge: field "id" is integral in ${path('left.oixk')} but keyword in ${path('clash.oixk')}`])
    }
    expect(await exists('clash-merge.oixk')).toBe(false)
  })
})

describe('inspect', () => {
  it('shows block kind and width histograms', async () => {
    // Block 0: 1,024 times 5 → constant. Block 1: 1024..2047 → packed, base 1024, width bits(1023) = 10.
    const lines = Array.from({ length: 2048 }, (_, document) => `{"id":${document < 1024 ? 5 : document}}`)
    await build('blocks', lines)
    const result = await run('inspect', path('blocks.oixk'))
    expect(result.code).toBe(0)
    expect(result.stderr).toBe('')
    const size = (await readFile(path('blocks.oixk'))).length
    expect(result.stdout).toMatch(new RegExp(`^size +${size} bytes$`, 'm'))
    expect(result.stdout).toMatch(/^maxDoc +2048$/m)
    expect(result.stdout).toMatch(/^checksum +ok \(XXH64 [0-9a-f]{16}\)$/m)
    expect(result.stdout).toMatch(/^column "id"$/m)
    expect(result.stdout).toMatch(/^ {2}min +5$/m)
    expect(result.stdout).toMatch(/^ {2}max +2047$/m)
    expect(result.stdout).toMatch(/^ {2}values +2048 values in 2 blocks, \d+ bytes$/m)
    expect(result.stdout).toMatch(/^ {4}block kinds +constant 1 \(50\.0% of values\), packed 1 \(50\.0%\), table 0 \(0\.0%\)$/m)
    expect(result.stdout).toMatch(/^ {4}block widths +0 bits: 1 block, 10 bits: 1 block$/m)
  })

  it('shows natural min/max and a table block', async () => {
    // {0, 6, 600} repeated: table with k = 3 entries, index width bits(2) = 2 (docs/format.md §6.2).
    const lines = Array.from({ length: 1024 }, (_, document) => `{"id":${[0, 6, 600][document % 3]},"when":${document === 0 ? '"2020-01-01T00:00:00Z"' : 0}}`)
    await build('table', lines)
    const result = await run('inspect', path('table.oixk'))
    expect(result.stdout).toMatch(/^ {4}block kinds +constant 0 \(0\.0% of values\), packed 0 \(0\.0%\), table 1 \(100\.0%\)$/m)
    expect(result.stdout).toMatch(/^ {4}block widths +2 bits: 1 block$/m)
    expect(result.stdout).toMatch(/^ {2}max +2020-01-01T00:00:00\.000Z$/m)
    const all = (await run('inspect', path('all.oixk'))).stdout
    expect(all).toMatch(/^ {2}max +NaN \(IEEE bits 7ff8000000000001\)$/m)
    expect(all).toMatch(/^ {2}min term +"a"$/m)
    expect(all).toMatch(/^ {2}min latitude +-90$/m)
  })

  it('shows a format 1 dictionary\'s bytes, and a format 2 blocks sequence\'s block count', async () => {
    // Terms "alpha" and "beta": 9 term bytes; v1's form is 8 header bytes, 3 offsets of 4 bytes and the terms.
    await build('tags', ['{"tag":["beta","alpha"]}', '{"tag":["alpha"]}'])
    expect((await run('inspect', path('tags.oixk'))).stdout).toMatch(/^ {2}dictionary +2 terms, 9 term bytes, 29 bytes$/m)
    const lines = Array.from({ length: 2500 }, (_, document) => `{"id":${(document * 7919) % 100003}}`)
    await build('blocks2', lines, '--format', '2')
    expect((await run('inspect', path('blocks2.oixk'))).stdout).toMatch(/^ {2}values +blocks: 2500 values in 3 blocks, \d+ bytes$/m)
  })

  it('shows a bool column\'s least and greatest values as false and true', async () => {
    await build('flags', ['{"flag":true}', '{"flag":false}', '{"flag":true}'])
    const result = await run('inspect', path('flags.oixk'))
    expect(result.stdout).toMatch(/^column "flag"\n {2}type +bool\n(?: {2}.*\n)*? {2}min +false\n {2}max +true$/m)
    await build('trues', ['{"flag":true}', '{"flag":true}'])
    expect((await run('inspect', path('trues.oixk'))).stdout).toMatch(/^ {2}min +true\n {2}max +true$/m)
  })
})
