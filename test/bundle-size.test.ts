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
import { BUNDLE_NAMES, bundleDirectory, bundleFiles, LAZY_CHUNK_FILES, ROOT } from './browser/bundles.js'

/**
 * The reader's target (the format 2 issues), and the ceiling the test holds while the target is
 * missed: format 2's decoders (cascades, keyword dictionaries), its answers from the encodings and
 * the multi-valued kernels are in the bundle (sizes: docs/performance.md). Raised by 1 KB each
 * for the vector raw-value query loops, int32 narrowing and single-pass block decodes that made
 * format 2's answers and TypeScript decodes faster (bench/results/v2-queries.md), then by 2 KB
 * (reader and reader without WebAssembly) for the answers from frequent blocks, patched code blocks
 * and the decode-and-count facet kernel, and single reads returned as numbers; then by 1 KB (reader
 * without WebAssembly) for the multi-valued walks by document (filters by counts of set bits, a
 * DocSet's values by toggles, facets over few selected documents, first values kept per column);
 * then by 1 KB each (reader, fallback chunks, reader without WebAssembly) for format 2's TypeScript
 * paths: patches moved in int32, integer aggregates from dictionary code counts, codes looked up
 * in a table of matching entries, fields read from a kept word (bench/results/v2-queries.md); then
 * by 1 KB (reader, reader without WebAssembly) for the WebAssembly kernels that take whole patched
 * code blocks as u32 (facets by pairs, range filters by a byte per entry; the patch-moving kernel
 * they replaced is gone); then by 1 KB (reader, reader without WebAssembly) for histograms over
 * run blocks in one kernel, multi-valued filters by a rank table and a dictionary's several term
 * ranges in one pass (bench/results/v2-queries.md, bench/results/multi-valued.md); then by 2 KB
 * (reader, reader without WebAssembly; 1.4 KB used) for range filters over run blocks a run at a
 * time, topK over format 2 bounded per block and through a dictionary's entries, topK over multi
 * columns from their values, and multi facets over many selected documents counted by marks
 * (docs/query.md, bench/results/multi-valued.md); then by 1 KB (reader without WebAssembly only)
 * for term filters over patched code blocks matched on their packed low fields and multi filters
 * reading a rank per value position (docs/query.md, docs/performance.md); then by 1 KB (reader,
 * reader without WebAssembly) for sequence dictionaries' codes decoded once as ranks for queries,
 * which brought format 2's questions to format 1's times (docs/query.md, bench/results/v2-queries.md);
 * then by 1.5 KB (both) for copies that hold the values, exact block bounds for topK and run
 * blocks' histograms and range filters (docs/query.md, docs/performance.md); then by 0.5 KB
 * (both) for multi-valued filters and selections through the starts and nonempty bitsets, with
 * no offsets walk (docs/query.md, bench/results/multi-valued.md); then by 0.5 KB (reader, fallback
 * chunks) and 1 KB (reader without WebAssembly) for multi offsets read from their block records
 * where those show empty stretches or lines of k values each (query-offsets.ts, docs/query.md);
 * then by 0.5 KB (reader, reader without WebAssembly) for facets that pack a partly selected
 * word's fields with a swizzle before counting them (assembly/query-count.ts, docs/query.md);
 * then by 2 KB (reader, reader without WebAssembly; 1.75 KB used) for the first multi facet's
 * marks compared with the 3 values before (assembly/query-first-values.ts) and a dictionary's
 * narrow patched codes decoded as bytes (assembly/cascade/blocks/patched-bytes.ts), which brought
 * the first multi facet over 3M documents within a frame (bench/results/multi-valued.md), and
 * counts over decoded views bounded by each block's largest field (the demo's delay histogram
 * under a filter: docs/browser.md);
 * then by 0.5 KB (fallback chunks, reader without WebAssembly) for
 * TypeScript sequence dictionaries that map patched codes as they read them, single reads of v2
 * sequences as numbers, and multi facets that keep a list of repeats beside the bits (docs/performance.md);
 * then by 1 KB (reader, reader without WebAssembly; 0.65 and 0.85 KB used) for the membership
 * kernels of term filters of several ordinal runs (assembly/query-ordinals.ts and its TypeScript
 * mirror), where a loop over decoded ordinals ran (docs/query.md); then by 0.5 KB (reader without
 * WebAssembly; 78 bytes of it used) for TypeScript aggregates and range filters that read 16-bit
 * fields as u16s (format 2's decoded codes of up to 65,536 entries); then by 0.5 KB (fallback
 * chunks; 14 bytes of it used) for the TypeScript range kernel's byte fields and u16 views held per
 * buffer in a WeakMap, so that a closed reader's buffer is not kept by a module's view (times
 * before and after: docs/performance.md); then by 0.5 KB (reader, reader without WebAssembly) for
 * multi filters whose few matching values set their documents' bits one at a time, in both
 * languages (bench/results/multi-valued.md); then by 0.5 KB (reader) for arguments of the wrong
 * kind named as they came, where a call answered silently (a geo part 'lat', a number as a term,
 * options.maxDoc '4') or threw a bare property error (test/api-traps.test.ts, test/open-url.test.ts);
 * then by 0.5 KB (reader without WebAssembly; 91 bytes of it used) for TypeScript single reads of
 * format 2 blocks straight from their records, with no block view between (docs/performance.md);
 * then by 1.5 KB (reader, reader without WebAssembly) for integer aggregates over run blocks a run
 * at a time (assembly/cascade/query-runs-aggregate.ts and its TypeScript walk), histograms over a
 * dictionary's decoded copy with each block's edges narrowed to its own fields, and frequent blocks
 * whose many exceptions are decoded or stepped inline, where format 2 was up to 16× slower than
 * format 1 on the same question (docs/performance.md, "Format 2 against format 1, every column");
 * then by 0.5 KB (both) for range filters, counts, histograms and aggregates over runs sequences a
 * run at a time (src/cascade/query-run-form.ts), which decoded every value before; then by 1 KB
 * (both) for range filters over decimals in their integers' space (src/cascade/query-decimal.ts)
 * and over blocks of every kind bounded by their records, which decoded every block before; then
 * the full check's chunk by 0.5 KB when `addOffset` moved to format/int64.ts: the block analysis it
 * lived in, which only the full check uses on the reader's side, left the shared chunk for that one
 * (the fallback's chunks and the reader without WebAssembly shrank by more); then by 1 KB (reader;
 * 0.9 KB used) for histograms that read whole blocks of byte and 16-bit fields in place and count
 * wide values by the edges inside their extremes, and decimal histograms in their integers' space
 * with blocks counted whole where their records put them in one bucket (docs/performance.md,
 * "Format 2 against format 1, every column"); then by 0.5 KB (reader without WebAssembly; 141 bytes
 * of it used) for TypeScript facets and histograms that count a dictionary block's indexes and
 * then its entries, where they decoded the block (docs/performance.md, same section); then by
 * 0.5 KB (reader, reader without WebAssembly) for aggregates over runs sequences in one loop with
 * their extremes kept in locals, and TypeScript decodes of 64-bit fields that start on a word
 * (every decoded chunk the TypeScript kernels read) copied as words, where a generic loop ran
 * (docs/performance.md, same section); then by 0.5 KB (reader without WebAssembly; 8 bytes of it
 * used) for TypeScript single reads of runs sequences through their runs kept as numbers, a
 * block's runs filled by its first read, where each probe of the search read a block (and keyword
 * ordinals of a sequence dictionary decoded whole; docs/performance.md, "Single reads"); then by
 * 1 KB (reader) and 1.5 KB (reader without WebAssembly) for topK over run blocks a run at a time
 * and over full heaps through the range kernel, and decoded views of bytes filtered, and counted
 * under sparse selections, in one pass over the whole range (WebAssembly kernels in
 * assembly/cascade/query-decoded-bytes.ts, and TypeScript loops), which made format 2's questions
 * that tied format 1 faster than it (docs/query.md, bench/results/v2-queries.md); then by 0.5 KB
 * (fallback chunks; 40 bytes of it used) for TypeScript term filters that compare four bytes a
 * word in format 1's byte blocks, where the data starts on a word or not (docs/query.md).
 */
const TARGET_BYTES = 30 * 1024
const BUDGET_BYTES = 65.5 * 1024
const FALLBACK_BUDGET_BYTES = 19.5 * 1024
const TOGETHER_BUDGET_BYTES = 84.5 * 1024
/** The full check re-encodes dictionaries, so its chunk holds the FSST trainer. */
const VERIFY_BUDGET_BYTES = 6.5 * 1024

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
