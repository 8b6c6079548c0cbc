/**
 * Reading the CLI's text inputs: whole JSON files (schema, doc map) and NDJSON
 * streamed line by line, both as strict UTF-8 and parsed with parseExactJson
 * so 64-bit integers are never rounded through a double.
 */
import { isUtf8 } from 'node:buffer'
import { createReadStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { DuplicateKeyError, type ExactJsonValue, inexactIntegersParsed, parseExactJson } from '../format/exact-json.js'
import { InputError } from './io.js'

const BYTE_ORDER_MARK = '\uFEFF'
const NEWLINE = 0x0a
const CARRIAGE_RETURN = 0x0d
/** A longer line is refused: V8 strings top out near 512 MiB, and no document should come close. */
export const MAX_LINE_BYTES = 256 << 20

/**
 * Reads a whole JSON file (small inputs: schema, doc map); errors name the file. markInexactIntegers: a
 * literal with a fraction or an exponent whose double is an integer comes as an InexactInteger.
 */
export async function readJsonFile(path: string, options: { markInexactIntegers?: boolean } = {}): Promise<ExactJsonValue> {
  const bytes = await readFile(path).catch((error: unknown) => { throw withPath(error, path) })
  if (!isUtf8(bytes)) throw new InputError(`${path}: not valid UTF-8`)
  const text = bytes.toString('utf8')
  return parseJsonText(path, text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text, options.markInexactIntegers === true)
}

/** A system error of reading `path` (EISDIR from a read names no path) given the path, so the CLI's message names the file. */
function withPath(error: unknown, path: string): unknown {
  if (error instanceof Error && typeof (error as { code?: unknown }).code === 'string' && (error as { path?: unknown }).path === undefined) {
    Object.assign(error, { path })
  }
  return error
}

/** Parses one JSON text, turning a syntax error into an InputError that names `where`. */
function parseJsonText(where: string, text: string, markInexactIntegers: boolean): ExactJsonValue {
  const result = parseJson(text, false, markInexactIntegers)
  if (result instanceof JsonProblem) throw new InputError(`${where}: ${result.problem}`)
  return result
}

/** Why a text is not acceptable JSON: a class, so no parsed JSON value can pass for one. */
class JsonProblem {
  constructor(readonly problem: string) {}
}

/**
 * Parses one JSON text, or says why not (callers drop a byte order mark where one may be).
 * Documents refuse duplicate keys, where the last value would silently win, and mark
 * non-integer literals whose double is an integer (the build refuses them in integral and
 * date fields, merge in doc maps); the schema keeps JSON.parse's rules.
 */
function parseJson(text: string, document: boolean, markInexactIntegers = document): ExactJsonValue | JsonProblem {
  try {
    return parseExactJson(text, { rejectDuplicateKeys: document, markInexactIntegers })
  } catch (error) {
    if (error instanceof SyntaxError) return new JsonProblem(`invalid JSON: ${error.message}`)
    if (error instanceof DuplicateKeyError) return new JsonProblem(error.message)
    throw error
  }
}

/**
 * One NDJSON line: its 1-based number and either the parsed value or, for a
 * bad line (not UTF-8, blank, invalid JSON, a duplicate key), why it is bad.
 */
export type NdjsonLine =
  | { lineNumber: number; value: ExactJsonValue; problem?: undefined; inexact: boolean }
  | { lineNumber: number; value?: undefined; problem: string; inexact?: undefined }

/**
 * Streams an NDJSON file: one JSON value per line, lines ending in LF (a CR
 * before the LF is dropped). A final newline is optional and does not start
 * another line; any other empty or all-whitespace line is bad, because line k
 * is document k-1 and a blank line would silently shift every document after
 * it. A UTF-8 byte order mark before line 1 is ignored. Bad lines are yielded
 * with their problem so the caller can report several; only a line too long to
 * hold throws (reading cannot resume after it).
 */
export async function* readNdjson(path: string): AsyncGenerator<NdjsonLine> {
  let pending: Buffer[] = []
  let pendingBytes = 0
  let lineNumber = 0
  const parseLine = (bytes: Buffer): NdjsonLine => {
    lineNumber++
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length
    const content = bytes.subarray(0, end)
    if (!isUtf8(content)) return { lineNumber, problem: 'not valid UTF-8' }
    let text = content.toString('utf8')
    if (lineNumber === 1 && text.startsWith(BYTE_ORDER_MARK)) text = text.slice(1)
    if (text.trim() === '') {
      return { lineNumber, problem: 'blank line; every line must hold one JSON document (only the file\'s final newline may be followed by nothing)' }
    }
    const parsed = parseJson(text, true)
    // inexact: the value holds an InexactInteger somewhere (a literal such as 1.00000000000000001).
    return parsed instanceof JsonProblem ? { lineNumber, problem: parsed.problem } : { lineNumber, value: parsed, inexact: inexactIntegersParsed() > 0 }
  }
  try {
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
  } catch (error) {
    throw withPath(error, path)
  }
  // The last line needs no newline; a file ending in one leaves nothing pending. A file of only a
  // byte order mark is an empty file, as one without it is.
  const last = Buffer.concat(pending)
  if (last.length > 0 && !(lineNumber === 0 && last.toString('utf8') === BYTE_ORDER_MARK)) yield parseLine(last)
}
