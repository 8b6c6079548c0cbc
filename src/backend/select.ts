/**
 * Picks a backend from the user's choice.
 */
import { BackendUnavailableError } from '../format/errors.js'
import type { ColumnsBackend } from './backend.js'
import { LIBRARY_COPY, OTHER_COPY } from '../format/library-copy.js'
import { typeScriptBackendSync } from './ts-backend.js'
import { createWasmBackend } from './wasm/index.js'
import { wasmUnavailableReason } from './wasm/runtime.js'

/** What a user may pass as `backend`. */
export type BackendChoice = 'ts' | 'wasm' | 'auto' | ColumnsBackend

let wasmBackend: ColumnsBackend | null = null

/** Throws the TypeError resolveBackend throws for a choice that names no backend (checked before any work). */
export function checkBackendChoice(choice: unknown): void {
  if (choice !== undefined && choice !== 'ts' && choice !== 'wasm' && choice !== 'auto' && !isThisCopysBackend(choice)) resolveBackend(choice as BackendChoice)
}

/** A backend object of this copy of the library (another copy's hands its results through that copy's words). */
function isThisCopysBackend(choice: unknown): choice is ColumnsBackend {
  return typeof choice === 'object' && choice !== null && (choice as ColumnsBackend).copy === LIBRARY_COPY
}

/** The backend for a choice; 'auto' is WebAssembly where it runs (with SIMD), else pure TypeScript. */
export function resolveBackend(choice: BackendChoice = 'auto'): ColumnsBackend {
  if (typeof choice === 'object') {
    if (isThisCopysBackend(choice)) return choice
    const got = choice === null ? 'null' : typeof (choice as { copy?: unknown }).copy === 'object' ? `a backend object of ${OTHER_COPY}; pass "ts" or "wasm"` : 'an object that is no backend'
    throw new TypeError(`backend must be "ts", "wasm", "auto" or a backend object of this oixk, got ${got}`)
  }
  switch (choice) {
    case 'ts':
      return typeScriptOrThrow('ts', '')
    case 'auto': {
      const reason = wasmUnavailableReason()
      return reason === null ? (wasmBackend ??= createWasmBackend()) : typeScriptOrThrow('auto', `${reason}; and `)
    }
    case 'wasm': {
      const reason = wasmUnavailableReason()
      if (reason !== null) throw new BackendUnavailableError('wasm', reason)
      return (wasmBackend ??= createWasmBackend())
    }
    default:
      throw new TypeError(`unknown backend ${JSON.stringify(choice)}; expected "ts", "wasm" or "auto"`)
  }
}

// Only the browser reader bundle can get here without the backend: it loads that on demand.
function typeScriptOrThrow(choice: string, wasmReason: string): ColumnsBackend {
  const backend = typeScriptBackendSync()
  if (typeof backend === 'string') throw new BackendUnavailableError(choice, wasmReason + backend)
  return backend
}
