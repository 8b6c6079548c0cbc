#!/usr/bin/env node
/**
 * The `oixk` bin: runs the command line and sets the exit code. Everything
 * else lives in run.ts so tests can run commands in-process.
 */
import { runCli } from './run.js'

// A closed pipe (`oixk dump f | head`) is the reader's choice, not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
  throw error
})

process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr })
