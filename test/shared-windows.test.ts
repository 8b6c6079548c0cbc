/**
 * The worker pool's shared kernel memory: each worker's WebAssembly instance
 * keeps its static data (scratch areas, tables, per-run constants) in its own
 * window, so workers decoding at once never write over each other's.
 */
import { describe, expect, it } from 'vitest'
import { createWasmBackend } from '../src/backend/wasm/index.js'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { createSharedWasmRuntime, SharedKernelMemory } from '../src/backend/wasm/shared.js'
import { SHARED_BASE, SHARED_STATIC_BYTES } from '../src/backend/wasm/shared-module-bytes.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { randomDocuments } from './helpers/random-columns.js'
import { seededRandom } from './helpers/random.js'

const wasmReason = wasmUnavailableReason()

describe('shared memory: each worker instance writes only its own static window', () => {
  // Workers share one memory; each instance's static data (scratch, tables, constants stored per run)
  // must lie in its window, or two workers decoding at once would clobber each other's. Window 1's
  // instance runs every read on random files; the memory below its window and window 2 stay as they
  // were. (Built for window 0 and run beside it, the same instance fails this test.)
  it.skipIf(wasmReason !== null)('reads, filters, aggregates, facets and verify on window 1 leave windows 0 and 2 untouched', () => {
    const memory = new SharedKernelMemory(3)
    const windowBytes = Math.ceil(SHARED_STATIC_BYTES / 65536) * 65536
    const instances = [0, 2, 1].map((window) => createSharedWasmRuntime(memory.memory, window))
    const snapshot = () => {
      const bytes = new Uint8Array(memory.memory.buffer)
      return [bytes.slice(0, SHARED_BASE + windowBytes), bytes.slice(SHARED_BASE + 2 * windowBytes, SHARED_BASE + 3 * windowBytes)]
    }
    const before = snapshot()
    const backend = createWasmBackend(instances[2])
    for (const [seed, maxDoc] of [[22, 2077], [24, 5200]]) {
      const { schema, docs } = randomDocuments(seededRandom(seed), maxDoc)
      const reader = openColumns(flushColumns(schema, docs)!, { backend })
      for (const column of reader.columns) {
        if (column.type === 'geo_point') continue
        const n = column.totalValueCount
        column.readValues(0, new BigInt64Array(n))
        for (const make of [Float64Array, Int32Array]) {
          try {
            column.readValues(0, new make(n))
          } catch {
            // Values beyond 2^53 or int32 are refused: the kernels ran all the same.
          }
        }
        column.rangeFilter(column.minRaw, column.maxRaw)
        column.aggregate()
        if (column.type === 'keyword' || column.type === 'bool') column.facetCounts()
      }
      reader.verify()
      reader.close()
    }
    const after = snapshot()
    const changed = before.map((bytes, part) => bytes.reduce((count, byte, at) => count + (byte !== after[part][at] ? 1 : 0), 0))
    expect(changed).toEqual([0, 0])
  })
})
