/**
 * The pool's open hashes a file while the main thread copies it into the shared memory
 * (SharedKernelMemory.copyFile, hashFollowingCopy). Here a worker thread copies in small
 * pieces with pauses, so the hashing thread really waits for pieces, and the hash must be
 * the whole file's XXH64; a copy that fails midway must end the wait with an error.
 */
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import type { LinearMemory } from '../src/backend/wasm/memory-types.js'
import { createSharedWasmRuntime, hashFollowingCopy, SharedKernelMemory } from '../src/backend/wasm/shared.js'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { xxh64 } from '../src/format/xxh64.js'
import { seededRandom } from './helpers/random.js'

/** Copies source to address in pieces of 64 KiB, about a millisecond apart, raising copied[0]; -1 halfway if failing. */
const COPIER = `
const { workerData } = require('node:worker_threads')
const { memory, source, address, copied, failing } = workerData
const view = new Uint8Array(memory.buffer, address, source.length), progress = new Int32Array(copied)
for (let done = 0; done < source.length;) {
  const end = Math.min(done + 65536, source.length)
  view.set(source.subarray(done, end), done)
  done = failing && end > source.length / 2 ? -1 : end
  Atomics.store(progress, 0, done)
  Atomics.notify(progress, 0)
  if (done < 0) break
  for (const start = Date.now(); Date.now() - start < 1;);
}
`

function copyInWorker(memory: LinearMemory, source: Uint8Array, address: number, copied: Int32Array, failing: boolean): Promise<void> {
  const worker = new Worker(COPIER, { eval: true, execArgv: [], workerData: { memory, source, address, copied: copied.buffer, failing } })
  return new Promise((resolve, reject) => {
    worker.on('error', reject)
    worker.on('exit', () => resolve())
  })
}

describe.skipIf(wasmUnavailableReason() !== null)('hashFollowingCopy', () => {
  const random = seededRandom(51)
  const source = Uint8Array.from({ length: 20 * 65536 + 37 }, () => Math.floor(random() * 256))

  /** A runtime over a fresh shared memory, a file's region in it, and a second thread copying source there. */
  function copying(failing: boolean) {
    const shared = new SharedKernelMemory(1)
    const runtime = createSharedWasmRuntime(shared.memory, 0)
    const address = shared.allocateFile(source.length)
    runtime.refreshViews()
    const copied = new Int32Array(new SharedArrayBuffer(4))
    // The range a file's checksum covers: all but its last 8 bytes, waiting for the whole file.
    const hash = () => hashFollowingCopy(runtime, address, source.length - 8, source.length, copied)
    return { shared, address, hash, done: copyInWorker(shared.memory, source, address, copied, failing) }
  }

  it('hashes each piece as another thread copies it: the XXH64 of the whole range', async () => {
    const { shared, address, hash, done } = copying(false)
    const [low, high] = hash()
    await done
    expect((BigInt(high >>> 0) << 32n) | BigInt(low >>> 0)).toBe(xxh64(source, 0, source.length - 8))
    expect(Buffer.compare(new Uint8Array(shared.memory.buffer, address, source.length), source)).toBe(0)
  })

  it('a copy that fails midway ends the wait with an error', async () => {
    const { hash, done } = copying(true)
    expect(hash).toThrow('oixk: the copy of the file into shared memory failed')
    await done
  })
})
