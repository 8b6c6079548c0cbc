/**
 * Reads an FSST symbol table (u8 symbol count per length 1..8, then the symbols
 * in code order) into the decoders' form: 256 symbols of 8 bytes, zero-padded,
 * then 256 lengths, 0 for codes that are not symbols (code 255 escapes).
 */
import { FSST_LENGTHS_AT, FSST_MAX_SYMBOLS, FSST_TABLE_BYTES } from '../constants.js'
import { type DictionaryContext, failDictionary, need } from './context.js'

/** The one decoder-form table: a dictionary's table is used while its terms decode, then not kept. */
const decoderTable = new Uint8Array(FSST_TABLE_BYTES)

/** The table at `at`: its decoder form (valid until the next call), its symbol count, and the offset after it. */
export function readSymbolTable(context: DictionaryContext, at: number): { table: Uint8Array; symbols: number; end: number } {
  need(context, at, 8, 'symbol table')
  const bytes = context.bytes
  let symbols = 0, length = 0
  for (let size = 1; size <= 8; size++) {
    symbols += bytes[at + size - 1]
    length += size * bytes[at + size - 1]
  }
  if (symbols > FSST_MAX_SYMBOLS) failDictionary(context, `symbol table has ${symbols} symbols, more than ${FSST_MAX_SYMBOLS}`)
  need(context, at + 8, length, `symbol table (${symbols} symbols, ${length} bytes)`)
  const table = decoderTable
  table.fill(0)
  let code = 0, from = at + 8
  for (let size = 1; size <= 8; size++) {
    for (let count = bytes[at + size - 1]; count > 0; count--, code++) {
      for (let index = 0; index < size; index++) table[8 * code + index] = bytes[from++]
      table[FSST_LENGTHS_AT + code] = size
    }
  }
  return { table, symbols, end: from }
}
