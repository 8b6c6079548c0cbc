/**
 * The full check of a v2 sequence: decode every value, encode them again with
 * the writer's rules (docs/format-v2.md §4) and require the same bytes. Any
 * other form, kind, parameter, order or padding is rejected, naming the
 * sequence, where the bytes first differ, and what a flush writes.
 */
// Which copy of the library this chunk is bound to (canonical-loader-lazy.ts checks it).
export { LIBRARY_COPY } from '../../format/library-copy.js'
import type { ColumnsBackend, SequenceView } from '../../backend/backend.js'
import { CorruptIndexException } from '../../format/errors.js'
import { readUint32 } from '../../format/int64.js'
import { ByteSink } from '../../write/byte-sink.js'
import { FORM_NAMES, KIND_NAMES } from '../constants.js'
import { rangeOf, type SequenceDomain, writeSequenceV2 } from '../sequence-writer.js'
import { sequenceExtent } from './parse.js'

// The dictionary's full check encodes with the writer too: it comes with this module.
export { checkCanonicalDictionary } from '../../dictionary/check.js'

/** One line about the sequence at bytes[at]: its form and, for blocks, the first block's record where the two differ. */
function describe(bytes: Uint8Array, at: number, differsAt: number): string {
  const form = bytes[at]
  if (form !== 0) return `form ${FORM_NAMES[form] ?? form}`
  const blockCount = readUint32(bytes, at + 5)
  const block = Math.floor((differsAt - at - 13) / 24)
  if (block < 0 || block >= blockCount) return 'form blocks'
  const record = at + 13 + 24 * block
  return `form blocks, block ${block} ${KIND_NAMES[bytes[record]] ?? bytes[record]} width ${bytes[record + 1]} param ${bytes[record + 2] | (bytes[record + 3] << 8)}`
}

/** Checks that the sequence is exactly what a flush writes for its values; leaves their min/max raw in minMax. */
export function checkCanonicalV2(sequence: SequenceView, backend: ColumnsBackend, domain: SequenceDomain, minMax: Int32Array): void {
  let words: Int32Array
  try {
    words = new Int32Array(2 * sequence.count)
  } catch (error) {
    throw new RangeError(`${sequence.fileName}: ${sequence.label}: the full check re-encodes the sequence from its ${sequence.count} values, 8 bytes each, more than this engine allocates (${(error as Error).message})`)
  }
  backend.decodeRaw(sequence, 0, sequence.count, words, 0)
  if (sequence.count > 0) rangeOf(words, sequence.count, minMax)
  const sink = new ByteSink(1024)
  try {
    writeSequenceV2(words, sequence.count, sink, domain)
  } catch (error) {
    // Choosing the encoding holds several arrays of the values at once: a refused allocation is named too.
    if (!(error instanceof RangeError) || !/allocat|array length|buffer length/i.test(error.message)) throw error
    throw new RangeError(`${sequence.fileName}: ${sequence.label}: the full check chooses the encoding of the sequence's ${sequence.count} values, about 28 bytes each, more than this engine allocates (${error.message})`)
  }
  const [start, end] = sequenceExtent(sequence)
  const stored = sequence.file.bytes.subarray(start, end), written = sink.view()
  const length = Math.min(stored.length, written.length)
  let differs = 0
  while (differs < length && stored[differs] === written[differs]) differs++
  if (differs === length && stored.length === written.length) return
  throw new CorruptIndexException(sequence.fileName, `${sequence.label}: not the encoding a flush writes: its ${stored.length} bytes differ from a flush's ${written.length} at byte ${differs} (stored ${
    describe(stored, 0, differs)}; a flush writes ${describe(written, 0, differs)})`)
}
