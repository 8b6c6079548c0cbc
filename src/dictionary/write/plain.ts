/**
 * Dictionary forms 0 and 1: v1's dictionary (u32 offsets), and the terms raw
 * after a list of their lengths (for small dictionaries, where a symbol table
 * costs more than it saves, and for terms that do not compress).
 */
import type { ByteSink } from '../../write/byte-sink.js'
import { DictionaryForm } from '../constants.js'
import { writeIntList } from './int-list.js'
import { termCountOf, type Terms, writeFormHeader } from './terms.js'

/** Form 0: the form byte, then v1's dictionary (docs/format.md §5). */
export function writeV1Form(terms: Terms, sink: ByteSink): void {
  const count = termCountOf(terms)
  sink.writeUint8(DictionaryForm.v1)
  sink.writeInt32(count)
  sink.writeInt32(terms.offsets[count])
  for (let index = 0; index <= count; index++) sink.writeInt32(terms.offsets[index])
  sink.writeBytes(terms.bytes.subarray(0, terms.offsets[count]))
}

/** Form 1: header, the term lengths as a list, the term bytes. */
export function writePlainForm(terms: Terms, sink: ByteSink): void {
  const count = termCountOf(terms)
  writeFormHeader(DictionaryForm.plain, terms, sink)
  const lengths = new Uint32Array(count)
  for (let index = 0; index < count; index++) lengths[index] = terms.offsets[index + 1] - terms.offsets[index]
  writeIntList(lengths, sink)
  sink.writeBytes(terms.bytes.subarray(0, terms.offsets[count]))
}
