/**
 * Generates the golden files in test/golden/ (run once: node --import tsx scripts/make-golden.ts).
 *
 * For each case it writes:
 *   NAME.input.json  schema, maxDoc and documents in a JSON-safe form ({"$bigint": "…"}, {"$number": "-0"|"NaN"|…})
 *   NAME.oixk        flushColumns of those documents
 *   NAME.json        the dump {"maxDoc", "columns": [{name, type, layout, documentsWithValue, valueCount,
 *                    minRaw, maxRaw, terms (keyword only), raw}]}, raw values as decimal strings, one array
 *                    per document, geo values as [latRaw, lonRaw]
 * The dump is computed from the input documents by this script's own code (own SortableBits, own UTF-8
 * term order, own layout rule), then cross-checked against what the reader returns; any disagreement
 * aborts. Hand-computed spot checks are asserted below.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { flushColumns, openColumns } from '../src/index.js'

type Doc = Record<string, unknown> | null
interface Field { name: string; type: string; column?: boolean; facet?: boolean; multi?: boolean }
interface Case { name: string; fields: Field[]; maxDoc: number; docs: Doc[] }

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'golden')

// ---- the independent dump -------------------------------------------------------------------
const f64 = new Float64Array(1)
const u64 = new BigUint64Array(f64.buffer)
const ieee = (x: number) => { f64[0] = x; return u64[0] }
const sortable = (bits: bigint) => { const b = BigInt.asIntN(64, bits); return b < 0n ? b ^ 0x7fffffffffffffffn : b }
const byUtf8 = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))

function raw(type: string, v: unknown): bigint {
  switch (type) {
    case 'integral': return BigInt(v as number | bigint)
    case 'date': return typeof v === 'string' ? BigInt(Date.parse(v)) : BigInt(v as number | bigint)
    case 'bool': return v ? 1n : 0n
    case 'fractional':
      if (typeof v === 'object') return sortable(BigInt('0x' + (v as { bits: string }).bits))
      return sortable(ieee(typeof v === 'string' ? Number(v) : (v as number)))
    default: throw new Error(type)
  }
}

function expectedDump({ fields, maxDoc, docs }: Case) {
  const columns = []
  for (const field of [...fields].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!(field.column || field.facet) || field.type === 'text') continue
    const perDoc: unknown[][] = Array.from({ length: maxDoc }, (_, d) => {
      const v = docs[d]?.[field.name]
      return v === null || v === undefined ? [] : Array.isArray(v) ? v : [v]
    })
    const all = perDoc.flat()
    if (all.length === 0) continue
    const terms = field.type === 'keyword' ? [...new Set(all as string[])].sort(byUtf8) : undefined
    const key = (v: unknown): bigint => (terms ? BigInt(terms.indexOf(v as string))
      : field.type === 'geo_point' ? sortable(ieee((v as { lat: number }).lat)) : raw(field.type, v))
    const keys = all.map(key)
    const documentsWithValue = perDoc.filter((v) => v.length > 0).length
    columns.push({
      name: field.name, type: field.type,
      layout: perDoc.some((v) => v.length > 1) ? 'multi' : documentsWithValue === maxDoc ? 'dense' : 'optional',
      documentsWithValue, valueCount: all.length,
      minRaw: keys.reduce((a, b) => (b < a ? b : a)).toString(), maxRaw: keys.reduce((a, b) => (b > a ? b : a)).toString(),
      ...(terms ? { terms } : {}),
      raw: perDoc.map((values) => values.map((v) => (field.type === 'geo_point'
        ? [key(v).toString(), sortable(ieee((v as { lon: number }).lon)).toString()] : key(v).toString()))),
    })
  }
  return { maxDoc, columns }
}

/** The same dump read back through the reader (as test/golden.test.ts does). */
function readerDump(bytes: Uint8Array | null, maxDoc: number) {
  const reader = openColumns(bytes, { maxDoc })
  reader.verify()
  return {
    maxDoc: reader.maxDoc,
    columns: reader.columns.map((c) => {
      const part = (d: number, which: 'latitude' | 'longitude') => {
        const out = new BigInt64Array(c.valueCount(d))
        if (out.length > 0) c.readValues(c.firstValueIndex(d), out, which)
        return [...out].map(String)
      }
      return {
        name: c.name, type: c.type, layout: c.layout, documentsWithValue: c.documentsWithValue, valueCount: c.valueCount(),
        minRaw: c.minRaw.toString(), maxRaw: c.maxRaw.toString(),
        ...(c.dictionary ? { terms: Array.from({ length: c.dictionary.termCount }, (_, o) => c.term(o)) } : {}),
        raw: Array.from({ length: maxDoc }, (_, d) => {
          const lat = part(d, 'latitude')
          if (c.type !== 'geo_point') return lat
          const lon = part(d, 'longitude')
          return lat.map((v, i) => [v, lon[i]])
        }),
      }
    }),
  }
}

// ---- JSON-safe input ------------------------------------------------------------------------
function toSafe(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return { $bigint: value.toString() }
  if (typeof value === 'number' && (Object.is(value, -0) || !Number.isFinite(value))) return { $number: String(Object.is(value, -0) ? '-0' : value) }
  return value
}

// ---- the cases ------------------------------------------------------------------------------
const col = (name: string, type: string, multi = false): Field => ({ name, type, column: true, ...(multi ? { multi } : {}) })

const cases: Case[] = [
  {
    // docs/format.md §6.3: 10, 12, 14, 20 → packed base 10, g 2, width 3, data 88 0A.
    name: 'worked-example', fields: [col('v', 'integral')], maxDoc: 4, docs: [{ v: 10 }, { v: 12 }, { v: 14 }, { v: 20 }],
  },
  {
    // Every type dense. bool all true → a constant block. f: -1.0 → raw −4607182418800017409 (format.md table).
    // d: 2024-02-29 → 19782 days × 86,400,000 = 1709164800000. g: 45.5 = 0x4046C00000000000 = 4631600373029666816;
    // −122.25 = 0xC05E900000000000 → sortable −0x405E900000000001 = −4638302995912589313.
    // k: "", "a", "b", "é" (C3 A9) in byte order → ordinals of b, a, é, "", a, b = 2, 1, 3, 0, 1, 2.
    name: 'dense-all-types', maxDoc: 6,
    fields: [{ name: 'k', type: 'keyword', facet: true }, col('i', 'integral'), col('f', 'fractional'), col('d', 'date'), col('b', 'bool'), col('g', 'geo_point')],
    docs: ['b', 'a', 'é', '', 'a', 'b'].map((k, n) => ({
      k, i: [5, -3, 0, 1000, 5, 7][n], f: [-1, 0.5, 2, -1, 1e10, 0.25][n], d: n === 0 ? '2024-02-29T00:00:00Z' : 1709164800000 + 86_400_000 * n,
      b: true, g: n === 1 ? { lat: 45.5, lon: -122.25 } : { lat: n, lon: -n },
    })),
  },
  {
    // Every type optional: values at docs 0, 31, 32, 63, 64, 65 of 70 (docs 66..69 trailing, not given):
    // the bitmap words are bits {0, 31, 32, 63} and {0, 1} → 01 00 00 80 01 00 00 80, 03 00 .. 00.
    name: 'optional-trailing', maxDoc: 70,
    fields: [{ name: 'k', type: 'keyword', facet: true }, col('i', 'integral'), col('f', 'fractional'), col('d', 'date'), col('b', 'bool'), col('g', 'geo_point')],
    docs: Array.from({ length: 66 }, (_, d) => ([0, 31, 32, 63, 64, 65].includes(d)
      ? { k: `t${d % 3}`, i: d * 10, f: d / 8, d: d * 1000, b: d % 2 === 1, g: { lat: d - 45, lon: 2 * d - 90 } } : { i: null, k: undefined })),
  },
  {
    // Every type multi, order and duplicates kept, empty arrays; "one" is a multi field with one value
    // per document → dense. Offsets of i: 0, 3, 3, 5, 5 (documents with 3, 0, 2, 0 values).
    name: 'multi', maxDoc: 4,
    fields: [{ name: 'k', type: 'keyword', facet: true, multi: true }, col('i', 'integral', true), col('f', 'fractional', true),
      col('d', 'date', true), col('b', 'bool', true), col('g', 'geo_point', true), col('one', 'integral', true)],
    docs: [
      { k: ['z', 'a', 'z'], i: [3, 1, 3], f: [0.5, -0.5, 0.5], d: ['1970-01-01T00:00:01Z', 0], b: [true, true], g: [{ lat: 1, lon: 1 }, { lat: 1, lon: 1 }], one: [7] },
      { k: [], i: [], f: [], one: 8 },
      { k: ['', 'm'], i: [-1, -1], d: [5, 5, 5], b: [false], g: [{ lat: -90, lon: 180 }], one: [9] },
      { f: [1, 2, 3, 4], one: [7] },
    ],
  },
  {
    // 3,500 values of v in 4 blocks: {0,6,600} → table (k 3, width 2, 280 bytes); {0,3,200} → packed width 8
    // (R = 8, not > 8); all 42 → constant; 428 seconds-as-ms → packed g 1000, width bits(427) = 9.
    // tie: 27 values of {256, 0, 1} → P = ceil(243/8) = 31 = T = 24 + 7 → packed width 9;
    // tieTable: 28 values → P 32, T 31 → table. (Whole-day dates, g 86,400,000, are in dense-all-types.)
    name: 'blocks', maxDoc: 3500,
    fields: [col('v', 'integral'), col('tie', 'integral'), col('tieTable', 'integral')],
    docs: Array.from({ length: 3500 }, (_, n) => ({
      v: n < 1024 ? [0, 6, 600][n % 3] : n < 2048 ? [0, 3, 200][n % 3] : n < 3072 ? 42 : 1_700_000_000_000 + 1000 * ((n * 7) % 428),
      ...(n < 27 ? { tie: [256, 0, 1][n % 3] } : {}),
      ...(n < 28 ? { tieTable: [256, 0, 1][n % 3] } : {}),
    })),
  },
  {
    // i: i64 extremes with min + 1 → packed width 64, g 1. f: NaN payloads, ±0, ±∞, the smallest subnormal.
    // fff8000000000123 → sortable −0x7FF8000000000124 = −9221120237041090852. d: far past and future.
    name: 'extremes', maxDoc: 6,
    fields: [col('i', 'integral'), col('f', 'fractional'), col('d', 'date'), col('g', 'geo_point')],
    docs: [
      { i: -(2n ** 63n), f: { bits: 'fff8000000000123' }, d: '-271821-04-20T00:00:00Z', g: { lat: -90, lon: -180 } },
      { i: 2n ** 63n - 1n, f: { bits: '7ff8000000000abc' }, d: '+275760-09-13T00:00:00Z', g: { lat: 90, lon: 180 } },
      { i: -(2n ** 63n) + 1n, f: -0, d: -1, g: { lat: -0, lon: -0 } },
      { i: 0, f: 0, d: 0, g: { lat: 0, lon: 0 } },
      { i: 2n ** 53n + 1n, f: Infinity, d: 2n ** 62n, g: { lat: 5e-324, lon: -5e-324 } },
      { i: -(2 ** 53 - 1), f: -Infinity, d: -(2n ** 63n), g: { lat: 89.999999999, lon: 179.999999999 } },
    ],
  },
  {
    // Names "a\u{1F600}" (61 F0 9F 98 80) before "a\uFFFD" (61 EF BF BD): UTF-16 order. Terms in byte order:
    // "" < "a" < "é" (C3 A9) < "\uFFFD" (EF BF BD) < "\u{1F600}" (F0 9F 98 80).
    name: 'unicode', maxDoc: 5,
    fields: [{ name: 'a\uFFFD', type: 'keyword', facet: true }, { name: 'a\u{1F600}', type: 'keyword', facet: true, multi: true }, { name: 'é', type: 'text' }],
    docs: [
      { 'a\uFFFD': '\u{1F600}', 'a\u{1F600}': ['\uFFFD', '\u{1F600}', ''], 'é': 'text' },
      { 'a\uFFFD': '\uFFFD', 'a\u{1F600}': ['a'] },
      { 'a\uFFFD': '', 'a\u{1F600}': [] },
      null,
      { 'a\uFFFD': 'é', 'a\u{1F600}': ['é', 'é'] },
    ],
  },
]

// ---- hand-computed spot checks --------------------------------------------------------------
const check = (ok: boolean, what: string) => { if (!ok) throw new Error(`spot check failed: ${what}`) }
check(sortable(ieee(-1)) === -4607182418800017409n, '-1.0')
check(sortable(ieee(45.5)) === 4631600373029666816n && sortable(ieee(-122.25)) === -4638302995912589313n, 'geo')
check(sortable(0xfff8000000000123n) === -9221120237041090852n, 'NaN payload')
check(Date.UTC(2024, 1, 29) === 1709164800000, '2024-02-29')

mkdirSync(OUT, { recursive: true })
for (const c of cases) {
  const bytes = flushColumns({ fields: c.fields }, c.docs, { maxDoc: c.maxDoc })
  if (bytes === null) throw new Error(`${c.name}: no file`)
  const dump = expectedDump(c)
  const read = readerDump(bytes, c.maxDoc)
  if (JSON.stringify(read) !== JSON.stringify(dump)) throw new Error(`${c.name}: the reader disagrees with the expected dump`)
  if (c.name === 'worked-example') {
    const section = [4, 0, 0, 0, 1, 0, 0, 0, 10, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0x88, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0]
    check(Buffer.from(bytes.subarray(12, 58)).equals(Buffer.from(section)), 'worked example bytes')
  }
  if (c.name === 'blocks') {
    const reader = openColumns(bytes)
    const records = (name: string) => {
      const r = reader.getColumn(name)!.values.records
      return Array.from({ length: r.length / 6 }, (_, b) => [r[6 * b] & 0xff, r[6 * b] >>> 8, r[6 * b + 4]].join(' '))
    }
    // [kind width aux]: table 2 3 | packed 8 g 1 | constant | packed 9 g 1000
    check(records('v').join(',') === '2 2 3,1 8 1,0 0 0,1 9 1000', 'v blocks')
    check(records('tie').join(',') === '1 9 1' && records('tieTable').join(',') === '2 2 3', 'tie blocks')
  }
  if (c.name === 'dense-all-types') {
    const r = openColumns(bytes).getColumn('d')!.values.records
    check(r[0] === (1 | (3 << 8)) && r[4] === 86_400_000, 'days: packed width 3, g 86,400,000')
  }
  if (c.name === 'optional-trailing') {
    const k = openColumns(bytes).getColumn('i')!
    check(Buffer.from(bytes.subarray(k.sectionOffset, k.sectionOffset + 16)).equals(Buffer.from([1, 0, 0, 0x80, 1, 0, 0, 0x80, 3, 0, 0, 0, 0, 0, 0, 0])), 'bitmap')
  }
  const input = JSON.stringify({ schema: { fields: c.fields }, maxDoc: c.maxDoc }, toSafe).slice(0, -1)
    + ',"docs":[\n' + c.docs.map((doc) => JSON.stringify(doc, toSafe)).join(',\n') + '\n]}\n'
  writeFileSync(join(OUT, `${c.name}.input.json`), input)
  writeFileSync(join(OUT, `${c.name}.oixk`), bytes)
  writeFileSync(join(OUT, `${c.name}.json`), `{"maxDoc":${dump.maxDoc},"columns":[\n${dump.columns.map((x) => JSON.stringify(x)).join(',\n')}\n]}\n`)
  console.log(`${c.name}: ${bytes.length} bytes, ${dump.columns.length} columns`)
}
