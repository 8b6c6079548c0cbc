/**
 * Dictionary forms 2 and 4's FSST part: a symbol table trained on the pieces
 * (the terms, or front coding's suffixes), each piece compressed on its own,
 * the code lengths as a list, then the codes back to back.
 */
import { ByteSink } from '../../write/byte-sink.js'
import { DictionaryForm } from '../constants.js'
import { writeIntList } from './int-list.js'
import { type Pieces, trainTable } from './fsst-train.js'
import { SymbolTable } from './fsst-table.js'
import { termCountOf, type Terms, writeFormHeader } from './terms.js'

/** Table, code lengths, codes of the pieces. */
export function writeFsstPieces(pieces: Pieces, sink: ByteSink): void {
  const table = trainTable(pieces)
  const count = pieces.starts.length
  let longest = 0
  for (let index = 0; index < count; index++) longest = Math.max(longest, pieces.ends[index] - pieces.starts[index])
  const parsed = new Int32Array(longest)
  const codes = new ByteSink(Math.max(1024, (pieces.ends[count - 1] ?? 0) - (pieces.starts[0] ?? 0)))
  const lengths = new Uint32Array(count)
  for (let index = 0; index < count; index++) {
    const before = codes.length
    SymbolTable.emit(parsed, table.parse(pieces.bytes, pieces.starts[index], pieces.ends[index], parsed), codes)
    lengths[index] = codes.length - before
  }
  sink.writeBytes(table.serialize())
  writeIntList(lengths, sink)
  sink.writeBytes(codes.view())
}

/** Form 2: header, then every term FSST-compressed on its own. */
export function writeFsstForm(terms: Terms, sink: ByteSink): void {
  writeFormHeader(DictionaryForm.fsst, terms, sink)
  const offsets = terms.offsets
  writeFsstPieces({ bytes: terms.bytes, starts: offsets.subarray(0, termCountOf(terms)), ends: offsets.subarray(1) }, sink)
}
