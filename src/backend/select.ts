/**
 * Picks a backend from the user's choice.
 */
import { BackendUnavailableError } from '../format/errors.js'
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
      throw new BackendUnavailableError('wasm', 'the WebAssembly backend is not in this version of oixk yet; use "ts" (or "auto")')
    default:
      throw new TypeError(`unknown backend ${JSON.stringify(choice)}; expected "ts", "wasm" or "auto"`)
  }
}
