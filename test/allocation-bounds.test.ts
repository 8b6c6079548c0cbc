// A corrupt count must never make open allocate in proportion to the count: every
// allocation at open is bounded by the file's size. Each file below claims a count
// that would need gigabytes, with a valid checksum, and must fail fast and small.
import { describe, expect, it } from 'vitest'
import { CorruptIndexException, flushColumns, openColumns } from '../src/index.js'
import { xxh64Into } from '../src/format/xxh64.js'

/** Patches a u32 at offset and recomputes the checksum, so structural checks are what answer. */
function withUint32(file: Uint8Array, offset: number, value: number): Uint8Array {
  const patched = file.slice()
  new DataView(patched.buffer).setUint32(offset, value, true)
  const checksum = new Uint32Array(2)
  xxh64Into(patched, 0, patched.length - 8, 0, 0, checksum)
  new DataView(patched.buffer).setUint32(patched.length - 8, checksum[0], true)
  new DataView(patched.buffer).setUint32(patched.length - 4, checksum[1], true)
  return patched
}

function expectSmallFailure(bytes: Uint8Array, backend: 'ts' | 'wasm'): string {
  const before = process.memoryUsage().arrayBuffers
  let error: unknown
  try {
    openColumns(bytes, { backend, fileName: 'huge.oixk' }).verify()
  } catch (caught) {
    error = caught
  }
  const grown = process.memoryUsage().arrayBuffers - before
  expect(error).toBeInstanceOf(CorruptIndexException)
  expect(grown).toBeLessThan(64 << 20)
  return (error as Error).message
}

const keywordFile = flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, [{ k: 'a' }, { k: 'b' }])!
const sparseFile = flushColumns({ fields: [{ name: 's', type: 'integral', column: true }] }, [{ s: 5 }, null, { s: 7 }], { maxDoc: 3 })!
const integerFile = flushColumns({ fields: [{ name: 'i', type: 'integral', column: true }] }, [{ i: 1 }, { i: 2 }])!

describe.each(['ts', 'wasm'] as const)('open allocates in proportion to the file, not to a corrupt count (%s)', (backend) => {
  it('a dictionary claiming 2^32 - 1 terms', () => {
    // The keyword section is the first: u32 termCount at offset 12.
    expect(expectSmallFailure(withUint32(keywordFile, 12, 0xffffffff), backend)).toMatch(/^huge\.oixk: dictionary of field "k": /)
  })

  it('a header claiming maxDoc 2^32 - 1 for an optional column (a 512 MiB presence bitmap)', () => {
    expect(expectSmallFailure(withUint32(sparseFile, 8, 0xffffffff), backend)).toMatch(/^huge\.oixk: field "s": /)
  })

  it('a sequence claiming 2^32 - 1 values and as many blocks', () => {
    // The integral section is the first: u32 count at 12, u32 blockCount at 16.
    const claimsValues = withUint32(integerFile, 12, 0xffffffff)
    expect(expectSmallFailure(claimsValues, backend)).toMatch(/^huge\.oixk: values of field "i": sequence holds 4294967295 values/)
    const claimsBlocks = withUint32(integerFile, 16, 0x3fffff)
    expect(expectSmallFailure(claimsBlocks, backend)).toMatch(/^huge\.oixk: values of field "i": block count 4194303/)
  })
})
