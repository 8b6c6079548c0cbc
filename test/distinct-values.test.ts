/**
 * A sequence's distinct values (src/cascade/sequences/distinct.ts), which every format 2 flush and
 * full check derives: against a Map model, and its hash spread over values whose low bits are zero
 * (they once all probed from a few slots, and a flush of 65,536 such values took seconds).
 */
import { describe, expect, it } from 'vitest'
import { distinctValues, hashSlot } from '../src/cascade/sequences/distinct.js'
import { seededRandom } from './helpers/random.js'

/** (a << 56) | (b << 24) as the two words of an i64. */
const lowZero = (a: number, b: number): [number, number] => [(b << 24) | 0, ((a << 24) | (b >>> 8)) | 0]

describe('distinct values of a sequence', () => {
  it('spreads values of every shape over the table, those whose low 24 bits are zero too', () => {
    const shapes: Record<string, (i: number) => [number, number]> = {
      'a << 56 | b << 24': (i) => lowZero(i >>> 8, i & 255),
      'i << 32': (i) => [0, i],
      'i << 20': (i) => [(i << 20) | 0, i >>> 12],
      'i': (i) => [i, 0],
      '-i': (i) => [-i | 0, -1],
      'i × 1000': (i) => [i * 1000, 0],
      // Words that cancelled in the unseeded hash's first step: every value probed from one slot,
      // and a 125 KB file took seconds to flush and to verify.
      'crafted to collide': (i) => [0x12345678 ^ Math.imul(i ^ (i >>> 16), 0x85ebca6b), i],
    }
    for (const [name, shape] of Object.entries(shapes)) {
      const slots = new Set<number>()
      for (let i = 0; i < 8192; i++) slots.add(hashSlot(...shape(i), 14))
      // 8,192 values over 16,384 slots: a uniform hash leaves about 6,450 slots taken (the first shape took 256).
      expect(slots.size, name).toBeGreaterThan(6000)
    }
  })

  it('lists values in first-seen order with their counts and each value\'s entry, as a Map does', () => {
    const random = seededRandom(77)
    for (const shape of ['random', 'low bits zero', 'runs'] as const) {
      const count = 30_000
      const words = new Int32Array(2 * count)
      for (let i = 0; i < count; i++) {
        const [low, high] = shape === 'random' ? [Math.floor(random() * 2 ** 32) | 0, Math.floor(random() * 8)]
          : shape === 'low bits zero' ? lowZero(Math.floor(random() * 64), Math.floor(random() * 256)) : [Math.floor(i / 100), 0]
        words[2 * i] = low
        words[2 * i + 1] = high
      }
      const model = new Map<string, [number, number]>()
      const entries: number[] = []
      for (let i = 0; i < count; i++) {
        const key = `${words[2 * i]},${words[2 * i + 1]}`
        const known = model.get(key) ?? [model.size, 0]
        known[1]++
        model.set(key, known)
        entries.push(known[0])
      }
      const found = distinctValues(words, count, 1 << 20)!
      expect(found.size, shape).toBe(model.size)
      expect([...model.keys()], shape).toEqual(Array.from({ length: found.size }, (_, e) => `${found.words[2 * e]},${found.words[2 * e + 1]}`))
      expect([...model.values()].map(([, n]) => n), shape).toEqual(Array.from(found.counts.subarray(0, found.size)))
      expect(Array.from(found.indexOf), shape).toEqual(entries)
      expect(distinctValues(words, count, model.size - 1), shape).toBeNull()
    }
  })
})
