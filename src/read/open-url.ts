/**
 * openColumnsFromUrl: a columns file downloaded straight into the backend's memory
 * (with WebAssembly, a region of linear memory, as a FileBuffer holds) and opened where
 * it lies. The reader owns that region: its close() frees it.
 */
import type { ResidentFile } from '../backend/backend.js'
import { ResidentLimitError } from '../format/errors.js'
import { readyBackend } from './open-async.js'
import { type OpenOptions, openResidentFile, residentLimit } from './open.js'
import type { ColumnsReader } from './reader.js'

/** Options of openColumnsFromUrl: openColumns's, plus progress and cancellation. */
export interface UrlOpenOptions extends OpenOptions {
  /**
   * Called as the body arrives: bytes received, and the file's size, or null when the
   * response does not give it (no Content-Length, or a Content-Encoding). The last call
   * before the open has loaded === total.
   */
  onProgress?: (loaded: number, total: number | null) => void
  /** Aborts the download: the promise rejects with the signal's reason (an AbortError by default). */
  signal?: AbortSignal
}

/**
 * Fetches a columns file and opens it like openColumnsAsync (backend readied first; errors
 * name `options.fileName`, by default the URL). With a Content-Length (and no
 * Content-Encoding) a file over `maxResidentFileBytes` is refused before its body is read,
 * and the body is streamed into memory of exactly that size, so it is held once; otherwise
 * the limit is checked as chunks arrive and they are copied in once at the end. Rejects
 * with an Error naming the URL for an HTTP error status or a body that disagrees with its
 * Content-Length; on any failure nothing stays allocated.
 */
export async function openColumnsFromUrl(url: string | URL, options: UrlOpenOptions = {}): Promise<ColumnsReader> {
  const fileName = options.fileName ?? String(url)
  const limit = residentLimit(fileName, options)
  // The kernels compile while the request is under way.
  // A network failure names the URL (fetch's own "fetch failed" does not); an abort stays an AbortError.
  const fetched = fetch(url, { signal: options.signal }).catch((error: Error) => {
    throw error.name === 'AbortError' ? error : new TypeError(`${url}: ${error.message}`, { cause: error })
  })
  const [backend, response] = await Promise.all([readyBackend(options.backend), fetched])
  const headers = response.headers, length = headers.get('Content-Length'), body = response.body?.getReader()
  // A compressed body arrives decoded, so its Content-Length (the compressed size) is not the file's.
  const size = length === null || headers.has('Content-Encoding') ? null : +length
  const chunks: Uint8Array[] = []
  let file: ResidentFile | null = null
  let received = 0
  try {
    if (!response.ok || !body) throw new Error(`${url}: HTTP ${response.status}`)
    if (size !== null) {
      if (size > limit) throw new ResidentLimitError(fileName, size, limit)
      try {
        file = backend.loadWith(size, () => {})
      } catch (error) {
        // A length no memory can hold (past 4 GiB with WebAssembly, under a raised limit).
        throw error instanceof RangeError ? new RangeError(`${fileName}: Content-Length ${size}: ${error.message}`, { cause: error }) : error
      }
    }
    for (;;) {
      // A body cut short fails the read ("terminated", "network error"): with a size declared, that is the mismatch below.
      const { done, value } = await body.read().catch((error: Error) => {
        if (options.signal?.aborted) throw error
        if (size === null) throw new TypeError(`${url}: the download failed after ${received} bytes: ${error.message}`, { cause: error })
        return { done: true as const, value: undefined }
      })
      // Past the declared size (an error below) or, without one, past the limit: no need to read on.
      if (done || (received += value.length) > (size ?? limit)) break
      // file.bytes again for each chunk: an open meanwhile may have grown memory, detaching older views.
      if (file) file.bytes.set(value, received - value.length)
      else chunks.push(value)
      options.onProgress?.(received, size)
    }
    if (received !== (size ?? received)) throw new Error(`${url}: ${received} bytes received, but Content-Length is ${size}`)
    if (received > limit) throw new ResidentLimitError(fileName, received, limit, true)
    if (!file) {
      file = backend.loadWith(received, (bytes) => {
        let at = 0
        for (const chunk of chunks) bytes.set(chunk, (at += chunk.length) - chunk.length)
      })
      options.onProgress?.(received, received)
    }
  } catch (error) {
    file?.release()
    // Closes the connection; a stream that already failed (aborted) rejects here, which is no news.
    body?.cancel().catch(() => {})
    throw error
  }
  return openResidentFile(file, backend, { ...options, fileName })
}
