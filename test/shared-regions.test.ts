/**
 * The pool's shared memory is grown by several threads at once: each thread's allocator may
 * hand out only pages it grew itself. Another thread's growth is simulated here by a memory
 * that grows whenever its size is read.
 */
import { describe, expect, it } from 'vitest'
import { SharedRegionAllocator } from '../src/backend/wasm/shared.js'

const PAGE = 65536

/** A shared memory that another "thread" grows by `pages` at each read of its buffer; grows through it are recorded as owned. */
function racingMemory(pages: number) {
  const memory = new WebAssembly.Memory({ initial: 2, maximum: 1000, shared: true })
  const owned: [number, number][] = [], others: [number, number][] = []
  const proxy = new Proxy(memory, {
    get(target, key) {
      if (key === 'buffer') {
        const buffer = target.buffer
        const start = target.grow(pages) * PAGE
        others.push([start, start + pages * PAGE])
        return buffer
      }
      if (key === 'grow') {
        return (delta: number) => {
          const start = target.grow(delta)
          owned.push([start * PAGE, (start + delta) * PAGE])
          return start
        }
      }
      const value = Reflect.get(target, key, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { memory: proxy, owned, others }
}

const within = (start: number, end: number, ranges: [number, number][]) => ranges.some(([from, to]) => start >= from && end <= to)

describe('SharedRegionAllocator', () => {
  it('hands out only pages it grew, though another thread grows the memory meanwhile', () => {
    for (const minimumGrowthPages of [0, 16]) {
      const { memory, owned, others } = racingMemory(3)
      const allocator = new SharedRegionAllocator(memory, () => {}, minimumGrowthPages)
      const regions: [number, number][] = []
      for (const length of [1000, 65536, 200_000, 16, 3 * PAGE]) {
        const start = allocator.allocate(length)
        regions.push([start, start + length])
        // Each growth by another thread lands between this allocator's steps.
        void memory.buffer
      }
      expect(others.length).toBeGreaterThan(0)
      for (const [start, end] of regions) {
        expect(within(start, end, owned), `region [${start}, ${end}) with growth of at least ${minimumGrowthPages} pages`).toBe(true)
        expect(others.some(([from, to]) => start < to && end > from)).toBe(false)
      }
    }
  })
})
