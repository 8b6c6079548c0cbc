/**
 * The WebAssembly kernels as a bare instance, called with the raw ABI of
 * assembly/index.ts, and a bump allocator over its memory (tests reset it).
 * Build first: npm run build:wasm.
 */
import { WASM_BASE64 } from '../../src/backend/wasm/module-bytes.js'

type Kernel = (...args: number[]) => number
type KernelName = 'heapBase' | 'scratch' | 'decodeRaw' | 'getRaw' | 'decodeFloat64Sortable' | 'decodeFloat64Exact'
  | 'decodeInt32' | 'rank' | 'xxh64' | 'xxh64Start' | 'xxh64Update' | 'xxh64Finish' | 'checkCanonical'
/** The exports, called with the ABI of assembly/index.ts. */
export const kernels = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(WASM_BASE64, 'base64')), {})
  .exports as unknown as Record<KernelName, Kernel> & { memory: WebAssembly.Memory }
export const SCRATCH = kernels.scratch()
const FIRST_FREE = Math.max(kernels.heapBase(), 65536)
export const NO_LIMIT = 0xffffffff

// A bump allocator over the module's memory, reset by each test.
let top = FIRST_FREE
export function reset(): void { top = FIRST_FREE }
/** The first byte past everything allocated since the last reset. */
export const allocatedEnd = (): number => top
export function allocate(length: number, misalign = 0): number {
  const at = ((top + 15) & ~15) + misalign
  top = at + length
  const missing = top - kernels.memory.buffer.byteLength
  if (missing > 0) kernels.memory.grow(Math.ceil(missing / 65536))
  return at
}
export const bytesAt = (at: number, length: number) => new Uint8Array(kernels.memory.buffer, at, length)
export const wordsAt = (at: number, count: number) => new Int32Array(kernels.memory.buffer, at, count)
export const scratchU32 = (index: number) => new Uint32Array(kernels.memory.buffer, SCRATCH, 16)[index]
export const scratchI64 = (index: number) => new BigInt64Array(kernels.memory.buffer, SCRATCH, 8)[index]
