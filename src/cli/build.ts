/**
 * `oixk build`: a schema and an NDJSON file of documents in, one columns file out.
 */
import { access, stat } from 'node:fs/promises'
import { clipped, InvalidInputError, UnallocatableInputError } from '../format/errors.js'
import { InexactInteger } from '../format/exact-json.js'
import { writeFileAtomic } from '../node/files.js'
import { ColumnsWriter, type ColumnsDocument } from '../write/columns-writer.js'
import type { Schema } from '../write/schema.js'
import { BIGINT_REMEDY, DATE_BIGINT_REMEDY, invalidValue } from '../write/values.js'
import { expectPositionals, type FlagSpec, FORMAT_FLAG, formatFromFlag, parseArgs, parseDocumentCount, parseLimit, requireFlag } from './args.js'
import { CliError, type CliIo, describeCause, ExitCode, HelpRequest, InputError, oneLine, UsageError, writeText } from './io.js'
import { readJsonFile, readNdjson } from './input-files.js'
import { writtenSummary } from './summary.js'

/** Usage text of `oixk build`. */
export const BUILD_USAGE = `Usage: oixk build --schema SCHEMA.json --docs DOCS.ndjson [--max-doc N] [--max-errors N] [--format 1|2] -o OUT

Writes the columns file of the documents in DOCS.ndjson (line k = document k-1);
prints one line on success: "wrote OUT: D documents, C columns, B bytes".
  --schema FILE   {"fields":[{"name","type","column","facet","multi"}]}
  --docs FILE     one JSON object per line; null or absent = no value
  --max-doc N     documents in the segment (default: the number of lines)
  --max-errors N  report up to N bad lines before failing (default 1)
  --format 1|2    1: the normative OIXK v1 (default); 2: cascading encodings
                  (docs/format-v2.md), smaller, read by the same readers
  -o, --output F  the columns file to write (atomically)
`

const BUILD_FLAGS: readonly FlagSpec[] = [
  { name: 'schema', takesValue: true },
  { name: 'docs', takesValue: true },
  { name: 'max-doc', takesValue: true },
  { name: 'max-errors', takesValue: true },
  FORMAT_FLAG,
  { name: 'output', short: 'o', takesValue: true },
]

/** Runs `oixk build`; returns the exit code (errors are thrown for runCli to report). */
export async function runBuild(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, BUILD_FLAGS)
  if (parsed.help) throw new HelpRequest()
  expectPositionals(parsed, 0, 0, '')
  const schemaPath = requireFlag(parsed, 'schema')
  const documentsPath = requireFlag(parsed, 'docs')
  const outputPath = requireFlag(parsed, 'output')
  const maxDocFlag = parsed.flags.get('max-doc')
  const requestedMaxDoc = maxDocFlag === undefined ? undefined : parseDocumentCount(maxDocFlag, 'max-doc')
  const maxErrorsFlag = parsed.flags.get('max-errors')
  const maxErrors = maxErrorsFlag === undefined ? 1 : parseLimit(maxErrorsFlag, 'max-errors')
  const format = formatFromFlag(parsed)
  // OUT replaced an input it names (the documents, written over with the columns file) without a word.
  for (const [flag, inputPath] of [['--docs', documentsPath], ['--schema', schemaPath]] as const) {
    if (await sameFile(outputPath, inputPath)) throw new UsageError(`OUT ${outputPath} is the ${flag} file; give the columns file a path of its own`)
  }

  const schema = await readJsonFile(schemaPath)
  let writer: ColumnsWriter
  try {
    // Any JSON: the writer checks it at run time.
    writer = new ColumnsWriter(schema as unknown as Schema, { format })
  } catch (error) {
    if (error instanceof InvalidInputError) throw new InputError(`${schemaPath}: ${error.message}`)
    throw error
  }
  for (const warning of writer.warnings) await writeText(io.stderr, `oixk build: warning: ${oneLine(warning)}\n`)

  // Fields whose values must be integers: a literal that is not one, though its double is, is refused there.
  const integerFields = new Set((schema as unknown as Schema).fields.filter((field) => field.type === 'integral' || field.type === 'date').map((field) => field.name))
  const read = await addDocuments(writer, integerFields, documentsPath, requestedMaxDoc, maxErrors, io)
  if (read.badLines > 0) {
    // With the default of one, the bad line's message says it all, as before --max-errors existed.
    if (maxErrors > 1) {
      const why = read.badLines === maxErrors
        ? `stopped at line ${read.lineCount} of ${documentsPath} after ${read.badLines} bad lines (--max-errors ${maxErrors})`
        : `${read.badLines} bad line${read.badLines === 1 ? '' : 's'} in ${documentsPath}`
      await writeText(io.stderr, `oixk build: ${oneLine(`${why}; nothing was written to ${outputPath}`)}\n`)
    }
    return ExitCode.badInput
  }

  const maxDoc = requestedMaxDoc ?? read.lineCount
  let bytes: Uint8Array | null
  try {
    bytes = writer.finish(maxDoc)
  } catch (error) {
    // The tables of a maxDoc too large for this machine: blamed on the flag when it gave maxDoc.
    if (error instanceof UnallocatableInputError && maxDocFlag !== undefined) throw new CliError(`--max-doc ${maxDocFlag}: ${error.message}`, ExitCode.usageOrIo)
    throw error
  }
  if (bytes === null) {
    await reportNoFile(io, 'build', outputPath, `no document of ${documentsPath} has a value for a column or facet field`)
    return ExitCode.ok
  }
  await writeOutput(outputPath, bytes)
  await writeText(io.stdout, writtenSummary(outputPath, bytes))
  return ExitCode.ok
}

/** Whether both paths name one existing file (a link or another spelling of the path included). */
/** Whether two paths name one file (neither need exist). */
export async function sameFile(a: string, b: string): Promise<boolean> {
  try {
    const [first, second] = await Promise.all([stat(a), stat(b)])
    return first.dev === second.dev && first.ino === second.ino
  } catch {
    // One of them does not exist (yet): the later read or write says so.
    return false
  }
}

/** What reading the documents gave. */
interface DocumentsRead {
  /** Lines read: all of them, or up to the bad line that reached the limit. */
  lineCount: number
  badLines: number
}

/**
 * Adds every line of DOCS to the writer. A bad line (bad JSON, a duplicate
 * key, not an object, a value the writer refuses) is reported on stderr as
 * `oixk build: FILE:LINE: message` and skipped (the writer keeps nothing of a
 * document it refuses), so later lines are still checked; reading stops at
 * the maxErrors-th bad line. Problems that are not one line's (--max-doc too
 * small, a line too long to read, I/O) are thrown at once.
 */
async function addDocuments(
  writer: ColumnsWriter, integerFields: Set<string>, documentsPath: string, requestedMaxDoc: number | undefined, maxErrors: number, io: CliIo,
): Promise<DocumentsRead> {
  let lineCount = 0
  let badLines = 0
  for await (const { lineNumber, value, problem, inexact } of readNdjson(documentsPath)) {
    lineCount = lineNumber
    const where = `${documentsPath}:${lineNumber}`
    const document = lineNumber - 1
    if (requestedMaxDoc !== undefined && document >= requestedMaxDoc) {
      throw new InputError(`${where}: --max-doc ${requestedMaxDoc} is smaller than the number of documents in ${documentsPath}`)
    }
    const lineProblem = problem ?? addLine(writer, inexact ? integerFields : null, document, value)
    if (lineProblem === null) continue
    badLines++
    await writeText(io.stderr, `oixk build: ${oneLine(`${where}: ${lineProblem}`)}\n`)
    if (badLines >= maxErrors) break
  }
  return { lineCount, badLines }
}

/**
 * Adds one parsed line as a document; returns why it is bad, or null. `integerFields`: the line holds
 * InexactIntegers (else null), settled against those fields first.
 */
function addLine(writer: ColumnsWriter, integerFields: Set<string> | null, document: number, value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return 'expected a JSON object (a document; {} for one without values)'
  }
  try {
    if (integerFields !== null) settleInexact(value, null, document, integerFields)
    writer.addDocument(document, value as ColumnsDocument)
    return null
  } catch (error) {
    // NDJSON has no bigints: an integer beyond 2^53 arrives rounded only when written with a fraction or an exponent.
    if (error instanceof InvalidInputError) return error.message.replace(BIGINT_REMEDY, 'write its digits alone (no fraction or exponent) for an exact 64-bit value')
      .replace(DATE_BIGINT_REMEDY, 'beyond 2^53, write its digits alone (no fraction or exponent)')
      // A literal beyond i64 read exact is shown as the digits written, not as JavaScript's bigint (123n).
      .replace(/(-?\d+)n is outside the signed 64-bit range/, '$1 is outside the signed 64-bit range')
    throw error
  }
}

/**
 * A parsed value with every InexactInteger (a literal such as 1.00000000000000001) in it made its
 * double, in place, or refused in an integral or date field (`integerField`, or for the document's
 * own keys the names in `integerFields`) as the writer refuses 1.5. Returns the value.
 */
function settleInexact(value: unknown, integerField: string | null, document: number, integerFields?: Set<string>): unknown {
  if (value instanceof InexactInteger) {
    // An integer written with an exponent or a fraction (1e16) is that integer, exactly.
    if (integerField !== null && value.exact !== null) return value.exact
    if (integerField !== null) invalidValue(integerField, document, `value ${clipped(value.literal)} is not an integer (its nearest double is ${value.value})`)
    return value.value
  }
  if (value === null || typeof value !== 'object') return value
  for (const [key, each] of Object.entries(value)) {
    const settled = settleInexact(each, integerFields === undefined ? integerField : integerFields.has(key) ? key : null, document)
    // Defined, not assigned: a key "__proto__" (an own property here) would set the prototype.
    if (settled !== each) Object.defineProperty(value, key, { value: settled, writable: true, enumerable: true, configurable: true })
  }
  return value
}

/**
 * Writes OUT atomically. A failure is reported against OUT, not against the
 * hidden temp file that Node's error would name.
 */
export async function writeOutput(outputPath: string, bytes: Uint8Array): Promise<void> {
  try {
    await writeFileAtomic(outputPath, bytes)
  } catch (error) {
    throw new CliError(`${outputPath}: cannot write: ${describeCause(error)}`, ExitCode.usageOrIo)
  }
}

/**
 * Explains on stderr that no file was written because no field qualified.
 * An existing OUT is left alone (deleting user files is not build's job), and
 * the message says so, since OUT then does not describe these documents.
 */
export async function reportNoFile(io: CliIo, command: string, outputPath: string, why: string): Promise<void> {
  const exists = await access(outputPath).then(() => true, () => false)
  const note = exists ? `; the existing ${outputPath} was left unchanged and does NOT match this input` : ''
  await writeText(io.stderr, `oixk ${command}: ${oneLine(`${why}, so no columns file is written (a segment without columns has no file)${note}`)}\n`)
}
