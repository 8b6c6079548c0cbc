/**
 * No format 2 kernel reads past its sequence: each encoding's sequence (every block kind, every
 * sequence form, decimals) copied so that its last byte is the last byte of linear memory, where
 * a read one byte further traps, decodes whole and in parts, and reads its last value alone, as the
 * TypeScript backend reads them.
 */
import { expect, it } from 'vitest'
import { typeScriptBackend } from '../src/backend/ts/index.js'
import { sequenceExtent } from '../src/cascade/reader/parse.js'
import { openColumns } from '../src/read/open.js'
import { blockKindColumns, cascadeFile, decimalColumns, formColumns } from './helpers/cascade-data.js'
import { allocate, allocatedEnd, bytesAt, kernels, reset, wordsAt } from './helpers/raw-kernels.js'

type CascadeKernel = (...args: number[]) => number
const cascade = kernels as unknown as { cascadeDecode: CascadeKernel; cascadeGet: CascadeKernel }

it('every encoding\'s sequence ending at the end of memory decodes and reads as the TypeScript backend reads it', () => {
  const columns = [...blockKindColumns(), ...formColumns(), ...decimalColumns()]
  const bytes = cascadeFile(columns)
  const reader = openColumns(bytes, { backend: 'ts' })
  for (const { name } of columns) {
    const view = reader.getColumn(name)!.values
    const [start, end] = sequenceExtent(view)
    const node = bytes.subarray(start, end), count = view.count
    const expected = new Int32Array(2 * count)
    typeScriptBackend.decodeRaw(view, 0, count, expected, 0)
    reset()
    const out = allocate(8 * count)
    if (kernels.memory.buffer.byteLength - allocatedEnd() < node.length) kernels.memory.grow(Math.ceil(node.length / 65536))
    const at = kernels.memory.buffer.byteLength - node.length
    bytesAt(at, node.length).set(node)
    for (const [first, n] of [[0, count], [count - 1, 1], [count - 1000, 1000], [Math.floor(count / 3), count - Math.floor(count / 3)]]) {
      expect(cascade.cascadeDecode(at, first, n, out), `${name} [${first}, ${first + n})`).toBe(0)
      expect(Array.from(wordsAt(out, 2 * n)), `${name} [${first}, ${first + n})`).toEqual(Array.from(expected.subarray(2 * first, 2 * (first + n))))
    }
    expect(cascade.cascadeGet(at, count - 1, out), name).toBe(0)
    expect(Array.from(wordsAt(out, 2)), name).toEqual(Array.from(expected.subarray(2 * count - 2)))
  }
})
