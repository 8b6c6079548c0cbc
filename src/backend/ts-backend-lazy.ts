/**
 * The browser reader bundle's ts-backend.ts (swapped in by rollup.config.js): the
 * pure-TypeScript backend is a separate chunk next to the bundle, imported only
 * when WebAssembly cannot run or backend 'ts' is asked for, so pages where
 * WebAssembly runs never download it.
 */
import type { ColumnsBackend } from './backend.js'
import { chunkOfOtherCopy } from '../format/library-copy.js'

let loaded: ColumnsBackend | null = null
let loading: Promise<ColumnsBackend> | null = null
/** Why the chunk, loaded, was refused (another copy's): what a synchronous open then says. */
let refused: string | null = null

/** The pure-TypeScript backend once loaded, else why it is not there yet. */
export function typeScriptBackendSync(): ColumnsBackend | string {
  return loaded ?? refused ?? 'the browser reader bundle loads the pure-TypeScript backend on demand: await loadTypeScriptBackend() (or use openColumnsAsync) first'
}

/** Imports the pure-TypeScript backend's chunk (once; a failed load may be retried). */
export function loadTypeScriptBackend(): Promise<ColumnsBackend> {
  if (loaded !== null) return Promise.resolve(loaded)
  return (loading ??= import('./ts/index.js').then(
    (module) => {
      // The chunk imports what it shares from the bundle's URL: a bundle imported by another URL
      // (a query string, a redirect) gets a chunk bound to a second copy, whose answers it cannot read.
      refused = chunkOfOtherCopy(module.typeScriptBackend.copy, "the TypeScript backend's chunk")
      if (refused !== null) throw new Error(refused)
      return (loaded = module.typeScriptBackend)
    },
    (error: unknown) => {
      loading = null
      throw error
    },
  ))
}
