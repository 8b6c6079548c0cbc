/**
 * FSST parses of pieces longer than the writer's first scratch arrays (256 costs): the parse keeps
 * a cost per position plus one past the end, so a piece of 256 or more bytes makes its scratch grow
 * (an off-by-one there reads and writes past the array, which JavaScript ignores silently).
 * Terms of those lengths must come out as the document's writer makes them (the spec model) and
 * read back. The first test of the file runs on fresh module state, where the scratch is 256 long.
 */
import { describe, expect, it } from 'vitest'
import { flushColumns } from '../src/index.js'
import { openColumns } from '../src/read/open.js'
import { writeColumnsFile } from './helpers/spec-model/file.js'

/** Terms that FSST compresses well and front coding does not: a distinct first letter, then a repeated phrase. */
function longTerms(length: number): string[] {
  return Array.from({ length: 20 }, (_, t) => (String.fromCharCode(65 + t) + 'the quick brown fox '.repeat(20)).slice(0, length))
}

/** Writes the terms, compares the file with the spec model's, reads and verifies it on both backends; returns its dictionary form. */
async function expectWrittenAndRead(terms: string[]): Promise<string | undefined> {
  const docs = terms.map((k) => ({ k }))
  const bytes = flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, docs, { maxDoc: docs.length, format: 2 })!
  const model = await writeColumnsFile([{ name: 'k', type: 'keyword' }], docs)
  expect(Buffer.from(bytes).equals(Buffer.from(model!)), 'writer and spec model differ').toBe(true)
  let form: string | undefined
  for (const backend of ['ts', 'wasm'] as const) {
    using reader = openColumns(bytes, { backend })
    const column = reader.column('k')
    expect(terms.map((_, d) => column.getKeywordString(d))).toEqual(terms)
    reader.verify()
    form = column.dictionary?.encoding?.formName
  }
  return form
}

describe('FSST pieces past the first scratch size', () => {
  it('terms of 256 bytes (the first parse that needs 257 costs), in FSST form', async () => {
    expect(await expectWrittenAndRead(longTerms(256))).toBe('fsst')
  })

  it.each([255, 257, 258, 511, 512, 513, 1025])('terms of %i bytes', async (length) => {
    await expectWrittenAndRead(longTerms(length))
  })
})

describe('FSST training on pieces longer than the sample', () => {
  it('trains on the first 32,768 bytes of each sampled piece (docs/format-v2.md §10.5), as the spec model does', async () => {
    // Three terms of about 92 KB: the sample is the first, and its text changes after 32,768 bytes.
    // Trained on all of it (as before the bound), the table differs, and so do the file's bytes.
    const first = 'the quick brown fox jumps over the lazy dog '.repeat(745).slice(0, 32_768)
    const rest = 'the lazy dog jumps over the quick brown fox '.repeat(1364)
    const terms = ['A', 'B', 'C'].map((letter) => letter + first + rest)
    expect(await expectWrittenAndRead(terms)).toMatch(/fsst/)
  })
})

describe('a long term\'s FSST parse keeps no memory after it', () => {
  it('a format 2 flush of an 8 MB term leaves no scratch of its size behind', () => {
    // Text FSST compresses: words of a small vocabulary, no two neighbours alike.
    const words = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa']
    const long = Array.from({ length: 1_400_000 }, (_, index) => words[(index * 5) % 7]).join(' ').slice(0, 8 << 20)
    const documents = [{ k: long }, ...Array.from({ length: 300 }, (_, index) => ({ k: `${words[index % 7]} ${index}` }))]
    gc!()
    const before = process.memoryUsage().arrayBuffers
    const bytes = flushColumns({ fields: [{ name: 'k', type: 'keyword', column: true }] }, documents, { format: 2 })!
    gc!()
    // Freed array memory is swept on another thread: a wait lets it finish before counting (a loaded
    // machine once counted 29 MB still unswept after 50 ms).
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300)
    gc!()
    // The parse's cost and choice arrays, kept for the process, counted 128 MB more than the file.
    expect(process.memoryUsage().arrayBuffers - before - bytes.length).toBeLessThan(48 << 20)
    expect(openColumns(bytes).column('k').getKeywordString(0)).toBe(long)
  }, 60_000)
})
