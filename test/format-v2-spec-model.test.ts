/**
 * A second implementation of format 2, written from docs/format-v2.md and docs/format.md alone
 * (test/helpers/spec-model/, importing nothing from src/), writes byte-identical whole files to the
 * writer (`flushColumns(…, { format: 2 })`) on seeded inputs built to reach every block kind, sequence
 * form, flag, dictionary form and named tie-break: when the writer and the document drift apart, this fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { flushColumns } from '../src/index.js'
import type { ColumnsDocument, SchemaField } from '../src/index.js'
import { observeChoices } from './helpers/spec-model/choices.js'
import { sectionSpans, writeColumnsFile } from './helpers/spec-model/file.js'
import type { ModelDocument, ModelField, ModelType, ModelValue } from './helpers/spec-model/file.js'
import { seededRandom } from './helpers/random.js'

/** Choices the model made while writing the compared files (cases that lose a candidate race do not count). */
const choices = new Map<string, number>()
beforeAll(() => observeChoices(choices))
afterAll(() => observeChoices(null))

type Random = { next: () => number; int: (lo: number, hi: number) => number; pick: <T>(a: readonly T[]) => T }
function random(seed: number): Random {
  const next = seededRandom(seed)
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1))
  return { next, int, pick: (a) => a[int(0, a.length - 1)] }
}
const arr = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i))
const hex = (a: Uint8Array, from: number): string => Array.from(a.subarray(from, from + 12), (x) => x.toString(16).padStart(2, '0')).join(' ')

interface FileCase {
  label: string
  fields: (ModelField & { multi?: boolean })[]
  docs: ModelDocument[]
}

/** Writes the case with both implementations and fails with the case and the first differing byte. */
async function expectSameFile(seed: number, c: FileCase): Promise<void> {
  const schemaFields: SchemaField[] = c.fields.map((f) => ({ name: f.name, type: f.type, column: f.type !== 'keyword', facet: f.type === 'keyword', multi: f.multi ?? false }))
  const writer = flushColumns({ fields: schemaFields }, c.docs as ColumnsDocument[], { maxDoc: c.docs.length, format: 2 }) ?? null
  const model = await writeColumnsFile(c.fields, c.docs)
  if (writer === null || model === null) {
    expect(model === null, `seed ${seed} case "${c.label}": writer ${writer ? 'wrote' : 'wrote no'} file, model ${model ? 'wrote' : 'wrote no'} file`).toBe(writer === null)
    return
  }
  let first = 0
  while (first < writer.length && first < model.length && writer[first] === model[first]) first++
  if (first === writer.length && first === model.length) return
  const span = sectionSpans(writer).find((s) => first >= s.offset && first < s.offset + s.length)
  const where = span ? `section "${span.name}" +${first - span.offset}` : first < 12 ? 'header' : 'directory/footer'
  expect.fail(
    `seed ${seed} case "${c.label}": first differing byte at file offset ${first} (${where}); ` +
      `lengths writer ${writer.length}, model ${model.length}; writer [${hex(writer, first)}] model [${hex(model, first)}]`,
  )
}

/** One dense column named x holding the values. */
const column = (label: string, type: ModelType, values: ModelValue[]): FileCase => ({ label, fields: [{ name: 'x', type }], docs: values.map((x) => ({ x })) })

async function run(seed: number, cases: FileCase[]): Promise<void> {
  for (const [i, c] of cases.entries()) await expectSameFile(seed, { ...c, label: `#${i} ${c.label}` })
}

const MIN = -(2n ** 63n)
const MAX = 2n ** 63n - 1n

describe('format v2: an implementation from the document writes the same bytes as the writer', () => {
  it('integer sequences: block shapes at sizes around block boundaries, int64 extremes, forms 1 and 2', async () => {
    const seed = 12345
    const r = random(seed)
    const cases: FileCase[] = []
    for (const n of [1, 2, 3, 1023, 1025, 2049]) {
      cases.push(column(`constant n=${n}`, 'integral', arr(n, () => 42)))
      cases.push(column(`small range n=${n}`, 'integral', arr(n, () => r.int(0, 15))))
      cases.push(column(`frame n=${n}`, 'integral', arr(n, () => r.int(-1e9, 1e9))))
      cases.push(column(`few distinct n=${n}`, 'integral', arr(n, () => r.pick([3, 1000, 77777, -5]))))
      cases.push(column(`frequent n=${n}`, 'integral', arr(n, () => (r.next() < 0.97 ? 5 : r.int(-1e6, 1e6)))))
      cases.push(column(`patched n=${n}`, 'integral', arr(n, () => (r.next() < 0.98 ? r.int(0, 7) : r.int(0, 1e7)))))
      cases.push(column(`linear n=${n}`, 'integral', arr(n, (i) => 1000 + 37 * i + r.int(-3, 3))))
      cases.push(column(`gcd n=${n}`, 'integral', arr(n, () => 1000 * r.int(0, 5000))))
      cases.push(column(`sorted dates n=${n}`, 'date', arr(n, (i) => 1.6e12 + Math.floor(i / 100) * 86400000)))
    }
    cases.push(column('near 2^53', 'integral', arr(300, () => 2 ** 53 - r.int(1, 1000))))
    cases.push(column('near -2^53', 'integral', arr(300, () => -(2 ** 53) + r.int(1, 1000))))
    cases.push(column('int64 extremes', 'integral', arr(300, () => r.pick([MIN, MAX, 0n, BigInt(r.int(0, 9))]))))
    cases.push(column('int64 huge range', 'integral', arr(1100, () => BigInt.asIntN(64, BigInt(r.int(0, 2 ** 31)) * BigInt(r.int(0, 2 ** 31)) * 4n))))
    cases.push(column('2^51 boundary', 'integral', arr(200, () => r.pick([0n, 2n ** 51n - 1n, 2n ** 51n, 5n]))))
    cases.push(column('sequence dictionary', 'integral', arr(5000, () => [17, 99, 123456, 5, 8888888, 42][Math.min(5, Math.floor(-Math.log(r.next() + 1e-9)))])))
    cases.push(column('sequence runs', 'integral', arr(5000, (i) => Math.floor(i / r.int(200, 300)) * 13)))
    cases.push(column('mixed blocks', 'integral', arr(3000, (i) => (i < 1000 ? 7 : i < 2000 ? r.int(0, 1e9) : i))))
    cases.push(column('bool', 'bool', arr(3000, (i) => i % 7 === 0 || r.next() < 0.1)))
    // Run values drawn from 300 wide values, runs of 2: the children of form 2 stay form 0.
    const pool = arr(300, () => r.int(0, 2 ** 40))
    cases.push(column('runs of wide values', 'integral', arr(8192, (i) => pool[(Math.floor(i / 2) * 7 + (i >> 11)) % 300])))
    await run(seed, cases)
  })

  it('block rule boundaries: ties, the narrow bound, gcd and list/bitmap flags, sampled estimates', async () => {
    const seed = 99
    const r = random(seed)
    const cases: FileCase[] = []
    cases.push(column('frequent top tie', 'integral', [...arr(8, () => 1000003), ...arr(8, () => 3)].sort(() => r.next() - 0.5)))
    cases.push(column('frequent top tie 2', 'integral', [9, 9, 9, 2, 2, 2, 500000, 9, 2, 77777777]))
    for (const big of [2n ** 51n - 1n, 2n ** 51n, -(2n ** 51n) + 1n, -(2n ** 51n)]) cases.push(column(`narrow bound ${big}`, 'integral', [...arr(1023, () => 0n), big]))
    for (const e of [1, 2, 3, 4, 8, 9, 16, 30]) {
      cases.push(column(`frequent gcd e=${e}`, 'integral', arr(1024, (i) => (i < e ? 1000 * (1 + (i % 3) * 7919) : 3))))
      cases.push(column(`frequent gcd 2^20 e=${e}`, 'integral', arr(1024, (i) => ((i * 37) % 1024 < e ? 2 ** 20 * (1 + (i % 5)) : 0))))
    }
    // n = 1024, pw = 10: a list iff c8(10 e) < 128, so e = 12 is a list and e = 13 a bitmap.
    for (const e of [11, 12, 13, 14]) {
      cases.push(column(`frequent list/bitmap e=${e}`, 'integral', arr(1024, (i) => (i % 73 === 0 && i / 73 < e ? 500 + i : 7))))
      cases.push(column(`patched list/bitmap e=${e}`, 'integral', arr(1024, (i) => (i % 73 === 0 && i / 73 < e ? 100000 + i : i % 4))))
    }
    cases.push(column('identity dictionary', 'integral', arr(4000, () => r.int(0, 2))))
    cases.push(column('identity dictionary, skewed', 'integral', arr(4000, () => (r.next() < 0.9 ? 2 : r.int(0, 1)))))
    cases.push(column('near identity', 'integral', arr(4000, () => r.int(1, 3))))
    cases.push(column('linear descending', 'integral', arr(1024, (i) => 1e6 - 37 * i + r.int(0, 2))))
    cases.push(column('linear floor', 'integral', arr(777, (i) => -Math.floor((i * 7) / 3))))
    cases.push(column('linear exact', 'integral', arr(1024, (i) => -3 * i)))
    cases.push(column('linear big slope', 'integral', arr(1024, (i) => 2 ** 40 + i * 2 ** 30 + r.int(0, 100))))
    cases.push(column('linear noisy ends', 'integral', arr(500, (i) => (i === 0 ? 100 : i === 499 ? 5 : 50 + (i % 7)))))
    // base = v0 + min ρ below −2^63: stored wrapped (§3.7).
    cases.push(column('linear base wraps', 'integral', [0, 1, 2, 3, 4, 5, 6, 7].map((j) => (j === 1 ? MIN : MIN + 1n + 10n * BigInt(j)))))
    cases.push(column('linear near int64 max', 'integral', arr(1024, (j) => MAX - 1000n * 1023n - 7n + 1000n * BigInt(j) + BigInt(j === 0 ? 0 : r.int(0, 7)))))
    for (let t = 0; t < 6; t++) cases.push(column('patched random', 'integral', arr(r.int(20, 1024), () => (r.next() < 0.9 ? r.int(0, 2 ** r.int(1, 6)) : r.int(0, 2 ** r.int(8, 40))))))
    for (let t = 0; t < 3; t++) cases.push(column('runs block', 'integral', arr(1024, (i) => Math.floor(i / r.int(30, 60)) * 1000 + 17)))
    cases.push(column('dictionary block k=256', 'integral', arr(1024, () => r.int(0, 255) * 1048573)))
    cases.push(column('dictionary block k=600', 'integral', arr(1024, (i) => (i % 600) * 1048573)))
    // 128 blocks, so s = 2: the estimates see only the even blocks.
    cases.push(column('sampled estimate', 'integral', arr(128 * 1024, (i) => ((i >> 10) % 2 ? r.int(0, 255) : 5))))
    cases.push(column('alternating wide blocks', 'integral', arr(4096, (i) => ((i >> 10) % 2 ? 2 ** 45 : -(2 ** 45)))))
    await run(seed, cases)
  })

  it('small random sequences, where exact-size ties are common', async () => {
    const seed = 5
    const r = random(seed)
    const cases: FileCase[] = []
    cases.push(column('frequent top tie, list', 'integral', [0, 1000000, 1000001, 0, 1000000, 0, 1000001, 1000000, 0, 1000000, 1000001, 0, 1000000, 0, 1000001, 1000000]))
    for (let t = 0; t < 300; t++) {
      const k = r.int(1, 5)
      const pool = arr(k, () => (r.next() < 0.5 ? r.int(0, 8) : r.int(0, 2 ** r.int(3, 45)) * (r.next() < 0.3 ? -1 : 1)))
      cases.push(column('small random', 'integral', arr(r.int(2, 40), () => pool[Math.floor(r.next() ** 2 * k)])))
    }
    for (let t = 0; t < 25; t++) {
      const pool = arr(r.int(1, 30), () => r.int(-(2 ** r.int(1, 50)), 2 ** r.int(1, 50)))
      const mode = r.int(0, 3)
      const value = (i: number): number =>
        mode === 0 ? pool[Math.floor(r.next() ** 3 * pool.length)] : mode === 1 ? pool[Math.floor(i / r.int(1, 200)) % pool.length] : mode === 2 ? (i * pool[0]) % 1000003 : r.next() < 0.95 ? r.int(0, 3) : r.pick(pool)
      cases.push(column(`medium random mode ${mode}`, 'integral', arr(r.int(100, 2100), value)))
    }
    for (let t = 0; t < 120; t++) {
      const e = r.int(0, 5)
      cases.push(column('small decimals', 'fractional', arr(r.int(1, 60), () => (r.next() < 0.1 ? r.pick([NaN, -0, Math.PI]) : Math.round(r.next() * 10 ** r.int(1, 6)) / 10 ** e))))
    }
    await run(seed, cases)
  })

  it('double sequences: the decimal form, e*, exceptions and sampling', async () => {
    const seed = 777
    const r = random(seed)
    const cases: FileCase[] = []
    for (const n of [1, 2, 5, 1025, 2049]) {
      cases.push(column(`prices n=${n}`, 'fractional', arr(n, () => r.int(0, 100000) / 100)))
      cases.push(column(`prices with exceptions n=${n}`, 'fractional', arr(n, () => (r.next() < 0.1 ? Math.PI * r.int(1, 9) : r.int(-5000, 5000) / 100))))
      cases.push(column(`mixed exponents n=${n}`, 'fractional', arr(n, () => r.pick([12.34, 0.001, 5, 1e-7, 123456.7]))))
      cases.push(column(`specials n=${n}`, 'fractional', arr(n, () => r.pick([NaN, -0, 0, Infinity, -Infinity, 1.5, -2.25]))))
      cases.push(column(`half exceptions n=${n}`, 'fractional', arr(n, (i) => (i % 2 ? NaN : r.int(0, 99) / 10))))
      cases.push(column(`random doubles n=${n}`, 'fractional', arr(n, () => r.next() * 1e6 - 5e5)))
      cases.push(column(`integers as doubles n=${n}`, 'fractional', arr(n, () => r.int(-1e6, 1e6))))
      cases.push(column(`sorted decimals n=${n}`, 'fractional', arr(n, (i) => 1.5 + Math.floor(i / 50) * 0.25)))
      cases.push(column(`few decimals n=${n}`, 'fractional', arr(n, () => r.pick([0.1, 0.2, 0.3, 19.99]))))
      cases.push(column(`e=18 n=${n}`, 'fractional', arr(n, () => r.int(1, 999) * 1e-18)))
      cases.push(column(`rounding half up n=${n}`, 'fractional', arr(n, () => (r.int(0, 100) + 0.5) / 1000)))
    }
    // More than 2,048 values: e* from 2,048 samples (the even positions here).
    cases.push(column('e* samples, count 4096', 'fractional', arr(4096, (i) => (i % 2 ? r.int(0, 99999) / 1000 : r.int(0, 9999) / 100))))
    cases.push(column('e* samples, odd exceptions', 'fractional', arr(4096, (i) => (i % 2 ? Math.PI * i : r.int(0, 9999) / 100))))
    cases.push(column('E = count/2 accepted', 'fractional', [1.5, NaN, 2.5, NaN, 3.25, NaN, 4.75, NaN]))
    cases.push(column('E = count/2 + 1 rejected', 'fractional', [1.5, NaN, 2.5, NaN, NaN, NaN, 4.75]))
    cases.push(column('exceptions first', 'fractional', [NaN, NaN, 1.25, 2.5, 3.75, 5]))
    cases.push(column('boundaries of 2^53', 'fractional', [0.5, 1.5, 2.5, -0.5, -1.5, 0.125, 1e-3, 0.3, 2 ** 53, 2 ** 53 - 1, -(2 ** 53) + 1]))
    cases.push(column('only -0', 'fractional', [-0, -0, -0]))
    // One encoded value: e = 1, 2, … tie (range 0); wide exceptions make form 3 win.
    cases.push(column('e* tie', 'fractional', arr(1024, (i) => (i % 300 === 7 ? Math.PI * i : 1.5))))
    await run(seed, cases)
  })

  it('keyword dictionaries: named term sets', async () => {
    const seed = 4242
    const r = random(seed)
    const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu', 'nu', 'xi', 'omicron', 'pi', 'rho', 'sigma', 'tau']
    const cities = ['Seattle', 'San Francisco', 'San Diego', 'San Jose', 'Los Angeles', 'New York', 'New Orleans', 'Newark', 'Boston', 'Chicago', 'Houston', 'Phoenix', 'Philadelphia', 'San Antonio', 'Dallas', 'Austin']
    const sets: [string, string[]][] = [
      ['short', ['a', 'b', 'c']],
      ['single empty term', ['']],
      ['empty and more', ['', 'alpha', 'beta', 'gamma', 'delta', 'alphabet']],
      ['apple apply banana', ['apple', 'apply', 'banana']],
      ['cities', cities],
      ['urls', arr(300, () => `https://www.example.com/${r.pick(['products', 'blog', 'docs', 'api/v1'])}/${r.pick(['item', 'post', 'page'])}-${r.int(0, 99999)}.html`)],
      ['zip codes', arr(500, () => String(r.int(0, 9999)).padStart(5, '0'))],
      ['dense digits', arr(2000, (i) => String(i * 3).padStart(5, '0'))],
      ['digits d=1', ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']],
      ['digits d=15', arr(200, () => String(r.int(0, 1e9 - 1)).padStart(9, '0') + String(r.int(0, 1e6 - 1)).padStart(6, '0'))],
      ['digits d=16 (not digits)', arr(100, () => String(r.int(0, 1e9 - 1)).padStart(9, '0') + String(r.int(0, 1e7 - 1)).padStart(7, '0'))],
      ['15 zeros and nines', ['000000000000000', '999999999999999']],
      ['unicode', ['café', 'caffè', 'naïve', 'Zürich', '東京', '大阪', 'Москва', '😀', '😀😀', 'ÿ', '\u0000', 'a\u0000b', '\uFFFD']],
      ['long terms', ['x'.repeat(3000), 'y'.repeat(300), 'ab'.repeat(1000)]],
      ['restart every 64', arr(200, (i) => 'prefix/common/' + String(i).padStart(4, '0'))],
      ['every byte value', arr(256, (i) => String.fromCharCode(i))],
      ['length outliers', arr(1500, (i) => (i % 500 === 0 ? 'z'.repeat(200) + i : 'k' + String(i).padStart(5, '0')))],
      // T > 32,768 bytes: the FSST training samples the pieces.
      ['sampled training', arr(1800, () => `${r.pick(cities)}/${r.pick(words)}/${r.int(0, 999999)}`)],
      ['full table, cut among equal gains', arr(44, (i) => String.fromCharCode(0x21 + i) + arr(199, () => String.fromCharCode(0x21 + r.int(0, 93))).join(''))],
      // Plain wins, and its term-lengths list ties: tag 0 = 2 + c8(88 × 4) = 46 = 1 + a 45-byte constant sequence.
      ['list tag tie', arr(88, (i) => String.fromCharCode(0x21 + i) + arr(11, () => String.fromCharCode(r.int(0x21, 0x7e))).join(''))],
      // Long pieces, T > 32,768: FSST wins with a sampled training (k < m).
      ['sampled training, FSST wins', arr(8, (i) => String.fromCharCode(65 + i) + arr(1000, () => r.pick(words)).join(' '))],
      ['groups of long prefixes', arr(900, (i) => String.fromCharCode(65 + Math.floor(i / 90)) + 'qrstuvw'.slice(0, 2 + (Math.floor(i / 90) % 6)) + String.fromCharCode(33 + (i % 90)))],
    ]
    for (let s = 0; s < 6; s++) {
      const kind = s % 3
      const term = (): string =>
        kind === 0 ? arr(r.int(1, 12), () => String.fromCharCode(97 + r.int(0, 25))).join('') : kind === 1 ? arr(r.int(1, 3), () => r.pick(words)).join(' ') : arr(r.int(1, 20), () => String.fromCharCode(r.int(0, 255))).join('')
      sets.push([`random kind ${kind}`, arr([20, 130, 500][Math.floor(s / 2)], term)])
    }
    await run(seed, sets.map(([label, terms]) => ({ label, fields: [{ name: 'k', type: 'keyword' }], docs: terms.map((k) => ({ k })) })))
  })

  it('keyword dictionaries: random term sets (form ties and FSST parse ties)', async () => {
    const seed = 1
    const r = random(seed)
    const alphabets = ['ab', 'abc', 'abcdefgh', '0123456789', 'xyz-/.', 'aé😀', 'aaaaab']
    const cases: FileCase[] = []
    for (let t = 0; t < 110; t++) {
      const kind = r.int(0, 5)
      const n = r.int(1, r.pick([4, 12, 40, 150]))
      const letters = [...r.pick(alphabets)]
      const ch = (): string => r.pick(letters)
      const term = (): string => {
        if (kind === 0) return arr(r.int(0, 7), ch).join('')
        if (kind === 1) return String(r.int(0, 10 ** r.int(1, 4) - 1)).padStart(r.pick([1, 3, 5]), '0')
        if (kind === 2) return ((d) => String(r.int(0, 10 ** d - 1)).padStart(d, '0'))(r.int(1, 6))
        if (kind === 3) return r.pick(['pre', 'prefix', 'p']) + arr(r.int(0, 4), ch).join('')
        if (kind === 4) return arr(r.int(0, 3), () => r.pick(['ab', 'ba', 'abc', 'cab', 'x', 'xyzw', 'abcdefghij'])).join('')
        return arr(r.int(1, 30), ch).join('')
      }
      cases.push({ label: `random set kind ${kind}`, fields: [{ name: 'k', type: 'keyword' }], docs: arr(n, () => ({ k: term() })) })
    }
    // Digit terms of every width 1..15, sparse and dense.
    for (let t = 0; t < 20; t++) {
      const d = r.int(1, 15)
      const max = 10 ** d
      const n = Math.min(Math.floor(max / 2), r.pick([5, 40, 300, 1000]))
      const terms = new Set<number>()
      let x = r.int(0, Math.floor(max / 2))
      const mode = r.int(0, 2)
      while (terms.size < n) {
        if (mode === 0) terms.add(Math.floor(r.next() * max))
        else if (mode === 1) terms.add((x += r.int(1, 3)) % max)
        else terms.add(r.int(0, 2) ? r.int(0, Math.min(max, 1000) - 1) : Math.floor(r.next() * max))
      }
      cases.push({ label: `digits d=${d} mode ${mode}`, fields: [{ name: 'k', type: 'keyword' }], docs: [...terms].map((k) => ({ k: String(k).padStart(d, '0') })) })
    }
    await run(seed, cases)
  })

  it('whole files: every type in every layout, null documents, repeated keywords', async () => {
    const seed = 606
    const r = random(seed)
    const fields: (ModelField & { multi?: boolean })[] = [
      { name: 'b', type: 'bool' },
      { name: 'd', type: 'date' },
      { name: 'f', type: 'fractional' },
      { name: 'g', type: 'geo_point' },
      { name: 'k', type: 'keyword' },
      { name: 'mb', type: 'bool', multi: true },
      { name: 'md', type: 'date', multi: true },
      { name: 'mf', type: 'fractional', multi: true },
      { name: 'mg', type: 'geo_point', multi: true },
      { name: 'mi', type: 'integral', multi: true },
      { name: 'mk', type: 'keyword', multi: true },
      { name: 'oi', type: 'integral' },
      { name: 'ok', type: 'keyword' },
      { name: 'Z', type: 'integral' },
      { name: '\u{1F600}', type: 'integral' },
      { name: '\uFFFD', type: 'bool' },
    ]
    const cases: FileCase[] = []
    for (let t = 0; t < 10; t++) {
      const maxDoc = [1, 5, 64, 65, 200, 1023, 1025, 2049, 130, 1500][t]
      const dense = t % 3 === 0 // every single-valued field present in every document
      const words = arr(r.int(1, 50), (i) => 'w' + i * 7)
      const geo = (): ModelValue => ({ lat: r.int(-90000, 90000) / 1000, lon: r.next() < 0.05 ? Math.PI : r.int(-1800000, 1800000) / 10000 })
      const some = (p: number): boolean => dense || r.next() < p
      const docs: ModelDocument[] = arr(maxDoc, (i) => {
        if (!dense && i % 17 === 3) return null
        const doc: Record<string, ModelValue | ModelValue[]> = {}
        if (some(0.9)) doc.b = r.next() < 0.8
        if (some(0.9)) doc.d = 1.7e12 + Math.floor(i / 10) * 60000
        if (some(0.8)) doc.f = r.next() < 0.1 ? r.pick([NaN, -0, Infinity]) : r.int(-99999, 99999) / 100
        if (some(0.5)) doc.g = geo()
        if (some(0.9)) doc.k = words[Math.floor(r.next() ** 2 * words.length)]
        const counts = arr(6, () => r.int(0, t % 2 ? 3 : 1))
        if (counts[0]) doc.mf = arr(counts[0], () => r.int(0, 9999) / 100)
        if (counts[1]) doc.mg = arr(counts[1], geo)
        if (counts[2]) doc.mi = arr(counts[2], () => r.int(0, 2 ** r.int(2, 40)))
        if (counts[3]) doc.mk = arr(counts[3], () => r.pick(words))
        if (counts[4]) doc.mb = arr(counts[4], () => r.next() < 0.5)
        if (counts[5]) doc.md = arr(counts[5], () => 1.7e12 + r.int(0, 1e6) * 1000)
        if (some(0.7)) doc.oi = r.int(-1000, 1000) * (t % 3 === 0 ? 1 : 100)
        if (some(0.3)) doc.ok = r.pick(['', 'x', 'é', 'longer term'])
        if (t % 3 === 1 && r.next() < 0.01) doc.Z = 2 ** 53 - 1
        if (some(0.5)) doc['\u{1F600}'] = i
        if (some(0.5)) doc['\uFFFD'] = true
        return doc
      })
      // Make sure each multi field really is multi in some files.
      if (t % 2 && docs[0]) Object.assign(docs[0], { mb: [true, false], md: [0, 1], mf: [1.5, 2.5], mg: [geo(), geo()], mi: [1, 2], mk: ['w0', 'w0'] })
      cases.push({ label: `maxDoc ${maxDoc}${dense ? ' dense' : ''}`, fields, docs })
    }
    cases.push({ label: 'no values: no file', fields, docs: [null, {}, null] })
    await run(seed, cases)
  })

  it('the inputs covered every block kind, sequence form, flag, dictionary form, layout and named tie', () => {
    const required = [
      ...[0, 1, 3, 4, 5, 6, 7].map((k) => `kind ${k}`),
      ...['form 0', 'form 1/0', 'form 1/1', 'form 2', 'form 3', 'form 3 exceptions'],
      ...['kind 5 list', 'kind 5 bitmap', 'kind 5 gcd', 'kind 6 list', 'kind 6 bitmap', 'frame (not narrow)'],
      ...[1, 2, 3, 4, 5].map((f) => `dictionary form ${f}`),
      ...['list tag 0', 'list tag 1', 'fsst sampled training'],
      ...(['keyword', 'integral', 'fractional', 'date', 'bool', 'geo_point'] as const).flatMap((t) => ['dense', 'optional', 'multi'].map((l) => `layout ${l} ${t}`)),
      // The tie-breaks the document names (§4, §10.1, §10.2, §10.5).
      ...['tie frequent top value', 'tie patched lw', 'tie block kind 1<3', 'tie block kind 5<6', 'tie e* smaller'],
      ...['tie list tag 0', 'tie dictionary lower form', 'tie fsst parse longer symbol', 'tie fsst cut among equal gains', 'tie fsst earliest round'],
    ]
    const missing = required.filter((key) => !choices.has(key))
    const table = [...choices].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => `${k}: ${n}`).join('\n')
    // The counts come from the comparisons above; a failing comparison stops its case list early.
    expect(missing, `not covered (fix any failing comparison above first):\n${missing.join('\n')}\n\ncounted:\n${table}`).toEqual([])
  })
})
