/**
 * OpenOptions.maxDecodedBytes: a format 2 file's keyword dictionaries decode to at most that many
 * term bytes together, checked before the dictionary that would cross it is decoded; a small file
 * that declares far more terms than it holds (digit strings stepping evenly) is refused by it.
 * openColumns on both backends, the Node file open and the worker pool.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { ResidentLimitError } from '../src/format/errors.js'
import { openColumnsFile } from '../src/node/files.js'
import { createQueryPool } from '../src/node/query-pool.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'

const MAX_DOC = 50_000
const schema = { fields: [
  { name: 'few', type: 'keyword', facet: true },
  { name: 'title', type: 'keyword', facet: true },
  { name: 'zip', type: 'keyword', facet: true },
] } as const
const documents = Array.from({ length: MAX_DOC }, (_, d) => ({
  few: `k${d % 3}`,
  title: `the ${['quick', 'brown', 'fox', 'lazy'][d % 4]} story number ${d % 5000}`,
  zip: String(d * 3).padStart(7, '0'),
}))
const bytes = flushColumns(schema, documents, { maxDoc: MAX_DOC, format: 2 })!
// Term bytes of each dictionary: "k0".."k2"; 5,000 distinct titles (5,000 is a multiple of 4, so
// d % 5000 fixes the word too: 1,250 titles of each word, 21 to 23 bytes a title besides the number,
// whose digits are 10 × 1 + 90 × 2 + 900 × 3 + 4,000 × 4); 50,000 zip codes of 7 digits.
const FEW = 6, TITLES = 1250 * (23 + 23 + 21 + 22) + (10 + 90 * 2 + 900 * 3 + 4000 * 4)
const ZIP = 7 * MAX_DOC
const backends = (['ts', 'wasm'] as const).filter((backend) => backend === 'ts' || wasmUnavailableReason() === null)

describe.each(backends)('maxDecodedBytes, backend %s', (backend) => {
  const open = (maxDecodedBytes?: number) => openColumns(bytes, { backend, fileName: 'tags.columns', maxDecodedBytes })

  it('the file holds the dictionaries this test counts, in forms that decode', () => {
    const reader = open()
    expect(reader.columns.map((column) => [column.name, column.dictionary!.encoding!.formName, column.dictionary!.totalBytes])).toEqual([
      ['few', 'plain', FEW], ['title', 'front-fsst', TITLES], ['zip', 'digits', ZIP],
    ])
    // The zip codes' dictionary is far smaller in the file than decoded: what the limit is for.
    const zip = reader.getColumn('zip')!.dictionary!.encoding!
    expect(zip.end - zip.start).toBeLessThan(ZIP / 50)
    reader.close()
  })

  it('opens at exactly the dictionaries\' total, and fails one byte below naming the field that crosses it', () => {
    const reader = open(FEW + TITLES + ZIP)
    expect(reader.getColumn('zip')!.term(49_999)).toBe('0149997')
    reader.close()
    let error: unknown
    try {
      open(FEW + TITLES + ZIP - 1)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ResidentLimitError)
    expect((error as Error).message).toBe(
      `tags.columns: the keyword dictionaries through field "zip" decode to ${FEW + TITLES + ZIP} bytes of terms, over the limit of ${FEW + TITLES + ZIP - 1} bytes (maxDecodedBytes)`,
    )
    expect(error).toMatchObject({ size: FEW + TITLES + ZIP, limit: FEW + TITLES + ZIP - 1 })
    expect(() => open(FEW + TITLES - 1)).toThrow(
      `tags.columns: the keyword dictionaries through field "title" decode to ${FEW + TITLES} bytes of terms, over the limit of ${FEW + TITLES - 1} bytes (maxDecodedBytes)`,
    )
  })

  it('a format 1 file decodes nothing: any limit opens it', () => {
    const v1 = flushColumns(schema, documents, { maxDoc: MAX_DOC })!
    const reader = openColumns(v1, { backend, maxDecodedBytes: 1 })
    expect(reader.getColumn('zip')!.term(3)).toBe('0000009')
    reader.close()
  })

  it('refuses a limit that is not a positive integer', () => {
    for (const [limit, shown] of [[0, '0'], [-1, '-1'], [1.5, '1.5'], [Number.NaN, 'NaN'], ['1000', '"1000"']] as const) {
      expect(() => open(limit as number)).toThrow(new RangeError(`tags.columns: options.maxDecodedBytes must be a positive integer, not ${shown}`))
    }
  })
})

describe('maxDecodedBytes through the other opens', () => {
  const directory = mkdtempSync(join(tmpdir(), 'oixk-decoded-'))
  afterAll(() => rmSync(directory, { recursive: true, force: true }))

  it('openColumnsFile passes it on', async () => {
    const path = join(directory, 'tags.columns')
    writeFileSync(path, bytes)
    await expect(openColumnsFile(path, { maxDecodedBytes: FEW + TITLES })).rejects.toThrow(
      `${path}: the keyword dictionaries through field "zip" decode to ${FEW + TITLES + ZIP} bytes of terms, over the limit of ${FEW + TITLES} bytes (maxDecodedBytes)`,
    )
  })

  it.each(backends)('the pool (%s workers) applies it in its workers, and refuses a bad limit before copying', async (backend) => {
    const pool = createQueryPool({ threads: 2, backend })
    try {
      const error = await pool.open(bytes, { fileName: 'tags.columns', maxDecodedBytes: FEW }).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(ResidentLimitError)
      expect((error as Error).message).toBe(
        `tags.columns: the keyword dictionaries through field "title" decode to ${FEW + TITLES} bytes of terms, over the limit of ${FEW} bytes (maxDecodedBytes)`,
      )
      await expect(pool.open(bytes, { fileName: 'tags.columns', maxDecodedBytes: -5 })).rejects.toThrow(
        new RangeError('tags.columns: options.maxDecodedBytes must be a positive integer, not -5'),
      )
      const segment = await pool.open(bytes, { maxDecodedBytes: FEW + TITLES + ZIP })
      expect([...await segment.facetCounts('few')]).toEqual([16_667, 16_667, 16_666])
      await segment.close()
    } finally {
      await pool.close()
    }
  })
})
