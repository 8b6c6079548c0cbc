/**
 * `oixk inspect`: a human-readable account of a columns file: per column its
 * counts, min/max in natural form, and how its sequences were encoded (block
 * kinds and widths), to see where the bytes go.
 */
import type { SequenceView } from '../backend/backend.js'
import { BLOCK_KIND_NAMES, BLOCK_VALUES, DICTIONARY_HEADER_BYTES, SEQUENCE_HEADER_BYTES, BLOCK_RECORD_BYTES } from '../format/constants.js'
import { readUint32 } from '../format/int64.js'
import { sortableBitsToFloat64 } from '../format/sortable-bits.js'
import { openColumnsFile } from '../node/files.js'
import type { Column } from '../read/column.js'
import type { ColumnsReader } from '../read/reader.js'
import { expectPositionals, parseArgs } from './args.js'
import { type CascadeSummary, summarize } from '../cascade/describe.js'
import { type CliIo, ExitCode, HelpRequest, oneLine, terminalText, writeText } from './io.js'

/** Usage text of `oixk inspect`. */
export const INSPECT_USAGE = `Usage: oixk inspect FILE

Prints, for the file and each column, a readable table: counts, min/max in
natural form, section size, and for every integer sequence its block kinds
(blocks and % of values) and block widths; for a format 2 file, each
sequence's cascade (form per level, its details, values and bytes) and each keyword
dictionary's form, its size against v1's form, and the memory and time of its decode
at this open (a process's first decodes include compiling their code: a long-lived
reader's later opens decode faster). Opening checks the structure and
checksum; it does not run the full check (use oixk verify).
`

/** Dates beyond ±8.64e15 ms cannot be formatted by Date. */
const MAX_DATE_MILLIS = 8_640_000_000_000_000n
const LABEL_WIDTH = 24

/** Runs `oixk inspect`; returns the exit code (errors are thrown for runCli to report). */
export async function runInspect(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, [])
  if (parsed.help) throw new HelpRequest()
  expectPositionals(parsed, 1, 1, 'the columns FILE to inspect')
  const reader = await openColumnsFile(parsed.positionals[0])
  try {
    // A column at a time: a file of 200,000 columns made a report of 100 MB, held whole before any of it was written.
    await writeText(io.stdout, describeFile(reader))
    for (const column of reader.columns) await writeText(io.stdout, '\n' + describeColumn(column, reader.bytes.length, reader.format))
  } finally {
    reader.close()
  }
  return ExitCode.ok
}

function row(indent: string, label: string, value: string): string {
  return `${indent}${label.padEnd(LABEL_WIDTH - indent.length)}${value}\n`
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '0.0%' : `${((100 * part) / whole).toFixed(1)}%`
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`
}

/** The whole report of an open reader (used by tests; the command writes it a column at a time). */
export function describeReader(reader: ColumnsReader): string {
  let text = describeFile(reader)
  for (const column of reader.columns) text += '\n' + describeColumn(column, reader.bytes.length, reader.format)
  return text
}

/**
 * A name or term as the report shows it: quoted, control characters escaped (C1 and DEL too: JSON
 * escapes C0 only), and past SHOWN_CHARACTERS cut, with its length.
 */
function shownString(text: string): string {
  const cut = text.length > SHOWN_CHARACTERS
  // Never between a pair's halves: the half kept would show as an escape the text does not hold.
  const end = cut && (text.charCodeAt(SHOWN_CHARACTERS - 1) & 0xfc00) === 0xd800 ? SHOWN_CHARACTERS - 1 : SHOWN_CHARACTERS
  return terminalText(JSON.stringify(cut ? text.slice(0, end) : text)) + (cut ? `… (${text.length} characters)` : '')
}
const SHOWN_CHARACTERS = 1000

/** The report's rows about the file. */
function describeFile(reader: ColumnsReader): string {
  const bytes = reader.bytes
  const checksum = (BigInt(readUint32(bytes, bytes.length - 4)) << 32n) | BigInt(readUint32(bytes, bytes.length - 8))
  return row('', 'file', oneLine(reader.fileName))
    + row('', 'size', `${bytes.length} bytes`)
    + row('', 'format', reader.format === 2 ? '2 (cascading encodings, docs/format-v2.md)' : '1 (docs/format.md)')
    + row('', 'maxDoc', String(reader.maxDoc))
    // Opening already compared the checksum; reaching this line means it matched.
    + row('', 'checksum', `ok (XXH64 ${checksum.toString(16).padStart(16, '0')})`)
    + row('', 'columns', String(reader.columns.length))
}

function describeColumn(column: Column, fileLength: number, format: 1 | 2): string {
  let text = `column ${shownString(column.name)}\n`
    + row('  ', 'type', column.type)
    + row('  ', 'layout', column.layout)
    + row('  ', 'documentsWithValue', String(column.documentsWithValue))
    + row('  ', 'valueCount', String(column.totalValueCount))
  const range = naturalRange(column)
  text += row('  ', range.label === '' ? 'min' : `min ${range.label}`, range.min)
    + row('  ', range.label === '' ? 'max' : `max ${range.label}`, range.max)
    + row('  ', 'section', `${column.sectionLength} bytes at offset ${column.sectionOffset} (${percent(column.sectionLength, fileLength)} of file)`)
  const dictionary = column.dictionary
  if (dictionary !== null) {
    const encoding = dictionary.encoding
    const dictionaryBytes = encoding === null ? DICTIONARY_HEADER_BYTES + 4 * (dictionary.termCount + 1) + dictionary.totalBytes : encoding.end - encoding.start
    text += row('  ', 'dictionary', `${plural(dictionary.termCount, 'term')}, ${dictionary.totalBytes} term bytes, ${dictionaryBytes} bytes`)
    if (encoding !== null) {
      // Format 2: the form a flush chose, and what decoding it at open cost.
      text += row('    ', 'form', `${encoding.formName} (${encoding.form}), ${percent(dictionaryBytes, DICTIONARY_HEADER_BYTES + 4 * (dictionary.termCount + 1) + dictionary.totalBytes)} of v1's form`)
        + row('    ', 'decoded at open', `${encoding.memoryBytes} bytes held (terms and their offsets; digits terms need none), ${encoding.decodeMilliseconds.toFixed(3)} ms at this open`)
    }
  }
  if (column.presence !== null) text += row('  ', 'presence bitmap', `${8 * Math.ceil(column.maxDoc / 64)} bytes`)
  const sequence = format === 1 ? describeSequence : describeCascade
  if (column.offsets !== null) text += sequence('offsets', column.offsets)
  text += sequence(column.longitudes === null ? 'values' : 'latitudes', column.values)
  if (column.longitudes !== null) text += sequence('longitudes', column.longitudes)
  return text
}

/** A v2 sequence as its cascade: one row per level (form, details, values, bytes), blocks with their kinds. */
function describeCascade(label: string, view: SequenceView): string {
  const lines = (summary: CascadeSummary, role: string, indent: string): string => {
    if (summary.form === 'blocks') {
      const kinds = [...summary.kinds].sort((a, b) => b[1].values - a[1].values)
        .map(([name, { blocks, values }]) => `${name} ${blocks} (${percent(values, summary.count)})`).join(', ')
      const blocks = [...summary.kinds.values()].reduce((total, kind) => total + kind.blocks, 0)
      return row(indent, role, `blocks: ${plural(summary.count, 'value')} in ${plural(blocks, 'block')}, ${summary.bytes} bytes`)
        + row(indent + '  ', 'block kinds', kinds)
    }
    return row(indent, role, `${summary.form} (${summary.detail}): ${plural(summary.count, 'value')}, ${summary.bytes} bytes`)
      + summary.children.map((child) => lines(child.summary, child.role, indent + '  ')).join('')
  }
  return lines(summarize(view, 2), label, '  ')
}

/** Min and max of the column as a person reads them, with a label when they are not of the values themselves. */
function naturalRange(column: Column): { label: string; min: string; max: string } {
  switch (column.type) {
    case 'integral':
      return { label: '', min: String(column.minRaw), max: String(column.maxRaw) }
    case 'date':
      return { label: '', min: formatDate(column.minRaw), max: formatDate(column.maxRaw) }
    case 'fractional':
      return { label: '', min: formatDouble(column.minRaw), max: formatDouble(column.maxRaw) }
    case 'bool':
      return { label: '', min: String(column.minRaw === 1n), max: String(column.maxRaw === 1n) }
    case 'keyword': {
      const last = column.dictionary!.termCount - 1
      return { label: 'term', min: shownString(column.term(0)), max: shownString(column.term(last)) }
    }
    case 'geo_point':
      return { label: 'latitude', min: formatDouble(column.minRaw), max: formatDouble(column.maxRaw) }
  }
}

/** ISO-8601 in UTC; raw milliseconds where Date cannot represent the instant. */
function formatDate(millis: bigint): string {
  if (millis < -MAX_DATE_MILLIS || millis > MAX_DATE_MILLIS) return `${millis} ms since the epoch (beyond the ISO range of Date)`
  return new Date(Number(millis)).toISOString()
}

/** The double of a sortable raw value; NaNs show their bit pattern, since payloads are kept. */
function formatDouble(raw: bigint): string {
  const value = sortableBitsToFloat64(raw)
  if (Number.isNaN(value)) {
    // SortableBits is its own inverse on bit patterns: undoing it gives the IEEE bits.
    const ieee = BigInt.asUintN(64, raw < 0n ? raw ^ 0x7fffffffffffffffn : raw)
    return `NaN (IEEE bits ${ieee.toString(16).padStart(16, '0')})`
  }
  return Object.is(value, -0) ? '-0' : String(value)
}

/** Count, blocks, bytes, and the block-kind and width histograms of one integer sequence. */
function describeSequence(label: string, sequence: SequenceView): string {
  const sequenceBytes = SEQUENCE_HEADER_BYTES + BLOCK_RECORD_BYTES * sequence.blockCount + sequence.dataLength
  const blocksByKind = [0, 0, 0]
  const valuesByKind = [0, 0, 0]
  const blocksByWidth = new Map<number, number>()
  for (let block = 0; block < sequence.blockCount; block++) {
    const word = sequence.records[6 * block]
    const kind = word & 0xff
    const width = word >>> 8
    blocksByKind[kind]++
    valuesByKind[kind] += Math.min(BLOCK_VALUES, sequence.count - block * BLOCK_VALUES)
    blocksByWidth.set(width, (blocksByWidth.get(width) ?? 0) + 1)
  }
  const kinds = BLOCK_KIND_NAMES.map((name, kind) =>
    `${name} ${blocksByKind[kind]} (${percent(valuesByKind[kind], sequence.count)}${kind === 0 ? ' of values' : ''})`).join(', ')
  const widths = [...blocksByWidth].sort(([a], [b]) => a - b)
    .map(([width, blocks]) => `${plural(width, 'bit')}: ${plural(blocks, 'block')}`).join(', ')
  return row('  ', label, `${plural(sequence.count, 'value')} in ${plural(sequence.blockCount, 'block')}, ${sequenceBytes} bytes`)
    + row('    ', 'block kinds', kinds)
    + row('    ', 'block widths', widths)
}
