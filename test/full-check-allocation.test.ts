/**
 * The full check of a format 2 sequence encodes it again, holding about 28 bytes a value: where the
 * engine refuses an allocation on the way, the error names the file, the sequence and the cost,
 * not only the engine's words. (The encoder is made to fail here: no test machine should allocate
 * what a real failure needs.)
 */
import { describe, expect, it, vi } from 'vitest'

vi.mock('../src/cascade/sequence-writer.js', async (original) => {
  const actual = await original<typeof import('../src/cascade/sequence-writer.js')>()
  return {
    ...actual,
    writeSequenceV2: (...args: Parameters<typeof actual.writeSequenceV2>) => {
      if ((globalThis as { failEncoding?: boolean }).failEncoding === true) throw new RangeError('Array buffer allocation failed')
      return actual.writeSequenceV2(...args)
    },
  }
})

const { flushColumns } = await import('../src/write/columns-writer.js')
const { openColumns } = await import('../src/read/open.js')

describe('an allocation the full check cannot make', () => {
  it('is named with the file, the sequence and what it costs', () => {
    const bytes = flushColumns({ fields: [{ name: 'n', type: 'integral', column: true }] }, Array.from({ length: 3000 }, (_, index) => ({ n: index % 7 })), { format: 2 })!
    const reader = openColumns(bytes, { fileName: 'seg.oixk' })
    ;(globalThis as { failEncoding?: boolean }).failEncoding = true
    try {
      expect(() => reader.verify()).toThrow(new RangeError(
        'seg.oixk: values of field "n": the full check chooses the encoding of the sequence\'s 3000 values, about 28 bytes each, more than this engine allocates (Array buffer allocation failed)',
      ))
    } finally {
      (globalThis as { failEncoding?: boolean }).failEncoding = false
    }
    reader.verify()
  })
})
