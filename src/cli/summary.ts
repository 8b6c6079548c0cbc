/**
 * The one-line summary `oixk build` and `oixk merge` print on stdout after
 * writing their file: `wrote OUT: D documents, C columns, B bytes`.
 */
import { oneLine } from './io.js'
import { MAX_DOC_OFFSET, TRAILER_BYTES } from '../format/constants.js'
import { readVarUint } from '../format/varuint.js'

/** "1 column", "2 columns": the summary is read by people as well as parsed. */
function count(value: number, noun: string): string {
  return `${value} ${noun}${value === 1 ? '' : 's'}`
}

/**
 * The summary line (with its newline) of a file just written: maxDoc from the
 * header, the column count from the directory, the size. The bytes come
 * straight from the writer, so they are read without the reader's checks.
 */
export function writtenSummary(outputPath: string, file: Uint8Array): string {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const maxDoc = view.getUint32(MAX_DOC_OFFSET, true)
  // The trailer starts with the directory's offset; the directory starts with its column count.
  const cursor = { value: 0, offset: view.getUint32(file.length - TRAILER_BYTES, true) }
  const problem = readVarUint(file, file.length - TRAILER_BYTES, cursor)
  if (problem !== null) throw new Error(`writtenSummary: the writer's own directory is unreadable: ${problem}`)
  return `wrote ${oneLine(outputPath)}: ${count(maxDoc, 'document')}, ${count(cursor.value, 'column')}, ${count(file.length, 'byte')}\n`
}
