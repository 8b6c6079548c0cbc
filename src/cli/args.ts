/**
 * Command-line parsing for the oixk commands. Deliberately small and strict:
 * unknown flags, repeated flags and missing values are usage errors, so a
 * typo never silently changes what a command does.
 */
import { BackendUnavailableError } from '../format/errors.js'
import { resolveBackend } from '../backend/select.js'
import type { ColumnsBackend } from '../backend/backend.js'
import { MAX_COUNT } from '../format/constants.js'
import { CliError, ExitCode, UsageError } from './io.js'

/** A flag a command accepts. */
export interface FlagSpec {
  /** Long name without dashes ("schema"); reported as --schema. */
  name: string
  /** Single-letter alias without the dash ("o" for -o). */
  short?: string
  /** Whether the flag takes a value (--schema S.json); otherwise it is a switch. */
  takesValue: boolean
}

/** Flags and positionals of one command line. */
export interface ParsedArgs {
  /** Values by long name; switches map to "true". */
  flags: Map<string, string>
  positionals: string[]
  /** --help or -h was given: the caller prints usage. */
  help: boolean
}

/**
 * Parses argv against the command's flags. Accepts `--name value`,
 * `--name=value`, `-o value`, and `--` to end flags. A value may not start
 * with `--` unless given with `=` (so `-o --docs` is an error, not a file
 * named "--docs").
 */
export function parseArgs(argv: readonly string[], specs: readonly FlagSpec[]): ParsedArgs {
  const flags = new Map<string, string>()
  const positionals: string[] = []
  let help = false
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]
    if (argument === '--') {
      positionals.push(...argv.slice(index + 1))
      break
    }
    if (argument === '--help' || argument === '-h') {
      help = true
      continue
    }
    if (!argument.startsWith('-') || argument === '-') {
      positionals.push(argument)
      continue
    }
    const equals = argument.indexOf('=')
    const isLong = argument.startsWith('--')
    const key = isLong ? argument.slice(2, equals < 0 ? undefined : equals) : argument.slice(1, equals < 0 ? undefined : equals)
    const spec = specs.find((candidate) => (isLong ? candidate.name === key : candidate.short === key))
    if (spec === undefined && equals >= 0 && key === (isLong ? 'help' : 'h')) throw new UsageError(`flag ${isLong ? '--' : '-'}${key} takes no value`)
    if (spec === undefined) throw new UsageError(`unknown flag ${isLong ? '--' : '-'}${key}`)
    if (flags.has(spec.name)) throw new UsageError(`flag --${spec.name} is given more than once`)
    if (!spec.takesValue) {
      if (equals >= 0) throw new UsageError(`flag --${spec.name} takes no value`)
      flags.set(spec.name, 'true')
      continue
    }
    let value: string
    if (equals >= 0) {
      value = argument.slice(equals + 1)
    } else {
      const next = argv[index + 1]
      if (next === undefined || next.startsWith('--')) throw new UsageError(`flag --${spec.name} needs a value`)
      value = next
      index++
    }
    if (value === '') throw new UsageError(`flag --${spec.name} needs a non-empty value`)
    flags.set(spec.name, value)
  }
  return { flags, positionals, help }
}

/** The value of a flag the command cannot do without. */
export function requireFlag(parsed: ParsedArgs, name: string): string {
  const value = parsed.flags.get(name)
  if (value === undefined) throw new UsageError(`missing required flag --${name}`)
  return value
}

/** A document count given on the command line: a plain decimal integer in [0, 2^32 - 1]. */
export function parseDocumentCount(value: string, flag: string): number {
  // Only plain digits: Number() would also accept "0x10", "1e3" and " 7 ".
  if (!/^[0-9]+$/.test(value)) throw new UsageError(`--${flag} must be a non-negative integer, got ${JSON.stringify(value)}`)
  const count = Number(value)
  if (count > MAX_COUNT) throw new UsageError(`--${flag} ${value} exceeds the format's limit of ${MAX_COUNT} documents`)
  return count
}

/**
 * A limit given on the command line (--max-errors): a plain decimal integer
 * in [1, 2^32 - 1]; a segment has fewer documents than that, so more is never needed.
 */
export function parseLimit(value: string, flag: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) === 0) {
    throw new UsageError(`--${flag} must be a positive integer, got ${JSON.stringify(value)}`)
  }
  const limit = Number(value)
  if (limit > MAX_COUNT) throw new UsageError(`--${flag} ${value} exceeds ${MAX_COUNT}, the format's limit of documents`)
  return limit
}

/** Flag spec of --backend, shared by the commands that decode values. */
export const BACKEND_FLAG: FlagSpec = { name: 'backend', takesValue: true }

/** `--format 1|2`: the file format build and merge write (default 1, the normative spec). */
export const FORMAT_FLAG: FlagSpec = { name: 'format', takesValue: true }

/** The format --format names (1 when absent). */
export function formatFromFlag(parsed: ParsedArgs): 1 | 2 {
  const value = parsed.flags.get('format') ?? '1'
  if (value !== '1' && value !== '2') throw new UsageError(`--format must be 1 or 2, got ${JSON.stringify(value)}`)
  return value === '1' ? 1 : 2
}

/**
 * The backend --backend names, resolved before any file is read so an
 * unavailable backend fails once, with exit 2, rather than once per file.
 */
export function backendFromFlag(parsed: ParsedArgs): ColumnsBackend {
  const name = parsed.flags.get('backend') ?? 'auto'
  if (name !== 'ts' && name !== 'wasm' && name !== 'auto') {
    throw new UsageError(`--backend must be ts, wasm or auto, got ${JSON.stringify(name)}`)
  }
  try {
    return resolveBackend(name)
  } catch (error) {
    if (error instanceof BackendUnavailableError) throw new CliError(error.message, ExitCode.usageOrIo)
    throw error
  }
}

/** Refuses extra positionals (or too few), naming what the command expects. */
export function expectPositionals(parsed: ParsedArgs, minimum: number, maximum: number, what: string): void {
  const count = parsed.positionals.length
  if (count < minimum) throw new UsageError(`missing ${what}`)
  if (count > maximum) throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[maximum])}`)
}
