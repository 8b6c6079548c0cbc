import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { DuplicateKeyError, InexactInteger, inexactIntegersParsed, MAX_JSON_DEPTH, parseExactJson, type ExactJsonValue } from '../src/format/exact-json.js'

// Documents without integers beyond 2^53, where parseExactJson must agree with JSON.parse.
const documents = [
  'null',
  'true',
  'false',
  '0',
  '-0',
  '-0.0',
  '1',
  '-1',
  '123456789012345',
  '9007199254740991',
  '-9007199254740991',
  '1.5',
  '-1.25e-7',
  '1E3',
  '1e+3',
  '2e-1',
  '0.1',
  '9007199254740993.0',
  '1e21',
  '123456789.123456789e2',
  '5e-324',
  '""',
  '"plain ascii"',
  '"esc \\" \\\\ \\/ \\b \\f \\n \\r \\t end"',
  '"\\u0041\\u00e9\\u20AC\\uD83D\\uDE00"',
  '"lone \\uD800 high and \\uDC00 low"',
  '"raw \u00e9 \u20ac \ud83d\ude00 \u007f"',
  '"\ud800"',
  '[]',
  '[ ]',
  '{}',
  ' \t\r\n{ "a" : 1 , "b" : [ true , false , null ] } \n',
  '[1,[2,[3,[4,[]]]],{"x":{"y":{"z":{}}}}]',
  '{"a":1,"a":2,"b":3,"a":4}',
  '{"2":"two","1":"one","b":0,"a":0,"-1":0}',
  '{"constructor":1,"toString":"x","hasOwnProperty":null,"valueOf":[]}',
  '{"ts":"2024-05-01T12:00:00Z","id":12345,"user":"alice","score":98.5,"tags":["a","b"],"ok":true}',
  '[0.5,-0,1e-10,"\\u0000",{"":""}]',
]

function sameValue(actual: ExactJsonValue, expected: unknown): void {
  expect(actual).toStrictEqual(expected)
  // toStrictEqual ignores key order, which JSON.parse callers may rely on.
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected))
}

describe('parseExactJson agrees with JSON.parse', () => {
  it.each(documents)('%s', (text) => {
    sameValue(parseExactJson(text), JSON.parse(text))
  })

  it('keeps negative zero', () => {
    expect(Object.is(parseExactJson('-0'), -0)).toBe(true)
    expect(Object.is(parseExactJson('[-0]') as number[], [-0])).toBe(false)
    expect(Object.is((parseExactJson('[-0]') as number[])[0], -0)).toBe(true)
  })

  it('matches on random documents', () => {
    // JSON.stringify writes unsafe integer-valued doubles like 2**60 as integer
    // literals, which this parser reads exactly; map those to the expected bigint.
    const exact = (v: unknown): unknown => {
      if (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v) && !/e/.test(String(v))) {
        return BigInt(String(v))
      }
      if (Array.isArray(v)) return v.map(exact)
      if (v !== null && typeof v === 'object') {
        const out: Record<string, unknown> = {}
        for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: exact(x), enumerable: true, writable: true, configurable: true })
        return out
      }
      return v
    }
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined)
        expect(parseExactJson(text)).toStrictEqual(exact(JSON.parse(text)))
      }),
      { numRuns: 2000 },
    )
  })
})

describe('integers', () => {
  it.each([
    ['9007199254740991', 9007199254740991],
    ['-9007199254740991', -9007199254740991],
    ['9007199254740992', 9007199254740992n],
    ['-9007199254740992', -9007199254740992n],
    ['9007199254740993', 9007199254740993n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    ['9223372036854775808', 9223372036854775808n],
    ['18446744073709551615', 18446744073709551615n],
    ['18446744073709551616', 18446744073709551616n],
    ['-170141183460469231731687303715884105728', -170141183460469231731687303715884105728n],
    ['100000000000000000000000000000000000000000000000000', 10n ** 50n],
    ['999999999999999', 999999999999999],
    ['1000000000000000', 1000000000000000],
    ['-0000', null],
  ] as const)('%s', (text, expected) => {
    if (expected === null) {
      expect(() => parseExactJson(text)).toThrow(SyntaxError)
    } else {
      const got = parseExactJson(text)
      expect(typeof got).toBe(typeof expected)
      expect(got).toBe(expected)
    }
  })

  it('only integer literals become bigint; fractions and exponents stay doubles', () => {
    expect(parseExactJson('9223372036854775807.0')).toBe(9223372036854775807)
    expect(parseExactJson('9223372036854775807e0')).toBe(9223372036854775807)
    expect(parseExactJson('1e19')).toBe(1e19)
  })

  it('reads big integers inside structures', () => {
    expect(parseExactJson('{"id":9223372036854775807,"n":[-9223372036854775808,1,2.5]}')).toStrictEqual({
      id: 9223372036854775807n,
      n: [-9223372036854775808n, 1, 2.5],
    })
  })
})

describe('__proto__ keys', () => {
  it('become own properties without touching any prototype', () => {
    const text = '{"__proto__":{"polluted":true},"a":{"__proto__":[1]}}'
    const got = parseExactJson(text) as Record<string, unknown>
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype)
    expect(Object.hasOwn(got, '__proto__')).toBe(true)
    expect(Object.getOwnPropertyDescriptor(got, '__proto__')).toStrictEqual({
      value: { polluted: true },
      writable: true,
      enumerable: true,
      configurable: true,
    })
    expect((got as { polluted?: unknown }).polluted).toBeUndefined()
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
    expect(Object.getPrototypeOf(got.a)).toBe(Object.prototype)
    expect(Object.keys(got)).toStrictEqual(Object.keys(JSON.parse(text)))
  })

  it('last duplicate __proto__ wins like any other key', () => {
    const got = parseExactJson('{"__proto__":1,"__proto__":2}') as Record<string, unknown>
    expect(Object.getOwnPropertyDescriptor(got, '__proto__')?.value).toBe(2)
  })
})

describe('nesting limit', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels`, () => {
    expect(MAX_JSON_DEPTH).toBe(512)
    const text = '['.repeat(512) + ']'.repeat(512)
    let v = parseExactJson(text)
    for (let i = 1; i < 512; i++) v = (v as ExactJsonValue[])[0]
    expect(v).toStrictEqual([])
  })

  it('rejects one level more, for arrays and objects', () => {
    expect(() => parseExactJson('['.repeat(513) + ']'.repeat(513))).toThrow(
      new SyntaxError('JSON nested deeper than 512 levels at position 512'),
    )
    expect(() => parseExactJson('{"a":'.repeat(513) + '1' + '}'.repeat(513))).toThrow(
      new SyntaxError('JSON nested deeper than 512 levels at position 2560'),
    )
  })

  it('a hostile line fails fast with the same error, not a stack overflow', () => {
    expect(() => parseExactJson('['.repeat(10_000_000))).toThrow('JSON nested deeper than 512 levels')
  })
})

describe('errors name the position and what was expected', () => {
  it.each([
    ['', 'Unexpected end of JSON input at position 0: expected a JSON value'],
    ['   ', 'Unexpected end of JSON input at position 3: expected a JSON value'],
    ['{"a":1,}', "Unexpected character '}' at position 7: expected a string key"],
    ['[1,]', "Unexpected character ']' at position 3: expected a JSON value"],
    ['[1 2]', "Unexpected character '2' at position 3: expected ',' or ']'"],
    ['{"a" 1}', "Unexpected character '1' at position 5: expected ':'"],
    ['{"a":1 "b":2}', "Unexpected character '\"' at position 7: expected ',' or '}'"],
    ["{'a':1}", "Unexpected character ''' at position 1: expected a string key"],
    ['{a:1}', "Unexpected character 'a' at position 1: expected a string key"],
    ['[1', "Unexpected end of JSON input at position 2: expected ',' or ']'"],
    ['{"a":1', "Unexpected end of JSON input at position 6: expected ',' or '}'"],
    ['"abc', 'Unexpected end of JSON input at position 4: expected \'"\' to close the string'],
    ['"a\\', 'Unexpected end of JSON input at position 3: expected an escape character (one of " \\ / b f n r t u)'],
    ['"\\x"', "Unexpected character 'x' at position 2: expected an escape character (one of \" \\ / b f n r t u)"],
    ['"\\u12G4"', "Unexpected character 'G' at position 5: expected a hexadecimal digit in a \\u escape"],
    ['"a\nb"', "Unexpected character U+000A at position 2: expected '\"' or more string content (control characters must be escaped)"],
    ['"\\n\t"', "Unexpected character U+0009 at position 3: expected '\"' or more string content (control characters must be escaped)"],
    ['01', "Unexpected character '1' at position 1: expected '.', 'e' or the end of the number (leading zeros are not allowed)"],
    ['-', 'Unexpected end of JSON input at position 1: expected a digit'],
    ['-a', "Unexpected character 'a' at position 1: expected a digit"],
    ['+1', "Unexpected character '+' at position 0: expected a JSON value"],
    ['.5', "Unexpected character '.' at position 0: expected a JSON value"],
    ['1.', 'Unexpected end of JSON input at position 2: expected a digit after the decimal point'],
    ['1.e5', "Unexpected character 'e' at position 2: expected a digit after the decimal point"],
    ['1e', 'Unexpected end of JSON input at position 2: expected a digit in the exponent'],
    ['1e+', 'Unexpected end of JSON input at position 3: expected a digit in the exponent'],
    ['NaN', "Unexpected character 'N' at position 0: expected a JSON value"],
    ['Infinity', "Unexpected character 'I' at position 0: expected a JSON value"],
    // JSON.parse gives Infinity for these, which a JSON text cannot mean: a fractional field got it without a word.
    ['1e400', 'number 1e400 at position 0 is beyond the largest double (about 1.8e308)'],
    ['[0, -1.8e308]', 'number -1.8e308 at position 4 is beyond the largest double (about 1.8e308)'],
    ['tru', "Unexpected end of JSON input at position 3: expected 'true'"],
    ['nul1', "Unexpected character '1' at position 3: expected 'null'"],
    ['falsey', "Unexpected character 'y' at position 5: expected end of input"],
    ['{} {}', "Unexpected character '{' at position 3: expected end of input"],
    ['1 2', "Unexpected character '2' at position 2: expected end of input"],
    ['\ufeff{}', 'Unexpected character U+FEFF at position 0: expected a JSON value'],
    ['\u00a0{}', 'Unexpected character U+00A0 at position 0: expected a JSON value'],
    ['[1]\u2028', 'Unexpected character U+2028 at position 3: expected end of input'],
  ])('%j', (text, message) => {
    if (!/beyond the largest double/.test(message)) expect(() => JSON.parse(text)).toThrow(SyntaxError)
    expect(() => parseExactJson(text)).toThrow(new SyntaxError(message))
  })

  it('throws SyntaxError instances', () => {
    let caught: unknown
    try {
      parseExactJson('[,]')
    } catch (e) {
      caught = e
    }
    expect(caught).toBeInstanceOf(SyntaxError)
  })

  it('recovers after an error (no state leaks between calls)', () => {
    expect(() => parseExactJson('[[[[1,')).toThrow(SyntaxError)
    expect(parseExactJson('[1]')).toStrictEqual([1])
  })
})

describe('rejectDuplicateKeys', () => {
  /** The DuplicateKeyError parsing text throws. */
  function duplicate(text: string): DuplicateKeyError {
    let caught: unknown = null
    try { parseExactJson(text, { rejectDuplicateKeys: true }) } catch (error) { caught = error }
    expect(caught).toBeInstanceOf(DuplicateKeyError)
    return caught as DuplicateKeyError
  }

  it('names the key and, for a nested object, where it is', () => {
    const cases: [string, string, (string | number)[]][] = [
      ['{"a":1,"a":2}', 'duplicate key "a"', []],
      ['{"a":1,"b":{"c":1},"a":2}', 'duplicate key "a"', []],
      ['{"where":{"lat":1,"lon":2,"lat":3}}', 'duplicate key "lat" in where', ['where']],
      ['{"tags":[{"x":1},{"x":1,"x":2}]}', 'duplicate key "x" in tags[1]', ['tags', 1]],
      ['[{"a":{"b c":{"d":1,"d":1}}}]', 'duplicate key "d" in [0].a["b c"]', [0, 'a', 'b c']],
      ['{"__proto__":1,"__proto__":2}', 'duplicate key "__proto__"', []],
      // Escapes are decoded first: "\u0061" is the key "a".
      ['{"a":1,"\\u0061":2}', 'duplicate key "a"', []],
      ['{"q\\"":1,"q\\"":2}', 'duplicate key "q\\""', []],
      // A key of any length is cut to 80 characters in the message (it is kept whole in `key`).
      [`{"${'k'.repeat(100_000)}":1,"${'k'.repeat(100_000)}":2}`, `duplicate key "${'k'.repeat(80)}…"`, []],
    ]
    for (const [text, message, path] of cases) {
      const error = duplicate(text)
      expect([error.message, error.path], text).toStrictEqual([message, path])
    }
  })

  it('accepts the same key in different objects, and keys that only look alike', () => {
    const texts = ['{"a":{"a":1},"b":{"a":2}}', '[{"a":1},{"a":2}]', '{"a":1,"A":2,"a ":3,"\\u00e9":4,"e\\u0301":5}', '{"toString":1,"constructor":2}', '{}']
    for (const text of texts) expect(parseExactJson(text, { rejectDuplicateKeys: true }), text).toStrictEqual(JSON.parse(text))
  })

  it('is off by default (the last value wins, as with JSON.parse), and a duplicate is no SyntaxError', () => {
    expect(parseExactJson('{"a":1,"a":2}')).toStrictEqual({ a: 2 })
    expect(duplicate('{"a":1,"a":2}')).not.toBeInstanceOf(SyntaxError)
    // The setting does not stick to the next call.
    expect(parseExactJson('{"a":1,"a":3}')).toStrictEqual({ a: 3 })
  })

  it('agrees with a model on generated objects', () => {
    // Keys from a small alphabet so duplicates are common.
    const key = fc.constantFrom('a', 'b', 'é', '"', '\\')
    const object = fc.array(fc.tuple(key, fc.integer()), { maxLength: 5 })
    fc.assert(fc.property(object, object, (outer, inner) => {
      const text = `{${outer.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}${outer.length > 0 ? ',' : ''}"z":{${inner.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}}`
      const firstRepeat = (entries: [string, number][]) => entries.find(([k], i) => entries.findIndex(([other]) => other === k) < i)?.[0]
      const expected = firstRepeat([...outer, ['z', 0]]) ?? firstRepeat(inner)
      if (expected === undefined) expect(parseExactJson(text, { rejectDuplicateKeys: true })).toStrictEqual(JSON.parse(text))
      else expect(duplicate(text).key).toBe(expected)
    }))
  })
})

describe('markInexactIntegers', () => {
  it('marks the literals that are not integers though their doubles are, and nothing else', () => {
    const parse = (text: string) => parseExactJson(text, { markInexactIntegers: true })
    for (const literal of ['1.00000000000000001', '-0.99999999999999999', '1e-400', '12.5e-1000', '9007199254740991.4', '123456789012345678901.5']) {
      expect(parse(literal), literal).toEqual(new InexactInteger(Number(literal), literal))
    }
    // Integers however written, fractions whose doubles are fractions, and 0: plain numbers.
    for (const literal of ['1.0', '100e-2', '25E1', '1.5', '-0.0', '0e-5', '0.000', '1.2300e2', '4.5e1']) {
      expect(parse(literal), literal).toBe(Number(literal))
    }
    expect(parseExactJson('1.00000000000000001')).toBe(1)
    // How many the last parse marked: the build looks through a document only when one was.
    parse('[1.00000000000000001, 2, {"a": 1e-400}]')
    expect(inexactIntegersParsed()).toBe(2)
    parse('[1.5, 2]')
    expect(inexactIntegersParsed()).toBe(0)
  })
})
