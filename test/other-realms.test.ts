/**
 * Values made in another realm (an iframe, a `node:vm` context), where `instanceof` sees only
 * this realm's constructors: their Dates are Dates, their Maps and Sets are refused as
 * documents; and bigint bounds beyond every double, which the writer refuses as values.
 */
import { runInNewContext } from 'node:vm'
import { describe, expect, it, vi } from 'vitest'
import { ColumnsWriter, flushColumns } from '../src/write/columns-writer.js'
import { openColumns } from '../src/read/open.js'

const schema = { fields: [
  { name: 'd', type: 'date', column: true },
  { name: 'x', type: 'fractional', column: true },
] } as const

/** What a call threw: its class and message. */
function thrown(call: () => unknown): { kind: string; message: string } | null {
  try {
    call()
    return null
  } catch (error) {
    return { kind: (error as Error).name, message: (error as Error).message }
  }
}

const foreign = runInNewContext(`({
  map: new Map([['d', 1]]), set: new Set([1]), date: new Date(86400000), regexp: /d/, number: new Number(1),
  plain: { d: 5, x: 1.5 },
})`) as { map: object; set: object; date: Date; regexp: object; number: object; plain: object }

describe('objects of another realm', () => {
  it('refuses its Maps, Sets, Dates, RegExps and boxed numbers as documents, as this realm\'s', () => {
    const refused = (what: string) => ({ kind: 'InvalidInputError', message: `document 0: expected an object of field values, got ${what}` })
    const cases: [object, ReturnType<typeof refused>][] = [
      [foreign.map, refused('a Map (Object.fromEntries(map) makes one)')],
      [foreign.set, refused('a Set')],
      [foreign.date, refused('a Date')],
      [foreign.regexp, refused('a RegExp')],
      [foreign.number, refused('a Number')],
    ]
    for (const [document, expected] of cases) {
      expect(thrown(() => flushColumns(schema, [document as never]))).toEqual(expected)
      expect(thrown(() => new ColumnsWriter(schema).addDocument(0, document as never))).toEqual(expected)
    }
    // Its plain objects are documents.
    const reader = openColumns(flushColumns(schema, [foreign.plain as never])!)
    expect([reader.column('d').getInt64(0), reader.column('x').getFloat64(0)]).toEqual([5, 1.5])
  })

  it.each([1, 2] as const)('takes its Dates as date values, bounds and edges (format %i)', (format) => {
    const bytes = flushColumns(schema, [{ d: foreign.date }, { d: new Date(0) }], { format })!
    expect(bytes).toEqual(flushColumns(schema, [{ d: new Date(86400000) }, { d: new Date(0) }], { format }))
    const column = openColumns(bytes).column('d')
    expect(column.rangeFilter(foreign.date, Infinity).toArray()).toEqual(Uint32Array.of(0))
    expect(Array.from(column.histogram([new Date(0), foreign.date, Infinity]))).toEqual([1, 1])
  })
})

describe('telling Dates apart costs nothing for other objects', () => {
  it('a geo point or a { raw } bound is never tried as a Date (a throw each cost microseconds)', () => {
    const getTime = vi.spyOn(Date.prototype, 'getTime')
    try {
      const bytes = flushColumns({ fields: [{ name: 'g', type: 'geo_point', column: true }, { name: 'n', type: 'integral', column: true }] },
        Array.from({ length: 100 }, (_, index) => ({ g: { lat: index % 90, lon: index }, n: index })))!
      openColumns(bytes).column('n').rangeFilter({ raw: 3n }, { raw: 5n })
      expect(getTime).not.toHaveBeenCalled()
    } finally {
      getTime.mockRestore()
    }
  })
})

describe('a bigint bound beyond every double', () => {
  it('is refused, as the writer refuses the value, not taken for an infinity', () => {
    const column = openColumns(flushColumns(schema, [{ x: -Infinity }, { x: 0 }, { x: Infinity }])!).column('x')
    const beyond = (where: string) => ({ kind: 'RangeError', message: `field "x": a bigint bound beyond the largest double (about 1.8e308); pass ±Infinity (${where})` })
    // -(2^1024) lies above -Infinity: taken for -Infinity, it matched document 0.
    expect(thrown(() => column.rangeFilter(-(2n ** 1024n), 0))).toEqual(beyond('rangeFilter\'s lo'))
    expect(thrown(() => column.rangeFilter(0, 2n ** 1024n))).toEqual(beyond('rangeFilter\'s hi'))
    expect(thrown(() => column.histogram([0, 2n ** 1024n]))).toEqual(beyond('histogram edge 1'))
    expect(thrown(() => flushColumns(schema, [{ x: 2n ** 1024n }]))?.message).toContain('is beyond the largest double')
    expect(column.rangeFilter(-Infinity, 0).toArray()).toEqual(Uint32Array.of(0, 1))
  })
})
