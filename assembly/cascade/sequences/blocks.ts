// Form 0 (blocks) with every v2 kind: each block's record says how to read it.
// Constant and frame blocks are v1's, read by v1's kernels (assembly/decode.ts);
// the other kinds by their modules in ../blocks.
import { BLOCK_SHIFT, BLOCK_VALUES, KIND_PACKED, OK, RECORD_BYTES, recordDataOffset, recordKind } from '../../common'
import { decodeBlock, getRaw } from '../../decode'
import {
  KIND_DICTIONARY, KIND_FREQUENT, KIND_PATCHED, KIND_RUNS, blocksData, blocksError, blocksRecords, nodeCount,
} from '../common'
import { dictionaryDecode, dictionaryGet } from '../blocks/dictionary'
import { frequentDecode, frequentGet } from '../blocks/frequent'
import { linearDecode, linearGet } from '../blocks/linear'
import { patchedDecode, patchedGet } from '../blocks/patched'
import { runsDecode, runsGet } from '../blocks/runs'

/** Values in block `block` of a sequence of count values. */
// @ts-ignore: decorator
@inline function blockValues(count: u32, block: u32): u32 {
  return min(BLOCK_VALUES, count - (block << BLOCK_SHIFT))
}

/** Value `index` of the form-0 node to out (i64); status 0 or 5. */
export function blocksGet(node: usize, index: u32, out: usize): i32 {
  const records = blocksRecords(node), data = blocksData(node)
  const block = index >>> BLOCK_SHIFT
  const record = records + <usize>block * RECORD_BYTES
  const kind = recordKind(record)
  if (kind <= KIND_PACKED) return getRaw(records, data, index, out)
  const p = data + recordDataOffset(record)
  const j = index & (BLOCK_VALUES - 1)
  const n = blockValues(nodeCount(node), block)
  let status = OK
  if (kind == KIND_DICTIONARY) status = dictionaryGet(record, p, j, out)
  else if (kind == KIND_RUNS) status = runsGet(record, p, n, j, out)
  else if (kind == KIND_FREQUENT) status = frequentGet(record, p, n, j, out)
  else if (kind == KIND_PATCHED) status = patchedGet(record, p, n, j, out)
  else status = linearGet(record, p, j, out)
  return blocksError(status, node, block)
}

/** Values [first, first + n) of the form-0 node to out (8-aligned); status 0 or 5. */
export function blocksDecode(node: usize, first: u32, n: u32, out: usize): i32 {
  const records = blocksRecords(node), data = blocksData(node), count = nodeCount(node)
  const end = first + n
  let index = first, o = out
  while (index < end) {
    const block = index >>> BLOCK_SHIFT
    const from = index & (BLOCK_VALUES - 1)
    const to = min(end - (block << BLOCK_SHIFT), BLOCK_VALUES)
    const record = records + <usize>block * RECORD_BYTES
    const kind = recordKind(record)
    let status = OK
    if (kind <= KIND_PACKED) status = decodeBlock(record, data, block, from, to, o)
    else {
      const p = data + recordDataOffset(record)
      const values = blockValues(count, block)
      if (kind == KIND_DICTIONARY) status = dictionaryDecode(record, p, from, to, o)
      else if (kind == KIND_RUNS) status = runsDecode(record, p, values, from, to, o)
      else if (kind == KIND_FREQUENT) status = frequentDecode(record, p, values, from, to, o)
      else if (kind == KIND_PATCHED) status = patchedDecode(record, p, values, from, to, o)
      else status = linearDecode(record, p, from, to, o)
    }
    if (status != OK) return blocksError(status, node, block)
    o += <usize>(to - from) << 3
    index += to - from
  }
  return OK
}
