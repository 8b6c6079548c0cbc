/**
 * The WebAssembly decoder's first try for dictionaries of short terms
 * (assembly/strings/terms-short.ts: every term's codes as one stream, then each
 * term's first 16 bytes made and compared in a register) against the TypeScript
 * decoder, which decodes a term at a time: the same terms from every form, and
 * for every one-byte change to a form, the same terms or the same message.
 * Where the try finds anything wrong it hands the dictionary to the
 * term-at-a-time kernel, which names it; so a difference here is the try
 * accepting what it should not, or writing other bytes.
 */
import { describe, expect, it } from 'vitest'
import { wasmRuntime } from '../src/backend/wasm/runtime.js'
import { SHORT_TERM_BYTES } from '../src/backend/wasm/terms.js'
import { FSST_LENGTHS_AT, FSST_TABLE_BYTES } from '../src/dictionary/constants.js'
import { encodeAllForms } from '../src/dictionary/write/choose.js'
import { openColumns } from '../src/read/open.js'
import { BACKENDS, FILE, keywordFile, sortTerms, termsOf, withDictionary } from './helpers/dictionary-files.js'
import { seededRandom } from './helpers/random.js'

/**
 * 150 terms, 12 bytes or fewer on average, with what the try handles apart: the empty term, a term
 * that is a prefix of the next, shared prefixes of more than 16 and 32 bytes, terms longer than 16
 * and 32 bytes, bytes never trained (FSST escapes), restarts of front coding (every 64th term).
 */
function shortTerms(): string[] {
  const random = seededRandom(0x5157)
  const letters = 'etaoinshrdlu'
  const word = () => Array.from({ length: 2 + Math.floor(random() * 6) }, () => letters[Math.floor(random() * letters.length)]).join('')
  const terms = new Set<string>(['', 'ab', 'abc', 'abcd', 'zz\u00e9', 'zz\u00e9\u00e9', '\u{1F600}', 'ÿÿ'])
  const long = 'p'.repeat(20)
  for (const tail of ['a', 'b', 'ba', 'q'.repeat(20) + 'x', 'q'.repeat(20) + 'y', 'q'.repeat(20) + 'yy']) terms.add(long + tail)
  while (terms.size < 150) terms.add(word())
  return sortTerms([...terms])
}

const outcome = (bytes: Uint8Array, backend: 'ts' | 'wasm'): string => {
  try {
    const dictionary = openColumns(bytes, { backend, fileName: FILE }).getColumn('v')!.dictionary!
    const hexes: string[] = []
    for (let ordinal = 0; ordinal < dictionary.termCount; ordinal++) hexes.push(Buffer.from(dictionary.termBytes(ordinal)).toString('hex'))
    return `ok ${hexes.join(',')}`
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`
  }
}

describe('the WebAssembly decoder of short terms agrees with the TypeScript one', () => {
  const sorted = shortTerms()
  const terms = termsOf(sorted)
  const file = keywordFile(sorted)
  // Forms 1 to 4 (plain, FSST, front, front with FSST): the ones the try decodes.
  const forms = encodeAllForms(terms).filter((form) => form[0] >= 1 && form[0] <= 4)

  it('the set takes the try: short on average, with long terms and long shared prefixes', () => {
    expect(terms.bytes.length).toBeLessThanOrEqual(SHORT_TERM_BYTES * sorted.length)
    expect(Math.max(...sorted.map((term) => Buffer.byteLength(term)))).toBeGreaterThan(32)
    expect(forms.map((form) => form[0])).toEqual([1, 2, 3, 4])
  })

  it('every form reads back the terms on both backends', () => {
    const expected = `ok ${sorted.map((term) => Buffer.from(term).toString('hex')).join(',')}`
    for (const form of forms) {
      for (const backend of BACKENDS) expect(outcome(withDictionary(file, form), backend), `form ${form[0]} on ${backend}`).toBe(expected)
    }
  })

  it('every one-byte change to every form: the same terms or the same message on both backends', () => {
    let refused = 0, opened = 0
    for (const form of forms) {
      for (let at = 0; at < form.length; at++) {
        for (const value of [0, 1, 255, form[at] ^ 1, form[at] ^ 0x20]) {
          if (form[at] === value) continue
          const changed = Array.from(form)
          changed[at] = value
          const bytes = withDictionary(file, changed)
          const [ts, wasm] = BACKENDS.map((backend) => outcome(bytes, backend))
          expect(wasm, `byte ${at} of form ${form[0]} set to ${value}`).toBe(ts)
          expect(ts, `byte ${at} of form ${form[0]} set to ${value}`).toMatch(/^(ok |CorruptIndexException: )/)
          if (ts.startsWith('ok')) opened++
          else refused++
        }
      }
    }
    // Both outcomes are common: changed pieces that still decode in order, and every rule broken.
    expect(opened).toBeGreaterThan(500)
    expect(refused).toBeGreaterThan(2000)
  })
})

describe('room for the try', () => {
  it('where it cannot be had, the kernel decodes in order (not the TypeScript decoder)', () => {
    const sorted = shortTerms()
    const form = encodeAllForms(termsOf(sorted)).find((candidate) => candidate[0] === 4)!
    const bytes = withDictionary(keywordFile(sorted), form)
    const expected = `ok ${sorted.map((term) => Buffer.from(term).toString('hex')).join(',')}`
    const runtime = wasmRuntime()
    const kernels = runtime.kernels, allocate = runtime.regions.allocate
    const works: number[] = [], sizes: number[] = []
    let largest = Infinity
    const spied = { ...kernels, decodeTerms: (...args: Parameters<typeof kernels.decodeTerms>) => { works.push(args[9]); return kernels.decodeTerms(...args) } }
    Object.assign(runtime, { kernels: spied })
    runtime.regions.allocate = function (this: typeof runtime.regions, length: number): number {
      sizes.push(length)
      if (length > largest) throw new RangeError('no room in this test')
      return allocate.call(this, length)
    }
    try {
      expect(outcome(bytes, 'wasm')).toBe(expected)
      expect(works.length).toBe(1)
      expect(works[0]).toBeGreaterThan(0)
      // The dictionary's region with the try's room is the largest asked for: refuse it, and only it.
      largest = Math.max(...sizes) - 1
      works.length = 0
      expect(outcome(bytes, 'wasm')).toBe(expected)
      expect(works).toEqual([0])
    } finally {
      Object.assign(runtime, { kernels })
      runtime.regions.allocate = allocate
    }
  })
})

describe('the kernel writes nothing past the room it is given', () => {
  it('codes that decode to 8 times the declared bytes: the try stops at the limit, the status is "too long"', () => {
    const runtime = wasmRuntime()
    // 10 terms of 100 codes each, every code the 8-byte symbol 0, against 100 declared bytes.
    const count = 10, limit = 100, pieceBytes = 1000
    const align = (value: number) => Math.ceil(value / 16) * 16
    const tableBytes = FSST_TABLE_BYTES, listBytes = align(4 * (count + 1)), outBytes = align(limit + 32)
    const workBytes = align(limit + 32) + 4 * (pieceBytes + 2), canaryBytes = 8192
    const size = tableBytes + pieceBytes + 32 + 2 * listBytes + outBytes + workBytes + canaryBytes
    const region = runtime.regions.allocate(size)
    try {
      const table = region, pieces = table + tableBytes, lengths = pieces + pieceBytes + 32
      const offsets = lengths + listBytes, out = offsets + listBytes, work = out + outBytes, canary = work + workBytes
      const bytes = runtime.bytes
      bytes.fill(0, region, canary)
      bytes.set([0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68], table)
      bytes[table + FSST_LENGTHS_AT] = 8
      bytes.fill(0, pieces, pieces + pieceBytes)
      for (let term = 0; term < count; term++) runtime.words[(lengths >>> 2) + term] = pieceBytes / count
      bytes.fill(0x7e, canary, canary + canaryBytes)
      const status = runtime.kernels.decodeTerms(table, pieces, lengths, 0, count, out, limit, offsets, pieceBytes, work)
      expect(status).toBe(9)
      expect(runtime.words[runtime.scratchWord]).toBe(0)
      const after = runtime.bytes.subarray(canary, canary + canaryBytes)
      expect(after.every((byte) => byte === 0x7e)).toBe(true)
    } finally {
      runtime.regions.free(region)
    }
  })
})
