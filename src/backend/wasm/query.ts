/**
 * WebAssembly query kernels (see ../query-kernels.ts). Placeholder: replaced by the kernels of issue 5.
 */
import type { QueryKernels } from '../query-kernels.js'
import type { WasmRuntime } from './runtime.js'

function notYet(): never {
  throw new Error('query kernels are not implemented yet')
}

/** The WebAssembly backend's query kernels over the runtime's memory. */
export function createWasmQueryKernels(_runtime: WasmRuntime): QueryKernels {
  return { allocateBitset: notYet, countValues: notYet, matchRange: notYet, aggregate: notYet, histogram: notYet }
}
