/**
 * Sequence dictionaries (form 1): the distinct values of the whole sequence as
 * an entries sequence, and a code per value. Entries ascending (order 0: code
 * order is value order, so ranges map to code ranges), or by descending
 * frequency, ties by value (order 1: common values get small codes, which
 * patched blocks pack in few bits). Layout: u8 form, u8 order, u32 count, the
 * entries (a BLOCKS sequence of k values), the codes (a BLOCKS sequence of count
 * values, each < k).
 */
import { ByteSink } from '../../write/byte-sink.js'
import { blocksNodeEstimate, type Estimate, writeBlocksNode } from '../block-pool.js'
import { sum } from './estimate.js'
import { DictionaryOrder, Form } from '../constants.js'
import type { DistinctValues } from './distinct.js'
import { ascendingEntries, frequencyEntries } from './entry-order.js'

/** Whether the ascending dictionary would map every value to itself (entries 0..k-1): it then only adds bytes. */
export function isIdentity(distinct: DistinctValues): boolean {
  let min = Infinity, max = -Infinity
  for (let entry = 0; entry < distinct.size; entry++) {
    const high = distinct.words[2 * entry + 1]
    if (high !== 0) return false
    const value = distinct.words[2 * entry] >>> 0
    if (value < min) min = value
    if (value > max) max = value
  }
  return min === 0 && max === distinct.size - 1
}

/** The entries (words, in code order) and codes (words) of a dictionary with the given order. */
export function dictionaryParts(count: number, distinct: DistinctValues, order: number): { entries: Int32Array; codes: Int32Array } {
  const k = distinct.size
  const byCode = order === DictionaryOrder.ascending ? ascendingEntries(distinct.words, k) : frequencyEntries(distinct.words, distinct.counts, k)
  const codeOf = new Int32Array(k)
  const entries = new Int32Array(2 * k)
  for (let code = 0; code < k; code++) {
    const entry = byCode[code]
    codeOf[entry] = code
    entries[2 * code] = distinct.words[2 * entry]
    entries[2 * code + 1] = distinct.words[2 * entry + 1]
  }
  const codes = new Int32Array(2 * count)
  for (let index = 0; index < count; index++) codes[2 * index] = codeOf[distinct.indexOf[index]]
  return { entries, codes }
}

/** Bytes of the dictionary form: the header exactly, its children estimated (see blocksNodeEstimate). */
export function dictionaryNodeEstimate(count: number, distinct: DistinctValues, parts: { entries: Int32Array; codes: Int32Array }): Estimate {
  return sum(6, blocksNodeEstimate(parts.entries, distinct.size), blocksNodeEstimate(parts.codes, count))
}

/** Writes the dictionary form to sink. */
export function writeDictionaryNode(count: number, distinct: DistinctValues, order: number, parts: { entries: Int32Array; codes: Int32Array }, sink: ByteSink): void {
  sink.writeUint8(Form.dictionary)
  sink.writeUint8(order)
  sink.writeInt32(count)
  writeBlocksNode(parts.entries, distinct.size, sink)
  writeBlocksNode(parts.codes, count, sink)
}

export { ByteSink }
