/**
 * Sorted keyword terms as the dictionary writers take them, and the header
 * every compressed form starts with.
 */
import type { ByteSink } from '../../write/byte-sink.js'

/** Distinct terms in ascending UTF-8 byte order: term i is bytes [offsets[i], offsets[i + 1]). */
export interface Terms {
  readonly bytes: Uint8Array
  readonly offsets: Uint32Array
}

/** The number of terms. */
export function termCountOf(terms: Terms): number {
  return terms.offsets.length - 1
}

/** u8 form, u32 termCount, u32 totalBytes (forms 1 to 5). */
export function writeFormHeader(form: number, terms: Terms, sink: ByteSink): void {
  const count = termCountOf(terms)
  sink.writeUint8(form)
  sink.writeInt32(count)
  sink.writeInt32(terms.offsets[count])
}
