/**
 * What a caller hands the worker pool reaches its workers as the reader would read it: bounds,
 * edges and boxes read through getters or Proxies, terms that are views of large buffers, the
 * resident limit; and what comes back names the caller (its stack) and the pool's state (a worker
 * that died). Both pool backends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { ResidentLimitError } from '../src/format/errors.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { sendableTerms } from '../src/node/query-protocol.js'
import { createQueryPool, type PooledSegment, type QueryPool } from '../src/node/query-pool.js'

const MAX_DOC = 3000
const schema = { fields: [
  { name: 'where', type: 'geo_point', column: true },
  { name: 'delay', type: 'integral', column: true },
  { name: 'origin', type: 'keyword', facet: true },
] } as const
const documents = Array.from({ length: MAX_DOC }, (_, d) => ({
  where: { lat: ((d * 37) % 180) - 90, lon: ((d * 53) % 360) - 180 },
  delay: (d * 7919) % 1000 - 300,
  origin: `T${d % 41}`,
}))
const bytes = flushColumns(schema, documents, { maxDoc: MAX_DOC, format: 2 })!

class Box {
  get minLatitude(): number { return -10 }
  get maxLatitude(): number { return 40 }
  get minLongitude(): number { return 170 }
  get maxLongitude(): number { return -100 }
}
class Raw {
  constructor(private readonly value: bigint) {}
  get raw(): bigint { return this.value }
}

const backends = (['ts', 'wasm'] as const).filter((backend) => backend === 'ts' || wasmUnavailableReason() === null)

describe.each(backends)('pool backend %s', (backend) => {
  let pool: QueryPool
  let segment: PooledSegment
  const reader = openColumns(bytes)
  beforeAll(async () => {
    pool = createQueryPool({ threads: 2, backend })
    segment = await pool.open(bytes, { fileName: 'args.columns' })
  })
  afterAll(async () => {
    await pool.close()
  })

  it('reads boxes, bounds and edges through getters and Proxies as the reader does', async () => {
    const box = new Box()
    const expected = Array.from(reader.column('where').boundingBoxFilter(box).words)
    expect(expected.some((word) => word !== 0)).toBe(true)
    expect(Array.from((await segment.boundingBoxFilter('where', box)).words)).toEqual(expected)
    expect(Array.from((await segment.boundingBoxFilter('where', new Proxy({ ...box, minLatitude: -10, maxLatitude: 40, minLongitude: 170, maxLongitude: -100 }, {}))).words)).toEqual(expected)

    const low = new Raw(-100n), high = new Raw(250n)
    const range = Array.from(reader.column('delay').rangeFilter(low, high).words)
    expect(Array.from((await segment.rangeFilter('delay', low, high)).words)).toEqual(range)
    expect(Array.from((await segment.rangeFilter('delay', new Proxy({ raw: -100n }, {}), 250)).words)).toEqual(range)

    // A plain { raw } with another key is refused as the reader refuses it (the pool sent { raw } alone and answered).
    const extra = { raw: 5n, extra: 1 }
    expect(() => reader.column('delay').rangeFilter(extra, 50)).toThrow('field "delay": a { raw } bound holds raw alone, got also "extra"')
    await expect(segment.rangeFilter('delay', extra, 50)).rejects.toThrow('field "delay": a { raw } bound holds raw alone, got also "extra"')

    const edges = [new Raw(-300n), -50, new Raw(0n), new Proxy({ raw: 400n }, {}), 10_000]
    const counts = Array.from(reader.column('delay').histogram(edges))
    expect(counts.reduce((a, b) => a + b)).toBe(MAX_DOC)
    expect(Array.from(await segment.histogram('delay', edges))).toEqual(counts)
    expect(Array.from(await segment.histogram('delay', new Proxy(edges, {})))).toEqual(counts)
  })

  it('sends a term that is a view of a larger buffer as its own bytes', async () => {
    const large = new Uint8Array(1 << 20)
    const term = large.subarray(5000, 5003)
    term.set([0x54, 0x31, 0x37]) // "T17"
    const [sent] = sendableTerms([term]) as Uint8Array[]
    expect(sent.buffer.byteLength).toBe(3)
    expect(Array.from(sent)).toEqual([0x54, 0x31, 0x37])
    const expected = Array.from(reader.column('origin').termFilter('T17').words)
    expect(Array.from((await segment.termFilter('origin', term)).words)).toEqual(expected)
  })

  it('refuses a file over maxResidentFileBytes before copying it', async () => {
    const error = await segment.close().then(() => pool.open(bytes, { fileName: 'big.columns', maxResidentFileBytes: 100 })).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ResidentLimitError)
    expect((error as Error).message).toBe(`big.columns is ${bytes.length} bytes, over the resident limit of 100 bytes (maxResidentFileBytes)`)
    segment = await pool.open(bytes, { fileName: 'args.columns', maxResidentFileBytes: bytes.length })
  })

  it('reads histogram edges once, so the edges checked are the edges sent', async () => {
    const edgesWithGetter = () => {
      let reads = 0
      const edges: number[] = [0, 100]
      Object.defineProperty(edges, 2, { get: () => 400 + 100 * ++reads, enumerable: true })
      return edges
    }
    const expected = [...openColumns(bytes).column('delay').histogram(edgesWithGetter())]
    expect(expected).toEqual([300, 1200])
    expect([...await segment.histogram('delay', edgesWithGetter())]).toEqual(expected)
  })

  it('gives openReader the options the segment was opened with', async () => {
    // 20,480 values of a sequence dictionary: a first question decodes its codes unless decodedCodes is false.
    const wide = Array.from({ length: 50 }, (_, k) => Math.round(Math.sin(k + 1) * 1e12))
    const many = flushColumns({ fields: [{ name: 'wide', type: 'integral', column: true }] }, Array.from({ length: 20_480 }, (_, d) => ({ wide: wide[(d * 31) % 50] })), { format: 2 })!
    const opened = [await pool.open(many, { decodedCodes: false }), await pool.open(many)]
    const decoded = opened.map((each) => {
      using reader = each.openReader()
      reader.column('wide').aggregate()
      return reader.decodedCodesBytes
    })
    expect(decoded[0]).toBe(0)
    expect(decoded[1]).toBeGreaterThan(0)
    for (const each of opened) await each.close()
  })

  it("gives a worker's error the caller's stack", async () => {
    const error = await (async function askingWithANaNBound(): Promise<Error> {
      await segment.rangeFilter('delay', NaN, 1)
      throw new Error('no error')
    })().catch((caught: unknown) => caught as Error)
    expect(error).toBeInstanceOf(RangeError)
    expect(error.message).toBe('field "delay": NaN is not a bound (rangeFilter\'s lo)')
    expect(error.stack).toContain('askingWithANaNBound')
  })

  it("names a pool's DocSet given to a reader of another backend", () => {
    const pooled = segment.allDocuments()
    for (const other of [openColumns(bytes, { backend: 'ts' }), reader]) {
      expect(() => other.column('origin').facetCounts(pooled)).toThrow('(a DocSet of another memory, such as a query pool\'s: use it with its segment or segment.openReader())')
      expect(() => other.allDocuments().and(pooled)).toThrow('a DocSet of another memory')
    }
    expect(pooled).toBeInstanceOf(DocSet)
  })
})

describe('a worker that dies', () => {
  it('leaves a pool that says it cannot answer and must be made again', async () => {
    const pool = createQueryPool({ threads: 2, backend: 'ts' })
    const segment = await pool.open(bytes, { fileName: 'args.columns' })
    expect(Array.from(await segment.facetCounts('origin')).reduce((a, b) => a + b)).toBe(MAX_DOC)
    const workers = (pool as unknown as { workers: { worker: { terminate(): Promise<number> } }[] }).workers
    await workers[1].worker.terminate()
    const message = 'query worker 1 exited (code 1); the pool cannot answer any more: close it and create another'
    await expect(segment.facetCounts('origin')).rejects.toThrow(message)
    await expect(pool.open(bytes)).rejects.toThrow(message)
    await pool.close()
  })
})

it('names the field when a bounding box is not an object', () => {
  const reader = openColumns(bytes)
  expect(() => reader.column('where').boundingBoxFilter(null as never)).toThrow(
    new TypeError('field "where": box must be an object { minLatitude, maxLatitude, minLongitude, maxLongitude }, got null'),
  )
})
