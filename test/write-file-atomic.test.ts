/**
 * writeFileAtomic (src/node/files.ts): a replaced file is the new one or the old
 * one, never a torn mix, and no temp file is left behind.
 */
import { execFileSync } from 'node:child_process'
import { lstat, readFile, symlink, writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { writeFileAtomic } from '../src/node/index.js'
import { tempDirectory } from './helpers/temp-directory.js'

const { path, names, exists, expectNoTempFiles } = tempDirectory('oixk-atomic-')

describe('writeFileAtomic', () => {
  it('replaces the file and leaves no temp file', async () => {
    await writeFile(path('target.bin'), 'old contents')
    await writeFileAtomic(path('target.bin'), new TextEncoder().encode('new contents'))
    expect(await readFile(path('target.bin'), 'utf8')).toBe('new contents')
    await expectNoTempFiles()
  })

  it('keeps the old file intact when a write fails half-way', async () => {
    await writeFile(path('target.bin'), 'old contents')
    const failure = new Error('disk on fire')
    let calls = 0
    const result = writeFileAtomic(path('target.bin'), new Uint8Array(100).fill(7), {
      chunkBytes: 16,
      writeChunk: async (handle, chunk, position) => {
        // Three chunks land in the temp file, then the fourth dies after writing half of itself.
        if (++calls === 4) {
          await handle.write(chunk, 0, chunk.length / 2, position)
          throw failure
        }
        return (await handle.write(chunk, 0, chunk.length, position)).bytesWritten
      },
    })
    await expect(result).rejects.toBe(failure)
    expect(calls).toBe(4)
    expect(await readFile(path('target.bin'), 'utf8')).toBe('old contents')
    await expectNoTempFiles()
    expect((await names()).filter((name) => name.includes('target.bin'))).toEqual(['target.bin'])
  })

  it('creates a new file, and on failure creates none', async () => {
    await expect(writeFileAtomic(path('fresh.bin'), new Uint8Array(10), {
      writeChunk: async () => { throw new Error('no') },
    })).rejects.toThrow('no')
    expect(await exists('fresh.bin')).toBe(false)
    await writeFileAtomic(path('fresh.bin'), new Uint8Array([1, 2, 3]))
    expect([...await readFile(path('fresh.bin'))]).toEqual([1, 2, 3])
    await expectNoTempFiles()
  })

  it('writes through a symbolic link (the link stays one) and refuses a target that is not a regular file', async () => {
    await writeFile(path('real.bin'), 'old contents')
    await symlink(path('real.bin'), path('link.bin'))
    await writeFileAtomic(path('link.bin'), new TextEncoder().encode('new contents'))
    expect([(await lstat(path('link.bin'))).isSymbolicLink(), await readFile(path('real.bin'), 'utf8')]).toEqual([true, 'new contents'])
    // A FIFO, a link to a directory: each became a regular file (a FIFO's reader then waited forever; so did a
    // device, which this test does not risk).
    execFileSync('mkfifo', [path('out.fifo')])
    await symlink(path('.'), path('to-directory'))
    for (const [target, message] of [
      [path('out.fifo'), `EINVAL: not a regular file, open '${path('out.fifo')}'`],
      [path('to-directory'), `EISDIR: illegal operation on a directory, open '${path('to-directory')}'`],
    ]) {
      await expect(writeFileAtomic(target, new Uint8Array(4))).rejects.toThrow(message)
    }
    expect((await lstat(path('out.fifo'))).isFIFO()).toBe(true)
    await symlink(path('nowhere.bin'), path('dangling'))
    // Refused (as GNU cp does), naming the missing file at the chain's end, not only the link.
    await symlink(path('dangling'), path('to-dangling'))
    for (const link of ['dangling', 'to-dangling']) {
      await expect(writeFileAtomic(path(link), new Uint8Array(4))).rejects.toMatchObject({ code: 'ENOENT', path: path(link), dest: path('nowhere.bin') })
    }
    await expect(lstat(path('nowhere.bin'))).rejects.toMatchObject({ code: 'ENOENT' })
    await expectNoTempFiles()
  })

  it('names the file asked for, not its temporary file, when the temporary file cannot be made', async () => {
    const target = path('no-such-directory/x.columns')
    const result = writeFileAtomic(target, new Uint8Array(8))
    await expect(result).rejects.toThrow(`ENOENT: no such file or directory, open '${target}' (writing its temporary file in the same directory)`)
    await expect(result).rejects.toMatchObject({ code: 'ENOENT', syscall: 'open', path: target })
  })

  it('refuses bytes that are no Uint8Array before creating anything', async () => {
    // A string threw "bytes.subarray is not a function" from inside the write, and null a property error.
    await expect(writeFileAtomic(path('kind.bin'), 'abc' as unknown as Uint8Array)).rejects.toThrow(
      new TypeError(`writeFileAtomic(${JSON.stringify(path('kind.bin'))}): bytes must be a Uint8Array, got a string (3 characters)`),
    )
    await expect(writeFileAtomic(path('kind.bin'), null as unknown as Uint8Array)).rejects.toThrow(
      new TypeError(`writeFileAtomic(${JSON.stringify(path('kind.bin'))}): bytes must be a Uint8Array, got null`),
    )
    expect(await exists('kind.bin')).toBe(false)
    await expectNoTempFiles()
  })
})
