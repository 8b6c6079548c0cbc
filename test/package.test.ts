// The published package as a user gets it. A copy of the package (dist/ compiled
// by tsc into a temporary directory, the browser bundles, docs, README, the
// bundled loader) is packed by `npm pack` with the real prepack/postpack, and the
// tarball is installed offline into a new project, whose strict Node-only
// tsconfig (no lib "dom", skipLibCheck false) then compiles every published .d.ts.
// npm ci builds dist/ through `prepare`; the copy keeps this test off the
// clone's dist/ and package.json, which other work may be using meanwhile.
import { execFile } from 'node:child_process'
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleDirectory, ROOT } from './browser/bundles.js'

const run = promisify(execFile)
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc')
/** The unpacked size the package must stay within. */
const MAX_UNPACKED_BYTES = 3_000_000
/** Lifecycle scripts npm may run or warn about when a package is installed. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare']

// npm's own variables (set when this runs under `npm test`) must not steer the nested npm runs.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)))
const npm = (args: string[], cwd: string) => run('npm', ['--no-update-notifier', ...args], { cwd, env, maxBuffer: 64 << 20 })

interface PackResult { unpackedSize: number; files: { path: string; size: number }[]; bundled: string[] }

let work = ''
let packed: PackResult
let extracted = ''
let consumer = ''
let installOutput = { stdout: '', stderr: '' }
const manifestText = readFileSync(join(ROOT, 'package.json'), 'utf8')

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'oixk-package-'))
  const copy = join(work, 'oixk')
  // --noCheck: the same output as a checked build (npm run typecheck checks the sources), in half the time.
  await run(process.execPath, [TSC, '-p', 'tsconfig.build.json', '--outDir', join(copy, 'dist'), '--noCheck'], { cwd: ROOT })
  chmodSync(join(copy, 'dist/cli/main.js'), 0o755)
  cpSync(await bundleDirectory(), join(copy, 'dist/browser'), { recursive: true })
  for (const path of ['README.md', 'docs', 'scripts/pack-manifest.js', 'node_modules/@assemblyscript/loader']) {
    cpSync(join(ROOT, path), join(copy, path), { recursive: true })
  }
  // dist/ is built above: the copy's prepack keeps its strip step and skips the build.
  const manifest = JSON.parse(manifestText) as { scripts: Record<string, string> }
  manifest.scripts.build = 'node -e ""'
  writeFileSync(join(copy, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)

  const { stdout } = await npm(['pack', '--json', '--pack-destination', work], copy)
  // The scripts' own output comes first on stdout; the JSON array is last.
  packed = (JSON.parse(stdout.slice(stdout.lastIndexOf('\n[\n') + 1)) as PackResult[])[0]
  expect(readFileSync(join(copy, 'package.json'), 'utf8'), 'postpack restores package.json').toBe(`${JSON.stringify(manifest, null, 2)}\n`)
  const tarball = join(work, 'oixk-0.1.0.tgz')
  extracted = join(work, 'extracted')
  mkdirSync(extracted)
  await run('tar', ['-xzf', tarball, '-C', extracted])

  consumer = join(work, 'consumer')
  mkdirSync(consumer)
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }))
  // An empty user config: only what the tarball asks for can warn.
  writeFileSync(join(work, 'npmrc'), '')
  installOutput = await npm(['install', '--offline', '--no-audit', '--no-fund', '--userconfig', join(work, 'npmrc'), tarball], consumer)
}, 300_000)

afterAll(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true })
})

/** Every file under `directory`, relative to it. */
function filesUnder(directory: string): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)))
}

describe('the packed package', () => {
  it(`is at most ${MAX_UNPACKED_BYTES} bytes unpacked`, () => {
    console.log(`oixk tarball: ${packed.unpackedSize} bytes unpacked, ${packed.files.length} files`)
    expect(packed.unpackedSize).toBeLessThanOrEqual(MAX_UNPACKED_BYTES)
    expect(packed.bundled).toEqual(['@assemblyscript/loader'])
  })

  it('holds each build of the kernels once: no generated source, no literal-typed blob in a .d.ts', () => {
    const root = join(extracted, 'package')
    const files = filesUnder(root)
    expect(files.filter((file) => file.endsWith('module-bytes.ts'))).toEqual([])
    for (const [source, name] of [['module-bytes', 'WASM_BASE64'], ['shared-module-bytes', 'SHARED_WASM_DEFLATED']]) {
      // A stretch of the build's base64 text, past the header all builds share.
      const text = /'([A-Za-z0-9+/=]+)'/.exec(readFileSync(join(ROOT, `src/backend/wasm/${source}.ts`), 'utf8'))![1]
      // Past the middle, the first stretch the other build does not hold (static data is the same in both).
      const other = /'([A-Za-z0-9+/=]+)'/.exec(readFileSync(join(ROOT, `src/backend/wasm/${source === 'module-bytes' ? 'shared-module-bytes' : 'module-bytes'}.ts`), 'utf8'))![1]
      let from = text.length >> 1
      while (other.includes(text.slice(from, from + 200))) from += 200
      const probe = text.slice(from, from + 200)
      const holders = files.filter((file) => readFileSync(join(root, file), 'latin1').includes(probe))
      expect(holders, name).toEqual([`dist/backend/wasm/${source}.js`])
      expect(readFileSync(join(root, `dist/backend/wasm/${source}.d.ts`), 'utf8')).toContain(`export declare const ${name}: string;`)
    }
    const longLiteral = /(["'`])[A-Za-z0-9+/=]{1000,}\1/
    const declarations = files.filter((file) => file.endsWith('.d.ts'))
    expect(declarations.length).toBeGreaterThan(20)
    expect(declarations.filter((file) => longLiteral.test(readFileSync(join(root, file), 'utf8')))).toEqual([])
  })

  it('declares no install script, and installs from the tarball offline without a warning', async () => {
    const manifest = JSON.parse(readFileSync(join(extracted, 'package/package.json'), 'utf8')) as { scripts?: Record<string, string> }
    expect(INSTALL_SCRIPTS.filter((name) => manifest.scripts?.[name] !== undefined)).toEqual([])
    expect(installOutput.stderr).not.toMatch(/npm warn/i)
    // The installed package runs: the WebAssembly backend through the bundled loader, and the CLI.
    const script = [
      "import { flushColumns, openColumns } from 'oixk'",
      "import { openColumnsFile } from 'oixk/node'",
      "const bytes = flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, [{ n: 1 }, { n: 5 }])",
      "console.log(openColumns(bytes, { backend: 'wasm' }).getColumn('n').getInt64(1), typeof openColumnsFile)",
      // Embedding tools run commands in-process (docs/cli.md): the same runCli the bin runs.
      "import { runCli } from 'oixk/cli'",
      "let out = ''",
      "const code = await runCli(['help', 'verify'], { stdout: { write: (text) => { out += text } }, stderr: process.stderr })",
      "console.log(code, out.split('\\n')[0])",
    ].join('\n')
    expect((await run(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer })).stdout).toBe('5 function\n0 Usage: oixk verify FILE... [--backend ts|wasm|auto]\n')
    expect((await run(join(consumer, 'node_modules/.bin/oixk'), ['--help'], { cwd: consumer })).stdout).toMatch(/^Usage: oixk/)
  })

  it('has declarations that compile in a strict Node-only project (moduleResolution node16 and bundler)', async () => {
    writeFileSync(join(consumer, 'index.ts'), [
      "import * as main from 'oixk'",
      "import * as reader from 'oixk/reader'",
      "import * as writer from 'oixk/writer'",
      "import * as node from 'oixk/node'",
      "import * as cli from 'oixk/cli'",
      'export const entries = [main, reader, writer, node, cli]',
      "export const bytes: Uint8Array | null = writer.flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, [{ n: 1n }])",
      // Members marked @internal (markClosed would close a column of an open reader) are not published.
      'declare const column: main.Column',
      '// @ts-expect-error: markClosed is @internal',
      'column.markClosed()',
      '// @ts-expect-error: docSetOwner is @internal',
      'export const owner = column.docSetOwner',
      '',
    ].join('\n'))
    const configs = [['node16', 'node16'], ['bundler', 'esnext']].map(([resolution, module]) => {
      const path = join(consumer, `tsconfig.${resolution}.json`)
      writeFileSync(path, JSON.stringify({
        compilerOptions: {
          target: 'ES2022', module, moduleResolution: resolution, lib: ['ES2023'], types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')], strict: true, skipLibCheck: false, noEmit: true,
        },
        // Every published declaration, not only those the entries reach.
        files: ['index.ts'], include: ['node_modules/oixk/dist/**/*.d.ts'],
      }))
      return path
    })
    const results = await Promise.all(configs.map((path) => run(process.execPath, [TSC, '-p', path], { cwd: consumer }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    )))
    expect(results).toEqual(['', ''])
  })
})
