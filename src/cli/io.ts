/**
 * What every command shares: the output streams, the exit codes, and how an
 * error turns into a message and an exit code.
 */
import { CorruptIndexException, InvalidInputError, ResidentLimitError, UnallocatableInputError } from '../format/errors.js'

/** A text sink: process.stdout/stderr, or a collector in tests. */
export interface CliOutput {
  /** Returns false (like a Node stream) when the caller should wait for 'drain'. */
  write(text: string): boolean | void
  once?(event: 'drain', listener: () => void): unknown
}

/** Where a command writes. */
export interface CliIo {
  stdout: CliOutput
  stderr: CliOutput
}

/** The exit codes, part of the CLI contract (docs/cli.md). */
export const ExitCode = {
  ok: 0,
  /** Bad input content: schema, documents, doc map, corrupt columns file. */
  badInput: 1,
  /** Usage errors and environment problems: flags, missing/unreadable files, resident limit, unavailable backend. */
  usageOrIo: 2,
  /** A bug in oixk itself. */
  internal: 3,
} as const

/** An error whose exit code the command decided. */
export class CliError extends Error {
  readonly exitCode: number
  constructor(message: string, exitCode: number) {
    super(message)
    this.name = 'CliError'
    this.exitCode = exitCode
  }
}

/** Bad command line: reported with the command's usage, exit 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.usageOrIo)
    this.name = 'UsageError'
  }
}

/** --help or `oixk help`: reportError prints only the usage, on stdout, with exit 0 (docs/cli.md). */
export class HelpRequest extends UsageError {
  constructor() {
    super('help requested')
    this.name = 'HelpRequest'
  }
}

/** Bad input content at a known place (file and line); exit 1. */
export class InputError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.badInput)
    this.name = 'InputError'
  }
}

/** Writes text, waiting for 'drain' when the sink asks, so huge dumps do not pile up in memory. */
export async function writeText(output: CliOutput, text: string): Promise<void> {
  if (output.write(text) === false && output.once !== undefined) {
    await new Promise<void>((resolve) => output.once!('drain', resolve))
  }
}

/** True for Node system errors (ENOENT, EACCES, EISDIR, ...). */
function isSystemError(error: unknown): error is Error & { code: string } {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'string'
}

const SYSTEM_ERROR_TEXT: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a path component is not a directory',
  ENOSPC: 'no space left on device',
  EEXIST: 'file already exists',
}

/** Why an error happened, without the file it happened to (the caller names the file). */
export function describeCause(error: unknown): string {
  // Node's own words otherwise, less the code before them and the call and path after them.
  if (isSystemError(error)) {
    const text = SYSTEM_ERROR_TEXT[error.code] ?? error.message.replace(/^[A-Z]+: /, '').replace(/, \w+ '[^']*'/, '')
    // A symbolic link to no file: which file it names.
    const dest = (error as { dest?: unknown }).dest
    return error.code === 'ENOENT' && typeof dest === 'string' ? `${text} (a symbolic link to ${terminalText(dest)}, which does not exist)` : text
  }
  if (error instanceof CorruptIndexException) return `corrupt: ${error.detail}`
  return error instanceof Error ? error.message : String(error)
}

/**
 * One-line message for an error, naming the file where known. Node's system
 * error messages repeat the syscall; the CLI keeps only the path and the cause.
 */
export function describeError(error: unknown): string {
  if (isSystemError(error)) {
    const path = (error as { path?: unknown }).path
    return typeof path === 'string' ? `${path}: ${describeCause(error)}` : describeCause(error)
  }
  if (error instanceof CorruptIndexException) return `${error.fileName}: ${describeCause(error)}`
  return describeCause(error)
}

/** The exit code an error means (see ExitCode). */
export function exitCodeOf(error: unknown): number {
  if (error instanceof CliError) return error.exitCode
  if (error instanceof UnallocatableInputError) return ExitCode.usageOrIo
  if (error instanceof InvalidInputError || error instanceof CorruptIndexException || error instanceof SyntaxError) {
    return ExitCode.badInput
  }
  if (error instanceof ResidentLimitError || isSystemError(error)) return ExitCode.usageOrIo
  return ExitCode.internal
}

/** Every control character (C0, DEL, C1): none may act on a terminal, nor split a message meant as one line. */
const LINE_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g
/** The same but the tab and line feed, which multi-line text (usage) keeps. */
const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g

const escaped = (character: string) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`

/**
 * Text for one line of output, its control characters (a line feed in a field name or a path, an
 * ESC in a corrupt file's names) shown as \u escapes.
 */
export function oneLine(text: string): string {
  return text.replace(LINE_CONTROLS, escaped)
}

/** Text for a terminal: control characters but tabs and line feeds shown as \u escapes (ESC starts a terminal's commands). */
export function terminalText(text: string): string {
  return text.replace(TERMINAL_CONTROLS, escaped)
}

/** Prints `oixk COMMAND: message` (plus usage or a stack where useful) on stderr; returns the exit code. */
export async function reportError(io: CliIo, command: string, error: unknown, usage: string): Promise<number> {
  if (error instanceof HelpRequest) {
    await writeText(io.stdout, usage)
    return ExitCode.ok
  }
  const code = exitCodeOf(error)
  let text = `oixk ${command}: ${oneLine(describeError(error))}\n`
  if (error instanceof UsageError) text += `\n${usage}`
  else if (code === ExitCode.internal && error instanceof Error && error.stack !== undefined) {
    text = `oixk ${command}: internal error (please report): ${error.stack}\n`
  }
  await writeText(io.stderr, text)
  return code
}
