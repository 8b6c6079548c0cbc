/**
 * Regions of WebAssembly linear memory for resident files: first fit over a
 * sorted free list, neighbours merged on free, memory grown when nothing fits.
 * The kernels allocate nothing; every byte they touch was handed out here.
 */
import type { LinearMemory } from './memory-types.js'

const PAGE_BYTES = 65536
const MAX_PAGES = 65536 // 4 GiB: the wasm32 limit
/** Regions start and end on 16-byte boundaries, so typed views of them are aligned. */
const ALIGNMENT = 16

/** Hands out and takes back byte ranges of one WebAssembly.Memory. */
export class RegionAllocator {
  protected readonly memory: LinearMemory
  protected readonly onGrow: () => void
  /** Free ranges as [start, length] pairs, sorted by start, never adjacent. */
  private freeStarts: number[] = []
  private freeLengths: number[] = []
  private readonly lengthOf = new Map<number, number>()
  /** Bytes handed out and not yet freed. */
  bytesInUse = 0
  /** The end of the highest region ever handed out: memory past it is as grown, zero. */
  usedEnd = 0

  /**
   * Manages [start, memory end), or with start null no memory until it grows some; onGrow runs
   * after every growth (views must be recreated).
   */
  constructor(memory: LinearMemory, start: number | null, onGrow: () => void) {
    this.memory = memory
    this.onGrow = onGrow
    if (start === null) return
    const first = align(start)
    this.usedEnd = first
    const end = memory.buffer.byteLength
    if (end > first) this.addFree(first, end - first)
  }

  /**
   * A region of at least `length` bytes (16-byte aligned); grows memory when needed. A length
   * that is not an integer in [0, 4 GiB) is refused: NaN would otherwise enter the free list.
   */
  allocate(length: number): number {
    if (!(Number.isInteger(length) && length >= 0 && length < MAX_PAGES * PAGE_BYTES)) {
      throw new RangeError(`oixk: WebAssembly region length ${length} is not an integer in [0, 4 GiB)`)
    }
    const size = align(Math.max(length, 1))
    for (let index = 0; index < this.freeStarts.length; index++) {
      if (this.freeLengths[index] < size) continue
      const start = this.freeStarts[index]
      if (this.freeLengths[index] === size) {
        this.freeStarts.splice(index, 1)
        this.freeLengths.splice(index, 1)
      } else {
        this.freeStarts[index] += size
        this.freeLengths[index] -= size
      }
      return this.handOut(start, size)
    }
    this.grow(size)
    return this.allocate(length)
  }

  /** Gives a region back (from allocate); freeing twice or an unknown address throws. */
  free(start: number): void {
    const size = Number.isInteger(start) && start >= 0 ? this.lengthOf.get(start) : undefined
    if (size === undefined) throw new Error(`oixk: WebAssembly region ${start} is not allocated`)
    this.lengthOf.delete(start)
    this.bytesInUse -= size
    this.addFree(start, size)
  }

  private handOut(start: number, size: number): number {
    this.lengthOf.set(start, size)
    this.bytesInUse += size
    this.usedEnd = Math.max(this.usedEnd, start + size)
    return start
  }

  /** Grows memory so that a free range of `size` bytes exists at its end. */
  protected grow(size: number): void {
    const end = this.memory.buffer.byteLength
    const last = this.freeStarts.length - 1
    const tailFree = last >= 0 && this.freeStarts[last] + this.freeLengths[last] === end ? this.freeLengths[last] : 0
    const currentPages = end / PAGE_BYTES
    const neededPages = Math.ceil((size - tailFree) / PAGE_BYTES)
    // Grow by at least half again, so many small opens do not grow (and re-view) each time.
    const pages = Math.min(Math.max(neededPages, Math.ceil(currentPages / 2)), MAX_PAGES - currentPages)
    if (pages < neededPages) {
      throw new RangeError(`oixk: WebAssembly memory cannot grow by ${size} bytes (4 GiB limit; ${this.bytesInUse} bytes in use)`)
    }
    this.memory.grow(pages)
    this.addFree(end, pages * PAGE_BYTES)
    this.onGrow()
  }

  protected addFree(start: number, length: number): void {
    // Only whole aligned ranges inside memory are ever free; anything else is a bug, never stored.
    if (!(Number.isInteger(start) && Number.isInteger(length) && start >= 0 && length > 0 && start + length <= this.memory.buffer.byteLength)) {
      throw new RangeError(`oixk: WebAssembly free range [${start}, ${start} + ${length}) is not inside memory`)
    }
    let index = 0
    while (index < this.freeStarts.length && this.freeStarts[index] < start) index++
    this.freeStarts.splice(index, 0, start)
    this.freeLengths.splice(index, 0, length)
    // Merge with the next, then with the previous range.
    if (index + 1 < this.freeStarts.length && start + length === this.freeStarts[index + 1]) {
      this.freeLengths[index] += this.freeLengths[index + 1]
      this.freeStarts.splice(index + 1, 1)
      this.freeLengths.splice(index + 1, 1)
    }
    if (index > 0 && this.freeStarts[index - 1] + this.freeLengths[index - 1] === start) {
      this.freeLengths[index - 1] += this.freeLengths[index]
      this.freeStarts.splice(index, 1)
      this.freeLengths.splice(index, 1)
    }
  }
}

function align(value: number): number {
  return Math.ceil(value / ALIGNMENT) * ALIGNMENT
}
