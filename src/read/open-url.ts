/**
 * openColumnsFromUrl: a columns file downloaded straight into the backend's memory
 * (with WebAssembly, a region of linear memory, as a FileBuffer holds) and opened where
 * it lies. The reader owns that region: its close() frees it.
 */
import type { ResidentFile } from '../backend/backend.js'
import { ResidentLimitError } from '../format/errors.js'
import { checkBackendChoice } from '../backend/select.js'
import { readyBackend } from './open-async.js'
import { checkOpenOptions, namedOpenOptions, type OpenOptions, openResidentFile, residentLimit } from './open.js'
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
 * The size a Content-Length gives, or null: absent, or not one decimal number (a response may
 * repeat the header, which the Fetch API joins as "N, N": the same N repeated is that size).
 */
function contentLength(header: string | null): number | null {
  if (header === null) return null
  const values = new Set(header.split(',').map((value) => value.trim()))
  const [only] = values
  return values.size === 1 && /^\d{1,15}$/.test(only) ? Number(only) : null
}

/** An error's message with its innermost cause's ("fetch failed" alone says nothing of why). */
function withCause(error: Error): string {
  let cause: unknown = error
  while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause
  return cause === error ? error.message : `${error.message} (${(cause as Error).message})`
}

/**
 * Fetches a columns file and opens it like openColumnsAsync (backend readied first; errors
 * name `options.fileName`, by default the URL). With a Content-Length (and no
 * Content-Encoding) a file over `maxResidentFileBytes` is refused before its body is read,
 * and the body is streamed into memory of exactly that size, so it is held once; otherwise
 * the limit is checked as chunks arrive and they are copied in once at the end. Rejects
 * with an Error naming the URL for an HTTP error status (or 206) or a body that disagrees with its
 * Content-Length; on any failure nothing stays allocated.
 */
export async function openColumnsFromUrl(url: string | URL, options: UrlOpenOptions = {}): Promise<ColumnsReader> {
  const fileName = options.fileName ?? String(url)
  const limit = residentLimit(fileName, options)
  // Every option is checked before the request is sent, not after the download.
  checkOpenOptions(fileName, options)
  checkBackendChoice(options.backend)
  const signal = options.signal
  // An abort rejects with the signal's reason, as the caller gave it (fetch and the body's reader may wrap it).
  const aborted = (error: unknown): unknown => (signal?.aborted ? signal.reason : error)
  // The kernels compile while the request is under way.
  // A network failure names the URL (fetch's own "fetch failed" does not).
  const fetched = fetch(url, { signal }).catch((error: Error) => {
    throw signal?.aborted ? signal.reason : new TypeError(`${url}: ${withCause(error)}`, { cause: error })
  })
  const [backend, response] = await Promise.all([readyBackend(options.backend), fetched])
  const headers = response.headers, body = response.body?.getReader()
  // A compressed body arrives decoded, so its Content-Length (the compressed size) is not the file's.
  const size = headers.has('Content-Encoding') ? null : contentLength(headers.get('Content-Length'))
  const chunks: Uint8Array[] = []
  let file: ResidentFile | null = null
  let received = 0
  try {
    // 206 answers a range request, which this one is not: a part of the file is no file.
    if (!response.ok || !body || response.status === 206) throw new Error(`${url}: HTTP ${response.status}`)
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
      // An abort after the last chunk left the next read pending for ever (undici): asked before each read.
      signal?.throwIfAborted()
      // A body cut short fails the read ("terminated", "network error"): with a size declared, that is the mismatch below.
      const { done, value } = await body.read().catch((error: Error) => {
        if (signal?.aborted) throw error
        if (size === null) throw new TypeError(`${url}: the download failed after ${received} bytes: ${withCause(error)}`, { cause: error })
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
    // No chunk came (an empty body): the progress still ends at loaded === total.
    if (received === 0) options.onProgress?.(0, 0)
    if (received > limit) throw new ResidentLimitError(fileName, received, limit, 'received')
    if (!file) {
      file = backend.loadWith(received, (bytes) => {
        let at = 0
        for (const chunk of chunks) bytes.set(chunk, (at += chunk.length) - chunk.length)
      })
      options.onProgress?.(received, received)
    }
    // An abort from the last onProgress: the promise rejects, as for any abort before it settles.
    signal?.throwIfAborted()
  } catch (error) {
    file?.release()
    // Closes the connection; a stream that already failed (aborted) rejects here, which is no news.
    body?.cancel().catch(() => {})
    throw aborted(error)
  }
  return openResidentFile(file, backend, namedOpenOptions(options, fileName))
}
