/**
 * A temporary directory for one test file (made before its tests, removed after),
 * with the checks the file-writing tests share.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect } from 'vitest'

/** Registers the directory's hooks; call at a test file's top level. */
export function tempDirectory(prefix: string) {
  let directory = ''
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), prefix))
  })
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true })
  })
  return {
    /** The path of a name in the directory. */
    path: (name: string): string => join(directory, name),
    /** The names in the directory. */
    names: (): Promise<string[]> => readdir(directory),
    /** Whether the directory holds the name. */
    exists: async (name: string): Promise<boolean> => (await readdir(directory)).includes(name),
    /** No hidden temp file of writeFileAtomic is left anywhere in the directory. */
    expectNoTempFiles: async (): Promise<void> => {
      expect((await readdir(directory)).filter((name) => name.endsWith('.tmp'))).toEqual([])
    },
  }
}
