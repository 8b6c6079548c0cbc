/**
 * Large single-column files for memory tests and benchmarks, written document
 * by document through one reused object, so building a file of tens of
 * millions of values holds no array of documents.
 */
import { ColumnsWriter } from '../../src/write/columns-writer.js'

/** A file with one dense column `name` of `count` values, value i = valueAt(i). */
export function denseFile(count: number, valueAt: (index: number) => number | bigint, name = 'v', type = 'integral'): Uint8Array {
  const writer = new ColumnsWriter({ fields: [{ name, type, column: true }] }, { expectedDocuments: count })
  const document: Record<string, number | bigint> = { [name]: 0 }
  for (let index = 0; index < count; index++) {
    document[name] = valueAt(index)
    writer.addDocument(index, document)
  }
  return writer.finish(count)!
}

/** Values count such that `width`-bit packed values fill about `bytes` bytes. */
export function valuesForBytes(bytes: number, width: number): number {
  return Math.ceil((bytes * 8) / width)
}

/**
 * A uniform integer below 2^bits (bits ≤ 53). seededRandom gives 32 random bits per
 * call, so wider integers take two calls (one call scaled up would be a multiple of 2^(bits-32)).
 */
export function randomInteger(random: () => number, bits: number): number {
  if (bits <= 32) return Math.floor(random() * 2 ** bits)
  return Math.floor(random() * 2 ** (bits - 32)) * 2 ** 32 + Math.floor(random() * 2 ** 32)
}
