// The WebAssembly kernels the open and the presence lookups use, called
// directly through their raw ABI: XXH64 against the TypeScript implementation
// at every length and alignment, and rank against a naive count.
import { describe, expect, it } from 'vitest'
import { xxh64 } from '../src/format/xxh64.js'
import { seededRandom } from './helpers/random.js'
import { allocate, bytesAt, kernels, reset } from './helpers/raw-kernels.js'

describe('rank', () => {
  it('ranks[d >> 6] plus the set bits below d in its word, bitmaps unaligned', () => {
    const random = seededRandom(7)
    for (const misalign of [0, 3, 7]) {
      reset()
      const documents = 64 * 40 + 17
      const words = Math.ceil(documents / 64)
      const bitmap = allocate(8 * words, misalign)
      const bits = bytesAt(bitmap, 8 * words).map(() => (random() < 0.2 ? 0xff : Math.floor(random() * 256)))
      bytesAt(bitmap, 8 * words).set(bits)
      const ranks = allocate(4 * words)
      const counts = new Uint32Array(kernels.memory.buffer, ranks, words)
      let seen = 1_000_000 // ranks need not start at 0 for the kernel
      for (let word = 0; word < words; word++) {
        counts[word] = seen
        for (let bit = 0; bit < 64; bit++) seen += (bits[8 * word + (bit >> 3)] >> (bit & 7)) & 1
      }
      let naive = 1_000_000
      for (let document = 0; document < documents; document++) {
        expect(kernels.rank(bitmap, ranks, document) >>> 0).toBe(naive)
        naive += (bits[document >> 3] >> (document & 7)) & 1
      }
    }
  })
})

describe('xxh64', () => {
  const random = seededRandom(8)
  const hashAt = (at: number, length: number, seed: bigint) => {
    const out = allocate(8)
    kernels.xxh64(at, length, Number(seed & 0xffffffffn), Number(seed >> 32n), out)
    return new BigUint64Array(kernels.memory.buffer, out, 1)[0]
  }

  it('lengths 0..300 at every alignment, seeds 0 and random', () => {
    reset()
    const source = Uint8Array.from({ length: 300 }, () => Math.floor(random() * 256))
    for (const seed of [0n, 0x9e3779b97f4a7c15n, 1n << 63n, 12345n]) {
      for (let length = 0; length <= 300; length++) {
        const at = allocate(length, length % 8)
        bytesAt(at, length).set(source.subarray(0, length))
        expect(hashAt(at, length, seed)).toBe(xxh64(source, 0, length, seed))
      }
    }
  })

  it('5 MB of random bytes, unaligned', () => {
    reset()
    const length = 5 * 1024 * 1024 + 13
    const source = Uint8Array.from({ length }, () => Math.floor(random() * 256))
    const at = allocate(length, 5)
    bytesAt(at, length).set(source)
    expect(hashAt(at, length, 0n)).toBe(xxh64(source, 0, length, 0n))
    expect(hashAt(at + 1, length - 40, 77n)).toBe(xxh64(source, 1, length - 39, 77n))
  })

  // As the worker pool hashes a file that another thread copies in: xxh64Update is called with
  // whatever has arrived, consumes only whole 32-byte stripes and says where it stopped.
  it('in pieces (xxh64Start, xxh64Update at every arrival, xxh64Finish) equals the whole hash', () => {
    reset()
    const source = Uint8Array.from({ length: 70_000 }, () => Math.floor(random() * 256))
    for (const [length, seed] of [[32, 0n], [33, 5n], [95, 1n << 63n], [4096, 0n], [70_000, 0x9e3779b97f4a7c15n]] as const) {
      const at = allocate(length, length % 8)
      bytesAt(at, length).set(source.subarray(0, length))
      for (let trial = 0; trial < 20; trial++) {
        // Arrivals at random ends (some repeated, some inside a stripe), then the last byte.
        const arrivals = Array.from({ length: 1 + Math.floor(random() * 6) }, () => Math.floor(random() * length)).sort((a, b) => a - b)
        kernels.xxh64Start(Number(seed & 0xffffffffn), Number(seed >> 32n))
        let p = at
        for (const end of [...arrivals, length]) {
          const next = kernels.xxh64Update(p, at + end) >>> 0
          expect(next - at, `update to ${end}`).toBe(p - at + Math.floor((at + end - p) / 32) * 32)
          p = next
        }
        const out = allocate(8)
        kernels.xxh64Finish(p, at + length, length, out)
        expect(new BigUint64Array(kernels.memory.buffer, out, 1)[0], `length ${length}, arrivals ${arrivals}`).toBe(xxh64(source, 0, length, seed))
      }
    }
  })
})
