/**
 * The CLI's usage contract (docs/cli.md): help on stdout with exit 0, the
 * version, and usage errors with their exact message, usage on stderr and exit 2.
 */
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { parseDocumentCount, parseLimit } from '../src/cli/args.js'
import { run } from './helpers/run-cli.js'

describe('usage', () => {
  it('prints help on stdout with exit 0 when asked', async () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['help', 'dump'], ['dump', '--help']]) {
      const result = await run(...argv)
      expect(result.code, argv.join(' ')).toBe(0)
      expect(result.stderr).toBe('')
      expect(result.stdout).toContain('Usage: oixk ')
    }
    expect((await run('help', 'dump')).stdout).toContain('Usage: oixk dump FILE')
    // The overview lists every command's flags, format 2's included (it left --format out).
    const overview = (await run('--help')).stdout
    expect(overview).toContain('  build    --schema SCHEMA.json --docs DOCS.ndjson [--max-doc N] [--max-errors N] [--format 1|2] -o OUT\n')
    expect(overview).toContain('  merge    -o OUT [--doc-map MAP.json] [--max-doc N] [--format 1|2] IN...\n')
  })

  it('prints usage on stderr and exits 2 for no command, unknown commands and flags', async () => {
    for (const argv of [[], ['help', 'frobnicate'], ['frobnicate'], ['--frobnicate'], ['dump', '--frobnicate', 'x']]) {
      const result = await run(...argv)
      expect(result.code, argv.join(' ')).toBe(2)
      expect(result.stdout).toBe('')
      expect(result.stderr).toContain('Usage: oixk ')
    }
    const missingFlag = await run('build', '--docs', 'x.ndjson', '-o', 'x.oixk')
    expect(missingFlag.code).toBe(2)
    expect(missingFlag.stderr).toContain('missing required flag --schema')
  })

  it('usage errors: the exact message, usage on stderr, exit 2', async () => {
    const cases: [string[], string][] = [
      [['dump', 'f.oixk', '--backend', 'ts', '--backend', 'wasm'], 'flag --backend is given more than once'],
      [['dump', 'f.oixk', '--backend'], 'flag --backend needs a value'],
      [['dump', 'f.oixk', '--backend', '--x'], 'flag --backend needs a value'],
      [['dump', 'f.oixk', '--backend='], 'flag --backend needs a non-empty value'],
      [['dump', 'f.oixk', '--backend=--ts'], '--backend must be ts, wasm or auto, got "--ts"'],
      [['build', '--schema', 's', '--docs', 'd', '--max-doc', '1e3', '-o', 'o'], '--max-doc must be a non-negative integer, got "1e3"'],
      [['build', '--schema', 's', '--docs', 'd', '--max-doc', '-1', '-o', 'o'], '--max-doc must be a non-negative integer, got "-1"'],
      [['build', '--schema', 's', '--docs', 'd', '--max-doc', '4294967296', '-o=o'], '--max-doc 4294967296 exceeds the format\'s limit of 4294967295 documents'],
      [['build', '--schema', 's', '--docs', 'd', '--max-errors', '0', '-o', 'o'], '--max-errors must be a positive integer, got "0"'],
      [['build', '--schema', 's', '--docs', 'd', '--max-errors=00', '-o', 'o'], '--max-errors must be a positive integer, got "00"'],
      [['build', '--schema', 's', '--docs', 'd', '--max-errors=-2', '-o', 'o'], '--max-errors must be a positive integer, got "-2"'],
      [['build', '--schema', 's', '--docs', 'd', '--max-errors', '1.5', '-o', 'o'], '--max-errors must be a positive integer, got "1.5"'],
      [['build', '--schema', 's', '--docs', 'd', '--max-errors', 'all', '-o', 'o'], '--max-errors must be a positive integer, got "all"'],
      [['build', '--schema', 's', '--docs', 'd', '--max-errors', '4294967296', '-o', 'o'], '--max-errors 4294967296 exceeds 4294967295, the format\'s limit of documents'],
      [['build', '--schema', 's', '--docs', 'd', '-o', 'o', '--max-errors'], 'flag --max-errors needs a value'],
      [['dump', 'a.oixk', 'b.oixk'], 'unexpected argument "b.oixk"'],
      [['dump', '-', '--', '--backend'], 'unexpected argument "--backend"'], // "-" is a FILE; "--" ends the flags
      [['dump'], 'missing the columns FILE to dump'],
      [['merge', '-o', 'out.oixk'], 'missing the input columns files (IN...)'],
      [['inspect', '-x', 'f'], 'unknown flag -x'],
      [['build', '--help=1'], 'flag --help takes no value'],
      [['inspect', '-h=yes', 'f'], 'flag -h takes no value'],
      // Without '=', a help-like flag of the wrong length is an unknown flag.
      [['dump', '-help', 'x.oixk'], 'unknown flag -help'],
      [['dump', '--h', 'x.oixk'], 'unknown flag --h'],
      [['inspect', 'a.oixk', 'b.oixk'], 'unexpected argument "b.oixk"'],
      [['build', '--schema', 's', '--docs', 'd', '-o', 'o', 'extra'], 'unexpected argument "extra"'],
      [['inspect'], 'missing the columns FILE to inspect'],
    ]
    for (const [argv, message] of cases) {
      const result = await run(...argv)
      expect([result.code, result.stdout, result.stderr.split('\n')[0]], argv.join(' ')).toEqual([2, '', `oixk ${argv[0]}: ${message}`])
      expect(result.stderr).toContain(`Usage: oixk ${argv[0]}`)
    }
  })

  it('--max-doc takes every count up to the format\'s limit, 2^32 - 1', () => {
    expect(parseDocumentCount('4294967295', 'max-doc')).toBe(2 ** 32 - 1)
    expect(parseDocumentCount('0', 'max-doc')).toBe(0)
  })

  it('--max-errors takes every positive count up to 2^32 - 1', () => {
    expect(parseLimit('4294967295', 'max-errors')).toBe(2 ** 32 - 1)
    expect(parseLimit('1', 'max-errors')).toBe(1)
    expect(parseLimit('007', 'max-errors')).toBe(7)
  })

  it('prints the package version', async () => {
    const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'))
    expect(await run('--version')).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: '' })
    // An argument after it was ignored, with exit 0, where docs/cli.md makes it a usage error.
    const extra = await run('--version', 'extra')
    expect([extra.code, extra.stdout, extra.stderr.split('\n')[0]]).toEqual([2, '', 'oixk: unexpected argument "extra" after --version'])
  })

  it('refuses an argument after help COMMAND, as after any command', async () => {
    const extra = await run('help', 'build', 'extra')
    expect([extra.code, extra.stdout, extra.stderr.split('\n')[0]]).toEqual([2, '', 'oixk: unexpected argument "extra" after help build'])
    expect((await run('help', 'build')).code).toBe(0)
  })

  it('takes help as a topic of help: the overview', async () => {
    const overview = await run('help')
    expect(await run('help', 'help')).toEqual({ code: 0, stdout: overview.stdout, stderr: '' })
  })
})
