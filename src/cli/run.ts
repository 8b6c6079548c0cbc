/**
 * The oixk command line as a function: tests run commands in-process, and the
 * bin (main.ts) only wires it to the process.
 */
import { readFileSync } from 'node:fs'
import { BUILD_USAGE, runBuild } from './build.js'
import { DUMP_USAGE, runDump } from './dump.js'
import { INSPECT_USAGE, runInspect } from './inspect.js'
import { type CliIo, type CliOutput, ExitCode, reportError, terminalText, writeText } from './io.js'
import { MERGE_USAGE, runMerge } from './merge.js'
import { runVerify, VERIFY_USAGE } from './verify.js'

export type { CliIo, CliOutput } from './io.js'
export { ExitCode } from './io.js'

/** Top-level usage: commands, flags and exit codes. */
export const USAGE = `Usage: oixk COMMAND [ARGS]

Commands:
  build    --schema SCHEMA.json --docs DOCS.ndjson [--max-doc N] [--max-errors N] [--format 1|2] -o OUT
  dump     FILE [--backend ts|wasm|auto]
  verify   FILE... [--backend ts|wasm|auto]
  merge    -o OUT [--doc-map MAP.json] [--max-doc N] [--format 1|2] IN...
  inspect  FILE
  help [COMMAND]     usage of oixk or of one command (also: COMMAND --help)

Flags: --help, --version

Exit codes: 0 ok; 1 bad input or corrupt file; 2 usage or I/O error
(missing file, resident limit, unavailable backend); 3 internal error.
See docs/cli.md for the full reference.
`

interface Command {
  run(argv: readonly string[], io: CliIo): Promise<number>
  usage: string
}

const COMMANDS: ReadonlyMap<string, Command> = new Map([
  ['build', { run: runBuild, usage: BUILD_USAGE }],
  ['dump', { run: runDump, usage: DUMP_USAGE }],
  ['verify', { run: runVerify, usage: VERIFY_USAGE }],
  ['merge', { run: runMerge, usage: MERGE_USAGE }],
  ['inspect', { run: runInspect, usage: INSPECT_USAGE }],
])

/** The package version, read from package.json (two levels up from both src/cli and dist/cli). */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown }
  return String(manifest.version)
}

/**
 * stderr with control characters shown as \u escapes: messages quote field names, keys and terms as
 * given, and a name holding ESC [ 2 J cleared the terminal that printed its error.
 */
function terminalSafe(sink: CliOutput): CliOutput {
  return {
    write: (text: string) => sink.write(terminalText(text)),
    ...(sink.once === undefined ? {} : { once: sink.once.bind(sink) }),
  }
}

/**
 * Runs one oixk command line (argv without "node" and the script) and
 * returns its exit code; all output goes to io. Never throws for bad input:
 * every error becomes a message on io.stderr and an exit code (docs/cli.md).
 */
export async function runCli(argv: readonly string[], given: CliIo): Promise<number> {
  const io: CliIo = { stdout: given.stdout, stderr: terminalSafe(given.stderr) }
  const [name, ...rest] = argv
  if (name === '--version') {
    // Arguments after it are unexpected, as for any command (docs/cli.md: a usage error).
    if (rest.length > 0) {
      await writeText(io.stderr, `oixk: unexpected argument ${JSON.stringify(rest[0])} after --version\n\n${USAGE}`)
      return ExitCode.usageOrIo
    }
    await writeText(io.stdout, `${packageVersion()}\n`)
    return ExitCode.ok
  }
  // Asking for help is a success (stdout, exit 0); a missing or unknown command is a usage error (stderr, exit 2).
  if (name === undefined) {
    await writeText(io.stderr, USAGE)
    return ExitCode.usageOrIo
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const topic = COMMANDS.get(rest[0] ?? '')
    // `oixk help help`: help itself is the overview's topic.
    if (rest[0] !== undefined && topic === undefined && rest[0] !== 'help') {
      await writeText(io.stderr, `oixk: unknown command ${JSON.stringify(rest[0])}\n\n${USAGE}`)
      return ExitCode.usageOrIo
    }
    if (rest.length > 1) {
      await writeText(io.stderr, `oixk: unexpected argument ${JSON.stringify(rest[1])} after ${name} ${rest[0]}\n\n${USAGE}`)
      return ExitCode.usageOrIo
    }
    await writeText(io.stdout, topic?.usage ?? USAGE)
    return ExitCode.ok
  }
  const command = COMMANDS.get(name)
  if (command === undefined) {
    const what = name.startsWith('-') ? `unknown flag ${name}` : `unknown command ${JSON.stringify(name)}`
    await writeText(io.stderr, `oixk: ${what}\n\n${USAGE}`)
    return ExitCode.usageOrIo
  }
  try {
    return await command.run(rest, io)
  } catch (error) {
    return reportError(io, name, error, command.usage)
  }
}
