/**
 * openColumnsFromUrl against a local HTTP server: a file with and without
 * Content-Length, gzip-encoded (Content-Length then counts compressed bytes),
 * 404, over the resident limit (refused before the body is read, or while it
 * streams), aborted, cut short or too long; the reader gives what openColumns
 * gives for the same bytes on both backends, progress is reported, and nothing
 * stays allocated in linear memory after a close or a failure.
 */
import { createServer, type Server, type ServerResponse } from 'node:http'
import { gzipSync } from 'node:zlib'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { wasmRuntime } from '../src/backend/wasm/runtime.js'
import { CorruptIndexException, ResidentLimitError } from '../src/format/errors.js'
import { createValueBuffer } from '../src/read/buffers.js'
import { openColumns } from '../src/read/open.js'
import { openColumnsFromUrl } from '../src/read/open-url.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { flushColumns } from '../src/write/columns-writer.js'

const MAX_DOC = 40_000
const schema = { fields: [
  { name: 'n', type: 'integral', column: true },
  { name: 'k', type: 'keyword', facet: true },
  { name: 'x', type: 'fractional', column: true },
] }
const bytes = flushColumns(schema, Array.from({ length: MAX_DOC }, (_, d) => ({ n: ((d * 7919) % 100_003) - 50_000, k: `term${d % 37}`, x: d / 7 })), { maxDoc: MAX_DOC })!
const gzipped = gzipSync(bytes)
const corrupt = bytes.slice()
corrupt[100] ^= 1
const CHUNK = 16 * 1024
const HALF = 5 * CHUNK

const inUse = () => wasmRuntime().regions.bytesInUse
/** Paths the server was asked for, in order. */
const requested: string[] = []
const stalled = new Set<ServerResponse>()

/** Writes `data` in 16 KiB chunks, a turn of the event loop apart (so the client sees several). */
async function send(response: ServerResponse, data: Uint8Array, headers: Record<string, string | number>, end = true): Promise<void> {
  response.writeHead(200, { 'Content-Type': 'application/octet-stream', ...headers })
  for (let at = 0; at < data.length; at += CHUNK) {
    response.write(data.subarray(at, at + CHUNK))
    await new Promise((resolve) => setImmediate(resolve))
  }
  if (end) response.end()
}

const ROUTES: Record<string, (response: ServerResponse) => unknown> = {
  '/file.oixk': (response) => send(response, bytes, { 'Content-Length': bytes.length }),
  // No Content-Length: Node sends it chunked.
  '/chunked.oixk': (response) => send(response, bytes, {}),
  '/gzip.oixk': (response) => send(response, gzipped, { 'Content-Length': gzipped.length, 'Content-Encoding': 'gzip' }),
  '/gzip-chunked.oixk': (response) => send(response, gzipped, { 'Content-Encoding': 'gzip' }),
  '/corrupt.oixk': (response) => send(response, corrupt, { 'Content-Length': corrupt.length }),
  // A part of the file, though no range was asked for.
  '/partial.oixk': (response) => {
    response.writeHead(206, { 'Content-Type': 'application/octet-stream', 'Content-Range': `bytes 0-99/${bytes.length}`, 'Content-Length': 100 })
    response.end(bytes.subarray(0, 100))
  },
  '/missing.oixk': (response) => {
    response.writeHead(404, { 'Content-Type': 'text/plain' })
    response.end('not found')
  },
  // The first chunk, then nothing until the test ends: an abort (or a refusal) must not wait for the rest.
  '/stalled.oixk': (response) => { stalled.add(response); return send(response, bytes.subarray(0, CHUNK), { 'Content-Length': bytes.length }, false) },
  '/stalled-chunked.oixk': (response) => { stalled.add(response); return send(response, bytes.subarray(0, CHUNK), {}, false) },
  // No headers until the test ends.
  '/no-headers.oixk': (response) => { stalled.add(response) },
  // Half the declared body, then the connection drops.
  '/truncated.oixk': async (response) => {
    await send(response, bytes.subarray(0, HALF), { 'Content-Length': bytes.length }, false)
    setTimeout(() => response.socket?.destroy(), 50)
  },
}

let server: Server
let origin = ''
beforeAll(async () => {
  server = createServer((request, response) => {
    requested.push(request.url ?? '')
    const route = ROUTES[request.url ?? '']
    if (route === undefined) response.writeHead(500).end()
    else route(response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  // The WebAssembly backend's staging region comes with its first file and stays: take it before counting bytes in use.
  openColumns(bytes, { backend: 'wasm' }).close()
})
afterAll(async () => {
  for (const response of stalled) response.destroy()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})
afterEach(() => vi.unstubAllGlobals())

/** The reader holds exactly the file and reads every value as openColumns of the same bytes does. */
function expectSameAsOpenColumns(reader: ColumnsReader, backend: 'ts' | 'wasm'): void {
  expect(reader.backendName).toBe(backend)
  expect(Buffer.from(reader.bytes).equals(Buffer.from(bytes))).toBe(true)
  const expected = openColumns(bytes, { backend })
  expect(reader.columns.map((column) => column.name)).toEqual(expected.columns.map((column) => column.name))
  for (const column of expected.columns) {
    const want = new BigInt64Array(column.totalValueCount), got = new BigInt64Array(column.totalValueCount)
    column.readValues(0, want)
    reader.getColumn(column.name)!.readValues(0, got)
    expect(Buffer.from(got.buffer).equals(Buffer.from(want.buffer)), column.name).toBe(true)
  }
  expect(reader.getColumn('k')!.getKeywordString(MAX_DOC - 1)).toBe(`term${(MAX_DOC - 1) % 37}`)
  expect(reader.getColumn('x')!.getFloat64(700)).toBe(100)
  reader.verify()
  expected.close()
}

/** Progress calls: loaded rises, the last call has loaded === total === the file's size. */
function expectProgress(calls: [number, number | null][], totalWhileStreaming: number | null): void {
  expect(calls.length).toBeGreaterThanOrEqual(2)
  for (let index = 1; index < calls.length; index++) expect(calls[index][0]).toBeGreaterThanOrEqual(calls[index - 1][0])
  expect(calls.at(-1)).toEqual([bytes.length, bytes.length])
  for (const [, total] of calls.slice(0, -1)) expect(total).toBe(totalWhileStreaming)
}

describe.each(['ts', 'wasm'] as const)('openColumnsFromUrl (%s)', (backend) => {
  it('with Content-Length: the file as openColumns reads it, progress against the declared size', async () => {
    const calls: [number, number | null][] = []
    const reader = await openColumnsFromUrl(`${origin}/file.oixk`, { backend, maxDoc: MAX_DOC, onProgress: (loaded, total) => calls.push([loaded, total]) })
    expectProgress(calls, bytes.length)
    expectSameAsOpenColumns(reader, backend)
    expect(reader.fileName).toBe(`${origin}/file.oixk`)
    reader.close()
  })

  it('without Content-Length (chunked) and gzip-encoded, with and without one: the same file, total null until the end', async () => {
    for (const path of ['/chunked.oixk', '/gzip.oixk', '/gzip-chunked.oixk']) {
      const calls: [number, number | null][] = []
      const reader = await openColumnsFromUrl(new URL(path, origin), { backend, onProgress: (loaded, total) => calls.push([loaded, total]) })
      expectProgress(calls, null)
      expectSameAsOpenColumns(reader, backend)
      reader.close()
    }
  })

  it('a request that fails names the URL and why, with the network error as its cause', async () => {
    // fetch's own error said only "fetch failed", its reason two causes down. A port just closed: nothing listens there.
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as { port: number }
    await new Promise((resolve) => closed.close(resolve))
    const url = `http://127.0.0.1:${port}/file.oixk`
    const failed = await openColumnsFromUrl(url, { backend }).then(() => null, (error: unknown) => error)
    expect(failed).toBeInstanceOf(TypeError)
    expect((failed as Error).message).toBe(`${url}: fetch failed (connect ECONNREFUSED 127.0.0.1:${port})`)
    expect((failed as Error).cause).toBeInstanceOf(Error)
    // Port 1 is one fetch refuses to ask.
    await expect(openColumnsFromUrl('http://127.0.0.1:1/file.oixk', { backend })).rejects.toThrow('http://127.0.0.1:1/file.oixk: fetch failed (bad port)')
  })

  it('HTTP 206 (a part of the file, no range asked) names the URL and status', async () => {
    await expect(openColumnsFromUrl(`${origin}/partial.oixk`, { backend })).rejects.toThrow(new Error(`${origin}/partial.oixk: HTTP 206`))
  })

  it('HTTP 404 names the URL and status', async () => {
    await expect(openColumnsFromUrl(`${origin}/missing.oixk`, { backend })).rejects.toThrow(new Error(`${origin}/missing.oixk: HTTP 404`))
  })

  it('a Content-Length over maxResidentFileBytes is refused before the body is read', async () => {
    const onProgress = vi.fn()
    // The body never completes: reading it would hang the test.
    const refused = openColumnsFromUrl(`${origin}/stalled.oixk`, { backend, maxResidentFileBytes: bytes.length - 1, fileName: 'big.oixk', onProgress })
    await expect(refused).rejects.toThrow(ResidentLimitError)
    await expect(refused).rejects.toThrow(`big.oixk is ${bytes.length} bytes, over the resident limit of ${bytes.length - 1} bytes (maxResidentFileBytes)`)
    expect(onProgress).not.toHaveBeenCalled()
  })

  it('without a usable Content-Length the limit is enforced as the body streams (chunked, gzip)', async () => {
    const limit = 3 * CHUNK
    expect(gzipped.length).toBeLessThan(bytes.length - 1)
    for (const [path, maxResidentFileBytes] of [['/chunked.oixk', limit], ['/gzip.oixk', bytes.length - 1]] as const) {
      const calls: number[] = []
      const error = await openColumnsFromUrl(`${origin}${path}`, { backend, maxResidentFileBytes, onProgress: (loaded) => calls.push(loaded) }).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(ResidentLimitError)
      expect((error as ResidentLimitError).size).toBeGreaterThan(maxResidentFileBytes)
      // Not "is N bytes": N is what had arrived, not the file's size.
      expect((error as Error).message).toBe(`${origin}${path} is over the resident limit of ${maxResidentFileBytes} bytes (maxResidentFileBytes): ${(error as ResidentLimitError).size} bytes received so far, its size not given`)
      expect(calls.every((loaded) => loaded <= maxResidentFileBytes)).toBe(true)
    }
  })

  it('a body cut short, or longer than its Content-Length, is refused with both sizes', async () => {
    await expect(openColumnsFromUrl(`${origin}/truncated.oixk`, { backend }))
      .rejects.toThrow(new Error(`${origin}/truncated.oixk: ${HALF} bytes received, but Content-Length is ${bytes.length}`))
    // Past what a server can send over HTTP/1.1 with Content-Length: fetch answers with a made-up Response.
    for (const body of [bytes.slice(0, 1000), new Uint8Array([...bytes, 0, 0, 0])]) {
      vi.stubGlobal('fetch', async () => new Response(body, { headers: { 'Content-Length': String(bytes.length) } }))
      await expect(openColumnsFromUrl('https://example.test/f.oixk', { backend }))
        .rejects.toThrow(new Error(`https://example.test/f.oixk: ${body.length} bytes received, but Content-Length is ${bytes.length}`))
    }
  })

  it('a body without Content-Length that fails mid-way names the URL and the bytes received', async () => {
    // Chromium's own error here is a bare "TypeError: network error".
    let pulls = 0
    const failing = () => new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(bytes.slice(0, 1000))
        else controller.error(new TypeError('network error'))
      },
    })
    vi.stubGlobal('fetch', async () => {
      pulls = 0
      return new Response(failing())
    })
    const error = await openColumnsFromUrl('https://example.test/f.oixk', { backend, fileName: 'seg_1.columns' }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TypeError)
    expect((error as Error).message).toBe('https://example.test/f.oixk: the download failed after 1000 bytes: network error')
  })

  it('a Content-Length no memory can hold names the file', async () => {
    if (backend !== 'wasm') return
    vi.stubGlobal('fetch', async () => new Response(bytes.slice(0, 1000), { headers: { 'Content-Length': '5000000000' } }))
    const error = await openColumnsFromUrl('https://example.test/f.oixk', { backend, fileName: 'seg_1.columns', maxResidentFileBytes: 6e9 }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(RangeError)
    expect((error as Error).message).toMatch(/^seg_1\.columns: Content-Length 5000000000: /)
  })

  it('an abort rejects with AbortError, before the request or while the body streams', async () => {
    await expect(openColumnsFromUrl(`${origin}/file.oixk`, { backend, signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' })
    for (const path of ['/stalled.oixk', '/stalled-chunked.oixk']) {
      const controller = new AbortController()
      const aborted = openColumnsFromUrl(`${origin}${path}`, { backend, signal: controller.signal, onProgress: () => controller.abort() })
      await expect(aborted).rejects.toMatchObject({ name: 'AbortError' })
    }
  })

  it('an abort from the last progress call (every byte in) rejects, and frees what was allocated', async () => {
    // The read after the last chunk never settled once aborted: the promise stayed pending, its memory held.
    const before = backend === 'wasm' ? inUse() : 0
    for (const path of ['/file.oixk', '/chunked.oixk', '/gzip.oixk']) {
      const controller = new AbortController()
      const reason = new Error(`enough of ${path}`)
      const onProgress = (loaded: number, total: number | null) => { if (loaded === (total ?? bytes.length)) controller.abort(reason) }
      await expect(openColumnsFromUrl(`${origin}${path}`, { backend, signal: controller.signal, onProgress })).rejects.toBe(reason)
    }
    if (backend === 'wasm') expect(inUse()).toBe(before)
  })

  it('an abort rejects with the signal\'s reason, before the headers, while the body streams, and on a timeout', async () => {
    const reason = { why: 'the user moved on' }
    for (const path of ['/no-headers.oixk', '/stalled.oixk', '/stalled-chunked.oixk']) {
      const controller = new AbortController()
      const opening = openColumnsFromUrl(`${origin}${path}`, { backend, signal: controller.signal })
      setTimeout(() => controller.abort(reason), 50)
      // The very object given (fetch had wrapped it in a TypeError "…: user cancelled", the body's reader in an AbortError).
      expect(await opening.catch((caught: unknown) => caught), path).toBe(reason)
    }
    await expect(openColumnsFromUrl(`${origin}/no-headers.oixk`, { backend, signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ name: 'TimeoutError' })
  })

  it('every option is checked before the request is sent', async () => {
    const before = requested.length
    await expect(openColumnsFromUrl(`${origin}/stalled.oixk`, { backend, maxDoc: -1 })).rejects.toThrow(
      new RangeError(`${origin}/stalled.oixk: options.maxDoc must be an integer in [0, 2^32 - 1], not -1`),
    )
    await expect(openColumnsFromUrl(`${origin}/stalled.oixk`, { backend, decodedCodes: 'no' as unknown as boolean })).rejects.toThrow(
      new TypeError(`${origin}/stalled.oixk: options.decodedCodes must be true or false, not no`),
    )
    await expect(openColumnsFromUrl(`${origin}/stalled.oixk`, { backend, maxDecodedBytes: 0 })).rejects.toThrow(
      new RangeError(`${origin}/stalled.oixk: options.maxDecodedBytes must be a positive integer, not 0`),
    )
    await expect(openColumnsFromUrl(`${origin}/stalled.oixk`, { backend: 'bogus' as 'ts' })).rejects.toThrow(
      new TypeError('unknown backend "bogus"; expected "ts", "wasm" or "auto"'),
    )
    expect(requested.length).toBe(before)
  })

  it('a Content-Length repeated with one value is the size; any other that is not one number is no size', async () => {
    const headerOf = (value: string) => async () => new Response(bytes.slice(), { headers: { 'Content-Length': value } })
    for (const [value, total] of [[`${bytes.length}, ${bytes.length}`, bytes.length], [`${bytes.length}, 7`, null], ['12 bytes', null], ['-5', null], ['0x10', null]] as const) {
      vi.stubGlobal('fetch', headerOf(value))
      const calls: [number, number | null][] = []
      const reader = await openColumnsFromUrl('https://example.test/f.oixk', { backend, onProgress: (loaded, size) => calls.push([loaded, size]) })
      expect(calls[0][1], value).toBe(total)
      expect(calls.at(-1)).toEqual([bytes.length, bytes.length])
      reader.close()
    }
  })

  it('an empty body still reports its progress to loaded === total before the open refuses it', async () => {
    vi.stubGlobal('fetch', async () => new Response(new Uint8Array(0), { headers: { 'Content-Length': '0' } }))
    const calls: [number, number | null][] = []
    await expect(openColumnsFromUrl('https://example.test/empty.oixk', { backend, onProgress: (loaded, size) => calls.push([loaded, size]) })).rejects.toThrow(CorruptIndexException)
    expect(calls).toEqual([[0, 0]])
  })

  it('a corrupt file is refused with CorruptIndexException naming the file (default: the URL)', async () => {
    await expect(openColumnsFromUrl(`${origin}/corrupt.oixk`, { backend })).rejects.toThrow(CorruptIndexException)
    await expect(openColumnsFromUrl(`${origin}/corrupt.oixk`, { backend })).rejects.toThrow(new RegExp(`^${origin}/corrupt\\.oixk: checksum mismatch`))
    await expect(openColumnsFromUrl(`${origin}/corrupt.oixk`, { backend, fileName: 'seg_1.columns' })).rejects.toThrow(/^seg_1\.columns: /)
  })
})

describe('openColumnsFromUrl and WebAssembly linear memory', () => {
  const wasm = { backend: 'wasm' } as const

  it('the reader owns the memory the file was streamed into: close() gives it all back', async () => {
    const before = inUse()
    for (const path of ['/file.oixk', '/chunked.oixk', '/gzip.oixk']) {
      const reader = await openColumnsFromUrl(`${origin}${path}`, wasm)
      expect(inUse()).toBeGreaterThanOrEqual(before + bytes.length)
      reader.close()
      expect(inUse()).toBe(before)
    }
  })

  it('nothing stays allocated after any failure', async () => {
    const before = inUse()
    const failures: [string, object][] = [
      ['/missing.oixk', {}], ['/stalled.oixk', { maxResidentFileBytes: 1000 }], ['/chunked.oixk', { maxResidentFileBytes: 3 * CHUNK }],
      ['/truncated.oixk', {}], ['/corrupt.oixk', {}], ['/file.oixk', { maxDoc: MAX_DOC + 1 }],
    ]
    for (const [path, options] of failures) {
      await expect(openColumnsFromUrl(`${origin}${path}`, { ...wasm, ...options }), path).rejects.toThrow()
      expect(inUse(), path).toBe(before)
    }
    // Aborted half-way: the region of the declared size was allocated, and is freed.
    const controller = new AbortController()
    let during = 0
    const aborted = openColumnsFromUrl(`${origin}/stalled.oixk`, { ...wasm, signal: controller.signal, onProgress: () => { during = inUse(); controller.abort() } })
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' })
    expect(during).toBeGreaterThanOrEqual(before + bytes.length)
    expect(inUse()).toBe(before)
  })

  it('memory growing mid-download (which detaches views) does not lose the bytes already streamed', async () => {
    const memory = wasmRuntime().kernels.memory
    let grownFrom = 0
    const reader = await openColumnsFromUrl(`${origin}/file.oixk`, {
      ...wasm,
      onProgress: (loaded) => {
        if (grownFrom !== 0 || loaded === bytes.length) return
        grownFrom = memory.buffer.byteLength
        // As much again as the whole memory: it must grow.
        createValueBuffer('int64', grownFrom / 8, wasm).release()
      },
    })
    expect(memory.buffer.byteLength).toBeGreaterThan(grownFrom)
    expectSameAsOpenColumns(reader, 'wasm')
    reader.close()
  })
})
