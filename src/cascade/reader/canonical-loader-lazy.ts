/**
 * The browser reader bundle's canonical-loader.ts (swapped in by rollup.config.js):
 * format 2's full check encodes every sequence again, so it carries the writer;
 * pages that never verify a format 2 file never download it.
 */
import type { checkCanonicalDictionary, checkCanonicalV2 } from './canonical.js'
import { chunkOfOtherCopy } from '../../format/library-copy.js'

let loaded: typeof import('./canonical.js') | null = null
let loading: Promise<void> | null = null
/** Why the chunk, loaded, was refused (another copy's): what verify() then says. */
let refused: string | null = null
const NOT_LOADED = 'the full check of a format 2 file encodes it again; the browser reader bundle loads that code on demand: await loadFullCheck() first'

/** The canonical check once loaded, else why it is not there yet. */
export function canonicalCheckSync(): typeof checkCanonicalV2 | string {
  return loaded?.checkCanonicalV2 ?? refused ?? NOT_LOADED
}

/** The dictionary's canonical check once loaded, else why it is not there yet. */
export function dictionaryCheckSync(): typeof checkCanonicalDictionary | string {
  return loaded?.checkCanonicalDictionary ?? refused ?? NOT_LOADED
}

/** Imports the full check's chunk (once; a failed load may be retried). */
export function loadFullCheck(): Promise<void> {
  if (loaded !== null) return Promise.resolve()
  return (loading ??= import('./canonical.js').then(
    (module) => {
      // As the TypeScript backend's chunk (ts-backend-lazy.ts): bound to this copy, or refused.
      refused = chunkOfOtherCopy(module.LIBRARY_COPY, "the full check's chunk")
      if (refused !== null) throw new Error(refused)
      loaded = module
    },
    (error: unknown) => {
      loading = null
      throw error
    },
  ))
}
