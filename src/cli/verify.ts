/**
 * `oixk verify`: the full check of each file, one verdict line per file.
 */
import type { ColumnsBackend } from '../backend/backend.js'
import { CorruptIndexException } from '../format/errors.js'
import { openColumnsFile } from '../node/files.js'
import { BACKEND_FLAG, backendFromFlag, expectPositionals, parseArgs } from './args.js'
import { type CliIo, describeCause, ExitCode, exitCodeOf, HelpRequest, oneLine, writeText } from './io.js'

/** Usage text of `oixk verify`. */
export const VERIFY_USAGE = `Usage: oixk verify FILE... [--backend ts|wasm|auto]

Opens each file and runs the full check. Prints one line per file on stdout:
  FILE: ok | FILE: corrupt: MESSAGE | FILE: error: MESSAGE
Exit 0 if all are ok, 1 if any is corrupt, 2 on usage or I/O errors
(missing or unreadable file, over the resident limit); the highest applies.
`

/** Runs `oixk verify`; returns the exit code (usage errors are thrown for runCli to report). */
export async function runVerify(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, [BACKEND_FLAG])
  if (parsed.help) throw new HelpRequest()
  // The flag's value first: a forgotten one took the file after it (--backend FILE).
  const backend = backendFromFlag(parsed)
  expectPositionals(parsed, 1, Infinity, 'the columns FILE(s) to verify')
  let exitCode: number = ExitCode.ok
  for (const path of parsed.positionals) {
    const verdict = await verifyFile(path, backend)
    exitCode = Math.max(exitCode, verdict.exitCode)
    await writeText(io.stdout, `${oneLine(path)}: ${oneLine(verdict.line)}\n`)
  }
  return exitCode
}

/** The verdict on one file: the text after "FILE: " and its exit code. */
async function verifyFile(path: string, backend: ColumnsBackend): Promise<{ line: string; exitCode: number }> {
  try {
    const reader = await openColumnsFile(path, { backend })
    try {
      reader.verify()
    } finally {
      reader.close()
    }
    return { line: 'ok', exitCode: ExitCode.ok }
  } catch (error) {
    if (error instanceof CorruptIndexException) return { line: `corrupt: ${error.detail}`, exitCode: ExitCode.badInput }
    const exitCode = exitCodeOf(error)
    // Only environment problems are a per-file verdict; a bug in oixk must not pass as "error: ..." and go unnoticed.
    if (exitCode !== ExitCode.usageOrIo) throw error
    return { line: `error: ${describeCause(error)}`, exitCode }
  }
}
