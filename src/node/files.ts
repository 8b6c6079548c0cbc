/**
 * Columns files on a Node file system: opening with the resident limit
 * enforced before any byte is read, and writing so that a crash or error never
 * leaves a torn file under the target name.
 */
import { randomBytes } from 'node:crypto'
import { constants, readSync } from 'node:fs'
import { type FileHandle, lstat, open, readlink, realpath, rename, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { CorruptIndexException, ResidentLimitError } from '../format/errors.js'
import type { ResidentFile } from '../backend/backend.js'
import { resolveBackend } from '../backend/select.js'
import { describeInput } from '../read/file-input.js'
import { namedOpenOptions, type OpenOptions, openResidentFile, residentLimit } from '../read/open.js'
import type { ColumnsReader } from '../read/reader.js'

/**
 * Opens a columns file from disk and validates it like openColumns
 * (errors name `options.fileName`, which defaults to the path).
 *
 * The file is stat'ed through the same handle that reads it, and a file larger
 * than `maxResidentFileBytes` (default 1 GiB) is refused with a
 * ResidentLimitError before a single byte is read or a buffer allocated.
 */
export async function openColumnsFile(path: string, options: OpenOptions = {}): Promise<ColumnsReader> {
  const fileName = options.fileName ?? path
  const limit = residentLimit(fileName, options)
  // Non-blocking, so a FIFO is refused by the regular-file check instead of hanging open() until a writer appears.
  const backend = resolveBackend(options.backend)
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  let file: ResidentFile
  try {
    // fstat on the open handle, not stat on the path: the path could be swapped between the two calls.
    const stats = await handle.stat()
    if (!stats.isFile()) throw notRegularFile(path, stats.isDirectory())
    if (stats.size > limit) throw new ResidentLimitError(fileName, stats.size, limit)
    // Straight into the backend's memory (linear memory for WebAssembly): no second copy.
    // Synchronous on purpose: an await could let another open grow that memory and detach the view.
    file = backend.loadWith(stats.size, (destination) => readExactlySync(handle.fd, destination, fileName))
  } finally {
    await handle.close()
  }
  return openResidentFile(file, backend, namedOpenOptions(options, fileName))
}

/** The error for a path that is no regular file, shaped like Node's system errors (code, path). */
function notRegularFile(path: string, isDirectory: boolean, syscall = 'read'): Error {
  const error = new Error(isDirectory ? `EISDIR: illegal operation on a directory, ${syscall} '${path}'` : `EINVAL: not a regular file, ${syscall} '${path}'`)
  return Object.assign(error, { code: isDirectory ? 'EISDIR' : 'EINVAL', path, syscall })
}

/**
 * Fills destination from the start of the file, reading never more than its length, so a
 * file growing after the stat cannot push the read past the resident limit; a file that
 * shrank meanwhile is reported as corrupt.
 */
function readExactlySync(descriptor: number, destination: Uint8Array, fileName: string): void {
  let filled = 0
  while (filled < destination.length) {
    const bytesRead = readSync(descriptor, destination, filled, destination.length - filled, filled)
    if (bytesRead === 0) break
    filled += bytesRead
  }
  if (filled < destination.length) {
    throw new CorruptIndexException(fileName, `file is ${filled} bytes, shorter than the ${destination.length} bytes it had when opened`)
  }
}

/** Writes `chunk` at `position` of the open temp file; returns how many bytes it wrote (may be fewer). */
export type WriteChunk = (handle: FileHandle, chunk: Uint8Array, position: number) => Promise<number>

/** Options of writeFileAtomic. */
export interface AtomicWriteOptions {
  /** Replaces the low-level write, so tests can fail a write half-way (default: handle.write). */
  writeChunk?: WriteChunk
  /** Bytes handed to one writeChunk call (default 8 MiB). */
  chunkBytes?: number
}

const DEFAULT_CHUNK_BYTES = 8 << 20

const writeWithHandle: WriteChunk = async (handle, chunk, position) => {
  const { bytesWritten } = await handle.write(chunk, 0, chunk.length, position)
  return bytesWritten
}

/**
 * Replaces `target` with `bytes` atomically: readers see either the old file or
 * the complete new one, never a prefix. A symbolic link is written through (its
 * target replaced, the link kept; a link to no file is refused, as GNU cp does,
 * ENOENT naming the missing file in `dest`); a target that exists and is not a regular
 * file (a directory, FIFO, device or socket) is refused before anything is
 * written (EISDIR or EINVAL "not a regular file").
 *
 * The bytes go to a uniquely named temp file in the target's directory (same
 * file system, so the rename is atomic), which is fsync'ed, renamed over the
 * target, and then the directory is fsync'ed (where the platform allows) so
 * the rename itself survives a crash. On any error before the rename the temp
 * file is removed and the error rethrown; the target is untouched. The new
 * file gets default permissions (0666 less the umask), not the old file's.
 */
export async function writeFileAtomic(target: string, bytes: Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`writeFileAtomic(${JSON.stringify(target)}): bytes must be a Uint8Array, got ${describeInput(bytes)}`)
  const writeChunk = options.writeChunk ?? writeWithHandle
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES
  if (!(Number.isInteger(chunkBytes) && chunkBytes > 0)) throw new RangeError(`chunkBytes must be a positive integer, got ${chunkBytes}`)
  const path = await replaceablePath(target)
  const directory = dirname(path)
  // Hidden, and unique per process and call, so concurrent writers never share a temp file.
  const temporaryPath = join(directory, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  let handle: FileHandle | null = null
  try {
    // 'wx' refuses to reuse an existing name rather than clobbering someone else's file.
    handle = await open(temporaryPath, 'wx')
    let position = 0
    while (position < bytes.length) {
      const chunk = bytes.subarray(position, Math.min(position + chunkBytes, bytes.length))
      const written = await writeChunk(handle, chunk, position)
      if (!(Number.isInteger(written) && written > 0 && written <= chunk.length)) {
        throw new Error(`${temporaryPath}: write returned ${written} for a ${chunk.length}-byte chunk`)
      }
      position += written
    }
    await handle.sync()
    await handle.close()
    handle = null
    await rename(temporaryPath, path).catch(async (error: unknown) => {
      // A directory in the way: said as such (rename over '.' says 'resource busy or locked').
      const isDirectory = await stat(path).then((stats) => stats.isDirectory(), () => false)
      throw isDirectory ? notRegularFile(path, true, 'rename') : error
    })
  } catch (error) {
    if (handle !== null) await handle.close().catch(() => undefined)
    await unlink(temporaryPath).catch(() => undefined)
    throw namingTarget(error, temporaryPath, target)
  }
  await syncDirectory(directory)
}

/**
 * A file system error about the temporary file made to name the file the caller asked for (the
 * temporary name means nothing to them): code, errno and syscall kept, `path` the target.
 */
function namingTarget(error: unknown, temporaryPath: string, target: string): unknown {
  const failure = error as { path?: unknown; message?: unknown }
  if (!(error instanceof Error) || failure.path !== temporaryPath) return error
  error.message = `${error.message.split(`'${temporaryPath}'`).join(`'${target}'`)} (writing its temporary file in the same directory)`
  failure.path = target
  return error
}

/**
 * The regular file a write replaces: the path itself (absent, or a regular file), or a symbolic
 * link's target, so the link stays a link. A FIFO, a device or a socket would be replaced by a
 * regular file (`-o /dev/null` as root replaced the device): refused as not a regular file.
 */
async function replaceablePath(path: string): Promise<string> {
  const found = await lstat(path).catch((error: { code?: string }) => {
    if (error.code === 'ENOENT') return null
    throw error
  })
  if (found === null || found.isFile()) return path
  if (found.isSymbolicLink()) {
    const resolved = await realpath(path).catch(async (error: { code?: string }) => {
      throw error.code === 'ENOENT' ? await danglingLinkError(path) : error
    })
    const stats = await stat(resolved)
    if (stats.isFile()) return resolved
    throw notRegularFile(path, stats.isDirectory(), 'open')
  }
  throw notRegularFile(path, found.isDirectory(), 'open')
}

/** ENOENT for a link whose chain of links ends at no file: `dest` is that missing file. */
async function danglingLinkError(link: string): Promise<Error> {
  let current = link
  for (let hop = 0; hop < 40; hop++) {
    const next = resolve(dirname(current), await readlink(current))
    const found = await lstat(next).catch(() => null)
    if (found === null) {
      const message = `ENOENT: no such file or directory, open '${link}' -> '${next}'`
      return Object.assign(new Error(message), { code: 'ENOENT', errno: -2, syscall: 'open', path: link, dest: next })
    }
    if (!found.isSymbolicLink()) break
    current = next
  }
  return Object.assign(new Error(`ENOENT: no such file or directory, open '${link}'`), { code: 'ENOENT', errno: -2, syscall: 'open', path: link })
}

/** Error codes meaning "this platform or file system cannot fsync a directory", not a failed fsync. */
const DIRECTORY_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EPERM', 'EACCES', 'EINVAL', 'EBADF', 'ENOTSUP', 'EOPNOTSUPP'])

/** Makes a completed rename durable; skipped where directories cannot be opened or synced (e.g. Windows). */
async function syncDirectory(directory: string): Promise<void> {
  let handle: FileHandle | null = null
  try {
    handle = await open(directory, 'r')
    await handle.sync()
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (typeof code !== 'string' || !DIRECTORY_SYNC_UNSUPPORTED.has(code)) throw error
  } finally {
    if (handle !== null) await handle.close().catch(() => undefined)
  }
}
