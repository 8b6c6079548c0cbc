/**
 * writeFileAtomic (src/node/files.ts): a replaced file is the new one or the old
 * one, never a torn mix, and no temp file is left behind.
 */
import { readFile, writeFile } from 'node:fs/promises'
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
