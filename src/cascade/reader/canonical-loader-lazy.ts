/**
 * The browser reader bundle's canonical-loader.ts (swapped in by rollup.config.js):
 * format 2's full check encodes every sequence again, so it carries the writer;
 * pages that never verify a format 2 file never download it.
 */
import type { checkCanonicalDictionary, checkCanonicalV2 } from './canonical.js'

let loaded: typeof import('./canonical.js') | null = null
let loading: Promise<void> | null = null
const NOT_LOADED = 'the full check of a format 2 file encodes it again; the browser reader bundle loads that code on demand: await loadFullCheck() first'

/** The canonical check once loaded, else why it is not there yet. */
export function canonicalCheckSync(): typeof checkCanonicalV2 | string {
  return loaded?.checkCanonicalV2 ?? NOT_LOADED
}

/** The dictionary's canonical check once loaded, else why it is not there yet. */
export function dictionaryCheckSync(): typeof checkCanonicalDictionary | string {
  return loaded?.checkCanonicalDictionary ?? NOT_LOADED
}

/** Imports the full check's chunk (once; a failed load may be retried). */
export function loadFullCheck(): Promise<void> {
  if (loaded !== null) return Promise.resolve()
  return (loading ??= import('./canonical.js').then(
    (module) => { loaded = module },
    (error: unknown) => {
      loading = null
      throw error
    },
  ))
}
