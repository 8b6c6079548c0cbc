/**
 * Pure-TypeScript query kernels (see ../query-kernels.ts). Placeholder: replaced by the kernels of issue 5.
 */
import type { QueryKernels } from '../query-kernels.js'

function notYet(): never {
  throw new Error('query kernels are not implemented yet')
}

/** The TS backend's query kernels. */
export const typeScriptQueryKernels: QueryKernels = {
  allocateBitset: notYet,
  countValues: notYet,
  matchRange: notYet,
  aggregate: notYet,
  histogram: notYet,
}
