/**
 * Query bounds and edges that were taken silently (a new user's audit): numbers from 2^53 on, where
 * a literal has already lost its integer; histogram edges after one above every i64; booleans on
 * columns that are not bool; fractional bigint edges that are one double. Also sums of -0, the
 * bounding box's types, and toArray's two options for dates. Exact answers and messages, both
 * backends, both formats.
 */
import { describe, expect, it } from 'vitest'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { mergeAggregates } from '../src/node/query-merge.js'
import { createAggregateState } from '../src/backend/query-kernels.js'
import type { NaturalValue } from '../src/kernels/natural-units.js'

const schema = { fields: [
  { name: 'n', type: 'integral', column: true },
  { name: 'd', type: 'date', column: true },
  { name: 'k', type: 'keyword', facet: true },
  { name: 'b', type: 'bool', column: true },
  { name: 'x', type: 'fractional', column: true },
  { name: 'z', type: 'fractional', column: true, multi: true },
  { name: 'g', type: 'geo_point', column: true },
] } as const
const TWO_53 = 2n ** 53n
const documents = [
  { n: TWO_53, d: 1, k: 'a', b: true, x: 2 ** 53, z: [-0, -0], g: { lat: 1, lon: 2 } },
  { n: TWO_53 + 1n, d: 5, k: 'b', b: false, x: -0, z: [-0] },
  { n: 7, d: 9, k: 'c', b: true, x: 1, z: [] },
]

function thrown(call: () => unknown): { kind: string; message: string } | 'returned' {
  try {
    call()
  } catch (error) {
    return { kind: (error as Error).constructor.name, message: (error as Error).message }
  }
  return 'returned'
}

describe.each(['wasm', 'ts'] as const)('bounds checked before a query runs (%s)', (backend) => {
  describe.each([1, 2] as const)('format %i', (format) => {
    const reader = openColumns(flushColumns(schema, documents, { maxDoc: 3, format })!, { backend })
    const column = (name: string) => reader.column(name)

    it('refuses a number bound from 2^53 on, where a bigint says exactly which integer', () => {
      const beyond = { kind: 'RangeError', message: 'field "n": bound 9007199254740992 is beyond 2^53, where a number cannot hold every integer; pass a bigint (or ±Infinity for no bound)' }
      // 2 ** 53 + 1 is 2 ** 53 by the time the call sees it: it once matched document 0, not 1.
      expect(thrown(() => column('n').rangeFilter(2 ** 53 + 1, 2 ** 53 + 1))).toEqual({ ...beyond, message: `${beyond.message} (rangeFilter's lo)` })
      expect(thrown(() => column('n').rangeFilter(0, -(2 ** 60)))).toEqual({ ...beyond, message: `${beyond.message.replace('9007199254740992', '-1152921504606847000')} (rangeFilter's hi)` })
      expect(thrown(() => column('n').histogram([0, 2 ** 53]))).toEqual({ ...beyond, message: `${beyond.message} (histogram edge 1)` })
      expect(thrown(() => column('d').rangeFilter(2 ** 53, Infinity))).toEqual({ ...beyond, message: `${beyond.message.replace('"n"', '"d"')} (rangeFilter's lo)` })
      expect(column('n').rangeFilter(TWO_53 + 1n, TWO_53 + 1n).toArray()).toEqual(Uint32Array.of(1))
      expect(column('n').rangeFilter(2 ** 53 - 1, Infinity).toArray()).toEqual(Uint32Array.of(0, 1))
      expect(Array.from(column('n').histogram([TWO_53, TWO_53 + 1n, Infinity]))).toEqual([1, 1])
    })

    it('checks every histogram edge, those after one above every i64 too', () => {
      const increasing = (edge: number) => ({ kind: 'RangeError', message: `field "n": histogram edges must be strictly increasing (edge ${edge})` })
      expect(thrown(() => column('n').histogram([0, Infinity, 5]))).toEqual(increasing(2))
      expect(thrown(() => column('n').histogram([Infinity, -Infinity]))).toEqual(increasing(1))
      expect(thrown(() => column('n').histogram([0, Infinity, NaN]))).toEqual({ kind: 'RangeError', message: 'field "n": histogram edge 2 is NaN' })
      expect(thrown(() => column('n').histogram([0, 2n ** 64n, 'x']))).toEqual({ kind: 'TypeError', message: 'field "n" is integral; string bounds are ISO-8601 dates, for date columns (histogram edge 2)' })
      expect(thrown(() => column('d').histogram([new Date(0), new Date(NaN)]))).toEqual({ kind: 'RangeError', message: 'field "d": invalid Date bound (histogram edge 1)' })
      // eslint-disable-next-line no-sparse-arrays
      expect(thrown(() => column('n').histogram([0, , 2] as NaturalValue[]))).toEqual({ kind: 'TypeError', message: 'field "n": bound undefined is not a number, bigint, Date, ISO date string or { raw } (histogram edge 1)' })
      // Edges above every i64 that do increase leave their buckets empty, as before.
      expect(Array.from(column('n').histogram([0, 2n ** 64n, 2n ** 65n]))).toEqual([3, 0])
    })

    it('takes boolean bounds on bool columns only', () => {
      const refused = (field: string, type: string) => ({ kind: 'TypeError', message: `field "${field}" is ${type}; boolean bounds are for bool columns` })
      const lo = (field: string, type: string) => ({ ...refused(field, type), message: `${refused(field, type).message} (rangeFilter's lo)` })
      expect(thrown(() => column('n').rangeFilter(true, true))).toEqual(lo('n', 'integral'))
      expect(thrown(() => column('d').rangeFilter(false, 10))).toEqual(lo('d', 'date'))
      expect(thrown(() => column('d').rangeFilter(10, false))).toEqual({ ...refused('d', 'date'), message: `${refused('d', 'date').message} (rangeFilter's hi)` })
      expect(thrown(() => column('k').rangeFilter(true, true))).toEqual(lo('k', 'keyword'))
      expect(thrown(() => column('n').histogram([false, true, 2]))).toEqual({ ...refused('n', 'integral'), message: `${refused('n', 'integral').message} (histogram edge 0)` })
      expect(column('b').rangeFilter(true, true).toArray()).toEqual(Uint32Array.of(0, 2))
    })

    it('refuses fractional edges that are one double, however they are written', () => {
      expect(thrown(() => column('x').histogram([TWO_53, TWO_53 + 1n]))).toEqual({ kind: 'RangeError', message: 'field "x": histogram edges must be strictly increasing (edge 1)' })
      expect(Array.from(column('x').histogram([TWO_53, TWO_53 + 2n]))).toEqual([1])
    })

    it('sums -0s to -0, and nothing to +0', () => {
      for (const [field, docs] of [['x', [1]], ['z', [0, 1]]] as const) {
        const selected = reader.createDocSet()
        for (const doc of docs) selected.add(doc)
        const { sum, count } = column(field).aggregate(selected)
        expect([field, count, Object.is(sum, -0)]).toEqual([field, field === 'x' ? 1 : 3, true])
        selected.release()
      }
      expect(Object.is(column('x').aggregate(reader.createDocSet()).sum, 0)).toBe(true)
      const last = reader.createDocSet().add(1).add(2)
      expect(column('x').aggregate(last).sum).toBe(1)
      last.release()
    })

    it('names a bounding box coordinate of the wrong type as a TypeError', () => {
      const box = { minLatitude: 0, maxLatitude: 2, minLongitude: 0, maxLongitude: 3 }
      expect(thrown(() => column('g').boundingBoxFilter({ ...box, minLatitude: '-90' as unknown as number }))).toEqual({ kind: 'TypeError', message: 'field "g": box.minLatitude must be a number, got "-90"' })
      expect(thrown(() => column('g').boundingBoxFilter({ ...box, maxLongitude: 3n as unknown as number }))).toEqual({ kind: 'TypeError', message: 'field "g": box.maxLongitude must be a number, got 3n' })
      expect(thrown(() => column('g').boundingBoxFilter({ ...box, minLongitude: NaN }))).toEqual({ kind: 'RangeError', message: 'field "g": box.minLongitude must be a number, got NaN' })
      expect(column('g').boundingBoxFilter(box).toArray()).toEqual(Uint32Array.of(0))
      // A misspelt key beside the four was dropped unseen.
      expect(thrown(() => column('g').boundingBoxFilter({ ...box, maxLongtitude: 1 } as typeof box))).toEqual({
        kind: 'TypeError', message: 'field "g": a box holds minLatitude, maxLatitude, minLongitude, maxLongitude alone, got also "maxLongtitude"',
      })
    })

    it('refuses toArray asked for both Dates and bigints of one date column', () => {
      expect(thrown(() => column('d').toArray({ useDate: true, useBigInt: true }))).toEqual({ kind: 'TypeError', message: 'field "d": toArray\'s useDate and useBigInt each choose what a date becomes; give one' })
      expect(column('n').toArray({ useDate: true, useBigInt: true })).toEqual([TWO_53, TWO_53 + 1n, 7n])
      expect(column('d').toArray({ useBigInt: true })).toEqual([1n, 5n, 9n])
    })
  })
})

describe("the worker pool's merge of aggregate parts", () => {
  it('starts a double sum at -0, so parts of -0s sum to -0', () => {
    const part = (count: number, sum: number) => {
      const state = createAggregateState()
      state.numbers[0] = count
      state.numbers[1] = sum
      return state
    }
    expect(Object.is(mergeAggregates([part(2, -0), part(0, -0), part(1, -0)], true).sum, -0)).toBe(true)
    expect(Object.is(mergeAggregates([part(1, -0), part(1, 0)], true).sum, 0)).toBe(true)
    expect(Object.is(createAggregateState().numbers[1], -0)).toBe(true)
  })
})
