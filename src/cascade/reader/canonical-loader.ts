/**
 * How the full check gets format 2's canonical check (which encodes every
 * sequence again, so it carries the whole writer). Here (Node, tsc's output,
 * the full and writer browser bundles) it is imported statically. The browser
 * reader bundle replaces this module (rollup.config.js) with
 * canonical-loader-lazy.ts: the writer is a chunk loaded by loadFullCheck().
 */
import { checkCanonicalDictionary, checkCanonicalV2 } from './canonical.js'

/** The canonical check of a v2 sequence, or why it must be loaded first. */
export function canonicalCheckSync(): typeof checkCanonicalV2 | string {
  return checkCanonicalV2
}

/** The canonical check of a v2 keyword dictionary, or why it must be loaded first. */
export function dictionaryCheckSync(): typeof checkCanonicalDictionary | string {
  return checkCanonicalDictionary
}

/**
 * Loads what reader.verify() needs for a format 2 file. Only the browser reader
 * bundle needs this (it keeps that code in a separate chunk); elsewhere it resolves at once.
 */
export async function loadFullCheck(): Promise<void> {}
