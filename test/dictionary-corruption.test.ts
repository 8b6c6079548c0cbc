/**
 * Format 2 keyword dictionaries, corrupted (issue 25): each test splices in a
 * dictionary written by hand that breaks exactly one rule (the file's section
 * length, directory and checksum made valid again) and asserts the exact
 * CorruptIndexException message, naming the file and the dictionary, on both
 * backends. A valid hand-written dictionary of each form opens first, so each
 * broken one differs from a valid one by the one rule.
 */
import { describe, expect, it } from 'vitest'
import { writeSequenceV2 } from '../src/cascade/sequence-writer.js'
import { encodeAllForms } from '../src/dictionary/write/choose.js'
import { openColumns } from '../src/read/open.js'
import { ByteSink } from '../src/write/byte-sink.js'
import {
  BACKENDS, corruptMessage, dictionaryBytes, FILE, frontForm, fsstForm, header, keywordFile, packedList, plainForm, sortTerms, termsOf, u32, utf8, v1Form, withDictionary,
} from './helpers/dictionary-files.js'

const TERMS = ['apple', 'banana', 'cherry'] // 17 bytes
const DOCUMENTS = ['cherry', 'apple', 'banana', 'apple']
const base = keywordFile(DOCUMENTS)

const escaped = (term: string): number[] => Array.from(utf8(term)).flatMap((byte) => [255, byte])

/** Form 2 without symbols: every byte escaped. */
const allEscapes = (): number[][] => TERMS.map(escaped)

/** Form 5: header, digit count, the integers (pairs of int32 words: low, high) as a v2 sequence. */
function digitsForm(termCount: number, totalBytes: number, digits: number, integers: readonly number[]): number[] {
  const words = new Int32Array(2 * integers.length)
  integers.forEach((value, index) => {
    words[2 * index] = value % 4294967296
    words[2 * index + 1] = Math.floor(value / 4294967296)
  })
  const sink = new ByteSink(64)
  writeSequenceV2(words, integers.length, sink, 'integer')
  return [...header(5, termCount, totalBytes), digits, ...sink.view()]
}

/** Shared prefix lengths of sorted terms with a restart every 64. */
function sharedOf(sorted: readonly string[]): number[] {
  return sorted.map((term, index) => {
    if (index % 64 === 0) return 0
    const previous = sorted[index - 1]
    let common = 0
    while (common < Math.min(term.length, previous.length) && term[common] === previous[common]) common++
    return common
  })
}

const opened = (bytes: Uint8Array, backend: 'ts' | 'wasm') => openColumns(bytes, { backend, fileName: FILE })

describe.each(BACKENDS)('hand-written valid dictionaries open (%s)', (backend) => {
  const expectTerms = (dictionary: ArrayLike<number>, file = base, documents = DOCUMENTS, sorted = TERMS) => {
    const column = opened(withDictionary(file, dictionary), backend).getColumn('v')!
    expect(sorted.map((_, ordinal) => column.term(ordinal))).toEqual(sorted)
    expect(documents.map((_, document) => column.getKeywordString(document))).toEqual(documents)
  }

  it('v1, plain, FSST of escapes, FSST of symbols, front, digits', () => {
    expectTerms(v1Form(TERMS))
    expectTerms(plainForm(TERMS))
    expectTerms(fsstForm(3, 17, [], allEscapes()))
    // Symbols 'a' (0), 'e' (1), 'an' (2), 'pp' (3), 'cherry' (4).
    expectTerms(fsstForm(3, 17, ['a', 'e', 'an', 'pp', 'cherry'], [[0, 3, 255, 0x6c, 1], [255, 0x62, 2, 2, 0], [4]]))
    expectTerms(frontForm(17, [0, 0, 0], TERMS))
    const zips = ['00501', '00544', '99950']
    expectTerms(digitsForm(3, 15, 5, [501, 544, 99950]), keywordFile(zips), zips, zips)
    expect(dictionaryBytes(base)[0]).toBe(1)
  })
})

describe.each(BACKENDS)('the full check names a dictionary a flush would not write (%s)', (backend) => {
  it('the flush\'s form with other bytes: where they first differ', () => {
    // Form plain, as a flush writes it, but the term lengths (5, 6, 6) in 4-bit fields where 3 bits do.
    const wider = [...header(1, 3, 17), ...packedList([5, 6, 6], 4), ...utf8(TERMS.join(''))]
    expect(wider.length).toBe(plainForm(TERMS).length)
    const reader = opened(withDictionary(base, wider), backend)
    expect(reader.getColumn('v')!.term(1)).toBe('banana')
    expect(corruptMessage(() => reader.verify()))
      .toBe(`${FILE}: dictionary of field "v": not the dictionary a flush writes: its 30 bytes (form plain) differ from a flush's 30 at byte 10`)
  })
})

describe.each(BACKENDS)('a dictionary that breaks one rule is refused at open (%s)', (backend) => {
  const refuse = (dictionary: ArrayLike<number>, detail: string, file = base) => {
    const bytes = withDictionary(file, dictionary)
    expect(corruptMessage(() => opened(bytes, backend))).toBe(`${FILE}: dictionary of field "v": ${detail}`)
  }

  it('an unknown form byte', () => {
    const canonical = Array.from(dictionaryBytes(base))
    refuse([6, ...canonical.slice(1)], 'unknown dictionary form 6 (6 forms: v1, plain, fsst, front, front-fsst, digits)')
    refuse([255, ...canonical.slice(1)], 'unknown dictionary form 255 (6 forms: v1, plain, fsst, front, front-fsst, digits)')
  })

  it('no terms', () => {
    refuse([...header(1, 0, 0), ...packedList([])], 'no terms in a column that has values')
    refuse([0, ...u32(0), ...u32(0), ...u32(0)], 'no terms in a column that has values')
  })

  it('the 1 GiB limit: 2^30 term bytes pass the limit, 2^30 + 1 do not, before anything is allocated', () => {
    const lengths = packedList([5, 6, 6])
    refuse([...header(1, 3, 2 ** 30 + 1), ...lengths, ...utf8(TERMS.join(''))], '1073741825 term bytes exceed the 1 GiB limit')
    refuse([...header(4, 3, 0xffffffff), ...lengths], '4294967295 term bytes exceed the 1 GiB limit')
    refuse([...v1Form(TERMS).slice(0, 5), ...u32(2 ** 30 + 1), ...v1Form(TERMS).slice(9)], '1073741825 term bytes exceed the 1 GiB limit')
    refuse([...header(5, 3, 2 ** 31), 5], '2147483648 term bytes exceed the 1 GiB limit')
    // At the limit: the next rule speaks (the pieces cannot hold the bytes, so no 1 GiB output is made).
    refuse([...header(1, 3, 2 ** 30), ...lengths, ...utf8(TERMS.join(''))], '17 term bytes cannot hold the 1073741824 term bytes declared')
    refuse([...header(2, 3, 2 ** 30), ...fsstForm(3, 17, [], allEscapes()).slice(9)], '34 code bytes cannot hold the 1073741824 term bytes declared')
    refuse([...header(3, 3, 2 ** 30), ...frontForm(17, [0, 0, 0], TERMS).slice(9)], '17 term bytes cannot hold the 1073741824 term bytes declared')
    // Code lengths as a v2 sequence (tag 1): valid at 17 bytes; at the limit (codes up to 2^31 - 1) refused by the bound, the same on both backends.
    const sink = new ByteSink(64)
    writeSequenceV2(Int32Array.from([10, 0, 12, 0, 12, 0]), 3, sink, 'integer')
    const sequenced = (total: number) => [...header(2, 3, total), 0, 0, 0, 0, 0, 0, 0, 0, 1, ...sink.view(), ...allEscapes().flat()]
    expect(opened(withDictionary(base, sequenced(17)), backend).getColumn('v')!.term(1)).toBe('banana')
    refuse(sequenced(2 ** 30), '34 code bytes cannot hold the 1073741824 term bytes declared')
    refuse(sequenced(2 ** 30 + 1), '1073741825 term bytes exceed the 1 GiB limit')
    // More terms than bytes could make distinct: refused before a list of that many is made.
    refuse([...header(1, 0xffffffff, 10)], '4294967295 distinct terms cannot fit in 10 bytes')
    refuse([...header(5, 3, 2 ** 30), 15], '3 terms of 15 digits are not the 1073741824 term bytes declared')
  })

  it('more terms than the section has bytes for, before any list of them is allocated', () => {
    // 2^30 terms in 2^30 bytes pass the count rules above; every term after the first needs a piece byte (the values after the dictionary are 46 bytes).
    refuse([...header(3, 2 ** 30, 2 ** 30), 0, 0], '1073741824 terms need at least 1073741823 piece bytes, but 48 bytes of the section are left')
    refuse([...header(1, 2 ** 20, 2 ** 20), ...packedList([5, 6, 6])], '1048576 terms need at least 1048575 piece bytes, but 50 bytes of the section are left')
    // Digits: 101 distinct two-digit terms cannot exist; all 100 can.
    refuse([...header(5, 101, 202), 2], '101 distinct terms of 2 digits cannot exist (at most 10^2)')
    const every = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'))
    const column = opened(withDictionary(keywordFile(every), digitsForm(100, 200, 2, every.map(Number))), backend).getColumn('v')!
    expect([column.term(0), column.term(7), column.term(99)]).toEqual(['00', '07', '99'])
  })

  it('a symbol table of more than 255 symbols', () => {
    refuse([...header(2, 3, 17), 255, 1, 0, 0, 0, 0, 0, 0], 'symbol table has 256 symbols, more than 255')
    refuse([...header(2, 3, 17), 0, 0, 0, 0, 0, 0, 1, 255], 'symbol table has 256 symbols, more than 255')
    const shared = packedList([0, 0, 0])
    refuse([...header(4, 3, 17), ...shared, 100, 100, 56, 0, 0, 0, 0, 0], 'symbol table has 256 symbols, more than 255')
  })

  it('a symbol table whose symbols run past the section', () => {
    // 30 symbols of 8 bytes: the table needs 240 bytes after its counts; the section has fewer.
    refuse([...header(2, 3, 17), 0, 0, 0, 0, 0, 0, 0, 30], 'symbol table (30 symbols, 240 bytes) runs past the end of the section')
    refuse([...header(2, 3, 17), 60, 0, 0, 0, 0, 0, 0, 0], 'symbol table (60 symbols, 60 bytes) runs past the end of the section')
  })

  it('a code that is not a symbol', () => {
    const codes = allEscapes()
    codes[1][2] = 3 // banana: b, then code 3 where the escape of 'a' was (the table has no symbols)
    refuse(fsstForm(3, 17, [], codes), 'term 1: code 3 (code byte 2 of the term) is not a symbol of the table, nor the escape 255')
    // With symbols 0..4: code 5 is the first that is none.
    refuse(fsstForm(3, 17, ['a', 'e', 'an', 'pp', 'cherry'], [[0, 3, 255, 0x6c, 1], [255, 0x62, 2, 2, 0], [5]]),
      'term 2: code 5 (code byte 0 of the term) is not a symbol of the table, nor the escape 255')
  })

  it('codes that end with the escape', () => {
    const codes = allEscapes()
    codes[2] = codes[2].slice(0, -1) // cherr + an escape without its byte
    refuse(fsstForm(3, 17, [], codes), 'term 2: its codes end with the escape 255, without the byte it escapes')
    codes[2] = [255]
    refuse(fsstForm(3, 17, [], codes), 'term 2: its codes end with the escape 255, without the byte it escapes')
  })

  it('term lengths that do not add up to totalBytes', () => {
    const lengths = packedList([5, 6, 6])
    const bytes = Array.from(utf8(TERMS.join('')))
    refuse([...header(1, 3, 18), ...lengths, ...bytes], '17 term bytes cannot hold the 18 term bytes declared')
    refuse([...header(1, 3, 16), ...lengths, ...bytes], '17 term bytes cannot hold the 16 term bytes declared')
    refuse(fsstForm(3, 18, [], allEscapes()), 'terms decode to 17 bytes, but the dictionary declares 18')
    refuse(fsstForm(3, 16, [], allEscapes()), 'term 2 decodes past the 16 term bytes the dictionary declares')
    refuse(frontForm(18, [0, 0, 0], TERMS), 'terms decode to 17 bytes, but the dictionary declares 18')
    refuse(frontForm(16, [0, 0, 0], TERMS), 'term 2 decodes past the 16 term bytes the dictionary declares')
    // v1: the last offset is not the total.
    const v1 = v1Form(TERMS)
    v1.splice(5, 4, ...u32(18))
    refuse(v1, 'last term offset is 17, not the total 18 bytes')
  })

  it('a restart point that shares bytes', () => {
    refuse(frontForm(17, [1, 0, 0], ['pple', 'banana', 'cherry']), 'term 0 is a restart point (every 64th term) but shares 1 bytes with the term before')
    const sorted = sortTerms(Array.from({ length: 70 }, (_, i) => `shared/${String(i).padStart(4, '0')}`))
    const file = keywordFile(sorted)
    const shared = sharedOf(sorted)
    const total = sorted.join('').length
    expect(shared[64]).toBe(0)
    // Valid as written; then term 64 shares 10 bytes with term 63 (its true common prefix) instead of restarting.
    const column = opened(withDictionary(file, frontForm(total, shared, sorted.map((term, i) => term.slice(shared[i])))), backend).getColumn('v')!
    expect(column.term(64)).toBe('shared/0064')
    shared[64] = 10
    refuse(frontForm(total, shared, sorted.map((term, i) => term.slice(shared[i]))), 'term 64 is a restart point (every 64th term) but shares 10 bytes with the term before', file)
  })

  it('a term that shares more bytes than the term before has', () => {
    refuse(frontForm(17, [0, 6, 0], ['apple', '', 'cherry']), 'term 1 shares 6 bytes with the term before, which has 5')
    refuse(frontForm(17, [0, 0, 7], TERMS), 'term 2 shares 7 bytes with the term before, which has 6')
  })

  it('terms that are not strictly increasing, in every form', () => {
    const swapped = ['banana', 'apple', 'cherry']
    refuse(v1Form(swapped), 'terms are not strictly increasing at ordinal 1')
    refuse(plainForm(swapped), 'terms are not strictly increasing at ordinal 1')
    refuse(plainForm(['apple', 'apple', 'cherry']), 'terms are not strictly increasing at ordinal 1')
    refuse(plainForm(['apple', 'cherry', 'cherr']), 'terms are not strictly increasing at ordinal 2')
    refuse(fsstForm(3, 17, [], swapped.map(escaped)), 'terms are not strictly increasing at ordinal 1')
    refuse(frontForm(17, [0, 0, 0], swapped), 'terms are not strictly increasing at ordinal 1')
    // Front coded: 'apple', then 'apple' + '' (equal), then 'cherry'.
    refuse(frontForm(16, [0, 5, 0], ['apple', '', 'cherry']), 'terms are not strictly increasing at ordinal 1')
    // A prefix after the longer term: 'applesauce' then 'apple'.
    refuse(frontForm(21, [0, 5, 0], ['applesauce', '', 'cherry']), 'terms are not strictly increasing at ordinal 1')
    const zips = keywordFile(['00501', '00544', '99950'])
    refuse(digitsForm(3, 15, 5, [501, 501, 99950]), 'terms are not strictly increasing at ordinal 1', zips)
    refuse(digitsForm(3, 15, 5, [501, 99950, 544]), 'terms are not strictly increasing at ordinal 2', zips)
  })

  it('a digit count of 0 or 16, or not the declared bytes', () => {
    const zips = keywordFile(['00501', '00544', '99950'])
    refuse(digitsForm(3, 15, 0, [501, 544, 99950]), 'digit count 0 is not in 1..15', zips)
    refuse(digitsForm(3, 15, 16, [501, 544, 99950]), 'digit count 16 is not in 1..15', zips)
    refuse(digitsForm(3, 15, 4, [501, 544, 9995]), '3 terms of 4 digits are not the 15 term bytes declared', zips)
  })

  it('a digits integer at or above 10^digits, or negative', () => {
    const zips = keywordFile(['00501', '00544', '99950'])
    refuse(digitsForm(3, 15, 5, [501, 544, 100000]), 'integer 2 is negative or not below 10^5', zips)
    refuse(digitsForm(3, 15, 5, [-1, 544, 99950]), 'integer 0 is negative or not below 10^5', zips)
    refuse(digitsForm(3, 3, 1, [0, 5, 10]), 'integer 2 is negative or not below 10^1', zips)
    // 15 digits: 10^15 is one too many; 10^15 - 1 is the last (exact in doubles).
    const big = keywordFile(['000000000000001', '123456789012345', '999999999999999'])
    refuse(digitsForm(3, 45, 15, [1, 123456789012345, 10 ** 15]), 'integer 2 is negative or not below 10^15', big)
    const column = opened(withDictionary(big, digitsForm(3, 45, 15, [1, 123456789012345, 10 ** 15 - 1])), backend).getColumn('v')!
    expect([0, 1, 2].map((ordinal) => column.term(ordinal))).toEqual(['000000000000001', '123456789012345', '999999999999999'])
  })

  it('digits past the first 4,096 integers (the TypeScript decoder reads them in steps of that many)', () => {
    const integers = Array.from({ length: 9000 }, (_, index) => 7 * index + 3)
    const zips = keywordFile(integers.map((value) => String(value).padStart(5, '0')))
    const column = opened(withDictionary(zips, digitsForm(9000, 45000, 5, integers)), backend).getColumn('v')!
    expect([0, 4095, 4096, 8191, 8192, 8999].map((ordinal) => column.term(ordinal))).toEqual(['00003', '28668', '28675', '57340', '57347', '62996'])
    const unordered = integers.slice()
    unordered[5000] = unordered[4999]
    refuse(digitsForm(9000, 45000, 5, unordered), 'terms are not strictly increasing at ordinal 5000', zips)
    const large = integers.slice()
    large[8200] = 100000
    refuse(digitsForm(9000, 45000, 5, large), 'integer 8200 is negative or not below 10^5', zips)
  })

  it('a list tag that is not 0 or 1', () => {
    const bytes = Array.from(utf8(TERMS.join('')))
    refuse([...header(1, 3, 17), 2, 3, 0x65, 0x66, ...bytes], 'term lengths: list tag 2 is not 0 (fields) or 1 (a sequence)')
    refuse([...header(1, 3, 17), 255], 'term lengths: list tag 255 is not 0 (fields) or 1 (a sequence)')
    refuse([...header(3, 3, 17), 7, 0, ...packedList([5, 6, 6]), ...bytes], 'shared lengths: list tag 7 is not 0 (fields) or 1 (a sequence)')
    refuse([...header(3, 3, 17), ...packedList([0, 0, 0]), 2, 3, ...bytes], 'suffix lengths: list tag 2 is not 0 (fields) or 1 (a sequence)')
    refuse([...header(2, 3, 17), 0, 0, 0, 0, 0, 0, 0, 0, 3, 3, ...allEscapes().flat()], 'code lengths: list tag 3 is not 0 (fields) or 1 (a sequence)')
  })

  it('a list width above 31', () => {
    const bytes = Array.from(utf8(TERMS.join('')))
    refuse([...header(1, 3, 17), ...packedList([5, 6, 6], 32), ...bytes], 'term lengths: width 32 is above 31')
    refuse([...header(1, 3, 17), 0, 255, ...bytes], 'term lengths: width 255 is above 31')
    refuse([...header(3, 3, 17), ...packedList([0, 0, 0], 40)], 'shared lengths: width 40 is above 31')
    // 31 is allowed: the values are then checked against totalBytes.
    const wide = [...header(1, 3, 17), ...packedList([5, 6, 6], 31), ...bytes]
    const column = opened(withDictionary(base, wide), backend).getColumn('v')!
    expect(column.term(2)).toBe('cherry')
  })

  it('a listed value above its bound', () => {
    const bytes = Array.from(utf8(TERMS.join('')))
    refuse([...header(1, 3, 17), ...packedList([5, 6, 99]), ...bytes], 'term lengths: value 2 is 99, above 17')
    refuse([...header(3, 3, 17), ...packedList([0, 18, 0]), ...packedList([5, 6, 6]), ...bytes], 'shared lengths: value 1 is 18, above 17')
    refuse([...header(2, 3, 17), 0, 0, 0, 0, 0, 0, 0, 0, ...packedList([10, 35, 12])], 'code lengths: value 1 is 35, above 34')
  })
})

describe('both backends give the same message for every broken rule', () => {
  it('a sweep of one-byte changes to each hand-written form', () => {
    const forms = [v1Form(TERMS), plainForm(TERMS), fsstForm(3, 17, ['a', 'e', 'an', 'pp', 'cherry'], [[0, 3, 255, 0x6c, 1], [255, 0x62, 2, 2, 0], [4]]),
      frontForm(17, [0, 0, 0], TERMS)]
    let refused = 0
    for (const form of forms) {
      for (let at = 0; at < form.length; at++) {
        for (const value of [0, 1, 5, 31, 32, 0x62, 254, 255]) {
          if (form[at] === value) continue
          const changed = form.slice()
          changed[at] = value
          const bytes = withDictionary(base, changed)
          const outcomes = (['ts', 'wasm'] as const).map((backend) => {
            try {
              const column = opened(bytes, backend).getColumn('v')!
              return `ok ${[0, 1, 2].map((ordinal) => Buffer.from(column.dictionary!.termBytes(ordinal)).toString('hex')).join(',')}`
            } catch (error) {
              return `${(error as Error).name}: ${(error as Error).message}`
            }
          })
          expect(outcomes[1], `byte ${at} of form ${form[0]} set to ${value}`).toBe(outcomes[0])
          // Nothing else escapes: a change either still opens or is refused as corrupt.
          expect(outcomes[0], `byte ${at} of form ${form[0]} set to ${value}`).toMatch(/^(ok |CorruptIndexException: )/)
          if (outcomes[0].startsWith('CorruptIndexException')) {
            refused++
            expect(outcomes[0].startsWith(`CorruptIndexException: ${FILE}: `)).toBe(true)
          }
        }
      }
    }
    expect(refused).toBeGreaterThan(200)
  })

  it('a sweep over the first bytes of the writer\'s every form of larger term sets (lists as sequences, digits)', () => {
    const sets = [
      Array.from({ length: 300 }, (_, i) => String((i * 7919) % 100000).padStart(5, '0')),
      Array.from({ length: 200 }, (_, i) => `https://example.com/articles/${['river', 'stone', 'bridge', 'forest'][i % 4]}/${i}`),
    ]
    let refused = 0
    for (const set of sets) {
      const sorted = sortTerms(set)
      const file = keywordFile(sorted)
      for (const form of encodeAllForms(termsOf(sorted))) {
        for (let at = 0; at < Math.min(form.length, 48); at++) {
          for (const value of [0, 1, 2, 0x80, 255]) {
            if (form[at] === value) continue
            const changed = Array.from(form)
            changed[at] = value
            const bytes = withDictionary(file, changed)
            const outcomes = (['ts', 'wasm'] as const).map((backend) => {
              try {
                const dictionary = opened(bytes, backend).getColumn('v')!.dictionary!
                const hexes: string[] = []
                for (let ordinal = 0; ordinal < dictionary.termCount; ordinal++) hexes.push(Buffer.from(dictionary.termBytes(ordinal)).toString('hex'))
                return `ok ${hexes.join(',')}`
              } catch (error) {
                return `${(error as Error).name}: ${(error as Error).message}`
              }
            })
            expect(outcomes[1], `byte ${at} of form ${form[0]} set to ${value}`).toBe(outcomes[0])
            expect(outcomes[0], `byte ${at} of form ${form[0]} set to ${value}`).toMatch(/^(ok |CorruptIndexException: )/)
            if (!outcomes[0].startsWith('ok')) refused++
          }
        }
      }
    }
    expect(refused).toBeGreaterThan(500)
  })
})
