/**
 * Opens a format 2 keyword dictionary (docs/format-v2.md §10): reads its form
 * byte and layout, checks every count, length and offset against the section
 * before it allocates, decodes the terms once into the reader's own memory
 * (FSST and front coding through the backend's kernels) and checks them as v1
 * checks its terms: strictly increasing by bytes.
 */
import type { ColumnsBackend, DecodedTerms, ResidentFile } from '../../backend/backend.js'
import { MAX_DICTIONARY_BYTES } from '../../format/constants.js'
import { ResidentLimitError } from '../../format/errors.js'
import { readUint32 } from '../../format/int64.js'
import { Dictionary } from '../../read/dictionary.js'
import { parseCascade } from '../../cascade/reader/parse.js'
import { POWERS_OF_TEN } from '../../cascade/powers-of-ten.js'
import { validateCascade } from '../../cascade/reader/validate.js'
import { DICTIONARY_FORM_NAMES, DictionaryForm, FORM_HEADER_BYTES, FRONT_RESTART, FSST_MAX_SYMBOL_BYTES, MAX_DIGITS } from '../constants.js'
import { BAD_CODE, NOT_INCREASING, OPEN_ESCAPE, SHARED_TOO_LONG, TOO_LONG, TOO_MANY_DIGITS } from '../decode/status.js'
import { type DecodeBudget, type DictionaryContext, failDictionary, need } from './context.js'
import { readSymbolTable } from './fsst-table.js'
import { readIntList } from './int-list.js'

const detail = new Int32Array(3)

/** The dictionary at `offset` (its form byte) of a format 2 section ending at `limit`, and the offset after it. */
export function parseDictionaryV2(
  file: ResidentFile, bufferWords: Int32Array, backend: ColumnsBackend, fileName: string, field: string, offset: number, limit: number,
  budget: DecodeBudget,
): { dictionary: Dictionary; end: number } {
  const started = performance.now()
  const bytes = file.bytes
  const context: DictionaryContext = { file, bytes, bufferWords, backend, fileName, field, label: `dictionary of field "${field}"`, limit, budget }
  need(context, offset, 1, 'form byte')
  const form = bytes[offset]
  let parsed: { dictionary: Dictionary; end: number }
  if (form === DictionaryForm.v1) {
    // Terms are handed out as views for the reader's life: copy them out of memory that may move.
    parsed = Dictionary.parse(bytes, fileName, field, offset + 1, limit, !file.stable)
  } else if (form < DICTIONARY_FORM_NAMES.length) {
    parsed = parseCompressed(context, form, offset)
  } else {
    return failDictionary(context, `unknown dictionary form ${form} (${DICTIONARY_FORM_NAMES.length} forms: ${DICTIONARY_FORM_NAMES.join(', ')})`)
  }
  const { dictionary, end } = parsed
  dictionary.encoding = {
    form, formName: DICTIONARY_FORM_NAMES[form], start: offset, end,
    memoryBytes: (form === DictionaryForm.v1 && file.stable ? 0 : dictionary.totalBytes) + dictionary.offsetBytes,
    decodeMilliseconds: performance.now() - started,
  }
  return parsed
}

/** Forms 1 to 5: header, then the form's parts. */
function parseCompressed(context: DictionaryContext, form: number, offset: number): { dictionary: Dictionary; end: number } {
  need(context, offset, FORM_HEADER_BYTES, 'header')
  const termCount = readUint32(context.bytes, offset + 1), totalBytes = readUint32(context.bytes, offset + 5)
  if (termCount === 0) failDictionary(context, 'no terms in a column that has values')
  if (totalBytes > MAX_DICTIONARY_BYTES) failDictionary(context, `${totalBytes} term bytes exceed the 1 GiB limit`)
  // Distinct terms: at most one is empty.
  if (termCount > totalBytes + 1) failDictionary(context, `${termCount} distinct terms cannot fit in ${totalBytes} bytes`)
  let at = offset + FORM_HEADER_BYTES
  // Lists are allocated per term, so the count is bounded by the section before any is: after the
  // first, every term has a piece of at least one byte (an empty suffix would repeat a prefix of
  // the term before, which is not above it), and a digits term is a distinct integer below 10^d.
  if (form !== DictionaryForm.digits && termCount - 1 > context.limit - at) {
    failDictionary(context, `${termCount} terms need at least ${termCount - 1} piece bytes, but ${Math.max(0, context.limit - at)} bytes of the section are left`)
  }
  let decoded: DecodedTerms | Uint8Array | number
  let digits = 0
  if (form === DictionaryForm.digits) {
    need(context, at, 1, 'digit count')
    digits = context.bytes[at]
    if (digits < 1 || digits > MAX_DIGITS) failDictionary(context, `digit count ${digits} is not in 1..${MAX_DIGITS}`)
    if (termCount * digits !== totalBytes) failDictionary(context, `${termCount} terms of ${digits} digits are not the ${totalBytes} term bytes declared`)
    if (termCount > POWERS_OF_TEN[digits]) failDictionary(context, `${termCount} distinct terms of ${digits} digits cannot exist (at most 10^${digits})`)
    const label = `${context.label} (integers)`
    const integers = parseCascade(context.file, context.bufferWords, context.fileName, label, at + 1, context.limit, termCount, 'integer')
    validateCascade(integers.view, context.backend, -1)
    at = integers.end
    spend(context, totalBytes)
    decoded = context.backend.decodeDigits({ integers: integers.view, termCount, digits }, detail)
  } else {
    let shared: Int32Array | null = null
    if (form === DictionaryForm.front || form === DictionaryForm.frontFsst) {
      const list = readIntList(context, at, termCount, totalBytes, 'shared lengths', 0)
      shared = list.values
      for (let term = 0; term < termCount; term += FRONT_RESTART) {
        if (shared[term] !== 0) failDictionary(context, `term ${term} is a restart point (every ${FRONT_RESTART}th term) but shares ${shared[term]} bytes with the term before`)
      }
      at = list.end
    }
    let table: Uint8Array | null = null
    if (form === DictionaryForm.fsst || form === DictionaryForm.frontFsst) {
      const read = readSymbolTable(context, at)
      table = read.table
      at = read.end
    }
    // Piece lengths: raw bytes (at most the terms'), or codes (an escape is 2 bytes per term byte).
    const what = table === null ? (shared === null ? 'term lengths' : 'suffix lengths') : 'code lengths'
    const list = readIntList(context, at, termCount, table === null ? totalBytes : Math.min(2 * totalBytes, 0x7fffffff), what, 1)
    at = list.end
    let pieceBytes = 0
    for (let term = 0; term < termCount; term++) pieceBytes += list.values[term]
    need(context, at, pieceBytes, `${pieceBytes} ${table === null ? 'term' : 'code'} bytes`)
    // The output is bounded by the file before it is allocated: a code gives at most 8 bytes, a
    // front-coded term at most the pieces since its restart point.
    const bound = (table === null ? 1 : FSST_MAX_SYMBOL_BYTES) * (shared === null ? 1 : FRONT_RESTART) * pieceBytes
    if (shared === null && table === null ? pieceBytes !== totalBytes : totalBytes > bound) {
      failDictionary(context, `${pieceBytes} ${table === null ? 'term' : 'code'} bytes cannot hold the ${totalBytes} term bytes declared`)
    }
    spend(context, totalBytes)
    decoded = context.backend.decodeTerms({ file: context.file, termCount, totalBytes, table, piecesStart: at, pieceLengths: list.values, pieceBytes, shared }, detail)
    at += pieceBytes
  }
  if (typeof decoded === 'number') return failDictionary(context, describeStatus(decoded, totalBytes, digits))
  // Digits terms are totalBytes long together (checked above), each `digits` long: no offsets kept.
  if (decoded instanceof Uint8Array) return { dictionary: Dictionary.fromFixedWidth(decoded, termCount, digits), end: at }
  const decodedBytes = decoded.offsets[termCount]
  if (decodedBytes !== totalBytes) failDictionary(context, `terms decode to ${decodedBytes} bytes, but the dictionary declares ${totalBytes}`)
  return { dictionary: Dictionary.fromTerms(decoded.bytes, decoded.offsets), end: at }
}

/**
 * Counts a dictionary's declared term bytes against the open's limit before they are decoded: a
 * small valid file may declare far more than it holds (digit strings that step evenly, front coding).
 */
function spend(context: DictionaryContext, totalBytes: number): void {
  const { budget } = context
  if (budget.used + totalBytes > budget.limit) {
    throw new ResidentLimitError(`${context.fileName}: the keyword dictionaries through field "${context.field}"`, budget.used + totalBytes, budget.limit, 'decoded')
  }
  budget.used += totalBytes
}

/** A decoder's status (details in `detail`) as the rule it breaks. */
function describeStatus(status: number, totalBytes: number, digits: number): string {
  const [term, second, third] = detail
  switch (status) {
    case BAD_CODE:
      return `term ${term}: code ${third} (code byte ${second} of the term) is not a symbol of the table, nor the escape 255`
    case OPEN_ESCAPE:
      return `term ${term}: its codes end with the escape 255, without the byte it escapes`
    case TOO_LONG:
      return `term ${term} decodes past the ${totalBytes} term bytes the dictionary declares`
    case SHARED_TOO_LONG:
      return `term ${term} shares ${second} bytes with the term before, which has ${third}`
    case NOT_INCREASING:
      return `terms are not strictly increasing at ordinal ${term}`
    case TOO_MANY_DIGITS:
      return `integer ${term} is negative or not below 10^${digits}`
    default:
      return `term decoder status ${status}`
  }
}
