/**
 * Dictionary form 5: terms that are all strings of the same number of ASCII
 * digits (zip codes, numeric ids), stored as the integers they spell through
 * the cascade pool; a reader writes them back with their leading zeros.
 */
import type { ByteSink } from '../../write/byte-sink.js'
import { writeSequenceV2 } from '../../cascade/sequence-writer.js'
import { DictionaryForm, MAX_DIGITS } from '../constants.js'
import { termCountOf, type Terms, writeFormHeader } from './terms.js'

/** The digit count when every term is that many ASCII digits (1 to MAX_DIGITS), else 0. */
export function digitCount(terms: Terms): number {
  const count = termCountOf(terms)
  if (count === 0) return 0
  const length = terms.offsets[1] - terms.offsets[0]
  if (length < 1 || length > MAX_DIGITS || terms.offsets[count] !== count * length) return 0
  // Every term that long (lengths that only add up to count × length are not enough).
  for (let index = 1; index < count; index++) if (terms.offsets[index] !== index * length) return 0
  const bytes = terms.bytes
  for (let index = 0; index < count * length; index++) {
    if (bytes[index] < 0x30 || bytes[index] > 0x39) return 0
  }
  return length
}

/** Form 5 (the caller checked digitCount): header, u8 digits, the integers as a v2 sequence. */
export function writeDigitsForm(terms: Terms, digits: number, sink: ByteSink): void {
  const count = termCountOf(terms)
  writeFormHeader(DictionaryForm.digits, terms, sink)
  sink.writeUint8(digits)
  const words = new Int32Array(2 * count)
  for (let index = 0, at = 0; index < count; index++) {
    let value = 0
    for (let digit = 0; digit < digits; digit++) value = value * 10 + terms.bytes[at++] - 0x30
    words[2 * index] = value % 4294967296
    words[2 * index + 1] = Math.floor(value / 4294967296)
  }
  writeSequenceV2(words, count, sink, 'integer')
}
