/**
 * `oixk merge`: several columns files in, one out, through doc maps (or plain
 * concatenation). The result is byte-identical to a build of the surviving
 * documents in their new order.
 */
import { type ExactJsonValue, InexactInteger } from '../format/exact-json.js'
import { clipped, InvalidInputError, UnallocatableInputError } from '../format/errors.js'
import { openColumnsFile } from '../node/files.js'
import type { ColumnsReader } from '../read/reader.js'
import { mergeColumns, type MergeSource } from '../write/merge.js'
import { expectPositionals, type FlagSpec, FORMAT_FLAG, formatFromFlag, parseArgs, parseDocumentCount, requireFlag } from './args.js'
import { reportNoFile, sameFile, writeOutput } from './build.js'
import { CliError, type CliIo, ExitCode, HelpRequest, InputError, UsageError, writeText } from './io.js'
import { readJsonFile } from './input-files.js'
import { writtenSummary } from './summary.js'

/** Usage text of `oixk merge`. */
export const MERGE_USAGE = `Usage: oixk merge -o OUT [--doc-map MAP.json] [--max-doc N] [--format 1|2] IN...

Merges columns files into OUT (written atomically); prints one line on success:
"wrote OUT: D documents, C columns, B bytes".
  --doc-map FILE  JSON array with one doc map per input, in input order; a doc
                  map lists, for each document of its input, the new doc id or
                  -1 to delete it. Without it, inputs are concatenated in order.
  --max-doc N     documents in the merged segment (default: the highest new
                  doc id + 1; for concatenation, the sum of the inputs' maxDoc)
  --format 1|2    the format of OUT (default 1); inputs may be of either, so
                  one input without a doc map converts a file
  -o, --output F  the columns file to write
`

const MERGE_FLAGS: readonly FlagSpec[] = [
  { name: 'output', short: 'o', takesValue: true },
  { name: 'doc-map', takesValue: true },
  { name: 'max-doc', takesValue: true },
  FORMAT_FLAG,
]

/** Doc ids live in Int32Arrays in merge, so new ids stop below 2^31. */
const MAX_NEW_DOC_ID = 0x7fffffff

/** Runs `oixk merge`; returns the exit code (errors are thrown for runCli to report). */
export async function runMerge(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, MERGE_FLAGS)
  if (parsed.help) throw new HelpRequest()
  // Flags' values first: a flag whose value was forgotten took the file after it (--format IN).
  const outputPath = requireFlag(parsed, 'output')
  const mapPath = parsed.flags.get('doc-map')
  const maxDocFlag = parsed.flags.get('max-doc')
  const requestedMaxDoc = maxDocFlag === undefined ? undefined : parseDocumentCount(maxDocFlag, 'max-doc')
  const format = formatFromFlag(parsed)
  expectPositionals(parsed, 1, Infinity, 'the input columns files (IN...)')

  const inputs = parsed.positionals
  // OUT replaced the doc map it names with the columns file without a word (build refuses its inputs alike).
  if (mapPath !== undefined && await sameFile(outputPath, mapPath)) {
    throw new UsageError(`OUT ${outputPath} is the --doc-map file; give the columns file a path of its own`)
  }
  const readers: ColumnsReader[] = []
  try {
    for (const path of inputs) readers.push(await openColumnsFile(path))
    const { sources, documentCount } = mapPath === undefined
      ? concatenate(readers)
      : fromDocMaps(mapPath, await readJsonFile(mapPath, { markInexactIntegers: true }), readers)
    const maxDoc = requestedMaxDoc ?? documentCount
    let bytes: Uint8Array | null
    try {
      bytes = mergeColumns(sources, { maxDoc, format })
    } catch (error) {
      if (error instanceof UnallocatableInputError) {
        throw new CliError(mergeProblem(error.message, inputs, mapPath, maxDocFlag), ExitCode.usageOrIo)
      }
      if (error instanceof InvalidInputError) throw new InputError(mergeProblem(error.message, inputs, mapPath, maxDocFlag))
      throw error
    }
    if (bytes === null) {
      await reportNoFile(io, 'merge', outputPath, 'no surviving document has a value for any column')
      return ExitCode.ok
    }
    await writeOutput(outputPath, bytes)
    await writeText(io.stdout, writtenSummary(outputPath, bytes))
    return ExitCode.ok
  } finally {
    for (const reader of readers) reader.close()
  }
}

/**
 * A core merge message ("merge: ...", sources counted from 0) as the CLI says it: each source by its
 * file, and blamed on what caused it: a target outside [0, maxDoc) or taken twice on the map (and
 * --max-doc, when given, for one outside), a field's clash of types on the files it names, anything
 * else (a maxDoc no memory holds) on --max-doc when given.
 */
function mergeProblem(message: string, inputs: readonly string[], mapPath: string | undefined, maxDocFlag: string | undefined): string {
  // A clash of types quotes a field name, which may itself hold "source 1": read from the end.
  const clash = /^merge: (field ".*" is \w+ in )source (\d+)( but \w+ in )source (\d+)$/s.exec(message)
  if (clash !== null) return `${clash[1]}${inputs[Number(clash[2])]}${clash[3]}${inputs[Number(clash[4])]}`
  const said = message.replace(/^merge: /, '').replace(/\bsource (\d+)/g, (whole, source: string) => inputs[Number(source)] ?? whole)
  const outside = message.includes(', outside [0, ')
  if (outside || message.includes(' is the target of ')) {
    const where = mapPath === undefined ? (maxDocFlag === undefined ? null : `--max-doc ${maxDocFlag}`)
      : outside && maxDocFlag !== undefined ? `${mapPath} with --max-doc ${maxDocFlag}` : mapPath
    return where === null ? said : `${where}: ${said}`
  }
  if (maxDocFlag === undefined) return said
  return `--max-doc ${maxDocFlag}: ${said}`
}

interface PlannedMerge {
  sources: MergeSource[]
  /** Highest new doc id + 1: the default maxDoc. */
  documentCount: number
}

/** Inputs one after the other: input i's documents follow all of input i-1's. */
function concatenate(readers: readonly ColumnsReader[]): PlannedMerge {
  let next = 0
  const sources = readers.map((reader) => {
    if (next + reader.maxDoc > MAX_NEW_DOC_ID + 1) {
      // A limit of merge (new ids are Int32Array entries), not a fault of the files: exit 2.
      const why = next === 0 ? `its maxDoc ${reader.maxDoc} is more than merge takes` : 'concatenated after the inputs before it, its documents would need ids'
      throw new CliError(`${reader.fileName}: ${why} (new document ids stop below 2^31)`, ExitCode.usageOrIo)
    }
    const docMap = new Int32Array(reader.maxDoc)
    for (let old = 0; old < docMap.length; old++) docMap[old] = next + old
    next += reader.maxDoc
    return { reader, docMap }
  })
  return { sources, documentCount: next }
}

/** Checks the shape of MAP.json against the inputs and turns it into Int32Array doc maps. */
function fromDocMaps(mapPath: string, json: ExactJsonValue, readers: readonly ColumnsReader[]): PlannedMerge {
  if (!Array.isArray(json) || json.length !== readers.length) {
    const got = Array.isArray(json) ? `${json.length}` : `not an array`
    throw new InputError(`${mapPath}: expected a JSON array of ${readers.length} doc map(s), one per input in order; got ${got}`)
  }
  let highest = -1
  const sources = readers.map((reader, source) => {
    const entries = json[source]
    if (!Array.isArray(entries)) throw new InputError(`${mapPath}: doc map ${source} (for ${reader.fileName}) is not an array`)
    if (entries.length !== reader.maxDoc) {
      throw new InputError(`${mapPath}: doc map ${source} has ${entries.length} entries, but ${reader.fileName} has ${reader.maxDoc} documents`)
    }
    const docMap = new Int32Array(entries.length)
    entries.forEach((target, old) => {
      // 1.00000000000000001 or -0.99999999999999999 read as 1 or -1 moved or deleted a document unseen.
      if (target instanceof InexactInteger && target.exact !== null) {
        throw new InputError(`${mapPath}: doc map ${source} entry ${old} is ${clipped(target.literal)}; expected a new doc id in [0, 2^31 - 1] or -1 (deleted)`)
      }
      if (target instanceof InexactInteger) {
        throw new InputError(`${mapPath}: doc map ${source} entry ${old} is ${clipped(target.literal)}, not an integer (its nearest double is ${target.value}); expected a new doc id in [0, 2^31 - 1] or -1 (deleted)`)
      }
      if (typeof target !== 'number' || !Number.isInteger(target) || target < -1 || target > MAX_NEW_DOC_ID) {
        throw new InputError(`${mapPath}: doc map ${source} entry ${old} is ${typeof target === 'bigint' ? String(target) : JSON.stringify(target)}; expected a new doc id in [0, 2^31 - 1] or -1 (deleted)`)
      }
      docMap[old] = target
      if (target > highest) highest = target
    })
    return { reader, docMap }
  })
  return { sources, documentCount: highest + 1 }
}
