/**
 * Picks a backend from the user's choice.
 */
import { BackendUnavailableError } from '../format/errors.js'
import type { ColumnsBackend } from './backend.js'
import { typeScriptBackend } from './ts/index.js'
import { createWasmBackend } from './wasm/index.js'
import { wasmUnavailableReason } from './wasm/runtime.js'

/** What a user may pass as `backend`. */
export type BackendChoice = 'ts' | 'wasm' | 'auto' | ColumnsBackend

let wasmBackend: ColumnsBackend | null = null

/** The backend for a choice; 'auto' is WebAssembly where it runs (with SIMD), else pure TypeScript. */
export function resolveBackend(choice: BackendChoice = 'auto'): ColumnsBackend {
  if (typeof choice === 'object') return choice
  switch (choice) {
    case 'ts':
      return typeScriptBackend
    case 'auto':
      return wasmUnavailableReason() === null ? (wasmBackend ??= createWasmBackend()) : typeScriptBackend
    case 'wasm': {
      const reason = wasmUnavailableReason()
      if (reason !== null) throw new BackendUnavailableError('wasm', reason)
      return (wasmBackend ??= createWasmBackend())
    }
    default:
      throw new TypeError(`unknown backend ${JSON.stringify(choice)}; expected "ts", "wasm" or "auto"`)
  }
}
