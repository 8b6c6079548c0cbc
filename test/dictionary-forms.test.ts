/**
 * Format 2 keyword dictionaries (issue 25): every form of a term set, spliced
 * into a file, reads back the same terms on both backends; the canonical
 * choice (smallest, ties to the lower form byte) and its determinism; the edge
 * cases of terms (empty, single, UTF-8 order, 4-byte characters, FSST escapes,
 * long shared prefixes, digit strings); a TS/WASM duel over random term sets;
 * merge identity when deletions change the trained symbol table.
 */
import { describe, expect, it } from 'vitest'
import { DICTIONARY_FORM_NAMES } from '../src/dictionary/constants.js'
import { encodeAllForms, encodeDictionary } from '../src/dictionary/write/choose.js'
import { SAMPLE_BYTES, samplePieces, trainTable } from '../src/dictionary/write/fsst-train.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { mergeColumns } from '../src/write/merge.js'
import {
  BACKENDS, corruptMessage, dictionaryBytes, FILE, frontForm, keywordFile, plainForm, sortTerms, termsOf, utf8, v1Form, withDictionary,
} from './helpers/dictionary-files.js'
import { seededRandom } from './helpers/random.js'

const open = (bytes: Uint8Array, backend: 'ts' | 'wasm'): ColumnsReader => openColumns(bytes, { backend, fileName: FILE })

/** A deterministic permutation of the values (documents in another order than the terms). */
function shuffled<T>(values: readonly T[], seed: number): T[] {
  const random = seededRandom(seed)
  const out = values.slice()
  for (let index = out.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1))
    ;[out[index], out[other]] = [out[other], out[index]]
  }
  return out
}

/** Checks every term, keyword and lookup of column v against the documents and the sorted terms. */
function expectTerms(reader: ColumnsReader, sorted: readonly string[], documents: readonly string[]): void {
  const column = reader.getColumn('v')!
  const dictionary = column.dictionary!
  expect(dictionary.termCount).toBe(sorted.length)
  expect(dictionary.totalBytes).toBe(termsOf(sorted).bytes.length)
  const got = sorted.map((_, ordinal) => column.term(ordinal))
  expect(got).toEqual(sorted)
  sorted.forEach((term, ordinal) => {
    expect(Buffer.from(dictionary.termBytes(ordinal)).equals(Buffer.from(utf8(term)))).toBe(true)
    expect(column.lookupOrdinal(term)).toBe(ordinal)
    expect(column.lookupOrdinal(utf8(term))).toBe(ordinal)
  })
  documents.forEach((term, document) => {
    expect(Buffer.from(column.getKeyword(document)).equals(Buffer.from(utf8(term)))).toBe(true)
    expect(column.getKeywordString(document)).toBe(term)
  })
  expect(column.lookupOrdinal(`${sorted[sorted.length - 1]}\u0000absent`)).toBe(-1)
}

const WORDS = ('the quick brown fox jumps over lazy dog and then runs into forest where many other animals live together in peace under tall green trees'
  + ' while rivers flow quietly past old stone bridges').split(' ')

/** `count` sentences of 8 to 15 words. */
function english(count: number, seed: number): string[] {
  const random = seededRandom(seed)
  const int = (n: number) => Math.floor(random() * n)
  return Array.from({ length: count }, () => Array.from({ length: 8 + int(8) }, () => WORDS[int(WORDS.length)]).join(' '))
}

/** Term sets for which each compressed form is the canonical winner, with that form. */
function winners(): { name: string; form: string; terms: string[] }[] {
  const random = seededRandom(7)
  const int = (n: number) => Math.floor(random() * n)
  const word = () => WORDS[int(WORDS.length)]
  return [
    { name: 'three short terms', form: 'plain', terms: ['b', 'a', 'c'] },
    { name: 'English sentences', form: 'fsst', terms: english(20, 1) },
    { name: 'ids sharing a long prefix, one distinct last byte', form: 'front', terms: Array.from({ length: 64 }, (_, i) => `customer/region-north/account-${String.fromCharCode(0x21 + i)}`) },
    { name: 'URLs of words', form: 'front-fsst', terms: Array.from({ length: 300 }, () => `https://example.com/articles/${word()}/${word()}-${word()}`) },
    { name: 'zip codes', form: 'digits', terms: Array.from({ length: 300 }, () => String(int(100000)).padStart(5, '0')) },
  ]
}

/** Edge term sets: every form of each is spliced in and read back. */
function edgeSets(): { name: string; terms: string[] }[] {
  const random = seededRandom(99)
  const int = (n: number) => Math.floor(random() * n)
  return [
    { name: 'the empty string and others', terms: ['', 'a', 'ab', 'b'] },
    { name: 'only the empty string', terms: [''] },
    { name: 'a single term', terms: ['solitary'] },
    { name: 'U+FFFD and U+1F600 (UTF-8 order, not UTF-16)', terms: ['\u{1F600}', '\uFFFD', 'z'] },
    { name: '4-byte UTF-8 only', terms: Array.from({ length: 40 }, (_, i) => String.fromCodePoint(0x1f600 + i, 0x10000 + 7 * i, 0x1f300 + i)) },
    { name: 'more than 8 identical leading bytes', terms: Array.from({ length: 150 }, (_, i) => `identical-prefix-of-many-bytes/${i.toString(36)}`) },
    { name: 'terms that are prefixes of the next', terms: ['abcdefghij', 'abcdefghijk', 'abcdefghijkl', 'abcdefghijklmnopqrstuvwxyz', 'abcdefghijklmnopqrstuvwxyz0'] },
    { name: 'zip codes with leading zeros', terms: ['00501', '00544', '01001', '02108', '10001', '99950'] },
    { name: '15-digit strings', terms: ['000000000000001', '123456789012345', '900719925474099', '999999999999999'] },
    { name: '16-digit strings', terms: ['0000000000000001', '1234567890123456', '9999999999999999'] },
    { name: 'one digit', terms: ['0', '5', '9'] },
    // Up to 9 digits are spelled two at a time from a u32, more one at a time from the i64: every count, odd and even.
    ...Array.from({ length: 14 }, (_, index) => {
      const digits = index + 2
      return { name: `${digits}-digit strings`, terms: ['0'.repeat(digits), `${'0'.repeat(digits - 1)}7`, '1234567890123456'.slice(0, digits), '9'.repeat(digits)] }
    }).filter(({ name }) => name !== '15-digit strings'),
    { name: 'digits of mixed lengths adding up to count × the first length', terms: ['00', '1', '123'] },
    { name: 'control and high bytes', terms: ['\u0000', '\u0000\u0001', '\u007f', '\u0080\u07ff', '\u0800\uffff'] },
    { name: 'random CJK', terms: Array.from({ length: 120 }, () => Array.from({ length: 1 + int(6) }, () => String.fromCodePoint(0x4e00 + int(20000))).join('')) },
    { name: 'restart points (130 terms sharing prefixes)', terms: Array.from({ length: 130 }, (_, i) => `shared/${String(i).padStart(4, '0')}`) },
  ]
}

describe('every form of a term set reads back the same terms (spliced into a file, both backends)', () => {
  const sets = [...winners(), ...edgeSets()]
  for (const { name, terms } of sets) {
    it(name, () => {
      const sorted = sortTerms(terms)
      const documents = shuffled(sorted, 3)
      const file = keywordFile(documents)
      const canonical = encodeDictionary(termsOf(sorted))
      expect(Buffer.from(dictionaryBytes(file)).equals(Buffer.from(canonical))).toBe(true)
      const forms = encodeAllForms(termsOf(sorted))
      expect(forms.map((form) => form[0])).toEqual(forms.length === 6 ? [0, 1, 2, 3, 4, 5] : [0, 1, 2, 3, 4])
      for (const form of forms) {
        const spliced = withDictionary(file, form)
        for (const backend of BACKENDS) {
          const reader = open(spliced, backend)
          const encoding = reader.getColumn('v')!.dictionary!.encoding!
          expect(encoding.formName).toBe(DICTIONARY_FORM_NAMES[form[0]])
          expect(encoding.end - encoding.start).toBe(form.length)
          expectTerms(reader, sorted, documents)
          if (Buffer.from(form).equals(Buffer.from(canonical))) {
            reader.verify()
          } else {
            const stored = `form ${DICTIONARY_FORM_NAMES[form[0]]}`
            const detail = form[0] === canonical[0]
              ? new RegExp(`its ${form.length} bytes \\(${stored}\\) differ from a flush's ${canonical.length} at byte \\d+$`)
              : `stored in ${stored} (${form.length} bytes), but a flush writes form ${DICTIONARY_FORM_NAMES[canonical[0]]} (${canonical.length} bytes)`
            const message = corruptMessage(() => reader.verify())
            const prefix = `${FILE}: dictionary of field "v": not the dictionary a flush writes: `
            expect(message.startsWith(prefix)).toBe(true)
            if (typeof detail === 'string') expect(message).toBe(prefix + detail)
            else expect(message.slice(prefix.length)).toMatch(detail)
          }
        }
      }
    })
  }
})

describe('the canonical choice', () => {
  for (const { name, form, terms } of winners()) {
    it(`${name}: ${form} wins`, () => {
      const sorted = sortTerms(terms)
      const forms = encodeAllForms(termsOf(sorted))
      const chosen = encodeDictionary(termsOf(sorted))
      expect(DICTIONARY_FORM_NAMES[chosen[0]]).toBe(form)
      for (const other of forms) {
        if (other[0] < chosen[0]) expect(other.length).toBeGreaterThan(chosen.length)
        else expect(other.length).toBeGreaterThanOrEqual(chosen.length)
      }
      for (const backend of BACKENDS) {
        const reader = open(keywordFile(shuffled(sorted, 5)), backend)
        expect(reader.getColumn('v')!.dictionary!.encoding!.formName).toBe(form)
        reader.verify()
      }
    })
  }

  it('v1 (form 0) is never smaller than plain: a plain list of lengths costs less than u32 offsets', () => {
    for (const { terms } of [...winners(), ...edgeSets()]) {
      const forms = encodeAllForms(termsOf(sortTerms(terms)))
      expect(forms[0].length).toBeGreaterThan(forms[1].length)
    }
  })

  it('the hand-written v1, plain and front forms are the writer\'s bytes', () => {
    const sorted = ['a', 'b', 'c']
    const forms = encodeAllForms(termsOf(sorted))
    expect(Array.from(forms[0])).toEqual(v1Form(sorted))
    expect(Array.from(forms[0])).toEqual([0, 3, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0x61, 0x62, 0x63])
    expect(Array.from(forms[1])).toEqual(plainForm(sorted))
    expect(Array.from(forms[1])).toEqual([1, 3, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0b111, 0x61, 0x62, 0x63])
    const prefixed = ['apple', 'applesauce', 'apply', 'banana']
    expect(Array.from(encodeAllForms(termsOf(prefixed))[3])).toEqual(frontForm(26, [0, 5, 4, 0], ['apple', 'sauce', 'y', 'banana']))
  })

  // Ties found among small term sets: the sizes are equal, the lower form byte is written, and the full check refuses the other.
  const ties: { terms: string[]; tied: number[] }[] = [
    { terms: ['baaaa', 'baab'], tied: [1, 3] },
    { terms: ['aaaaba', 'aaabaababaa', 'ab', 'bbaaaabababa', 'bbababa'], tied: [3, 4] },
    { terms: ['05366958727', '10992611027', '20122156230', '44827278133', '61803202131', '97405711098'], tied: [1, 5] },
    { terms: ['aaaaaabbbbaa', 'aaaaabaabbbb', 'abbbbbabaaa', 'bbaabbabb'], tied: [2, 4] },
    { terms: ['020490', '389896', '511757', '543969', '560436', '735127', '754829', '778830', '813572', '887931', '903211'], tied: [3, 5] },
    { terms: ['aab', 'abaaabab', 'abaabaaaaa', 'abbbabaaaab', 'bbabaabaa'], tied: [2, 3, 4] },
    { terms: ['12666453', '17233717', '32203532', '32607261', '38975371', '43909527', '50653323', '71420865'], tied: [1, 3, 5] },
    { terms: ['abaaabaaba', 'abbaababab', 'babbabbba', 'bbbaba'], tied: [1, 2, 3, 4] },
  ]
  for (const { terms, tied } of ties) {
    it(`a tie of forms ${tied.map((form) => DICTIONARY_FORM_NAMES[form]).join(', ')} goes to ${DICTIONARY_FORM_NAMES[tied[0]]}`, () => {
      const forms = encodeAllForms(termsOf(terms))
      const size = forms[tied[0]].length
      const smallest = Math.min(...forms.map((form) => form.length))
      expect(size).toBe(smallest)
      expect(forms.filter((form) => form.length === smallest).map((form) => form[0])).toEqual(tied)
      expect(Buffer.from(encodeDictionary(termsOf(terms))).equals(Buffer.from(forms[tied[0]]))).toBe(true)
      const file = keywordFile(shuffled(terms, 1))
      expect(dictionaryBytes(file)[0]).toBe(tied[0])
      for (const backend of BACKENDS) {
        open(file, backend).verify()
        const other = open(withDictionary(file, forms[tied[1]]), backend)
        expect(corruptMessage(() => other.verify())).toBe(`${FILE}: dictionary of field "v": not the dictionary a flush writes: `
          + `stored in form ${DICTIONARY_FORM_NAMES[tied[1]]} (${size} bytes), but a flush writes form ${DICTIONARY_FORM_NAMES[tied[0]]} (${size} bytes)`)
      }
    })
  }

  it('is deterministic: the same terms give the same bytes, whatever was encoded before and whatever the document order', () => {
    const sets = winners().map(({ terms }) => sortTerms(terms))
    const first = sets.map((sorted) => encodeDictionary(termsOf(sorted)).slice())
    // Encode every set again in reverse order (the trainer's and parser's scratch state is reused).
    const again = sets.slice().reverse().map((sorted) => encodeDictionary(termsOf(sorted)).slice()).reverse()
    sets.forEach((sorted, index) => {
      expect(Buffer.from(again[index]).equals(Buffer.from(first[index]))).toBe(true)
      const allFirst = encodeAllForms(termsOf(sorted)).map((form) => Buffer.from(form).toString('hex'))
      const allAgain = encodeAllForms(termsOf(sorted)).map((form) => Buffer.from(form).toString('hex'))
      expect(allAgain).toEqual(allFirst)
      // Documents in two orders, and with repeats: the dictionary bytes are the same.
      const one = dictionaryBytes(keywordFile(shuffled(sorted, 11)))
      const two = dictionaryBytes(keywordFile([...shuffled(sorted, 12), ...sorted.slice(0, 5)]))
      expect(Buffer.from(one).equals(Buffer.from(first[index]))).toBe(true)
      expect(Buffer.from(two).equals(Buffer.from(first[index]))).toBe(true)
    })
  })
})

describe('edge cases of terms', () => {
  it('U+FFFD sorts before U+1F600 (by UTF-8 bytes: EF BF BD < F0 9F 98 80)', () => {
    const documents = ['\u{1F600}', '\uFFFD', '\u{1F600}', '', '\u{10FFFF}']
    const file = keywordFile(documents)
    for (const backend of BACKENDS) {
      const column = open(file, backend).getColumn('v')!
      expect([0, 1, 2, 3].map((ordinal) => column.term(ordinal))).toEqual(['', '\uFFFD', '\u{1F600}', '\u{10FFFF}'])
      expect(documents.map((_, document) => column.getOrdinal(document))).toEqual([2, 1, 2, 0, 3])
      expect(column.lookupOrdinal('\uFFFD')).toBe(1)
      expect(column.lookupOrdinal('\u{1F600}')).toBe(2)
      expect(Array.from(column.getKeyword(0))).toEqual([0xf0, 0x9f, 0x98, 0x80])
    }
  })

  it('digit strings: leading zeros kept, 15 digits are the digits form, 16 are not', () => {
    const zips = ['00501', '00544', '01001', '02108', '10001', '99950']
    expect(encodeAllForms(termsOf(zips)).map((form) => form[0])).toEqual([0, 1, 2, 3, 4, 5])
    expect(encodeAllForms(termsOf(zips))[5].subarray(0, 10)).toEqual(Uint8Array.from([5, 6, 0, 0, 0, 30, 0, 0, 0, 5]))
    const fifteen = ['000000000000001', '123456789012345', '999999999999999']
    const forms15 = encodeAllForms(termsOf(fifteen))
    expect(forms15.map((form) => form[0])).toEqual([0, 1, 2, 3, 4, 5])
    expect(forms15[5][9]).toBe(15)
    expect(encodeAllForms(termsOf(['0000000000000001', '1234567890123456'])).map((form) => form[0])).toEqual([0, 1, 2, 3, 4])
    // Lengths 2, 1, 3 add up to 3 × 2 but are not all 2 digits: no digits form (it would read "00", "11", "23").
    expect(encodeAllForms(termsOf(['00', '1', '123'])).map((form) => form[0])).toEqual([0, 1, 2, 3, 4])
    // Digit strings of 4 and 6 characters after a 5-digit one, adding up to a multiple of 5: written and read back as they are.
    const random = seededRandom(5)
    const mixed = new Set<string>()
    while (mixed.size < 300) mixed.add(String(1000 + Math.floor(random() * 9000)))
    while (mixed.size < 600) mixed.add(String(100000 + Math.floor(random() * 900000)))
    const sorted = sortTerms(['00000', ...mixed])
    expect(termsOf(sorted).bytes.length).toBe(5 * sorted.length)
    expect(encodeAllForms(termsOf(sorted)).length).toBe(5)
    const file = keywordFile(sorted)
    for (const backend of BACKENDS) {
      const reader = open(file, backend)
      expectTerms(reader, sorted, sorted)
      reader.verify()
    }
  })

  it('the training sample is piece floor(j n / k) for j < k, k = ceil(n × 2^15 / term bytes)', () => {
    // 5,001 pieces of 1 to 23 bytes (more than 2^15 in all): k evenly spaced, by the formula, exactly
    // (n mod k and k coprime, so the stepping's remainder takes every value and a start one off shows).
    const n = 5001, lengths = Array.from({ length: n }, (_, index) => 1 + ((index * 7) % 23))
    const ends = new Uint32Array(n)
    lengths.reduce((at, length, index) => (ends[index] = at + length), 0)
    const starts = Uint32Array.from(ends, (end, index) => end - lengths[index])
    const total = ends[n - 1]
    expect(total).toBeGreaterThan(SAMPLE_BYTES)
    const k = Math.ceil((n * SAMPLE_BYTES) / total)
    expect(samplePieces({ bytes: new Uint8Array(total), starts, ends })).toEqual(Array.from({ length: k }, (_, j) => Math.floor((j * n) / k)))
  })

  it('FSST candidates of equal gain at the 255-symbol cut: the smaller bytes are kept', () => {
    // 300 two-letter prefixes (aa, ab, ..., ln), each before 0, 1 and 2: every prefix covers 6 bytes of
    // the sample. The 29 bytes and the 78 letter-digit pairs cover more, so 148 of the 300 prefixes fit.
    const letters = 'abcdefghijklmnopqrstuvwxyz'
    const prefixes = Array.from({ length: 300 }, (_, i) => letters[Math.floor(i / 26)] + letters[i % 26])
    const terms = termsOf(sortTerms(prefixes.flatMap((prefix) => ['0', '1', '2'].map((digit) => prefix + digit))))
    const table = trainTable({ bytes: terms.bytes, starts: terms.offsets.subarray(0, 900), ends: terms.offsets.subarray(1) })
    const symbols = table.symbols.map((symbol) => Buffer.from(symbol).toString())
    expect(symbols.length).toBe(255)
    expect(symbols.filter((symbol) => symbol.length === 1).length).toBe(29)
    expect(symbols.filter((symbol) => /^[a-z][0-2]$/.test(symbol)).length).toBe(78)
    expect(symbols.filter((symbol) => /^[a-z]{2}$/.test(symbol))).toEqual(prefixes.slice(0, 148))
  })

  it('the memory a decoded dictionary holds is its term bytes and their offsets (digits: no offsets)', () => {
    const random = seededRandom(8)
    const zips = new Set<string>()
    while (zips.size < 400) zips.add(String(10000 + Math.floor(random() * 90000)))
    const sets = [['alpha', 'beta', 'gamma'], WORDS.slice(0, 40), [...zips]]
    for (const backend of BACKENDS) {
      const forms = sets.map((terms) => {
        const dictionary = open(keywordFile(sortTerms(terms)), backend).getColumn('v')!.dictionary!
        const offsets = dictionary.encoding!.formName === 'digits' ? 0 : 4 * (dictionary.termCount + 1)
        expect(dictionary.encoding!.memoryBytes, backend).toBe(dictionary.totalBytes + offsets)
        return dictionary.encoding!.formName
      })
      expect(forms).toEqual(['plain', 'front', 'digits'])
    }
  })

  it('FSST escapes bytes never in the training sample', () => {
    const random = seededRandom(21)
    const int = (n: number) => Math.floor(random() * n)
    const english = Array.from({ length: 1500 }, () => Array.from({ length: 6 + int(6) }, () => WORDS[int(WORDS.length)]).join(' '))
    // Terms of characters used once each (their bytes are escaped: no symbol pays for itself).
    const rare = Array.from({ length: 40 }, (_, i) => `${WORDS[i % WORDS.length]} ${String.fromCodePoint(0x0400 + 3 * i, 0x3040 + 5 * i, 0x1f400 + 7 * i)}`)
    const sorted = sortTerms([...english, ...rare])
    const terms = termsOf(sorted)
    expect(terms.bytes.length).toBeGreaterThan(1 << 15)
    const sample = new Set(samplePieces({ bytes: terms.bytes, starts: terms.offsets.subarray(0, sorted.length), ends: terms.offsets.subarray(1) }))
    expect(sample.size).toBeLessThan(sorted.length)
    const sampledBytes = new Set<number>()
    for (const piece of sample) for (const byte of utf8(sorted[piece])) sampledBytes.add(byte)
    const unseen = sorted.filter((term, ordinal) => !sample.has(ordinal) && Array.from(utf8(term)).some((byte) => !sampledBytes.has(byte)))
    expect(unseen.length).toBeGreaterThan(0)
    const forms = encodeAllForms(terms)
    // The escape code appears in the FSST forms' codes.
    expect(forms[2].includes(255)).toBe(true)
    const file = keywordFile(shuffled(sorted, 2))
    expect(['fsst', 'front-fsst']).toContain(open(file, 'ts').getColumn('v')!.dictionary!.encoding!.formName)
    for (const form of [forms[2], forms[4]]) {
      const spliced = withDictionary(file, form)
      const [ts, wasm] = BACKENDS.map((backend) => open(spliced, backend).getColumn('v')!)
      sorted.forEach((term, ordinal) => {
        expect(ts.term(ordinal)).toBe(term)
        expect(wasm.term(ordinal)).toBe(term)
      })
      for (const term of unseen) expect(wasm.lookupOrdinal(term)).toBe(sorted.indexOf(term))
    }
  })
})

/** Random term sets of varied shapes. */
function randomTermSet(random: () => number): string[] {
  const int = (n: number) => Math.floor(random() * n)
  const count = 1 + int([3, 30, 300, 1500][int(4)])
  const shape = int(7)
  const alphabet = Array.from(['ab', 'abcdefghijklmnopqrstuvwxyz', 'é€😀a'][int(3)])
  const text = (length: number) => Array.from({ length }, () => alphabet[int(alphabet.length)]).join('')
  const make = (): string => {
    switch (shape) {
      case 0: return String(int(10 ** 6)).padStart(6, '0')
      case 1: return `prefix/${text(1 + int(4))}/${int(1000)}`
      case 2: return Array.from({ length: 1 + int(10) }, () => WORDS[int(WORDS.length)]).join(' ')
      case 3: return text(int(12))
      case 4: return String.fromCodePoint(...Array.from({ length: 1 + int(5) }, () => 0x20 + int(0x10ffdf)).map((point) => (point >= 0xd800 && point < 0xe000 ? 0xfffd : point)))
      case 5: return `${'shared-prefix-'.repeat(1 + int(3))}${int(50)}`
      default: return String(int(10 ** 15)).padStart(15, '0')
    }
  }
  return Array.from({ length: count }, make)
}

describe('TS/WASM duel over random term sets', () => {
  it('both backends decode the same terms from every form, and verify() passes on the flush', () => {
    const random = seededRandom(0x25)
    const chosen = new Set<string>()
    for (let trial = 0; trial < 40; trial++) {
      const documents = randomTermSet(random)
      const sorted = sortTerms(documents)
      const file = keywordFile(documents)
      for (const backend of BACKENDS) {
        const reader = open(file, backend)
        reader.verify()
        expectTerms(reader, sorted, documents)
        chosen.add(reader.getColumn('v')!.dictionary!.encoding!.formName)
      }
      for (const form of encodeAllForms(termsOf(sorted))) {
        const spliced = withDictionary(file, form)
        const [ts, wasm] = BACKENDS.map((backend) => open(spliced, backend).getColumn('v')!.dictionary!)
        for (let ordinal = 0; ordinal < sorted.length; ordinal++) {
          expect(Buffer.from(wasm.termBytes(ordinal)).equals(Buffer.from(ts.termBytes(ordinal)))).toBe(true)
        }
        expect(ts.termCount).toBe(sorted.length)
        expect(Buffer.from(ts.termBytes(sorted.length - 1)).toString()).toBe(sorted[sorted.length - 1])
      }
    }
    // The shapes reach most forms as the canonical winner.
    expect(chosen.size).toBeGreaterThanOrEqual(4)
  })
})

describe('merge identity with format 2 dictionaries', () => {
  const SCHEMA = { fields: [{ name: 'v', type: 'keyword', facet: true }, { name: 'tags', type: 'keyword', facet: true, multi: true }, { name: 'n', type: 'integral', column: true }] }

  /** The symbol table of a form 2 or 4 dictionary (form 4: its shared lengths a list of fields): counts per length, then the symbols. */
  function symbolTableOf(dictionary: Uint8Array): Uint8Array {
    expect([2, 4]).toContain(dictionary[0])
    let at = 9
    if (dictionary[0] === 4) {
      const termCount = new DataView(dictionary.buffer, dictionary.byteOffset).getUint32(1, true)
      expect(dictionary[at]).toBe(0)
      at += 2 + Math.ceil((termCount * dictionary[at + 1]) / 8)
    }
    let length = 8
    for (let size = 1; size <= 8; size++) length += size * dictionary[at + size - 1]
    return dictionary.slice(at, at + length)
  }

  it('deleting documents removes keywords and retrains the FSST table: the merge is a flush of the survivors', () => {
    const random = seededRandom(2025)
    const int = (n: number) => Math.floor(random() * n)
    // Half the documents talk about rivers and bridges (deleted), half about forests.
    const river = 'while rivers flow quietly past old stone bridges'.split(' ')
    const forest = 'the quick brown fox jumps into forest where many animals live under tall green trees'.split(' ')
    const sentence = (words: string[]) => Array.from({ length: 6 + int(6) }, () => words[int(words.length)]).join(' ')
    const maxDoc = 400
    const documents = Array.from({ length: maxDoc }, (_, d) => {
      const words = d % 2 === 0 ? river : forest
      return { v: sentence(words), tags: [sentence(words), `tag-${d % 7}`], n: d }
    })
    const file = flushColumns(SCHEMA, documents, { maxDoc, format: 2 })!
    const reader = openColumns(file, { maxDoc, fileName: 'source' })
    reader.verify()
    const docMap = new Int32Array(maxDoc).fill(-1)
    const survivors: typeof documents = []
    documents.forEach((document, d) => {
      if (d % 2 === 1 || d === 100) {
        docMap[d] = survivors.length
        survivors.push(document)
      }
    })
    const merged = mergeColumns([{ reader, docMap }], { maxDoc: survivors.length, format: 2 })!
    const expected = flushColumns(SCHEMA, survivors, { maxDoc: survivors.length, format: 2 })!
    expect(merged.length).toBe(expected.length)
    expect(Buffer.from(merged).equals(Buffer.from(expected))).toBe(true)
    for (const backend of BACKENDS) {
      const result = openColumns(merged, { maxDoc: survivors.length, backend })
      result.verify()
      const v = result.getColumn('v')!
      expect(v.dictionary!.termCount).toBe(new Set(survivors.map((document) => document.v)).size)
      survivors.forEach((document, d) => expect(v.getKeywordString(d)).toBe(document.v))
      expect(v.lookupOrdinal(documents[0].v)).toBe(-1)
    }
    // The keyword column's table was trained again on fewer terms, and differs.
    const before = dictionaryBytes(file), after = dictionaryBytes(merged)
    expect([2, 4]).toContain(before[0])
    expect([2, 4]).toContain(after[0])
    expect(Buffer.from(symbolTableOf(after)).equals(Buffer.from(symbolTableOf(before)))).toBe(false)
  })
})
