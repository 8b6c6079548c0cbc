// Size of the browser reader bundle: its main file (the JavaScript and the inlined
// WebAssembly kernels: everything a page with WebAssembly downloads), gzip at level 9.
// The target is 30 KB (the format 2 issue raised it from 25 KB for the v2 kernels); the
// bundle is over it today (the test prints by how much), so the test holds a ceiling
// that stops it from growing further while the target stays what it is. Its lazy chunks:
// the pure-TypeScript fallback (oixk-reader-ts.js, with oixk-reader-shared.js, the v2
// block modules it shares with the format 2 full check), imported only where
// WebAssembly cannot run or backend 'ts' is asked for; and oixk-reader-verify.js, the
// format 2 full check (loadFullCheck()). Each has a ceiling too.
// Also: no node: imports, no top-level await, no import but the reader's own chunks.
// And it prints what exporting createFileBuffer from oixk/reader would add (issue 23 §5:
// exported only if the budget allows).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import { BUNDLE_INPUTS, BUNDLE_NAMES, bundleDirectory, bundleFiles, LAZY_CHUNK_FILES, ROOT } from './browser/bundles.js'

/**
 * The reader's target (the format 2 issues), and the ceilings the test holds while it is missed:
 * each sits a little above the size measured when it was last raised, so the bundle cannot grow
 * unnoticed. Every raise, what paid for it and the sizes at each step: docs/performance.md,
 * "Reader bundle".
 */
const TARGET_BYTES = 30 * 1024
const BUDGET_BYTES = 71.5 * 1024
const FALLBACK_BUDGET_BYTES = 19.5 * 1024
const TOGETHER_BUDGET_BYTES = 91 * 1024
/** The full check re-encodes dictionaries, so its chunk holds the FSST trainer. */
const VERIFY_BUDGET_BYTES = 7 * 1024

let directory = ''
beforeAll(async () => {
  directory = await bundleDirectory()
}, 120_000)

const gzipped = (code: Buffer) => gzipSync(code, { level: 9 }).length
const read = (file: string) => readFileSync(join(directory, file))

/**
 * The reader bundle's main file as rollup.config.js would write it with `exports` added to
 * src/entry-reader.ts. The kernels are not compiled again: the last step (kernelsLast) is
 * replaced by a copy of the one `base` (the bundle as built) ends with.
 */
async function readerBundleWith(exports: string, base: string): Promise<string> {
  const { rollup } = await import('rollup')
  const config = (await import('../rollup.config.js' as string)) as {
    bundleOptions(name: string, outDir: string): Omit<import('rollup').RollupOptions, 'plugins'> & { output: import('rollup').OutputOptions; plugins: import('rollup').Plugin[] }
  }
  // kernelsLast: the placeholder string becomes a reference to a constant holding the kernels, appended to the file.
  const tail = /\nconst OIXK_KERNELS="[A-Za-z0-9+/=]+";\n$/.exec(base)
  if (tail === null) throw new Error('oixk-reader.js no longer ends with the kernels as kernelsLast (rollup.config.js) wrote them')
  const entry = 'oixk-reader-with-exports'
  const options = config.bundleOptions('oixk-reader', directory)
  options.input = { 'oixk-reader': entry }
  options.plugins = [
    {
      name: 'entry-with-exports',
      resolveId: (id) => (id === entry ? `\0${entry}` : null),
      load: (id) => (id === `\0${entry}` ? `export * from ${JSON.stringify(join(ROOT, 'src/entry-reader.ts'))}\n${exports.replaceAll('./', `${join(ROOT, 'src')}/`).replaceAll('.js', '.ts')}\n` : null),
    },
    ...options.plugins.filter((plugin) => plugin.name !== 'oixk-kernels-last'),
    {
      name: 'same-kernels',
      renderChunk: (code) => {
        const quoted = /(["'`])@@oixk-kernels@@\1/
        return quoted.test(code) ? { code: code.replace(quoted, 'OIXK_KERNELS') + tail[0], map: null } : null
      },
    },
  ]
  const bundle = await rollup(options)
  try {
    const { output } = await bundle.generate(options.output)
    const main = output.find((file) => file.fileName === 'oixk-reader.js')
    if (main === undefined || main.type !== 'chunk' || !main.code.endsWith(tail[0])) throw new Error('the variant has no oixk-reader.js with the kernels at its end')
    return main.code
  } finally {
    await bundle.close()
  }
}

describe('browser bundles', () => {
  it(`the reader bundle stays under its ceiling of ${BUDGET_BYTES / 1024} KB gzip (JavaScript and kernels); prints how far it is from the 30 KB target`, () => {
    const code = read('oixk-reader.js')
    const size = gzipped(code)
    const kernels = /"(H4sI[A-Za-z0-9+/=]+)"|'(H4sI[A-Za-z0-9+/=]+)'/.exec(code.toString('utf8'))
    const kernelText = kernels === null ? '' : (kernels[1] ?? kernels[2])
    console.log(
      `oixk-reader.js: ${code.length} bytes, ${size} bytes gzip (target ${TARGET_BYTES}: ${size <= TARGET_BYTES ? 'met' : `missed by ${size - TARGET_BYTES}`}; ceiling ${BUDGET_BYTES}); ` +
      `inlined kernels ${kernelText.length} base64 characters, ${gzipped(Buffer.from(kernelText))} bytes gzip alone`,
    )
    expect(kernelText.length).toBeGreaterThan(0)
    expect(size).toBeLessThanOrEqual(BUDGET_BYTES)
  })

  it(`its pure-TypeScript fallback (two chunks) is at most ${FALLBACK_BUDGET_BYTES / 1024} KB gzip, with the main file at most ${TOGETHER_BUDGET_BYTES / 1024} KB; the full check's chunk at most ${VERIFY_BUDGET_BYTES / 1024} KB`, () => {
    const main = gzipped(read('oixk-reader.js'))
    const fallback = read('oixk-reader-ts.js')
    const size = gzipped(fallback) + gzipped(read('oixk-reader-shared.js'))
    const verify = gzipped(read('oixk-reader-verify.js'))
    console.log(
      `oixk-reader-ts.js + oixk-reader-shared.js: ${size} bytes gzip (budget ${FALLBACK_BUDGET_BYTES}); ` +
      `reader without WebAssembly (the three files) ${main + size} bytes gzip (budget ${TOGETHER_BUDGET_BYTES}); ` +
      `oixk-reader-verify.js ${verify} bytes gzip (budget ${VERIFY_BUDGET_BYTES})`,
    )
    expect(verify).toBeLessThanOrEqual(VERIFY_BUDGET_BYTES)
    // The fallback really is the TypeScript backend: its decoder's and checksum's messages are there, not in the main file.
    expect(fallback.toString('utf8')).toContain('xxh64: range')
    expect(read('oixk-reader.js').toString('utf8')).not.toContain('xxh64: range')
    expect(size).toBeLessThanOrEqual(FALLBACK_BUDGET_BYTES)
    expect(main + size).toBeLessThanOrEqual(TOGETHER_BUDGET_BYTES)
  })

  it('prints what exporting createFileBuffer from oixk/reader would add (not exported while it does not fit)', async () => {
    const base = read('oixk-reader.js').toString('utf8')
    const withFileBuffer = await readerBundleWith("export { createFileBuffer } from './read/buffers.js'", base)
    const size = gzipped(Buffer.from(withFileBuffer)), extra = size - gzipped(Buffer.from(base))
    console.log(
      `createFileBuffer exported from oixk/reader would add ${extra} bytes gzip: ${size} bytes ` +
      `(target ${TARGET_BYTES}: ${size <= TARGET_BYTES ? `fits, ${TARGET_BYTES - size} to spare` : `${size - TARGET_BYTES} over`})`,
    )
    expect(withFileBuffer).toMatch(/\bas createFileBuffer\b/)
    expect(extra).toBeGreaterThan(0)
  }, 180_000)

  it('prints the writer and full bundles', () => {
    for (const name of ['oixk-writer', 'oixk']) {
      const code = read(`${name}.js`)
      console.log(`${name}.js: ${code.length} bytes, ${gzipped(code)} bytes gzip`)
      expect(code.length).toBeGreaterThan(1000)
    }
  })

  it('the lazy chunks are the ones rollup.config.js writes, and nothing else is written', async () => {
    const config = (await import('../rollup.config.js' as string)) as { LAZY_CHUNKS: Record<string, string[]> }
    expect(LAZY_CHUNK_FILES).toEqual(config.LAZY_CHUNKS)
    const written = readdirSync(directory).filter((file) => file.endsWith('.js')).sort()
    expect(written).toEqual(BUNDLE_NAMES.flatMap(bundleFiles).sort())
  })

  it('every file rollup.config.js builds the bundles from counts for their freshness', () => {
    // A stale bundle (npm pack, tests) follows an edit to any file it copies in that is not among the inputs.
    const copied = [...readFileSync(join(ROOT, 'rollup.config.js'), 'utf8').matchAll(/scripts\/[\w-]+\.as/g)].map((match) => match[0])
    expect(copied).toContain('scripts/bundle-terms-short.as')
    for (const file of copied) expect(BUNDLE_INPUTS).toContain(file)
  })

  it('no node: imports, no top-level await; the reader and its chunks import only each other', async () => {
    const { parseAst } = await import('rollup/parseAst')
    const allowed: Record<string, string[]> = {
      'oixk-reader.js': ['./oixk-reader-ts.js', './oixk-reader-verify.js'],
      'oixk-reader-ts.js': ['./oixk-reader.js', './oixk-reader-shared.js'],
      'oixk-reader-shared.js': ['./oixk-reader.js'],
      'oixk-reader-verify.js': ['./oixk-reader.js', './oixk-reader-shared.js'],
      'oixk-writer.js': [], 'oixk.js': [],
    }
    for (const file of BUNDLE_NAMES.flatMap(bundleFiles)) {
      const code = read(file).toString('utf8')
      expect(code).not.toContain('node:')
      const specifiers = [...code.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|\bimport\s*["']([^"']+)["']/g)]
        .map((match) => match[1] ?? match[2] ?? match[3])
      expect(new Set(specifiers), file).toEqual(new Set(allowed[file]))
      // A module with top-level await would make every importer wait: the bundles must evaluate synchronously.
      const program = parseAst(code) as unknown as { body: { type: string; expression?: { type: string }; declarations?: { init?: { type: string } }[] }[] }
      const topLevelAwait = program.body.some((statement) => statement.expression?.type === 'AwaitExpression' ||
        (statement.declarations ?? []).some((declaration) => declaration.init?.type === 'AwaitExpression'))
      expect(topLevelAwait).toBe(false)
    }
  })
})
