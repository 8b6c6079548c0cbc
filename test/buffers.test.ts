/**
 * Zero-copy buffers: readValues into a ValueBuffer decodes in place (WebAssembly)
 * with the same values as into a plain array; views survive memory growth;
 * a FileBuffer opens the file it holds without a copy, and its release closes
 * the readers it opened.
 */
import { describe, expect, it } from 'vitest'
import { wasmRuntime } from '../src/backend/wasm/runtime.js'
import { CorruptIndexException } from '../src/format/errors.js'
import { float64ToSortableBits } from '../src/format/sortable-bits.js'
import { createFileBuffer, createValueBuffer } from '../src/read/buffers.js'
import { openColumns } from '../src/read/open.js'
import { signature, summarize } from '../src/cascade/describe.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { denseFile, randomInteger } from './helpers/dense-file.js'
import { seededRandom } from './helpers/random.js'

const random = seededRandom(7)
const COUNT = 5000
const integers = Array.from({ length: COUNT }, () => randomInteger(random, 40) - 2 ** 39)
const integerFile = denseFile(COUNT, (index) => integers[index])
const doubles = Array.from({ length: COUNT }, () => (random() - 0.5) * 1e6)
const doubleFile = denseFile(COUNT, (index) => doubles[index], 'v', 'fractional')

describe.each(['wasm', 'ts'] as const)('ValueBuffer (%s)', (backend) => {
  it('readValues into it gives the values a plain array gets, at any offset', () => {
    const reader = openColumns(integerFile, { backend })
    const column = reader.getColumn('v')!
    using buffer = createValueBuffer('int64', COUNT - 3, { backend })
    column.readValues(3, buffer.array)
    const plain = new BigInt64Array(COUNT - 3)
    column.readValues(3, plain)
    expect(Array.from(buffer.array)).toEqual(Array.from(plain))
    expect(buffer.array[0]).toBe(BigInt(integers[3]))
    expect(buffer.array[COUNT - 4]).toBe(BigInt(integers[COUNT - 1]))
    if (backend === 'wasm') expect(buffer.array.buffer).toBe(wasmRuntime().kernels.memory.buffer)
    reader.close()
  })

  it('float64 buffers get the doubles of a fractional column', () => {
    const reader = openColumns(doubleFile, { backend })
    using buffer = createValueBuffer('float64', COUNT, { backend })
    reader.getColumn('v')!.readValues(0, buffer.array)
    expect(Array.from(buffer.array)).toEqual(doubles)
    reader.close()
  })

  it('a decode in place writes nothing past the values asked for (format 2 run blocks, reads ending inside a run)', () => {
    // Values in runs of 1 to 24: run blocks, whose fills run ahead where later runs write over them.
    const lengths = seededRandom(11)
    const values: number[] = []
    for (let run = 0; values.length < 12_000; run++) {
      for (let k = 0, length = 1 + Math.floor(lengths() * 24); k < length; k++) values.push(Math.floor(run * 1.7 + ((run * 31) % 5)) * 60_000)
    }
    const bytes = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, values.map((v) => ({ v })), { format: 2 })!
    using reader = openColumns(bytes, { backend })
    const column = reader.getColumn('v')!
    expect(signature(summarize(column.values, 2))).toBe('blocks{runs}')
    using buffer = createValueBuffer('int64', 3000, { backend })
    const pick = seededRandom(12)
    const reads = [[0, 1000], [5, 1019], [1024, 37], [2000, 2048], [3000, 2999], [9000, 2995]]
    // And many short reads: each ends at some offset into a run, after runs of every length.
    for (let read = 0; read < 300; read++) reads.push([Math.floor(pick() * 11_000), 1 + Math.floor(pick() * 64)])
    for (const [first, count] of reads) {
      buffer.array.fill(-7n)
      column.readValues(first, buffer.array.subarray(0, count))
      expect(Array.from(buffer.array.subarray(0, count)), `${first} + ${count}`).toEqual(values.slice(first, first + count).map(BigInt))
      expect(buffer.array.subarray(count).every((value) => value === -7n), `${first} + ${count}: past the read`).toBe(true)
    }
  })

  it('refuses bad kinds and lengths', () => {
    expect(() => createValueBuffer('int16' as 'int64', 4, { backend })).toThrow('unknown value buffer kind "int16"; expected "int64", "float64" or "int32"')
    // Names every object has were taken as kinds (a buffer of kind "constructor" over no memory, with TypeScript).
    for (const kind of ['constructor', 'toString', '__proto__']) {
      expect(() => createValueBuffer(kind as 'int64', 4, { backend })).toThrow(`unknown value buffer kind "${kind}"; expected "int64", "float64" or "int32"`)
    }
    expect(() => createValueBuffer('int64', -1, { backend })).toThrow('value buffer length -1 is not an integer in [0, 2^32]')
    // A string was printed as the number it spells.
    expect(() => createValueBuffer('int64', '4' as unknown as number, { backend })).toThrow('value buffer length "4" is not an integer in [0, 2^32]')
  })
})

describe('ValueBuffer across WebAssembly memory growth', () => {
  it('the array property gives a live view with the same contents after growth; released buffers refuse', () => {
    const reader = openColumns(integerFile, { backend: 'wasm' })
    const buffer = createValueBuffer('int64', COUNT, { backend: 'wasm' })
    const taken = buffer.array
    reader.getColumn('v')!.readValues(0, taken)
    const before = wasmRuntime().kernels.memory.buffer.byteLength
    const big = createValueBuffer('int64', 1 << 24, { backend: 'wasm' }) // 128 MiB: memory must grow
    expect(wasmRuntime().kernels.memory.buffer.byteLength).toBeGreaterThan(before)
    // The array taken before growth is detached (its buffer live): said as such, not as memory outside every buffer.
    expect(() => reader.getColumn('v')!.readValues(0, taken)).toThrow(
      new RangeError('field "v": readValues destination was detached when WebAssembly memory grew: read the ValueBuffer\'s array again after an open or allocation'),
    )
    expect(buffer.array.length).toBe(COUNT)
    expect(buffer.array[COUNT - 1]).toBe(BigInt(integers[COUNT - 1]))
    big.release()
    buffer.release()
    expect(() => buffer.array).toThrow('value buffer was released')
    reader.close()
  })
})

describe.each(['wasm', 'ts'] as const)('released buffers of every length refuse their views (%s)', (backend) => {
  it('0, 1 and 4,096 bytes or values', () => {
    for (const length of [0, 1, 4096]) {
      const file = createFileBuffer(length, { backend })
      expect(file.bytes.length).toBe(length)
      file.release()
      expect(() => file.bytes, `file buffer of ${length}`).toThrow('file buffer was released')
      for (const kind of ['int64', 'float64', 'int32'] as const) {
        const values = createValueBuffer(kind, length, { backend })
        expect(values.array.length).toBe(length)
        values.release()
        expect(() => values.array, `${kind} buffer of ${length}`).toThrow('value buffer was released')
      }
    }
  })
})

describe.each(['wasm', 'ts'] as const)('FileBuffer (%s)', (backend) => {
  it('opens the file written into it in place, twice, and release closes both readers', () => {
    const buffer = createFileBuffer(doubleFile.length, { backend })
    buffer.bytes.set(doubleFile)
    const first = buffer.open({ fileName: 'in-place.oixk' })
    const second = buffer.open()
    expect(first.getColumn('v')!.getFloat64(17)).toBe(doubles[17])
    expect(second.getColumn('v')!.getRawBigInt(COUNT - 1)).toBe(float64ToSortableBits(doubles[COUNT - 1]))
    if (backend === 'wasm') expect(first.bytes.byteOffset).toBe(buffer.bytes.byteOffset)
    first.close() // a reader's close leaves the buffer's bytes alone
    expect(second.getColumn('v')!.getFloat64(0)).toBe(doubles[0])
    buffer.release()
    expect(() => second.getColumn('v')).toThrow('columns: reader is closed')
    expect(() => buffer.open()).toThrow('file buffer was released')
  })

  it('a corrupt file in the buffer is refused with the file name, and the buffer stays usable', () => {
    using buffer = createFileBuffer(integerFile.length, { backend })
    buffer.bytes.set(integerFile)
    buffer.bytes[20] ^= 1
    expect(() => buffer.open({ fileName: 'bad.oixk' })).toThrow(CorruptIndexException)
    expect(() => buffer.open({ fileName: 'bad.oixk' })).toThrow(/^bad\.oixk: /)
    buffer.bytes[20] ^= 1
    expect(buffer.open().getColumn('v')!.getInt64(4999)).toBe(integers[4999])
  })

  it('release closes a column kept after its reader was dropped, so it never reads the next file there', async () => {
    const buffer = createFileBuffer(integerFile.length, { backend })
    buffer.bytes.set(integerFile)
    const column = buffer.open({ fileName: 'kept.oixk' }).getColumn('v')!
    expect(column.getInt64(4)).toBe(integers[4])
    // Finalizers and weak references clear between tasks: the dropped reader would be collected here.
    for (let round = 0; round < 20; round++) {
      gc!()
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    buffer.release()
    using next = createFileBuffer(integerFile.length, { backend })
    next.bytes.set(integerFile.map((byte) => byte ^ 0x55))
    expect(() => column.getInt64(4)).toThrow('kept.oixk: reader is closed')
    expect(() => column.readValues(0, new BigInt64Array(8))).toThrow('kept.oixk: reader is closed')
  })

  it('keeps no reader once it is closed (open and close many times)', () => {
    using buffer = createFileBuffer(integerFile.length, { backend })
    buffer.bytes.set(integerFile)
    const tracked = () => (buffer as unknown as { readers: { size: number } }).readers.size
    for (let round = 0; round < 100; round++) buffer.open().close()
    expect(tracked()).toBe(0)
    const open = buffer.open()
    expect(tracked()).toBe(1)
    open.close()
    expect(tracked()).toBe(0)
  })

  it('starts as zeros, not as the bytes of a file closed before, so an unfilled buffer is no file', () => {
    const secret = flushColumns({ fields: [{ name: 'secret', type: 'keyword', facet: true }] }, [{ secret: 'password123' }])!
    openColumns(secret, { backend }).close()
    using values = createValueBuffer('int32', 64, { backend })
    values.array.fill(-1)
    values.release()
    using buffer = createFileBuffer(secret.length, { backend })
    expect(buffer.bytes.every((byte) => byte === 0)).toBe(true)
    using after = createValueBuffer('int32', 64, { backend })
    expect(after.array.every((value) => value === 0)).toBe(true)
    expect(() => buffer.open()).toThrow(CorruptIndexException)
  })

  it('a size no memory can hold is a RangeError naming the buffer', () => {
    const tooLarge = (make: () => unknown) => {
      try {
        make()
      } catch (error) {
        return error as Error
      }
      return null
    }
    const error = tooLarge(() => createValueBuffer('int64', 2 ** 31, { backend }))
    expect(error).toBeInstanceOf(RangeError)
    expect(error!.message).toMatch(/^value buffer of 2147483648 int64 values \(17179869184 bytes\) cannot be allocated: /)
    if (backend === 'wasm') expect(tooLarge(() => createFileBuffer(2 ** 32, { backend }))!.message).toMatch(/^file buffer of 4294967296 bytes cannot be allocated: /)
  })

  it('honours maxResidentFileBytes', () => {
    using buffer = createFileBuffer(integerFile.length, { backend })
    buffer.bytes.set(integerFile)
    expect(() => buffer.open({ fileName: 'big.oixk', maxResidentFileBytes: 100 })).toThrow(`big.oixk`)
  })
})

// A view the reader would write into memory it does not own (a released ValueBuffer's array, a view made over
// a FileBuffer's memory) is refused before anything is written: another reader's file may lie there.
describe.each(['wasm', 'ts'] as const)('destinations outside live ValueBuffers (%s)', (backend) => {
  const geoFile = flushColumns({ fields: [
    { name: 'g', type: 'geo_point', column: true }, { name: 'k', type: 'keyword', facet: true },
  ] }, [{ g: { lat: 1.5, lon: -2.5 }, k: 'x' }, { g: { lat: 3, lon: 4 }, k: 'y' }], { maxDoc: 2, format: 2 })!

  it('a released ValueBuffer\'s array: readValues refuses it and another reader opened since stays intact', () => {
    const reader = openColumns(integerFile, { backend })
    const buffer = createValueBuffer('int64', COUNT, { backend })
    const stale = buffer.array
    buffer.release()
    const other = openColumns(integerFile, { backend })
    expect(() => reader.column('v').readValues(0, stale)).toThrow(
      new RangeError('field "v": readValues destination is the array of a released ValueBuffer'))
    other.verify()
    expect(other.column('v').getInt64(COUNT - 1)).toBe(integers[COUNT - 1])
    // A new buffer's array and a part of it are written as before.
    using fresh = createValueBuffer('int64', COUNT, { backend })
    reader.column('v').readValues(2, fresh.array.subarray(0, 10))
    expect(fresh.array[9]).toBe(BigInt(integers[11]))
    reader.close()
    other.close()
  })

  it('views over a FileBuffer\'s memory, for readValues, getGeoPoint and facetCounts', () => {
    using file = createFileBuffer(geoFile.length, { backend })
    file.bytes.set(geoFile)
    const reader = file.open()
    const bytes = file.bytes
    const doubles = new Float64Array(bytes.buffer, bytes.byteOffset & ~7, 2)
    const counts = new Uint32Array(bytes.buffer, bytes.byteOffset & ~3, 2)
    const before = Uint8Array.from(file.bytes)
    const refused = (what: string) => new RangeError(`${what} is WebAssembly memory outside every live ValueBuffer (kept past its release, or made over a FileBuffer); pass a live ValueBuffer's array or an array of your own`)
    if (backend === 'wasm') {
      expect(() => reader.column('g').readValues(0, doubles)).toThrow(refused('field "g": readValues destination'))
      expect(() => reader.column('g').getGeoPoint(0, 0, doubles)).toThrow(refused('field "g": getGeoPoint\'s out'))
      expect(() => reader.column('k').facetCounts(undefined, counts)).toThrow(refused('field "k": facetCounts\' counts'))
      expect(file.bytes).toEqual(before)
      // Views reaching out of a live ValueBuffer's region, at either end, are refused too; one inside it is written.
      using values = createValueBuffer('float64', 4, { backend })
      const array = values.array.fill(0)
      const across = (offset: number) => new Float64Array(array.buffer, array.byteOffset + offset, 4)
      expect(() => reader.column('g').readValues(0, across(-8))).toThrow(refused('field "g": readValues destination'))
      expect(() => reader.column('g').readValues(0, across(8))).toThrow(refused('field "g": readValues destination'))
      reader.column('g').readValues(0, across(0).subarray(2, 4))
      expect(Array.from(values.array)).toEqual([0, 0, 1.5, 3])
    } else {
      // The TypeScript backend's memory is the caller's: its views are plain arrays.
      expect(Array.from(reader.column('g').getGeoPoint(1, 0, doubles))).toEqual([3, 4])
    }
    expect(Array.from(reader.column('g').getGeoPoint(0))).toEqual([1.5, -2.5])
    expect(Array.from(reader.column('k').facetCounts())).toEqual([1, 1])
  })

  it('getGeoPoint\'s out must hold both parts', () => {
    using reader = openColumns(geoFile, { backend })
    expect(() => reader.column('g').getGeoPoint(0, 0, new Float64Array(1))).toThrow(
      new TypeError('field "g": getGeoPoint\'s out must be a Float64Array of 2 or more elements (latitude, longitude), got one of 1'))
    expect(() => reader.column('g').getGeoPoint(0, 0, [0, 0] as unknown as Float64Array)).toThrow(
      new TypeError('field "g": getGeoPoint\'s out must be a Float64Array of 2 or more elements (latitude, longitude), got an Array'))
  })
})

/** Memory `work` leaves behind after collection, measured within the task that runs it. */
function keptWithinTask(work: () => void): { arrayBuffers: number; heapUsed: number } {
  gc!()
  const before = process.memoryUsage()
  work()
  gc!()
  // Freed array memory is swept on another thread: a wait (still in this task) lets it finish before counting.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200)
  gc!()
  const after = process.memoryUsage()
  return { arrayBuffers: after.arrayBuffers - before.arrayBuffers, heapUsed: after.heapUsed - before.heapUsed }
}

// Arrays passed in or made for the caller were checked through a WeakRef each, which keeps its target to
// the end of the current task: a synchronous loop reading into fresh arrays kept every one of them.
describe.each(['wasm', 'ts'] as const)('arrays a synchronous loop drops are collected within its task (%s)', (backend) => {
  it('readValues into fresh arrays and getGeoPoint without out', () => {
    const points = flushColumns({ fields: [{ name: 'g', type: 'geo_point', column: true }] },
      Array.from({ length: COUNT }, (_, i) => ({ g: { lat: (i % 170) - 85, lon: (i % 350) - 175 } })))!
    using reader = openColumns(doubleFile, { backend })
    using geo = openColumns(points, { backend })
    const column = reader.getColumn('v')!, g = geo.getColumn('g')!
    const kept = keptWithinTask(() => {
      // 100 arrays of 1 MiB each: all kept, as before, would be 100 MiB.
      for (let round = 0; round < 100; round++) column.readValues(0, new Float64Array(1 << 17).subarray(0, COUNT))
      for (let round = 0; round < 40; round++) for (let document = 0; document < COUNT; document++) g.getGeoPoint(document)
    })
    expect(kept.arrayBuffers).toBeLessThan(50 * 2 ** 20)
    expect(kept.heapUsed).toBeLessThan(20 * 2 ** 20)
  })
})

// Readers and DocSets were tracked through a WeakRef each, which keeps its target to the end of the
// current task, closed or not: a synchronous loop opening and closing readers of FileBuffers kept
// every reader, and with it every buffer's bytes.
describe.each(['wasm', 'ts'] as const)('readers and DocSets a synchronous loop ends are collected within its task (%s)', (backend) => {
  it('FileBuffers opened, closed and released, and DocSets made and released', () => {
    // About 1.2 MB: 150,000 doubles.
    const big = denseFile(150_000, (index) => Math.sin(index) * 1e6, 'v', 'fractional')
    const kept = keptWithinTask(() => {
      for (let round = 0; round < 60; round++) {
        const buffer = createFileBuffer(big.length, { backend })
        buffer.bytes.set(big)
        const reader = buffer.open()
        reader.createDocSet().release()
        reader.close()
        buffer.release()
      }
    })
    // All kept, as before, would be 72 MB.
    expect(kept.arrayBuffers).toBeLessThan(24 * 2 ** 20)
    expect(kept.heapUsed).toBeLessThan(20 * 2 ** 20)
  })
})
