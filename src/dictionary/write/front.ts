/**
 * Dictionary forms 3 and 4: front coding. Each term shares its longest common
 * prefix with the term before it (nothing at a restart: every FRONT_RESTART-th
 * term) and stores the rest, its suffix: raw (form 3) or FSST-compressed (form 4).
 */
import type { ByteSink } from '../../write/byte-sink.js'
import { DictionaryForm, FRONT_RESTART } from '../constants.js'
import { writeIntList } from './int-list.js'
import { writeFsstPieces } from './fsst.js'
import { termCountOf, type Terms, writeFormHeader } from './terms.js'

/** Shared-prefix lengths and suffix ranges of the terms. */
export function frontParts(terms: Terms): { shared: Uint32Array; starts: Uint32Array; ends: Uint32Array } {
  const count = termCountOf(terms)
  const { bytes, offsets } = terms
  const shared = new Uint32Array(count)
  const starts = new Uint32Array(count)
  for (let index = 0; index < count; index++) {
    let common = 0
    if (index % FRONT_RESTART !== 0) {
      const previous = offsets[index - 1], start = offsets[index]
      const limit = Math.min(start - previous, offsets[index + 1] - start)
      while (common < limit && bytes[previous + common] === bytes[start + common]) common++
    }
    shared[index] = common
    starts[index] = offsets[index] + common
  }
  return { shared, starts, ends: offsets.subarray(1) }
}

/** Form 3: header, shared lengths, suffix lengths, suffix bytes. */
export function writeFrontForm(terms: Terms, sink: ByteSink): void {
  const { shared, starts, ends } = frontParts(terms)
  writeFormHeader(DictionaryForm.front, terms, sink)
  writeIntList(shared, sink)
  const count = shared.length
  const lengths = new Uint32Array(count)
  for (let index = 0; index < count; index++) lengths[index] = ends[index] - starts[index]
  writeIntList(lengths, sink)
  for (let index = 0; index < count; index++) sink.writeBytes(terms.bytes.subarray(starts[index], ends[index]))
}

/** Form 4: header, shared lengths, then the suffixes FSST-compressed. */
export function writeFrontFsstForm(terms: Terms, sink: ByteSink): void {
  const { shared, starts, ends } = frontParts(terms)
  writeFormHeader(DictionaryForm.frontFsst, terms, sink)
  writeIntList(shared, sink)
  writeFsstPieces({ bytes: terms.bytes, starts, ends }, sink)
}
