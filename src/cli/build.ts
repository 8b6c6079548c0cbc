/**
 * `oixk build`: a schema and an NDJSON file of documents in, one columns file out.
 */
import { access } from 'node:fs/promises'
import { InvalidInputError } from '../format/errors.js'
import { writeFileAtomic } from '../node/files.js'
import { ColumnsWriter, type ColumnsDocument } from '../write/columns-writer.js'
import { expectPositionals, type FlagSpec, parseArgs, parseDocumentCount, requireFlag } from './args.js'
import { CliError, type CliIo, describeCause, ExitCode, HelpRequest, InputError, writeText } from './io.js'
import { readJsonFile, readNdjson } from './input-files.js'

/** Usage text of `oixk build`. */
export const BUILD_USAGE = `Usage: oixk build --schema SCHEMA.json --docs DOCS.ndjson [--max-doc N] -o OUT

Writes the columns file of the documents in DOCS.ndjson (line k = document k-1).
  --schema FILE   {"fields":[{"name","type","column","facet","multi"}]}
  --docs FILE     one JSON object per line; null or absent = no value
  --max-doc N     documents in the segment (default: the number of lines)
  -o, --output F  the columns file to write (atomically)
`

const BUILD_FLAGS: readonly FlagSpec[] = [
  { name: 'schema', takesValue: true },
  { name: 'docs', takesValue: true },
  { name: 'max-doc', takesValue: true },
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

  const schema = await readJsonFile(schemaPath)
  let writer: ColumnsWriter
  try {
    writer = new ColumnsWriter(schema)
  } catch (error) {
    if (error instanceof InvalidInputError) throw new InputError(`${schemaPath}: ${error.message}`)
    throw error
  }

  let documentCount = 0
  for await (const { lineNumber, value } of readNdjson(documentsPath)) {
    const where = `${documentsPath}:${lineNumber}`
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new InputError(`${where}: expected a JSON object (a document; {} for one without values)`)
    }
    const document = lineNumber - 1
    if (requestedMaxDoc !== undefined && document >= requestedMaxDoc) {
      throw new InputError(`${where}: --max-doc ${requestedMaxDoc} is smaller than the number of documents in ${documentsPath}`)
    }
    try {
      writer.addDocument(document, value as ColumnsDocument)
    } catch (error) {
      if (error instanceof InvalidInputError) throw new InputError(`${where}: ${error.message}`)
      throw error
    }
    documentCount = lineNumber
  }

  const maxDoc = requestedMaxDoc ?? documentCount
  const bytes = writer.finish(maxDoc)
  if (bytes === null) {
    await reportNoFile(io, 'build', outputPath, `no document of ${documentsPath} has a value for a column or facet field`)
    return ExitCode.ok
  }
  await writeOutput(outputPath, bytes)
  return ExitCode.ok
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
  await writeText(io.stderr, `oixk ${command}: ${why}, so no columns file is written (a segment without columns has no file)${note}\n`)
}
