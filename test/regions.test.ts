/**
 * The allocator of the WebAssembly backend's linear memory (src/backend/wasm/regions.ts):
 * 16-byte alignment, first fit, freed neighbours merged, growth by what is needed or
 * half the memory, and clear errors for a bad free and for the 4 GiB limit; and the
 * backend's memory across opens and closes: closed files' regions are reused, memory
 * never shrinks.
 */
import { describe, expect, it } from 'vitest'
import { RegionAllocator } from '../src/backend/wasm/regions.js'
import { wasmRuntime } from '../src/backend/wasm/runtime.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { denseFile, randomInteger, valuesForBytes } from './helpers/dense-file.js'
import { seededRandom } from './helpers/random.js'

const PAGE = 65536

function allocator(pages: number, start: number | null = 0) {
  const memory = new WebAssembly.Memory({ initial: pages, maximum: 64 })
  let growths = 0
  const regions = new RegionAllocator(memory, start, () => growths++)
  return { memory, regions, growths: () => growths }
}

describe('RegionAllocator', () => {
  it('hands out 16-byte aligned regions from its start, counting aligned sizes in use', () => {
    const { regions } = allocator(1, 40)
    expect(regions.allocate(100)).toBe(48)
    expect(regions.allocate(1)).toBe(160)
    expect(regions.allocate(0)).toBe(176)
    expect(regions.bytesInUse).toBe(112 + 16 + 16)
  })

  it('takes the first free range that fits, and a freed range merges with free neighbours', () => {
    const { regions } = allocator(1)
    const a = regions.allocate(112), b = regions.allocate(16), c = regions.allocate(32)
    expect([a, b, c]).toEqual([0, 112, 128])
    regions.free(b)
    expect(regions.allocate(16)).toBe(112)
    regions.free(112)
    regions.free(a)
    // 0..128 is one range only if the two frees merged; 120 bytes would otherwise go after c.
    expect(regions.allocate(120)).toBe(0)
    regions.free(0)
    regions.free(c)
    // Everything is free again and merged with the tail: the whole page fits.
    expect(regions.allocate(PAGE)).toBe(0)
    expect(regions.bytesInUse).toBe(PAGE)
  })

  it('grows by half the memory when that is more than a region needs, and by what it needs otherwise', () => {
    const { memory, regions, growths } = allocator(4)
    expect(regions.allocate(4 * PAGE)).toBe(0)
    // Nothing free: 16 bytes need 1 page, half the memory is 2.
    expect(regions.allocate(16)).toBe(4 * PAGE)
    expect(memory.buffer.byteLength).toBe(6 * PAGE)
    expect(growths()).toBe(1)
    // 2 pages less 16 bytes are free at the end; 10 pages need 9 more (more than half of 6).
    expect(regions.allocate(10 * PAGE)).toBe(4 * PAGE + 16)
    expect(memory.buffer.byteLength).toBe(15 * PAGE)
    expect(growths()).toBe(2)
  })

  it('with no start owns nothing until it grows', () => {
    const { memory, regions, growths } = allocator(2, null)
    expect(regions.allocate(16)).toBe(2 * PAGE)
    expect(memory.buffer.byteLength).toBe(3 * PAGE)
    expect(growths()).toBe(1)
  })

  it('refuses to free an address it did not hand out, or twice', () => {
    const { regions } = allocator(1)
    const a = regions.allocate(64)
    expect(() => regions.free(a + 16)).toThrow('oixk: WebAssembly region 16 is not allocated')
    regions.free(a)
    expect(() => regions.free(a)).toThrow('oixk: WebAssembly region 0 is not allocated')
    expect(regions.bytesInUse).toBe(0)
  })

  it('names the 4 GiB limit and the bytes in use when memory cannot grow enough', () => {
    // A memory at 65,535 pages (no real one: that would reserve 4 GiB); grow must not be reached.
    const memory = {
      buffer: { byteLength: 65535 * PAGE },
      grow: () => { throw new Error('grow called') },
    } as unknown as WebAssembly.Memory
    const regions = new RegionAllocator(memory, 65535 * PAGE - 64, () => {})
    expect(regions.allocate(32)).toBe(65535 * PAGE - 64)
    expect(() => regions.allocate(2 * PAGE)).toThrow(
      new RangeError(`oixk: WebAssembly memory cannot grow by ${2 * PAGE} bytes (4 GiB limit; 32 bytes in use)`),
    )
  })
})

describe('the WebAssembly backend\'s memory across opens', () => {
  const wasm = { backend: 'wasm' } as const
  const memoryBytes = () => wasmRuntime().kernels.memory.buffer.byteLength

  it('memory never shrinks, and closed files\' regions serve the next opens: they do not grow it', () => {
    const random = seededRandom(11)
    const big = denseFile(valuesForBytes(3 * 2 ** 20, 53), () => randomInteger(random, 53))
    const expected = openColumns(big, { backend: 'ts' }).getColumn('v')!.getInt64(100_000)
    // Open copies until memory grows once (it may hold free ranges already).
    const readers: ColumnsReader[] = []
    try {
      const before = memoryBytes()
      while (memoryBytes() === before) readers.push(openColumns(big, wasm))
      const grown = memoryBytes(), count = readers.length
      for (const reader of readers.splice(0)) reader.close()
      expect(memoryBytes()).toBe(grown)
      for (let round = 0; round < 5; round++) {
        while (readers.length < count) readers.push(openColumns(big, wasm))
        for (const reader of readers.splice(0)) {
          expect(reader.getColumn('v')!.getInt64(100_000)).toBe(expected)
          reader.close()
        }
      }
      expect(memoryBytes()).toBe(grown)
    } finally {
      for (const reader of readers) reader.close()
    }
  })

  it('a file copied in gets 16 zero bytes after it, and the byte after those is left as it was', () => {
    const random = seededRandom(12)
    const file = denseFile(3000, () => randomInteger(random, 30))
    openColumns(file, wasm).close() // the staging region, allocated with a process's first file, exists from here
    const runtime = wasmRuntime(), regions = runtime.regions
    // Where the next region of the file's size lies (first fit: where the open will put the file).
    const address = regions.allocate(file.length + 16)
    regions.free(address)
    const after = address + file.length + 16, kept = runtime.bytes[after]
    runtime.bytes.fill(0xab, address, after)
    runtime.bytes[after] = 0xcd
    try {
      const reader = openColumns(file, wasm)
      expect(reader.bytes.byteOffset).toBe(address)
      expect([...runtime.bytes.subarray(address + file.length, after + 1)]).toEqual([...new Array(16).fill(0), 0xcd])
      reader.close()
    } finally {
      runtime.bytes[after] = kept
    }
  })
})
