#!/usr/bin/env node
/**
 * The `oixk` bin: runs the command line and sets the exit code. Everything
 * else lives in run.ts so tests can run commands in-process.
 */
import { describeCause, ExitCode } from './io.js'
import { runCli } from './run.js'

// Output that cannot be written is exit 2 (docs/cli.md), never an internal error's stack trace, and
// never a success: `oixk verify ... | head -1` had not checked every file when it exited 0. A closed
// pipe (`oixk dump f | head`) is the reader's choice and needs no message.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') process.stderr.write(`oixk: cannot write to stdout: ${describeCause(error)}\n`)
  process.exit(ExitCode.usageOrIo)
})

process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr })
