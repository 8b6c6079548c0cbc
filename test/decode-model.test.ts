// Randomized duel: every block form, width 1..64, divisors and bases near the
// i64 extremes; bulk decode, partial runs and single gets must return exactly
// what was written (a BigInt model).
import { describe, expect, it } from 'vitest'
import { seededRandom } from './helpers/random.js'
import { flushColumns, openColumns } from '../src/index.js'

const MIN = -(2n ** 63n)
const MAX = 2n ** 63n - 1n

function randomBigInt(random: () => number, bits: number): bigint {
  let value = 0n
  for (let done = 0; done < bits; done += 30) value = (value << 30n) | BigInt(Math.floor(random() * 2 ** 30))
  return value & ((1n << BigInt(bits)) - 1n)
}

/** Values of one block shape: base + g × u with u < 2^width, clamped into i64 by wrapping. */
function makeBlock(random: () => number, count: number): bigint[] {
  const shape = Math.floor(random() * 5)
  const width = 1 + Math.floor(random() * 64)
  const base = [0n, MIN, MAX - (1n << 20n), randomBigInt(random, 64) + MIN, -1000n][Math.floor(random() * 5)]
  const divisor = [1n, 1000n, 7n, 1n << 40n][Math.floor(random() * 4)]
  if (shape === 0) return Array(count).fill(BigInt.asIntN(64, base))
  if (shape === 1) {
    const table = Array.from({ length: 2 + Math.floor(random() * 40) }, () => BigInt.asIntN(64, randomBigInt(random, 64)))
    return Array.from({ length: count }, () => table[Math.floor(random() * table.length)])
  }
  return Array.from({ length: count }, () => BigInt.asIntN(64, base + divisor * randomBigInt(random, width)))
}

describe('decode against a BigInt model', () => {
  for (let seed = 1; seed <= 24; seed++) {
    it(`seed ${seed}`, () => {
      const random = seededRandom(seed)
      const values: bigint[] = []
      const total = 1 + Math.floor(random() * 5000)
      while (values.length < total) values.push(...makeBlock(random, Math.min(1024, total - values.length)))
      values.forEach((value) => expect(value >= MIN && value <= MAX).toBe(true))
      const bytes = flushColumns({ fields: [{ name: 'v', type: 'integral', column: true }] }, values.map((v) => ({ v })))!
      const reader = openColumns(bytes)
      reader.verify()
      const column = reader.getColumn('v')!
      const all = new BigInt64Array(values.length)
      column.readValues(0, all)
      expect(Array.from(all)).toEqual(values)
      for (let probe = 0; probe < 200; probe++) {
        const first = Math.floor(random() * values.length)
        const count = Math.floor(random() * Math.min(3000, values.length - first + 1))
        const run = new BigInt64Array(count)
        column.readValues(first, run)
        expect(Array.from(run)).toEqual(values.slice(first, first + count))
        expect(column.getInt64BigInt(first)).toBe(values[first])
      }
    })
  }
})
