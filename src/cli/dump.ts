/**
 * `oixk dump`: every column's metadata and raw values as one line of JSON.
 * Raw i64 values are decimal strings, because JSON numbers beyond 2^53 do not
 * survive most JSON parsers.
 */
import { openColumnsFile } from '../node/files.js'
import type { Column, GeoPart } from '../read/column.js'
import type { ColumnsReader } from '../read/reader.js'
import { BACKEND_FLAG, backendFromFlag, expectPositionals, parseArgs } from './args.js'
import { type CliIo, type CliOutput, ExitCode, HelpRequest, writeText } from './io.js'

/** Usage text of `oixk dump`. */
export const DUMP_USAGE = `Usage: oixk dump FILE [--backend ts|wasm|auto]

Prints the columns file as compact JSON on one line (then a newline):
  {"maxDoc":N,"columns":[{"name","type","layout","documentsWithValue","valueCount",
   "minRaw","maxRaw","terms" (keyword only),"raw"}]}
Raw values are decimal strings of the i64 raw form; "raw" holds one array per
document; a geo value is a [latRaw, lonRaw] pair. Only the checks made at open
are run (use oixk verify for the full check).
`

/** Values decoded per readValues call: large enough to amortise the call, small enough to stay in cache. */
const DECODE_CHUNK_VALUES = 1 << 16
/** Text buffered before it is handed to the output stream. */
const FLUSH_CHARACTERS = 1 << 20
/** Strings longer than this are written to the output a piece of this many UTF-16 units at a time. */
const STRING_PIECE = 1 << 18

/** Runs `oixk dump`; returns the exit code (errors are thrown for runCli to report). */
export async function runDump(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, [BACKEND_FLAG])
  if (parsed.help) throw new HelpRequest()
  expectPositionals(parsed, 1, 1, 'the columns FILE to dump')
  const backend = backendFromFlag(parsed)
  const reader = await openColumnsFile(parsed.positionals[0], { backend })
  try {
    await dumpReader(reader, io.stdout)
  } finally {
    reader.close()
  }
  return ExitCode.ok
}

/** Accumulates output and flushes it in large pieces, honouring back-pressure. */
class BufferedText {
  private text = ''
  constructor(private readonly output: CliOutput) {}

  /** Appends text; true when enough is buffered that the caller should await flush(). */
  append(piece: string): boolean {
    this.text += piece
    return this.text.length >= FLUSH_CHARACTERS
  }

  /** Appends text and flushes when the buffer is full (for the cold paths). */
  async add(piece: string): Promise<void> {
    if (this.append(piece)) await this.flush()
  }

  /**
   * Appends JSON.stringify(value) a piece at a time: a term or name of hundreds of millions of
   * characters (control characters take six each) made a string past the engine's limit.
   */
  async addJsonString(value: string): Promise<void> {
    if (value.length <= STRING_PIECE) {
      await this.add(JSON.stringify(value))
      return
    }
    this.append('"')
    for (let start = 0; start < value.length;) {
      let end = Math.min(value.length, start + STRING_PIECE)
      // Never between the halves of a pair: each half alone would be escaped as a lone surrogate.
      const last = value.charCodeAt(end - 1)
      if (end < value.length && last >= 0xd800 && last <= 0xdbff) end--
      const piece = JSON.stringify(value.slice(start, end))
      await this.add(piece.slice(1, -1))
      start = end
    }
    await this.add('"')
  }

  async flush(): Promise<void> {
    if (this.text.length === 0) return
    const text = this.text
    this.text = ''
    await writeText(this.output, text)
  }
}

/** Reads one sequence of a column front to back, decoding a chunk at a time. */
class SequentialValues {
  private readonly buffer: BigInt64Array
  private bufferStart = 0
  private bufferLength = 0

  constructor(private readonly column: Column, private readonly part: GeoPart) {
    this.buffer = new BigInt64Array(Math.min(DECODE_CHUNK_VALUES, column.totalValueCount))
  }

  /** The raw value at valueIndex as a decimal string; indexes must not go backwards. */
  rawAt(valueIndex: number): string {
    if (valueIndex >= this.bufferStart + this.bufferLength) {
      this.bufferStart = valueIndex
      this.bufferLength = Math.min(this.buffer.length, this.column.totalValueCount - valueIndex)
      this.column.readValues(valueIndex, this.buffer.subarray(0, this.bufferLength), this.part)
    }
    return String(this.buffer[valueIndex - this.bufferStart])
  }
}

/** Writes the dump of an open reader (used by the command and by tests). */
export async function dumpReader(reader: ColumnsReader, output: CliOutput): Promise<void> {
  const text = new BufferedText(output)
  await text.add(`{"maxDoc":${reader.maxDoc},"columns":[`)
  let firstColumn = true
  for (const column of reader.columns) {
    if (!firstColumn) await text.add(',')
    firstColumn = false
    await dumpColumn(column, text)
  }
  await text.add(']}\n')
  await text.flush()
}

async function dumpColumn(column: Column, text: BufferedText): Promise<void> {
  await text.add('{"name":')
  await text.addJsonString(column.name)
  await text.add(`,"type":"${column.type}","layout":"${column.layout}"`
    + `,"documentsWithValue":${column.documentsWithValue},"valueCount":${column.totalValueCount}`
    + `,"minRaw":"${column.minRaw}","maxRaw":"${column.maxRaw}"`)
  if (column.dictionary !== null) {
    await text.add(',"terms":[')
    for (let ordinal = 0; ordinal < column.dictionary.termCount; ordinal++) {
      const term = column.term(ordinal)
      if (term.length > STRING_PIECE) {
        if (ordinal > 0) text.append(',')
        await text.addJsonString(term)
      } else if (text.append((ordinal === 0 ? '' : ',') + JSON.stringify(term))) await text.flush()
    }
    await text.add(']')
  }
  await text.add(',"raw":[')
  const latitudesOrValues = new SequentialValues(column, 'latitude')
  const longitudes = column.longitudes === null ? null : new SequentialValues(column, 'longitude')
  // Runs are consecutive in document order, so only each document's count is needed.
  let valueIndex = 0
  for (let document = 0; document < column.maxDoc; document++) {
    const count = column.layout === 'dense' ? 1 : column.valueCount(document)
    let run = document === 0 ? '[' : ',['
    for (let nth = 0; nth < count; nth++, valueIndex++) {
      if (nth > 0) run += ','
      const raw = latitudesOrValues.rawAt(valueIndex)
      run += longitudes === null ? `"${raw}"` : `["${raw}","${longitudes.rawAt(valueIndex)}"]`
      // A document of millions of values is written in pieces too (it was one string: 4 GB, then past the engine's limit).
      if (run.length >= FLUSH_CHARACTERS) {
        text.append(run)
        run = ''
        await text.flush()
      }
    }
    // Awaiting only when the buffer is full keeps millions of documents free of per-document promises.
    if (text.append(run + ']')) await text.flush()
  }
  await text.add(']}')
}
