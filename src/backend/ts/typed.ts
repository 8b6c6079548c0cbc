/**
 * Typed decodes for the TS backend: raw words in block-sized chunks, converted
 * to doubles or int32 without BigInt.
 */
import type { DictionaryCascade, Float64Mode, SequenceView } from '../backend.js'
import { BLOCK_VALUES } from '../../format/constants.js'
import { sortableToFloat64Into } from '../../format/int64.js'
import { decodeRaw } from './decode.js'
import { decimalDoubles, decodeDictionaryCodes } from '../../cascade/reader/decode-ts.js'

const scratch = new Int32Array(2 * BLOCK_VALUES)

/** Typed entries as doubles (entriesOf's key; an ordinal limit or -1 gives int32). */
const DOUBLES = -2

/**
 * A sequence dictionary's entries as the destination's kind, made on its first typed read (the
 * TypeScript backend's entries stay where the open decoded them), by key: an ordinal limit, -1
 * (plain int32) or DOUBLES (exact doubles); null where some entry does not pass.
 */
const typedEntries = new WeakMap<DictionaryCascade, Map<number, Int32Array | Float64Array | null>>()

function entriesOf(cascade: DictionaryCascade, key: number): Int32Array | Float64Array | null {
  const words = cascade.entryWords
  if (words === null) return null
  let kept = typedEntries.get(cascade)
  if (kept === undefined) typedEntries.set(cascade, (kept = new Map()))
  let values = kept.get(key)
  if (values === undefined) {
    const k = cascade.entries.count
    values = key === DOUBLES ? new Float64Array(k) : new Int32Array(k)
    for (let entry = 0; entry < k && values !== null; entry++) {
      const low = words[2 * entry], high = words[2 * entry + 1], value = high * 4294967296 + (low >>> 0)
      if (key === DOUBLES ? !Number.isSafeInteger(value) : key >= 0 ? high !== 0 || low >>> 0 >= key : high !== low >> 31) values = null
      else values[entry] = key === DOUBLES ? value : low
    }
    kept.set(key, values)
  }
  return values
}

/**
 * Values [first, first + count) (count ≤ 1,024) of the dictionary mapped through its typed entries
 * into destination from `out`; false at a code not below the entries (the caller reads the chunk
 * again the general way, which names it), the values before it written.
 */
function mapEntries(cascade: DictionaryCascade, first: number, count: number, entries: Int32Array | Float64Array, destination: Int32Array | Float64Array, out: number): boolean {
  decodeDictionaryCodes(cascade, first, count, scratch)
  const k = entries.length
  for (let index = 0; index < count; index++) {
    // An int32 code: negative means ≥ 2^31.
    const code = scratch[2 * index]
    if (scratch[2 * index + 1] !== 0 || code < 0 || code >= k) return false
    destination[out + index] = entries[code]
  }
  return true
}

/** The dictionary behind a typed read of `count` values, when its entries are worth making typed (no more of them than values read). */
function dictionaryOf(sequence: SequenceView, count: number): DictionaryCascade | null {
  const cascade = sequence.cascade
  return cascade !== null && cascade.form === 1 && cascade.entries.count <= count ? cascade : null
}

/** See ColumnsBackend.decodeFloat64. */
export function decodeFloat64(
  sequence: SequenceView, first: number, count: number, mode: Float64Mode, destination: Float64Array, destinationIndex: number,
): number {
  // Decimals: n / 10^e into the doubles directly.
  if (mode === 'sortable' && sequence.cascade?.form === 3) {
    decimalDoubles(sequence, first, count, destination, destinationIndex)
    return -1
  }
  const dictionary = mode === 'exact' ? dictionaryOf(sequence, count) : null
  const entries = dictionary === null ? null : entriesOf(dictionary, DOUBLES)
  for (let done = 0; done < count; done += BLOCK_VALUES) {
    const chunk = Math.min(BLOCK_VALUES, count - done)
    if (entries !== null && mapEntries(dictionary!, first + done, chunk, entries, destination, destinationIndex + done)) continue
    decodeRaw(sequence, first + done, chunk, scratch, 0)
    const out = destinationIndex + done
    if (mode === 'sortable') {
      for (let index = 0; index < chunk; index++) sortableToFloat64Into(scratch[2 * index], scratch[2 * index + 1], destination, out + index)
      continue
    }
    for (let index = 0; index < chunk; index++) {
      const value = scratch[2 * index + 1] * 4294967296 + (scratch[2 * index] >>> 0)
      if (!Number.isSafeInteger(value)) return done + index
      destination[out + index] = value
    }
  }
  return -1
}

/** See ColumnsBackend.decodeInt32. */
export function decodeInt32(
  sequence: SequenceView, first: number, count: number, ordinalLimit: number, destination: Int32Array, destinationIndex: number,
): number {
  const dictionary = dictionaryOf(sequence, count)
  const entries = dictionary === null ? null : entriesOf(dictionary, ordinalLimit)
  for (let done = 0; done < count; done += BLOCK_VALUES) {
    const chunk = Math.min(BLOCK_VALUES, count - done)
    if (entries !== null && mapEntries(dictionary!, first + done, chunk, entries, destination, destinationIndex + done)) continue
    decodeRaw(sequence, first + done, chunk, scratch, 0)
    const out = destinationIndex + done
    for (let index = 0; index < chunk; index++) {
      const low = scratch[2 * index], high = scratch[2 * index + 1]
      const bad = ordinalLimit >= 0 ? high !== 0 || low >>> 0 >= ordinalLimit : high !== low >> 31
      if (bad) return done + index
      destination[out + index] = low
    }
  }
  return -1
}

/**
 * See ColumnsBackend.decodeOrdinals: each chunk decoded into the destination's words, then checked;
 * a dictionary whose every entry is below the limit decoded whole, unchecked (each value is an
 * entry: a code beyond the entries throws as it is read, in the same order).
 */
export function decodeOrdinals(
  sequence: SequenceView, first: number, count: number, ordinalLimit: number, destination: Int32Array, destinationIndex: number,
): number {
  const dictionary = dictionaryOf(sequence, count)
  if (dictionary !== null && entriesOf(dictionary, ordinalLimit) !== null) {
    decodeRaw(sequence, first, count, destination, destinationIndex)
    return -1
  }
  for (let done = 0; done < count; done += BLOCK_VALUES) {
    const chunk = Math.min(BLOCK_VALUES, count - done)
    decodeRaw(sequence, first + done, chunk, destination, destinationIndex + done)
    for (let index = 0, d = 2 * (destinationIndex + done); index < chunk; index++, d += 2) {
      if (destination[d + 1] !== 0 || destination[d] >>> 0 >= ordinalLimit) return done + index
    }
  }
  return -1
}

