/**
 * Instantiates the kernels through @assemblyscript/loader (the Node build). The
 * loader supplies env.abort and env.trace, decoding the AssemblyScript strings
 * a module passes them: a kernel build that aborts throws "abort: <message> at
 * <file>:<line>:<column>" instead of failing to instantiate for want of the
 * import. (The release kernels import nothing: no asserts, `--runtime stub`.)
 * Only the instance is kept, and the runtime calls instance.exports, the raw
 * bindings: the loader's demangled exports wrap each call in a rest-argument
 * closure. The browser bundles replace this module with plain WebAssembly calls
 * (rollup.config.js), for their size budget (docs/browser.md).
 */
import { instantiate, instantiateSync, type Imports } from '@assemblyscript/loader'
import type { KernelInstance } from './memory-types.js'

/** A module's imports: `env.memory` for the shared build; the loader adds `env.abort` and `env.trace`. */
export type KernelImports = Record<string, Record<string, unknown>>

/** Compiles and instantiates `bytes` synchronously (Node, workers: a page's main thread refuses large modules). */
export function instantiateKernelsSync(bytes: Uint8Array, imports: KernelImports = {}): KernelInstance {
  return instantiateSync(bytes as BufferSource, imports as Imports).instance
}

/** Compiles and instantiates `bytes` without blocking. */
export async function instantiateKernels(bytes: Uint8Array, imports: KernelImports = {}): Promise<KernelInstance> {
  return (await instantiate(bytes as BufferSource, imports as Imports)).instance
}
