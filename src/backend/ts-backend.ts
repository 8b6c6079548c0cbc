/**
 * How the reader gets the pure-TypeScript backend. Here (Node, tsc's output and
 * the writer and full browser bundles) it is imported statically, so it is
 * always there. The browser reader bundle replaces this module (rollup.config.js)
 * with ts-backend-lazy.ts, which loads it as a separate chunk on demand.
 */
import type { ColumnsBackend } from './backend.js'
import { typeScriptBackend } from './ts/index.js'

/** The pure-TypeScript backend, or why it must be loaded with loadTypeScriptBackend() first. */
export function typeScriptBackendSync(): ColumnsBackend | string {
  return typeScriptBackend
}

/**
 * Loads the pure-TypeScript backend if it is not there yet and resolves to it.
 * Only the browser reader bundle needs this (it keeps that backend in a separate
 * chunk): before synchronous openColumns(bytes, { backend: 'ts' }) there, or for
 * 'auto' without initWasm(). Elsewhere it resolves at once.
 */
export async function loadTypeScriptBackend(): Promise<ColumnsBackend> {
  return typeScriptBackend
}
