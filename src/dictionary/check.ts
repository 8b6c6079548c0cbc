/**
 * The full check of a format 2 keyword dictionary: its terms (decoded and
 * checked at open) are encoded again with the writer's rule and must give the
 * stored bytes, so the form, the symbol table, every list and every code are
 * what a flush writes.
 */
import { CorruptIndexException } from '../format/errors.js'
import type { Dictionary } from '../read/dictionary.js'
import { DICTIONARY_FORM_NAMES } from './constants.js'
import { encodeDictionary } from './write/choose.js'

/** Checks that the dictionary's bytes in `file` are what a flush of its terms writes. */
export function checkCanonicalDictionary(dictionary: Dictionary, file: Uint8Array, fileName: string, field: string): void {
  const encoding = dictionary.encoding!
  const offsets = new Uint32Array(dictionary.termCount + 1)
  const bytes = new Uint8Array(dictionary.totalBytes)
  for (let ordinal = 0; ordinal < dictionary.termCount; ordinal++) {
    const term = dictionary.termBytes(ordinal)
    bytes.set(term, offsets[ordinal])
    offsets[ordinal + 1] = offsets[ordinal] + term.length
  }
  const written = encodeDictionary({ bytes, offsets })
  const stored = file.subarray(encoding.start, encoding.end)
  const length = Math.min(stored.length, written.length)
  let differs = 0
  while (differs < length && stored[differs] === written[differs]) differs++
  if (differs === length && stored.length === written.length) return
  const name = (form: number) => DICTIONARY_FORM_NAMES[form] ?? String(form)
  const detail = stored[0] === written[0]
    ? `its ${stored.length} bytes (form ${name(stored[0])}) differ from a flush's ${written.length} at byte ${differs}`
    : `stored in form ${name(stored[0])} (${stored.length} bytes), but a flush writes form ${name(written[0])} (${written.length} bytes)`
  throw new CorruptIndexException(fileName, `dictionary of field "${field}": not the dictionary a flush writes: ${detail}`)
}
