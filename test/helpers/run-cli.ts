import { runCli } from '../../src/cli/run.js'

/** What a CLI run gave: its exit code and everything it wrote. */
export interface CliResult { code: number; stdout: string; stderr: string }

/** Runs the CLI in this process with argv, capturing stdout and stderr. */
export async function run(...argv: string[]): Promise<CliResult> {
  const result = { code: -1, stdout: '', stderr: '' }
  result.code = await runCli(argv, {
    stdout: { write: (text: string) => { result.stdout += text; return true } },
    stderr: { write: (text: string) => { result.stderr += text; return true } },
  })
  return result
}
