/**
 * DocSet's whole-bitset kernels (count, and, or, and-not): the WebAssembly ones
 * (v128 and popcnt over linear memory) against the TypeScript ones, for word
 * counts around the 4-word vector step and a 3-million-document set.
 */
import { describe, expect, it } from 'vitest'
import { resolveBackend } from '../src/backend/select.js'
import type { BitsetOperation } from '../src/backend/query-kernels.js'
import { seededRandom } from './helpers/random.js'

const wasm = resolveBackend('wasm').query, ts = resolveBackend('ts').query
const random = seededRandom(5)
const randomWords = (count: number) => Int32Array.from({ length: count }, () => (random() * 2 ** 32) | 0)

describe('bitset kernels: WebAssembly = TypeScript', () => {
  for (const wordCount of [0, 1, 3, 4, 5, 7, 8, 9, 17, 93_750]) {
    it(`${wordCount} words: count and each operation`, () => {
      const a = randomWords(wordCount), b = randomWords(wordCount)
      let expectedCount = 0
      for (const word of a) for (let bit = 0; bit < 32; bit++) expectedCount += (word >>> bit) & 1
      for (const operation of ['and', 'or', 'andNot'] as BitsetOperation[]) {
        const results = [wasm, ts].map((kernels) => {
          const target = kernels.allocateBitset(wordCount), other = kernels.allocateBitset(wordCount)
          target.words.set(a)
          other.words.set(b)
          expect(kernels.countBits(target)).toBe(expectedCount)
          kernels.combineBits(target, other, operation)
          const words = Array.from(target.words)
          expect(Array.from(other.words)).toEqual(Array.from(b)) // the other operand is left alone
          target.release()
          other.release()
          return words
        })
        const expected = Array.from(a, (word, index) =>
          operation === 'and' ? word & b[index] : operation === 'or' ? word | b[index] : word & ~b[index])
        expect(results[0]).toEqual(expected)
        expect(results[1]).toEqual(expected)
      }
    })
  }
})
