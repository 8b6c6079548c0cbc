/**
 * Reads an integer list of a keyword dictionary: u8 tag 0 then u8 width and
 * that many bits per value, or tag 1 then a v2 integer sequence (validated as
 * any other, read through the backend). Every value must be at most `max`.
 */
import { int64Result, int64ToBigInt } from '../../format/int64.js'
import { unpackSmall } from '../../cascade/bits.js'
import { parseCascade } from '../../cascade/reader/parse.js'
import { validateCascade } from '../../cascade/reader/validate.js'
import { ListTag } from '../constants.js'
import { type DictionaryContext, failDictionary, need } from './context.js'

/** Lists of at most this many values are read into scratch arrays, which grow up to it. */
const SCRATCH_VALUES = 1 << 16
const scratch = [new Int32Array(256), new Int32Array(256)]

/**
 * Room for `count` values: in scratch array `slot` (a dictionary's lists are used while its terms
 * decode, then not kept: no allocation per list for a small file's many small ones), or a new array.
 */
function listArray(count: number, slot: 0 | 1): Int32Array {
  if (count > SCRATCH_VALUES) return new Int32Array(count)
  if (scratch[slot].length < count) scratch[slot] = new Int32Array(Math.min(SCRATCH_VALUES, 2 ** Math.ceil(Math.log2(count))))
  return scratch[slot].subarray(0, count)
}

/**
 * The list at `at` of `count` values, each ≤ max; returns them (in scratch array `slot`: valid
 * until the next list read into it) and the offset after the list.
 */
export function readIntList(
  context: DictionaryContext, at: number, count: number, max: number, what: string, slot: 0 | 1,
): { values: Int32Array; end: number } {
  need(context, at, 1, what)
  const tag = context.bytes[at]
  const values = listArray(count, slot)
  let end: number
  if (tag === ListTag.packed) {
    need(context, at + 1, 1, what)
    const width = context.bytes[at + 1]
    if (width > 31) failDictionary(context, `${what}: width ${width} is above 31`)
    const length = Math.ceil((count * width) / 8)
    need(context, at + 2, length, what)
    // The fields are read in place; the section's last bytes are followed by more of the file (at least the footer).
    unpackSmall(context.bufferWords, context.bytes.byteOffset + at + 2, 0, count, width, values, 0)
    for (let index = 0; index < count; index++) {
      if (values[index] > max) failDictionary(context, `${what}: value ${index} is ${values[index]}, above ${max}`)
    }
    end = at + 2 + length
  } else if (tag === ListTag.sequence) {
    const label = `${context.label} (${what})`
    const parsed = parseCascade(context.file, context.bufferWords, context.fileName, label, at + 1, context.limit, count, 'integer')
    validateCascade(parsed.view, context.backend, -1)
    // Decoded with the range check in the kernel (values below max + 1, as ordinals are below a limit).
    const bad = context.backend.decodeInt32(parsed.view, 0, count, max + 1, values, 0)
    if (bad >= 0) {
      context.backend.getRaw(parsed.view, bad)
      failDictionary(context, `${what}: value ${bad} is ${int64ToBigInt(int64Result[0], int64Result[1])}, above ${max}`)
    }
    end = parsed.end
  } else {
    return failDictionary(context, `${what}: list tag ${tag} is not 0 (fields) or 1 (a sequence)`)
  }
  return { values, end }
}
