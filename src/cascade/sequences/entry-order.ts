/**
 * The two code orders of a sequence dictionary, as lists of distinct entries:
 * by value (signed i64) and by descending count, ties by value. Both are one
 * stable LSD radix sort over the bytes of a key whose words travel with the
 * entries (sequential reads, no lookup per entry per pass), skipping bytes every
 * entry shares: half a million distinct values order in a few passes rather
 * than through a comparator called 10^7 times. Values are distinct, so each
 * order is unique: any correct sort gives the same codes, hence the same bytes.
 */

/** Entries [0, size) of words (interleaved low, high) in ascending signed i64 order. */
export function ascendingEntries(words: Int32Array, size: number): Int32Array {
  return sortByKey(valueKey(words, size), size)
}

/** Entries [0, size) by descending counts[entry], entries of equal counts in ascending value order. */
export function frequencyEntries(words: Int32Array, counts: Int32Array, size: number): Int32Array {
  const key = valueKey(words, size)
  // Counts are positive int32s: 0x7fffffff - count ascends as count descends.
  const scarcity = new Int32Array(size)
  for (let entry = 0; entry < size; entry++) scarcity[entry] = 0x7fffffff - counts[entry]
  key.push(scarcity)
  return sortByKey(key, size)
}

/** The value's key words, least significant first: low, then high with its sign bit flipped (unsigned order = signed). */
function valueKey(words: Int32Array, size: number): Int32Array[] {
  const low = new Int32Array(size), high = new Int32Array(size)
  for (let entry = 0; entry < size; entry++) {
    low[entry] = words[2 * entry]
    high[entry] = words[2 * entry + 1] ^ 0x80000000
  }
  return [low, high]
}

/** Entries [0, size) in ascending unsigned order of the key, two or three words, least significant first. */
function sortByKey(key: Int32Array[], size: number): Int32Array {
  // Every array moves with the entries in each pass, so each pass reads them in order.
  let entries: Int32Array = new Int32Array(size)
  for (let entry = 0; entry < size; entry++) entries[entry] = entry
  let [a, b, c]: Int32Array[] = [key[0], key[1], key.length > 2 ? key[2] : EMPTY]
  let [spare, spareA, spareB, spareC]: Int32Array[] = [new Int32Array(size), new Int32Array(size), new Int32Array(size), new Int32Array(c.length)]
  const starts = new Int32Array(257)
  for (let word = 0; word < key.length; word++) {
    for (let shift = 0; shift < 32; shift += 8) {
      const digits = word === 0 ? a : word === 1 ? b : c
      if (!countDigits(digits, size, shift, starts)) continue
      const withC = c.length > 0
      for (let index = 0; index < size; index++) {
        const to = starts[(digits[index] >>> shift) & 0xff]++
        spare[to] = entries[index]
        spareA[to] = a[index]
        spareB[to] = b[index]
        if (withC) spareC[to] = c[index]
      }
      ;[entries, spare, a, spareA, b, spareB, c, spareC] = [spare, entries, spareA, a, spareB, b, spareC, c]
    }
  }
  return entries
}

const EMPTY = new Int32Array(0)

/**
 * Fills starts with where each byte's entries begin (starts[byte]) for the byte at shift of digits;
 * false when every entry has the same byte there (the pass would change nothing).
 */
function countDigits(digits: Int32Array, size: number, shift: number, starts: Int32Array): boolean {
  starts.fill(0)
  for (let index = 0; index < size; index++) starts[((digits[index] >>> shift) & 0xff) + 1]++
  for (let digit = 1; digit <= 256; digit++) if (starts[digit] === size) return false
  for (let digit = 0; digit < 256; digit++) starts[digit + 1] += starts[digit]
  return true
}
