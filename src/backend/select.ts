/**
 * Picks a backend from the user's choice.
 */
import type { ColumnsBackend } from './backend.js'
import { typeScriptBackend } from './ts/index.js'

/** What a user may pass as `backend`. */
export type BackendChoice = 'ts' | 'wasm' | 'auto' | ColumnsBackend

/** The backend for a choice; 'auto' is the pure-TS backend until the WebAssembly one lands. */
export function resolveBackend(choice: BackendChoice = 'auto'): ColumnsBackend {
  if (typeof choice === 'object') return choice
  switch (choice) {
    case 'ts':
    case 'auto':
      return typeScriptBackend
    case 'wasm':
      throw new Error('the WebAssembly backend is not available yet in this version of oixk; use backend "ts" (or "auto")')
    default:
      throw new TypeError(`unknown backend ${JSON.stringify(choice)}; expected "ts", "wasm" or "auto"`)
  }
}
