/**
 * What the CLI prints when its output fails or its names are odd: stdout that cannot be written
 * (a full disk, a closed pipe) exits 2, never 0 nor a stack trace; every verdict and message stays
 * one inert line; merge names files, not field names that look like "source 1".
 */
import { spawn, spawnSync } from 'node:child_process'
import { openSync, closeSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { flushColumns } from '../src/write/columns-writer.js'
import { run } from './helpers/run-cli.js'
import { tempDirectory } from './helpers/temp-directory.js'

const { path } = tempDirectory('oixk-cli-output-')
const BIN = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url))
const TSX = ['--import', 'tsx']

beforeAll(async () => {
  await writeFile(path('n.oixk'), flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, [{ n: 1 }, { n: 2 }])!)
  await writeFile(path('source 1.oixk'), flushColumns({ fields: [{ name: 'source 1', type: 'keyword', column: true }] }, [{ 'source 1': 'a' }])!)
  await writeFile(path('source 0.oixk'), flushColumns({ fields: [{ name: 'source 1', type: 'integral', column: true }] }, [{ 'source 1': 5 }])!)
})

describe('stdout that cannot be written', () => {
  it.runIf(process.platform === 'linux')('a full device: exit 2 and one line naming the cause, no stack trace', () => {
    const full = openSync('/dev/full', 'w')
    try {
      const result = spawnSync(process.execPath, [...TSX, BIN, 'dump', path('n.oixk')], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' })
      expect([result.status, result.stderr]).toEqual([2, 'oixk: cannot write to stdout: no space left on device\n'])
    } finally {
      closeSync(full)
    }
  })

  it('a pipe closed before verify printed every verdict: exit 2, not a success', async () => {
    const files = Array.from({ length: 4000 }, () => path('n.oixk'))
    const child = spawn(process.execPath, [...TSX, BIN, 'verify', ...files], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk })
    // The reader takes the first verdict and goes (as `| head -1` does).
    child.stdout.once('data', () => child.stdout.destroy())
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect([code, stderr]).toEqual([2, ''])
  }, 60_000)
})

describe('lines stay lines', () => {
  it('verify escapes control characters, a line feed among them, in its verdicts', async () => {
    const odd = path('a\nb\u001b[2J.oixk')
    await writeFile(odd, flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, [{ n: 1 }])!)
    const result = await run('verify', odd)
    expect(result).toEqual({ code: 0, stdout: `${path('a\\u000ab\\u001b[2J.oixk')}: ok\n`, stderr: '' })
  })

  it('errors are one line whatever the names in them', async () => {
    const schema = path('schema.json'), docs = path('docs.ndjson')
    await writeFile(schema, JSON.stringify({ fields: [{ name: 'n', type: 'integral', column: true }] }))
    await writeFile(docs, '{"x\\ny":1}\n')
    const result = await run('build', '--schema', schema, '--docs', docs, '-o', path('out.oixk'))
    expect(result).toEqual({ code: 1, stdout: '', stderr: `oixk build: ${docs}:1: document 0: unknown field "x\\u000ay" (not in the schema)\n` })
  })
})

describe('merge', () => {
  it('names the files of a clash of types when the field itself is called "source 1"', async () => {
    const result = await run('merge', '-o', path('merged.oixk'), path('source 0.oixk'), path('source 1.oixk'))
    expect(result).toEqual({ code: 1, stdout: '', stderr: `oixk merge: field "source 1" is integral in ${path('source 0.oixk')} but keyword in ${path('source 1.oixk')}\n` })
  })

  it('reads flags before inputs: a forgotten value is named as the flag\'s, not as a missing input', async () => {
    const result = await run('merge', '-o', path('merged.oixk'), '--format', path('n.oixk'))
    expect([result.code, result.stderr.split('\n')[0]]).toEqual([2, `oixk merge: --format must be 1 or 2, got ${JSON.stringify(path('n.oixk'))}`])
    const verify = await run('verify', '--backend', path('n.oixk'))
    expect([verify.code, verify.stderr.split('\n')[0]]).toEqual([2, `oixk verify: --backend must be ts, wasm or auto, got ${JSON.stringify(path('n.oixk'))}`])
  })

  it('says how many doc maps it got', async () => {
    const map = path('map.json')
    await writeFile(map, '[[0, 1], [2, 3], []]')
    const result = await run('merge', '--doc-map', map, '-o', path('merged.oixk'), path('n.oixk'))
    expect(result).toEqual({ code: 1, stdout: '', stderr: `oixk merge: ${map}: expected a JSON array of 1 doc map(s), one per input in order; got 3\n` })
  })
})
