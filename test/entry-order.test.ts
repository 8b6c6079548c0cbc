/**
 * The code orders of sequence dictionaries (src/cascade/sequences/entry-order.ts): radix sorts
 * against a comparator model, over keys that differ in one byte only, across the sign of the high
 * word, and counts that tie. The order decides every code a format 2 flush writes.
 */
import { describe, expect, it } from 'vitest'
import { ascendingEntries, frequencyEntries } from '../src/cascade/sequences/entry-order.js'
import { seededRandom } from './helpers/random.js'

/** Signed i64 comparison of entries a and b of words (interleaved low, high). */
function compareValues(words: Int32Array, a: number, b: number): number {
  const high = words[2 * a + 1] - words[2 * b + 1]
  if (high !== 0) return high
  return (words[2 * a] >>> 0) - (words[2 * b] >>> 0)
}

function modelAscending(words: Int32Array, size: number): number[] {
  return Array.from({ length: size }, (_, e) => e).sort((a, b) => compareValues(words, a, b))
}

function modelFrequency(words: Int32Array, counts: Int32Array, size: number): number[] {
  return Array.from({ length: size }, (_, e) => e).sort((a, b) => counts[b] - counts[a] || compareValues(words, a, b))
}

describe('sequence dictionary code orders', () => {
  it('orders distinct values as a comparator does, whatever bytes they share', () => {
    const random = seededRandom(2027)
    const u32 = () => Math.floor(random() * 2 ** 32) | 0
    const shapes: Record<string, (i: number) => [number, number]> = {
      'random words': () => [u32(), u32()],
      'one low byte': (i) => [i << 8, 5],
      'high byte only': (i) => [0x1234, (i << 24) | 0x77],
      'around zero': (i) => [i % 2 === 0 ? i : -i, i % 2 === 0 ? 0 : -1],
      'extremes': (i) => [[0, -1, 0, -1][i % 4] ^ (i >> 2), [0x7fffffff, 0x7fffffff, -0x80000000, -0x80000000][i % 4]],
    }
    for (const [name, shape] of Object.entries(shapes)) {
      for (const size of [0, 1, 2, 3, 255, 256, 257, 5000]) {
        const seen = new Set<string>()
        const words = new Int32Array(2 * size), counts = new Int32Array(size)
        for (let entry = 0; entry < size; entry++) {
          let value = shape(entry)
          while (seen.has(value.join())) value = [u32(), value[1]]
          seen.add(value.join())
          ;[words[2 * entry], words[2 * entry + 1]] = value
          // Few distinct counts, one large: ties in every size.
          counts[entry] = entry % 7 === 0 ? 0x7fffffff - (entry % 3) : 1 + Math.floor(random() * 3) * 300
        }
        expect(Array.from(ascendingEntries(words, size)), `${name}, ${size}`).toEqual(modelAscending(words, size))
        expect(Array.from(frequencyEntries(words, counts, size)), `${name}, ${size}`).toEqual(modelFrequency(words, counts, size))
      }
    }
  })

  it('leaves its inputs as they were', () => {
    const words = Int32Array.from([3, 0, 1, 0, 2, -1]), counts = Int32Array.from([1, 5, 5])
    const copy = [Array.from(words), Array.from(counts)]
    expect(Array.from(ascendingEntries(words, 3))).toEqual([2, 1, 0])
    // Entries 1 and 2 both counted 5 times: the smaller value (entry 2, below zero) first.
    expect(Array.from(frequencyEntries(words, counts, 3))).toEqual([2, 1, 0])
    expect([Array.from(words), Array.from(counts)]).toEqual(copy)
  })
})
