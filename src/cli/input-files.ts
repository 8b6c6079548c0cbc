/**
 * Reading the CLI's text inputs: whole JSON files (schema, doc map) and NDJSON
 * streamed line by line, both as strict UTF-8 and parsed with parseExactJson
 * so 64-bit integers are never rounded through a double.
 */
import { isUtf8 } from 'node:buffer'
import { createReadStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { type ExactJsonValue, parseExactJson } from '../format/exact-json.js'
import { InputError } from './io.js'

const BYTE_ORDER_MARK = '\uFEFF'
const NEWLINE = 0x0a
const CARRIAGE_RETURN = 0x0d
/** A longer line is refused: V8 strings top out near 512 MiB, and no document should come close. */
export const MAX_LINE_BYTES = 256 << 20

/** Reads a whole JSON file (small inputs: schema, doc map); errors name the file. */
export async function readJsonFile(path: string): Promise<ExactJsonValue> {
  const bytes = await readFile(path)
  if (!isUtf8(bytes)) throw new InputError(`${path}: not valid UTF-8`)
  return parseJsonText(path, bytes.toString('utf8'))
}

/** Parses one JSON text, turning a syntax error into an InputError that names `where`. */
function parseJsonText(where: string, text: string): ExactJsonValue {
  try {
    return parseExactJson(text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text)
  } catch (error) {
    if (error instanceof SyntaxError) throw new InputError(`${where}: invalid JSON: ${error.message}`)
    throw error
  }
}

/** One NDJSON line: its 1-based number and the parsed value. */
export interface NdjsonLine {
  lineNumber: number
  value: ExactJsonValue
}

/**
 * Streams an NDJSON file: one JSON value per line, lines ending in LF (a CR
 * before the LF is dropped). A final newline is optional and does not start
 * another line; any other empty or all-whitespace line is an error, because
 * line k is document k-1 and a blank line would silently shift every document
 * after it. A UTF-8 byte order mark before line 1 is ignored.
 */
export async function* readNdjson(path: string): AsyncGenerator<NdjsonLine> {
  let pending: Buffer[] = []
  let pendingBytes = 0
  let lineNumber = 0
  const parseLine = (bytes: Buffer): NdjsonLine => {
    lineNumber++
    const where = `${path}:${lineNumber}`
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length
    const content = bytes.subarray(0, end)
    if (!isUtf8(content)) throw new InputError(`${where}: not valid UTF-8`)
    let text = content.toString('utf8')
    if (lineNumber === 1 && text.startsWith(BYTE_ORDER_MARK)) text = text.slice(1)
    if (text.trim() === '') {
      throw new InputError(`${where}: blank line; every line must hold one JSON document (only the file's final newline may be followed by nothing)`)
    }
    return { lineNumber, value: parseJsonText(where, text) }
  }
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    let start = 0
    for (let newline = chunk.indexOf(NEWLINE); newline >= 0; newline = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, newline)
      const line = pending.length === 0 ? piece : Buffer.concat([...pending, piece])
      pending = []
      pendingBytes = 0
      start = newline + 1
      if (line.length > MAX_LINE_BYTES) throw new InputError(`${path}:${lineNumber + 1}: line longer than ${MAX_LINE_BYTES} bytes`)
      yield parseLine(line)
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start))
      pendingBytes += chunk.length - start
      if (pendingBytes > MAX_LINE_BYTES) throw new InputError(`${path}:${lineNumber + 1}: line longer than ${MAX_LINE_BYTES} bytes`)
    }
  }
  // The last line needs no newline; a file ending in one leaves nothing pending.
  if (pending.length > 0) yield parseLine(Buffer.concat(pending))
}
