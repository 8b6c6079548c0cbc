// Strict JSON parser that keeps integer literals exact.
//
// JSON.parse rounds 9223372036854775807 to 9223372036854775808, which silently
// corrupts 64-bit ids and counters read from NDJSON. This parser follows the
// JSON grammar (RFC 8259) exactly as JSON.parse does, except that an integer
// literal outside the safe-integer range becomes a bigint.
//
// The parser state lives in module variables rather than in a per-call object:
// parsing never calls user code, so it cannot be re-entered, and millions of
// lines then cost no parser allocations.

import { clipped } from './errors.js'

/** A parsed JSON value; `bigint` appears only for integer literals beyond ±(2^53 - 1). */
export type ExactJsonValue = null | boolean | number | bigint | string | InexactInteger | ExactJsonValue[] | { [key: string]: ExactJsonValue }

/** Deepest array/object nesting accepted; bounds recursion so hostile input cannot overflow the stack. */
export const MAX_JSON_DEPTH = 512

const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER)
const MIN_SAFE_BIG = -MAX_SAFE_BIG

// Indexed by the character after a backslash; sparse so unknown escapes read undefined.
const SIMPLE_ESCAPES: (string | undefined)[] = []
for (const [c, v] of Object.entries({ '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' })) {
  SIMPLE_ESCAPES[c.charCodeAt(0)] = v
}

/** Options of {@link parseExactJson}. */
export interface ExactJsonOptions {
  /**
   * Throw a {@link DuplicateKeyError} when an object, at any depth, repeats a
   * key. Off by default, where the last value wins as with JSON.parse.
   */
  rejectDuplicateKeys?: boolean
  /**
   * Return a literal with a fraction or an exponent whose double is an integer as an
   * {@link InexactInteger}: one that is no integer (`1.00000000000000001`, `1e-400`), so that a
   * caller reading integers can refuse it as it refuses `1.5`, or one from 2^53 on (`1e16`), with
   * the integer it writes exactly. Off by default: the double, as with JSON.parse.
   */
  markInexactIntegers?: boolean
}

/** How many InexactIntegers the last parseExactJson call returned (0: no value needs looking through). */
export function inexactIntegersParsed(): number {
  return inexactCount
}

/**
 * A number literal with a fraction or an exponent whose nearest double is an integer (see
 * markInexactIntegers): no integer at all (`1.00000000000000001`, `1e-400`; exact null), or an
 * integer from 2^53 on, which the double may have rounded (`1e16`, `9007199254740993.0`; exact).
 */
export class InexactInteger {
  constructor(readonly value: number, readonly literal: string, readonly exact: bigint | null = null) {}
}

/** The integer a literal with a fraction or an exponent writes (literalIsInteger holds for it). */
function exactInteger(literal: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal)!
  const digits = BigInt(match[2] + (match[3] ?? ''))
  const scale = Number(match[4] ?? 0) - (match[3]?.length ?? 0)
  const magnitude = scale >= 0 ? digits * 10n ** BigInt(scale) : digits / 10n ** BigInt(-scale)
  return match[1] === '-' ? -magnitude : magnitude
}

/** Whether a JSON number literal (with a fraction or an exponent) is an integer: its digits times a power of ten. */
function literalIsInteger(literal: string): boolean {
  const match = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal)!
  const digits = (match[1] + (match[2] ?? '')).replace(/^0+/, '')
  if (digits === '') return true
  // digits × 10^scale is an integer when the digits' trailing zeros make up for a negative scale.
  const trailingZeros = digits.length - digits.replace(/0+$/, '').length
  const scale = Number(match[3] ?? 0) - (match[2]?.length ?? 0)
  return scale + trailingZeros >= 0
}

/**
 * An object repeats a key (RFC 8259 says names SHOULD be unique; JSON.parse
 * silently keeps the last value, which hides typos and merged records).
 */
export class DuplicateKeyError extends Error {
  /** The repeated key. */
  readonly key: string
  /** Where the object is: keys and array indexes from the top, empty for the top-level object. */
  readonly path: readonly (string | number)[]
  constructor(key: string, path: readonly (string | number)[]) {
    super(`duplicate key ${JSON.stringify(clipped(key))}${path.length === 0 ? '' : ` in ${formatJsonPath(path)}`}`)
    this.name = 'DuplicateKeyError'
    this.key = key
    this.path = path
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** A path as JavaScript would write it: `where`, `tags[1].geo`, `["a b"]`. */
function formatJsonPath(path: readonly (string | number)[]): string {
  let text = ''
  for (const step of path) {
    if (typeof step === 'number') text += `[${step}]`
    else if (IDENTIFIER.test(step)) text += text === '' ? step : `.${step}`
    else text += `[${JSON.stringify(step)}]`
  }
  return text
}

let src = ''
let pos = 0
let depth = 0
let rejectDuplicates = false
let markInexact = false
/** InexactIntegers the last parse returned (callers skip looking for them when 0). */
let inexactCount = 0

/**
 * Parses one JSON text; integer literals beyond 2^53 become bigint.
 *
 * Integer literals (no fraction, no exponent) within ±(2^53 - 1) become
 * numbers, larger ones bigints, so no integer is ever rounded; numbers with a
 * fraction or exponent are doubles, exactly as JSON.parse yields them. Keys
 * named `__proto__` become own data properties (as with JSON.parse) so input
 * cannot change an object's prototype. Nesting is limited to
 * {@link MAX_JSON_DEPTH} levels. Invalid input throws a SyntaxError naming the
 * zero-based character position and what was expected there. With
 * `rejectDuplicateKeys`, a repeated key throws a {@link DuplicateKeyError}
 * (one property lookup per key).
 */
export function parseExactJson(text: string, options?: ExactJsonOptions): ExactJsonValue {
  src = text
  pos = 0
  depth = 0
  rejectDuplicates = options?.rejectDuplicateKeys === true
  markInexact = options?.markInexactIntegers === true
  inexactCount = 0
  skipWhitespace()
  const value = parseValue()
  skipWhitespace()
  if (pos < src.length) fail('end of input')
  return value
}

function fail(expected: string): never {
  const found =
    pos >= src.length ? 'Unexpected end of JSON input' : `Unexpected character ${describe(src.charCodeAt(pos))}`
  throw new SyntaxError(`${found} at position ${pos}: expected ${expected}`)
}

function describe(c: number): string {
  // Show printable ASCII literally; anything else as a code point so the
  // message stays readable on a terminal whatever the offending byte was.
  if (c >= 0x21 && c <= 0x7e) return `'${String.fromCharCode(c)}'`
  return `U+${c.toString(16).toUpperCase().padStart(4, '0')}`
}

function skipWhitespace(): void {
  let c = src.charCodeAt(pos)
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = src.charCodeAt(++pos)
}

function parseValue(): ExactJsonValue {
  const c = src.charCodeAt(pos)
  if (c === 0x22) {
    pos++
    return parseString()
  }
  if (c === 0x7b) return parseObject()
  if (c === 0x5b) return parseArray()
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return parseNumber()
  if (c === 0x74) return parseLiteral('true', true)
  if (c === 0x66) return parseLiteral('false', false)
  if (c === 0x6e) return parseLiteral('null', null)
  return fail('a JSON value')
}

function parseLiteral<T extends ExactJsonValue>(word: string, value: T): T {
  for (let i = 1; i < word.length; i++) {
    pos++
    if (src.charCodeAt(pos) !== word.charCodeAt(i)) fail(`'${word}'`)
  }
  pos++
  return value
}

function enter(): void {
  if (++depth > MAX_JSON_DEPTH) {
    throw new SyntaxError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels at position ${pos}`)
  }
}

function parseArray(): ExactJsonValue[] {
  enter()
  pos++
  const items: ExactJsonValue[] = []
  skipWhitespace()
  if (src.charCodeAt(pos) !== 0x5d) {
    for (;;) {
      items.push(parseValue())
      skipWhitespace()
      const c = src.charCodeAt(pos)
      if (c === 0x5d) break
      if (c !== 0x2c) fail("',' or ']'")
      pos++
      skipWhitespace()
    }
  }
  pos++
  depth--
  return items
}

function parseObject(): { [key: string]: ExactJsonValue } {
  enter()
  pos++
  const obj: { [key: string]: ExactJsonValue } = {}
  skipWhitespace()
  if (src.charCodeAt(pos) !== 0x7d) {
    for (;;) {
      if (src.charCodeAt(pos) !== 0x22) fail('a string key')
      const keyStart = pos++
      const key = parseString()
      skipWhitespace()
      if (src.charCodeAt(pos) !== 0x3a) fail("':'")
      pos++
      skipWhitespace()
      // One lookup per key; where the object is gets worked out only for an error.
      if (rejectDuplicates && Object.hasOwn(obj, key)) throw new DuplicateKeyError(key, pathTo(keyStart))
      const value = parseValue()
      if (key === '__proto__') {
        // Plain assignment would invoke the inherited __proto__ setter and
        // replace the prototype; JSON.parse defines an own property instead.
        Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true })
      } else {
        obj[key] = value
      }
      skipWhitespace()
      const c = src.charCodeAt(pos)
      if (c === 0x7d) break
      if (c !== 0x2c) fail("',' or '}'")
      pos++
      skipWhitespace()
    }
  }
  pos++
  depth--
  return obj
}

/**
 * The keys and indexes leading to the object that holds position `end`, by
 * scanning the text before it again: that part parsed, so it is valid JSON
 * and only strings need care (their escapes and brackets inside them).
 * Ends the parse: it moves `pos`.
 */
function pathTo(end: number): (string | number)[] {
  const steps: (string | number)[] = []
  let lastString = ''
  pos = 0
  while (pos < end) {
    const c = src.charCodeAt(pos++)
    if (c === 0x22) lastString = parseString()
    else if (c === 0x7b) steps.push('')
    else if (c === 0x5b) steps.push(0)
    else if (c === 0x7d || c === 0x5d) steps.pop()
    else if (c === 0x3a) steps[steps.length - 1] = lastString
    else if (c === 0x2c) {
      const last = steps[steps.length - 1]
      if (typeof last === 'number') steps[steps.length - 1] = last + 1
    }
  }
  // The last step is inside the object with the duplicate, not a way to it.
  steps.pop()
  return steps
}

/** Expects `pos` just after the opening quote. */
function parseString(): string {
  const start = pos
  const len = src.length
  // Fast path: most strings have no escapes, so a single slice suffices.
  while (pos < len) {
    const c = src.charCodeAt(pos)
    if (c === 0x22) return src.slice(start, pos++)
    if (c === 0x5c || c < 0x20) break
    pos++
  }
  let out = ''
  let chunk = start
  for (;;) {
    if (pos >= len) fail("'\"' to close the string")
    const c = src.charCodeAt(pos)
    if (c === 0x22) {
      out += src.slice(chunk, pos++)
      return out
    }
    if (c < 0x20) fail("'\"' or more string content (control characters must be escaped)")
    if (c !== 0x5c) {
      pos++
      continue
    }
    out += src.slice(chunk, pos)
    pos++
    const e = src.charCodeAt(pos)
    if (e === 0x75) {
      let code = 0
      for (let i = 0; i < 4; i++) {
        const v = hexValue(src.charCodeAt(++pos))
        if (v < 0) fail('a hexadecimal digit in a \\u escape')
        code = (code << 4) | v
      }
      // Lone surrogates are kept as single UTF-16 units, as JSON.parse keeps them.
      out += String.fromCharCode(code)
    } else {
      const unescaped = e < 0x80 ? SIMPLE_ESCAPES[e] : undefined
      if (unescaped === undefined) fail('an escape character (one of " \\ / b f n r t u)')
      out += unescaped
    }
    chunk = ++pos
  }
}

function hexValue(h: number): number {
  if (h >= 0x30 && h <= 0x39) return h - 0x30
  if (h >= 0x61 && h <= 0x66) return h - 0x57
  if (h >= 0x41 && h <= 0x46) return h - 0x37
  return -1
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39
}

function parseNumber(): number | bigint | InexactInteger {
  const start = pos
  let c = src.charCodeAt(pos)
  const negative = c === 0x2d
  if (negative) c = src.charCodeAt(++pos)
  const digitsStart = pos
  let n = 0
  if (c === 0x30) {
    c = src.charCodeAt(++pos)
    if (isDigit(c)) fail("'.', 'e' or the end of the number (leading zeros are not allowed)")
  } else if (isDigit(c)) {
    // Accumulating as we scan avoids a second pass; the result is only used
    // when it is known to be exact (at most 15 digits).
    do {
      n = n * 10 + (c - 0x30)
      c = src.charCodeAt(++pos)
    } while (isDigit(c))
  } else {
    fail('a digit')
  }
  const intEnd = pos
  let integer = true
  if (c === 0x2e) {
    integer = false
    c = src.charCodeAt(++pos)
    if (!isDigit(c)) fail('a digit after the decimal point')
    do c = src.charCodeAt(++pos)
    while (isDigit(c))
  }
  if (c === 0x65 || c === 0x45) {
    integer = false
    c = src.charCodeAt(++pos)
    if (c === 0x2b || c === 0x2d) c = src.charCodeAt(++pos)
    if (!isDigit(c)) fail('a digit in the exponent')
    do c = src.charCodeAt(++pos)
    while (isDigit(c))
  }
  // Number() accepts every JSON number and rounds exactly as JSON.parse does; one beyond every
  // double (JSON.parse's Infinity) is refused, as JSON has no infinities to mean.
  if (!integer) {
    const value = Number(src.slice(start, pos))
    if (value === Infinity || value === -Infinity) {
      throw new SyntaxError(`number ${src.slice(start, pos)} at position ${start} is beyond the largest double (about 1.8e308)`)
    }
    if (markInexact && Number.isInteger(value)) {
      const literal = src.slice(start, pos)
      if (!literalIsInteger(literal)) {
        inexactCount++
        return new InexactInteger(value, literal)
      }
      // From 2^53 on the double may be another integer than the one written (9007199254740993.0).
      if (Math.abs(value) >= 2 ** 53) {
        inexactCount++
        return new InexactInteger(value, literal, exactInteger(literal))
      }
    }
    return value
  }
  if (intEnd - digitsStart <= 15) return negative ? -n : n
  const big = BigInt(src.slice(start, intEnd))
  return big >= MIN_SAFE_BIG && big <= MAX_SAFE_BIG ? Number(big) : big
}
