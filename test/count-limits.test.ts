/**
 * Sizes worked out from counts near the format's 32-bit limits (a few megabytes of runs can
 * declare 2^32 - 1 documents or values): no size wraps through 32-bit arithmetic. A wrapped
 * bitset size gave empty DocSets for maxDoc ≥ 2^32 - 31, and a wrapped decoded-codes size made a
 * small region that the WebAssembly decode then wrote past, into other readers' memory (audit).
 */
import { describe, expect, it } from 'vitest'
import { wordsFor } from '../src/backend/bits.js'
import { decodedCodesBytes } from '../src/cascade/decoded-codes.js'

describe('sizes from counts near 2^32', () => {
  it('bitset words', () => {
    expect([0, 1, 32, 33, 2 ** 32 - 32, 2 ** 32 - 31, 2 ** 32 - 1].map(wordsFor)).toEqual([0, 1, 1, 2, 2 ** 27 - 1, 2 ** 27, 2 ** 27])
  })

  it('a decoded copy of codes: exact below 2^31 bytes, none made at or above', () => {
    // 1,024 entries: 2 bytes a code; 977 blocks of records (24 bytes), 8 bytes of padding, 4 bytes of extremes a block.
    const count = 1_000_000_000, blocks = Math.ceil(count / 1024)
    expect(decodedCodesBytes(1024, count)).toBe(24 * blocks + 2 * count + 8 + 4 * blocks)
    expect(decodedCodesBytes(1024, count, true)).toBe(48 * blocks + 2 * count + 8 + 4 * blocks)
    expect(decodedCodesBytes(1024, 1_100_000_000)).toBe(0)
    expect(decodedCodesBytes(1024, 2_200_000_512)).toBe(0)
    expect(decodedCodesBytes(200, 2_000_000_000)).toBe(24 * Math.ceil(2e9 / 1024) + 2e9 + 8 + 4 * Math.ceil(2e9 / 1024))
  })
})
