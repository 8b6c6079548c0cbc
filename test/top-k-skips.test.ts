/**
 * topK reads only the blocks that can answer: blocks whose only better values are NaN (which
 * never rank) are left once their own values are known, an optional column's blocks without a
 * selected document are not decoded, and nothing is read for an empty selection (aggregate
 * neither). Answers checked against a model; blocks read counted at the backend's decode.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ColumnsBackend } from '../src/backend/backend.js'
import { openColumns } from '../src/read/open.js'
import type { Column } from '../src/read/column.js'
import { flushColumns } from '../src/write/columns-writer.js'

const N = 40 * 1024
const documents = Array.from({ length: N }, (_, document) => ({
  // A NaN in every block, the other values spread.
  x: document % 997 === 5 ? NaN : ((document * 7919) % 10007) / 8,
  // Present in two documents of three.
  n: document % 3 === 2 ? undefined : (document * 131) % 5003,
  tags: document % 4 === 0 ? [] : [document % 7, (document * 3) % 11],
}))
const schema = { fields: [
  { name: 'x', type: 'fractional', column: true },
  { name: 'n', type: 'integral', column: true },
  { name: 'tags', type: 'integral', column: true, multi: true },
] } as const

afterEach(() => {
  vi.restoreAllMocks()
})

/** Blocks decoded by `call` (the backend's decodeRaw calls). */
function blocksRead(column: Column, call: () => unknown): number {
  const backend = (column as unknown as { backend: ColumnsBackend }).backend
  const spy = vi.spyOn(backend, 'decodeRaw')
  call()
  const calls = spy.mock.calls.length
  spy.mockRestore()
  return calls
}

/** The model: ids of the k best values (NaN and absent left out, ties by id). */
function best(values: (number | undefined)[], k: number, descending: boolean, selected?: (id: number) => boolean): number[] {
  return values.flatMap((value, id) => value === undefined || Number.isNaN(value) || (selected !== undefined && !selected(id)) ? [] : [[value, id] as const])
    .sort((a, b) => (descending ? b[0] - a[0] : a[0] - b[0]) || a[1] - b[1]).slice(0, k).map(([, id]) => id)
}

describe.each(['wasm', 'ts'] as const)('topK reads the blocks that can answer (%s, format 1)', (backend) => {
  const reader = openColumns(flushColumns(schema, documents)!, { backend })

  it('descending over NaN in every block: the blocks of the best values only (10 of 40), once their values are known', () => {
    const x = reader.column('x')
    expect(Array.from(x.topK(10, 'descending'))).toEqual(best(documents.map((d) => d.x), 10, true))
    // Every block's record bound was a NaN: each was read on every call.
    expect(blocksRead(x, () => expect(Array.from(x.topK(10, 'descending'))).toEqual(best(documents.map((d) => d.x), 10, true)))).toBeLessThanOrEqual(12)
  })

  it('an optional column over a selection in one block reads that block alone', () => {
    const n = reader.column('n')
    const docs = reader.createDocSet()
    for (let document = 5000; document < 5040; document++) docs.add(document)
    const expected = best(documents.map((d) => d.n), 5, false, (id) => id >= 5000 && id < 5040)
    expect(blocksRead(n, () => expect(Array.from(n.topK(5, 'ascending', docs))).toEqual(expected))).toBeLessThanOrEqual(2)
  })

  it('an empty selection reads nothing, and answers nothing', () => {
    const empty = reader.createDocSet()
    for (const name of ['x', 'n', 'tags']) {
      const column = reader.column(name)
      expect(blocksRead(column, () => expect(Array.from(column.topK(3, 'descending', empty))).toEqual([]))).toBe(0)
      expect(blocksRead(column, () => expect(column.aggregate(empty).count).toBe(0))).toBe(0)
    }
  })

  it('a selection of the last document alone is not empty; bits past maxDoc are no documents', () => {
    using small = openColumns(flushColumns(schema, documents.slice(0, 1000), { maxDoc: 1000 })!, { backend })
    const last = small.createDocSet().add(999)
    expect([Array.from(small.column('x').topK(1, 'ascending', last)), small.column('x').aggregate(last).count]).toEqual([[999], 1])
    const past = small.createDocSet()
    past.words[31] = 1 << 8
    expect([Array.from(small.column('x').topK(1, 'ascending', past)), small.column('x').aggregate(past).count]).toEqual([[], 0])
  })

  it('a multi column with k beyond its documents gives each document once, best value first', () => {
    const tags = reader.column('tags')
    const bestOf = documents.map((d) => (d.tags.length === 0 ? undefined : Math.max(...d.tags)))
    expect(Array.from(tags.topK(N, 'descending'))).toEqual(best(bestOf, N, true))
  })
})
