/**
 * Lower bounds for the decode targets: one step of a decode alone, compiled here with the
 * kernels' own flags (-O3, stub runtime, SIMD) and run over 65,536 values in linear memory, so
 * the cascade bench can print how close a decode comes to the cheapest part it cannot skip.
 * - divide: doubles divided by 10^2 into others, two a f64x2.div, as a decimal's conversion
 *   (f64(n) / 10^e, exact by the format) divides;
 * - gather: byte codes mapped through a table of 8-byte entries, two entries a 16-byte store,
 *   as a sequence dictionary's byte codes are (assembly/cascade/sequences/codes.ts);
 * - copy: 8-byte values copied (memory.copy), what any decode into 64-bit values writes.
 */
import { compileString } from 'assemblyscript/asc'

const SOURCE = `
export function divide(from: usize, n: u32, p: f64, to: usize): void {
  const by = f64x2.splat(p)
  for (let q = from, o = to, end = from + (<usize>n << 3); q < end; q += 64, o += 64) {
    v128.store(o, f64x2.div(v128.load(q), by))
    v128.store(o, f64x2.div(v128.load(q, 16), by), 16)
    v128.store(o, f64x2.div(v128.load(q, 32), by), 32)
    v128.store(o, f64x2.div(v128.load(q, 48), by), 48)
  }
}
@inline function offsetOf(x: u64, j: u32): usize {
  return <usize>((j == 0 ? x << 3 : x >>> <u64>(8 * j - 3)) & (<u64>0xFF << 3))
}
@inline function pairOut(o: usize, table: usize, a: usize, b: usize): void {
  v128.store(o, v128.load64_lane(table + b, v128.load64_zero(table + a), 1))
}
export function gather(codes: usize, n: u32, table: usize, out: usize): void {
  for (let j: usize = 0; j < <usize>n; j += 8) {
    const x = load<u64>(codes + j), o = out + (j << 3)
    pairOut(o, table, offsetOf(x, 0), offsetOf(x, 1))
    pairOut(o + 16, table, offsetOf(x, 2), offsetOf(x, 3))
    pairOut(o + 32, table, offsetOf(x, 4), offsetOf(x, 5))
    pairOut(o + 48, table, offsetOf(x, 6), offsetOf(x, 7))
  }
}
export function copy(from: usize, n: u32, to: usize): void {
  memory.copy(to, from, <usize>n << 3)
}
`

interface BoundExports {
  memory: WebAssembly.Memory
  divide(from: number, n: number, p: number, to: number): void
  gather(codes: number, n: number, table: number, out: number): void
  copy(from: number, n: number, to: number): void
}

/** The three bound steps over `values` values (a multiple of 8), each a call of no arguments. */
export async function boundSteps(values: number): Promise<{ divide: () => void; gather: () => void; copy: () => void }> {
  const { binary, stderr } = await compileString(SOURCE, { optimizeLevel: 3, shrinkLevel: 0, runtime: 'stub', enable: ['simd'], initialMemory: 1 + Math.ceil((24 * values + 4096) / 65536) })
  if (binary === null) throw new Error(`bench/kernel-bounds.ts: the bound kernels did not compile: ${stderr.toString()}`)
  const instance = new WebAssembly.Instance(new WebAssembly.Module(binary as Uint8Array<ArrayBuffer>), { env: { abort: () => { throw new Error('abort') } } })
  const kernels = instance.exports as unknown as BoundExports
  // Layout: doubles | table (256 entries) | byte codes | out.
  const doubles = 0, table = 8 * values, codes = table + 2048, out = codes + values
  const memory = kernels.memory.buffer
  const numbers = new Float64Array(memory, doubles, values)
  const entries = new BigInt64Array(memory, table, 256), bytes = new Uint8Array(memory, codes, values)
  // Prices in cents, and codes skewed over 228 entries (flights' airports).
  let seed = 7
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32
  for (let i = 0; i < values; i++) numbers[i] = Math.floor(next() * 1e6)
  for (let e = 0; e < 256; e++) entries[e] = BigInt(e) * 1_000_003n
  for (let i = 0; i < values; i++) bytes[i] = Math.floor(next() ** 2 * 228)
  return {
    divide: () => kernels.divide(doubles, values, 100, out),
    gather: () => kernels.gather(codes, values, table, out),
    copy: () => kernels.copy(doubles, values, out),
  }
}
