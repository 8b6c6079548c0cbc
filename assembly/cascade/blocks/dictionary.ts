// Dictionary blocks (kind 3, src/cascade/blocks/dictionary.ts): k entries of ew
// bits (param = (k - 1) | (ew - 1) << 10), then an index of width = bits(k - 1)
// bits per value; value = base + aux × entry[index]. Indexes ≥ k are corrupt and
// reported (status 5) at the first one met in value order. A decode makes the k values
// once (BLOCK_ENTRIES), then gathers them by index (gather.ts).
import { OK, recordAux, recordBase, recordWidth } from '../../common'
import { BLOCK_ENTRIES, bytesOf, field, indexError, recordParam, unpackValues } from '../common'
import { forgetPairs, gatherIndexes } from '../gather'

// @ts-ignore: decorator
@inline function entriesOf(param: u32): u32 { return (param & 1023) + 1 }
// @ts-ignore: decorator
@inline function entryWidthOf(param: u32): u32 { return (param >>> 10) + 1 }

/** Value j of the dictionary block (record, data at p) to out; status 0 or 5. */
export function dictionaryGet(record: usize, p: usize, j: u32, out: usize): i32 {
  const param = recordParam(record), k = entriesOf(param), ew = entryWidthOf(param)
  const index = <u32>field(p + bytesOf(k, ew), j, recordWidth(record))
  if (index >= k) return indexError(index, k)
  store<i64>(out, recordBase(record) + recordAux(record) * <i64>field(p, index, ew))
  return OK
}

/** Values [from, to) of the dictionary block to out; status 0 or 5. */
export function dictionaryDecode(record: usize, p: usize, from: u32, to: u32, out: usize): i32 {
  const param = recordParam(record), k = entriesOf(param), ew = entryWidthOf(param), W = recordWidth(record)
  const base = recordBase(record), g = recordAux(record)
  const indexes = p + bytesOf(k, ew)
  if ((to - from) * 4 < k) {
    // A few values of a big dictionary: each entry read where it lies, not all k decoded.
    for (let j = from, o = out; j < to; j++, o += 8) {
      const index = <u32>field(indexes, j, W)
      if (index >= k) return indexError(index, k)
      store<i64>(o, base + g * <i64>field(p, index, ew))
    }
    return OK
  }
  // Every index of W ≤ 10 bits names an entry of BLOCK_ENTRIES (1,024), as gatherIndexes needs.
  unpackValues(p, 0, k, base, g, BLOCK_ENTRIES, ew)
  forgetPairs()
  return gatherIndexes(indexes, from, to, W, BLOCK_ENTRIES, k, out)
}
