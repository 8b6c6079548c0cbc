import { beforeAll, describe, expect, it } from 'vitest'
import xxhash from 'xxhash-wasm'
import { WASM_BASE64 } from '../src/backend/wasm/module-bytes.js'
import { xxh64, xxh64Into } from '../src/format/xxh64.js'
import { seededRandom } from './helpers/random.js'

// The reference implementation (xxHash's C code compiled to wasm).
let ref: (bytes: Uint8Array, seed: bigint) => bigint
beforeAll(async () => {
  const { h64Raw } = await xxhash()
  ref = (bytes, seed) => h64Raw(bytes, seed)
})

// Deterministic bytes (mulberry32) so a failure reproduces exactly.
function randomBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n)
  let s = seed | 0
  for (let i = 0; i < n; i++) {
    s = (s + 0x6d2b79f5) | 0
    let t = Math.imul(s ^ (s >>> 15), 1 | s)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    out[i] = (t ^ (t >>> 14)) >>> 24
  }
  return out
}

const enc = new TextEncoder()
const SEEDS = [
  0n, 1n, 0x7fffffffn, 0xffffffffn, 0x100000000n, 0x8000000000000000n,
  0x9e3779b185ebca87n, 0xffffffff00000000n, 0xffffffffffffffffn,
]

describe('xxh64', () => {
  it('matches published vectors', () => {
    expect(xxh64(new Uint8Array(0))).toBe(0xef46db3751d8e999n)
    expect(xxh64(enc.encode('a'))).toBe(0xd24ec4f1a98c6e5bn)
    expect(xxh64(enc.encode('abc'))).toBe(0x44bc2cf5ad770999n)
  })

  it('matches xxhash-wasm on fixed strings with and without a seed', () => {
    for (const s of ['xxhash', '0123456789abcdefghijklmnopqrstuv', 'The quick brown fox jumps over the lazy dog']) {
      const bytes = enc.encode(s)
      for (const seed of SEEDS) expect(xxh64(bytes, 0, bytes.length, seed)).toBe(ref(bytes, seed))
    }
  })

  it('matches xxhash-wasm for every length 0..300 and several seeds', () => {
    const data = randomBytes(300, 1)
    for (let n = 0; n <= 300; n++) {
      const bytes = data.subarray(0, n)
      for (const seed of SEEDS) {
        const got = xxh64(data, 0, n, seed)
        if (got !== ref(bytes, seed)) expect.fail(`length ${n}, seed ${seed}: ${got.toString(16)}`)
      }
    }
  })

  it('matches xxhash-wasm on all-zero and all-0xFF inputs (extreme 32x32 products)', () => {
    for (const fill of [0x00, 0xff]) {
      for (const n of [1, 4, 8, 31, 32, 64, 96, 200]) {
        const bytes = new Uint8Array(n).fill(fill)
        for (const seed of [0n, 0xffffffffffffffffn]) expect(xxh64(bytes, 0, n, seed)).toBe(ref(bytes, seed))
      }
    }
  })

  it('hashes sub-ranges at unaligned offsets and in views with a non-zero byteOffset', () => {
    const backing = randomBytes(400, 2)
    for (const viewOffset of [0, 1, 3]) {
      const view = backing.subarray(viewOffset)
      for (let start = 0; start < 9; start++) {
        for (const n of [0, 1, 3, 4, 7, 8, 31, 32, 33, 63, 64, 65, 100, 257]) {
          const end = start + n
          const want = ref(view.slice(start, end), 0x8000000000000001n)
          expect(xxh64(view, start, end, 0x8000000000000001n)).toBe(want)
        }
      }
    }
  })

  it('xxh64Into writes low/high halves and accepts signed or unsigned seed halves', () => {
    const bytes = randomBytes(77, 3)
    const out = new Uint32Array(2)
    for (const seed of SEEDS) {
      const want = ref(bytes.subarray(5, 70), seed)
      const lo = Number(seed & 0xffffffffn), hi = Number(seed >> 32n)
      xxh64Into(bytes, 5, 70, lo, hi, out)
      expect((BigInt(out[1]) << 32n) | BigInt(out[0])).toBe(want)
      xxh64Into(bytes, 5, 70, lo | 0, hi | 0, out)
      expect((BigInt(out[1]) << 32n) | BigInt(out[0])).toBe(want)
    }
  })

  it('matches xxhash-wasm on a 5 MB buffer', () => {
    const big = randomBytes(5_000_000, 4)
    expect(xxh64(big)).toBe(ref(big, 0n))
    expect(xxh64(big, 0, big.length, 0xfedcba9876543210n)).toBe(ref(big, 0xfedcba9876543210n))
    expect(xxh64(big, 3, big.length - 5)).toBe(ref(big.subarray(3, big.length - 5), 0n))
  })

  it('rejects ranges outside the array', () => {
    const bytes = new Uint8Array(10)
    expect(() => xxh64(bytes, -1, 5)).toThrow(RangeError)
    expect(() => xxh64(bytes, 6, 5)).toThrow(RangeError)
    expect(() => xxh64(bytes, 0, 11)).toThrow(RangeError)
    expect(() => xxh64(bytes, 0.5, 5)).toThrow(RangeError)
  })
})

describe('xxh64 kernel (WebAssembly, Node build) against the TypeScript hash', () => {
  it('lengths 0..200 at random offsets of one buffer, random seeds', () => {
    type Kernels = { memory: WebAssembly.Memory; heapBase(): number; xxh64(at: number, length: number, low: number, high: number, out: number): void }
    const kernels = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(WASM_BASE64, 'base64')), {}).exports as unknown as Kernels
    const random = seededRandom(9)
    const source = Uint8Array.from({ length: 4096 }, () => Math.floor(random() * 256))
    const at = Math.max(kernels.heapBase(), 65536), out = at + source.length + 8
    if (out + 8 > kernels.memory.buffer.byteLength) kernels.memory.grow(1)
    new Uint8Array(kernels.memory.buffer, at, source.length).set(source)
    for (let length = 0; length <= 200; length++) {
      for (let trial = 0; trial < 4; trial++) {
        const start = Math.floor(random() * (source.length - length))
        const seed = (BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(Math.floor(random() * 2 ** 32))
        kernels.xxh64(at + start, length, Number(seed & 0xffffffffn), Number(seed >> 32n), out)
        expect(new BigUint64Array(kernels.memory.buffer, out, 1)[0]).toBe(xxh64(source, start, start + length, seed))
      }
    }
  })
})
