/**
 * The asynchronous way in, for browsers: a page's main thread may not compile the
 * kernels synchronously, so WebAssembly is set up with a promise first.
 */
import { initWasmRuntime, wasmUnavailableReason } from '../backend/wasm/runtime.js'
import { openColumns, type OpenOptions } from './open.js'
import type { ColumnsReader } from './reader.js'

/**
 * Prepares the WebAssembly backend without blocking (call once, anywhere, before
 * synchronous openColumns on a browser's main thread). Resolves to true when backend
 * 'auto' will be WebAssembly, false when it falls back to pure TypeScript (no
 * WebAssembly, no SIMD, or blocked by a Content-Security-Policy; see
 * wasmUnavailableReason()). Never rejects.
 */
export async function initWasm(): Promise<boolean> {
  return (await initWasmRuntime()) === null
}

/**
 * openColumns after initWasm() when the backend is 'auto' (default) or 'wasm':
 * the one call a browser needs. 'auto' falls back to pure TypeScript where
 * WebAssembly cannot run; 'wasm' rejects with BackendUnavailableError there.
 */
export async function openColumnsAsync(bytes: Uint8Array | null, options: OpenOptions = {}): Promise<ColumnsReader> {
  const backend = options.backend ?? 'auto'
  if (backend === 'auto' || backend === 'wasm') await initWasmRuntime()
  return openColumns(bytes, options)
}

export { wasmUnavailableReason }
