/**
 * The asynchronous way in, for browsers: a page's main thread may not compile the
 * kernels synchronously, so WebAssembly is set up with a promise first; and the
 * browser reader bundle loads the pure-TypeScript fallback only when it is needed.
 */
import type { ColumnsBackend } from '../backend/backend.js'
import { type BackendChoice, resolveBackend } from '../backend/select.js'
import { loadTypeScriptBackend } from '../backend/ts-backend.js'
import { initWasmRuntime, wasmUnavailableReason } from '../backend/wasm/runtime.js'
import { openColumns, type OpenOptions } from './open.js'
import type { ColumnsReader } from './reader.js'
import { fileBytesOf } from './file-input.js'

/**
 * Prepares the WebAssembly backend without blocking (call once, anywhere, before
 * synchronous openColumns on a browser's main thread). Resolves to true when backend
 * 'auto' will be WebAssembly, false when it falls back to pure TypeScript (no
 * WebAssembly, no SIMD, or blocked by a Content-Security-Policy; see
 * wasmUnavailableReason()); in the browser reader bundle the fallback is then
 * loaded before this resolves. Never rejects.
 */
export async function initWasm(): Promise<boolean> {
  if ((await initWasmRuntime()) === null) return true
  // A fallback that failed to load (offline, say) shows up as BackendUnavailableError from openColumns.
  await loadTypeScriptBackend().catch(() => undefined)
  return false
}

/**
 * openColumns once the backend it needs is ready: the one call a browser needs.
 * 'auto' (default) is WebAssembly where it runs, else pure TypeScript (loaded
 * first in the browser reader bundle); 'wasm' rejects with BackendUnavailableError
 * where WebAssembly cannot run; 'ts' loads the pure-TypeScript backend first.
 */
export async function openColumnsAsync(bytes: Uint8Array | ArrayBuffer | SharedArrayBuffer | null, options: OpenOptions = {}): Promise<ColumnsReader> {
  // Refused before waiting for the kernels, so a wrong argument fails at once.
  const file = bytes === null ? null : fileBytesOf(bytes, 'openColumnsAsync')
  await readyBackend(options.backend)
  return openColumns(file, options)
}

/**
 * The backend for a choice once what it needs is ready, as openColumnsAsync readies it
 * (WebAssembly initialised, the TypeScript chunk loaded where needed).
 */
export async function readyBackend(choice: BackendChoice = 'auto'): Promise<ColumnsBackend> {
  const wasmReason = choice === 'auto' || choice === 'wasm' ? await initWasmRuntime() : null
  if (choice === 'ts' || (choice === 'auto' && wasmReason !== null)) await loadTypeScriptBackend()
  return resolveBackend(choice)
}

export { loadTypeScriptBackend, wasmUnavailableReason }
