/**
 * An open-time validator written from docs/format.md and docs/format-v2.md alone
 * (test/helpers/spec-validator, nothing imported from src/) agrees with the reader:
 * seeded v2 files covering every block kind, sequence form and dictionary form pass
 * it, and for a seeded sample of one-field edits (checksum recomputed) `openColumns`
 * throws CorruptIndexException exactly when the validator says the file is invalid, with the
 * same message on both backends.
 */
import { afterAll, describe, expect, it } from 'vitest'
import xxhash from 'xxhash-wasm'
import { CorruptIndexException } from '../src/format/errors.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { fixChecksum } from './helpers/file-surgery.js'
import type { Site, Sites } from './helpers/spec-validator/bytes.js'
import { validateV2 } from './helpers/spec-validator/container.js'
import { seededRandom } from './helpers/random.js'

const { h64Raw } = await xxhash()
const xxh64 = (b: Uint8Array) => h64Raw(b, 0n)

const schema = {
  fields: [
    { name: 'n', type: 'integral', column: true }, { name: 'k', type: 'keyword', facet: true },
    { name: 't', type: 'keyword', facet: true, multi: true }, { name: 'x', type: 'fractional', column: true },
    { name: 'g', type: 'geo_point', column: true }, { name: 'd', type: 'date', column: true },
    { name: 'b', type: 'bool', column: true }, { name: 'z', type: 'keyword', facet: true },
    { name: 'u', type: 'keyword', facet: true }, { name: 'f', type: 'integral', column: true },
    { name: 'q', type: 'integral', column: true }, { name: 'o', type: 'integral', column: true },
    { name: 'h', type: 'keyword', facet: true }, { name: 'l', type: 'integral', column: true },
    { name: 'r', type: 'integral', column: true }, { name: 'p', type: 'integral', column: true },
  ],
} as const

/** Seed → maxDoc. Each seed shapes the columns differently, so together they reach every kind and form. */
const SIZES: Record<number, number> = { 1: 1500, 2: 3000, 3: 2100, 4: 700, 5: 5000, 6: 1, 7: 1025, 8: 64, 9: 2048, 10: 1030 }

/** Seeded documents (xorshift32): constants, runs, frequent values, patches, linear data, digit and URL keywords. */
function makeFile(seed: number, maxDoc: number): Uint8Array {
  let s = seed >>> 0 || 1
  const R = () => {
    s ^= s << 13; s >>>= 0; s ^= s >> 17; s ^= s << 5; s >>>= 0
    return s / 2 ** 32
  }
  const pick = <T>(xs: readonly T[], below: number) => xs[Math.floor(R() * below)]
  const words = ['alpha', 'beta', 'gamma', 'delta', 'eps']
  const big = [123456789, 987654321, 555555555, 222222222, 111111111, 999999999, 314159265, 271828182]
  const docs: (Record<string, unknown> | null)[] = []
  for (let i = 0; i < maxDoc; i++) {
    if (R() < 0.03 && seed % 2) { docs.push(null); continue }
    const d: Record<string, unknown> = {}
    const v = seed % 4
    d.n = v === 0 ? Math.floor(R() * 5) * 1000003 : v === 1 ? i * 7 + Math.floor(R() * 3) : v === 2 ? (R() < 0.95 ? 42 : Math.floor(R() * 1e6)) : Math.floor(R() * 100000)
    d.k = pick(words, 2 + (seed % 4))
    if (R() < 0.7) {
      const t = Array.from({ length: Math.floor(R() * 3) }, () => pick(words, 5))
      if (t.length) d.t = t
    }
    d.x = seed % 3 === 0 ? Math.round(R() * 10000) / 100 : seed % 3 === 1 ? (R() < 0.1 ? R() : Math.round(R() * 100) / 10) : R() * 1e3
    if (R() < 0.9) d.g = { lat: Math.round((R() * 180 - 90) * 1e4) / 1e4, lon: Math.round((R() * 360 - 180) * 1e4) / 1e4 }
    d.d = 1.6e12 + Math.floor(i / ((seed % 5) + 1)) * 86400000
    d.b = (Math.floor(i / 300) + seed) % 2 === 0
    d.z = String(10000 + Math.floor(R() * (20 + seed * 50))).padStart(5, '0')
    d.u = `https://example.com/path/${pick(['a', 'bb', 'ccc'], 3)}/item-${Math.floor(R() * (30 + seed * 10))}`
    d.f = R() < 0.97 ? 7 : Math.floor(R() * 5000) - 2500
    d.l = i * (seed + 3) + Math.floor(R() * 4) - 1000
    d.r = Math.floor(i / (20 + seed * 13)) * 3
    d.p = R() < 0.9 ? Math.floor(R() * 16) : Math.floor(R() * 1e6)
    d.q = pick([1000001, 5000025, 9000081, 7000049, 3000009], 2 + (seed % 4)) + (seed % 2 ? 0 : Math.floor(i / 1024) * 4000000)
    d.o = big[Math.min(7, Math.floor(-Math.log2(R() + 1e-9)))] * ((seed % 3) + 1)
    d.h = String.fromCharCode(97 + Math.floor(R() * 26)) + (seed % 2 ? '-Regional' : String.fromCharCode(97 + Math.floor(R() * 26)) + '-Regional-Office')
    docs.push(d)
  }
  const file = flushColumns(schema, docs as never, { maxDoc, format: 2 })
  if (file === null) throw new Error('flushColumns wrote nothing')
  return file
}

/** Edit category of a field label (the validator's own labels). */
function categoryOf(label: string): string {
  if (label === 'maxDoc' || label === 'D' || label === 'columnCount' || /^col\d+\.\w+$/.test(label)) return 'header/directory'
  const rules: [RegExp, string][] = [
    [/\.b\d+\.aux$/, 'block aux'], [/\.b\d+\.base$/, 'block base'], [/\.b\d+\.kind$/, 'block kind'],
    [/\.b\d+\.param$/, 'block param'], [/\.b\d+\.width$/, 'block width'], [/\.b\d+\.data$/, 'block data byte'],
    [/\.b\d+\.dataOffset$|\.dataLength$/, 'dataOffset/dataLength'], [/\.(count|blockCount|runCount|exceptionCount)$/, 'counts'],
    [/\.position\d+$/, 'decimal positions'], [/\.exception\d+$/, 'decimal exception values'], [/\.e$/, 'decimal e'],
    [/\.table\.n\d$/, 'FSST table counts'], [/dict\.(form|termCount|totalBytes|d|offset\d+)$/, 'dictionary header'],
    [/\.(tag|width)$/, 'dictionary lists'], [/\.bitmap\d+$/, 'presence bitmap'], [/\.checkpoint\d+$/, 'run checkpoints'],
    [/\.(form|order)$/, 'sequence form/order'],
  ]
  for (const [re, name] of rules) if (re.test(label)) return name
  throw new Error(`no edit category for ${label}`)
}

const readLE = (b: Uint8Array, off: number, size: number) => {
  let v = 0n
  for (let i = size - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[off + i])
  return v
}
const writeLE = (b: Uint8Array, off: number, size: number, value: bigint) => {
  let v = BigInt.asUintN(size * 8, value)
  for (let i = 0; i < size; i++, v >>= 8n) b[off + i] = Number(v & 255n)
}
const isVaruint = (label: string) => /columnCount|nameLength|documentsWithValue|valueCount|sectionOffset|sectionLength/.test(label)

/** Structure-aware candidate values for one field, as the clean-room campaign tried them. */
function candidates(site: Site, old: bigint): bigint[] {
  const { label, size } = site
  const out = new Set<bigint>([old + 1n, old - 1n, 0n, (1n << BigInt(size * 8)) - 1n])
  if (/(form|kind|tag|order)$/.test(label)) for (let v = 0n; v <= 8n; v++) out.add(v)
  if (/\.e$|\.d$|width$/.test(label)) for (const v of [1n, 15n, 16n, 18n, 19n, 31n, 32n, 51n, 52n, 53n, 64n, 65n]) out.add(v)
  if (/param$/.test(label)) for (const bit of [10n, 11n, 12n, 15n]) out.add(old ^ (1n << bit))
  if (/param$/.test(label)) out.add(old & 1023n).add((old & ~1023n) | 1023n)
  if (/\.data$/.test(label)) out.add(old ^ 1n).add(old ^ 0x80n).add(255n)
  if (size >= 4) for (const v of [old * 2n, old + 1024n, old ^ (1n << 52n), 1n << 52n, (1n << 52n) - 1n, 1n << 53n, -old]) out.add(v)
  if (size === 8) for (const v of [1n << 63n, old ^ (1n << 63n), old + (1n << 50n)]) out.add(v)
  // Distinct values as they land in the field (2^52 and 2^53 both write 0 into a u32).
  return [...new Set([...out].map((v) => BigInt.asUintN(size * 8, v)))].filter((v) => v !== old)
}

interface Edit { category: string; label: string; off: number; before: string; after: string; bytes: Uint8Array }

/** A seeded sample of edits of one file: `perLabel` sites per field label, up to PER_SITE candidate values of each. */
function sampleEdits(orig: Uint8Array, sites: Sites, random: () => number, perLabel: number, flips: number): Edit[] {
  const edits: Edit[] = []
  const byLabel = new Map<string, Site[]>()
  for (const site of sites.fields) {
    const key = site.label.replace(/\d+/g, '#')
    byLabel.set(key, [...(byLabel.get(key) ?? []), site])
  }
  const sample = <T>(xs: T[]) => (xs.length <= perLabel ? xs : Array.from({ length: perLabel }, () => xs[Math.floor(random() * xs.length)]))
  for (const group of byLabel.values()) {
    for (const site of sample(group)) {
      const category = categoryOf(site.label)
      if (isVaruint(site.label)) {
        // Varuints: edit the first byte, keeping its continuation bit, so the directory still parses as far.
        const o = orig[site.off]
        for (const v of new Set([o + 1, o - 1, 0, 0x7f, o ^ 0x40])) {
          const nb = (o & 0x80) | (v & 0x7f)
          if (nb === o) continue
          const b = orig.slice()
          b[site.off] = nb
          edits.push({ category, label: site.label, off: site.off, before: String(o), after: String(nb), bytes: b })
        }
        continue
      }
      const old = readLE(orig, site.off, site.size)
      const values = candidates(site, old)
      // Keep the first three (±1, 0), then a seeded choice among the structure-aware ones.
      while (values.length > PER_SITE) values.splice(3 + Math.floor(random() * (values.length - 3)), 1)
      for (const v of values) {
        const b = orig.slice()
        writeLE(b, site.off, site.size, v)
        edits.push({ category, label: site.label, off: site.off, before: String(old), after: String(v), bytes: b })
      }
    }
  }
  // Unused high bits: checked at open in frame blocks only; other streams' are left to the full check.
  const tails = new Map<string, Site[]>()
  for (const t of sites.tails) {
    const key = t.label.replace(/^col\d+\([^)]*\)\./, '').replace(/\d+/g, '#')
    tails.set(key, [...(tails.get(key) ?? []), t])
  }
  for (const group of tails.values()) {
    for (const t of sample(group)) {
      const b = orig.slice()
      b[t.off] |= 0x80
      edits.push({ category: 'unused high bits', label: t.label, off: t.off, before: String(orig[t.off]), after: String(b[t.off]), bytes: b })
    }
  }
  for (let i = 0; i < flips; i++) {
    const b = orig.slice()
    const off = 12 + Math.floor(random() * (b.length - 32))
    b[off] ^= 1 << Math.floor(random() * 8)
    edits.push({ category: 'random bit flip', label: 'flip', off, before: String(orig[off]), after: String(b[off]), bytes: b })
  }
  const byCategory = new Map<string, Edit[]>()
  for (const e of edits) byCategory.set(e.category, [...(byCategory.get(e.category) ?? []), e])
  const kept: Edit[] = []
  for (const group of byCategory.values()) {
    while (group.length > PER_CATEGORY) group.splice(Math.floor(random() * group.length), 1)
    kept.push(...group)
  }
  for (const e of kept) fixChecksum(e.bytes)
  for (let i = 0; i < 3; i++) {
    const b = orig.slice()
    const off = 12 + Math.floor(random() * (b.length - 32))
    b[off] ^= 4
    kept.push({ category: 'flip, checksum not fixed', label: 'flip', off, before: String(orig[off]), after: String(b[off]), bytes: b })
  }
  return kept
}

/** The reader's verdict: null when it opens, the message of its CorruptIndexException otherwise; anything else is returned as a failure. */
function readerVerdict(bytes: Uint8Array, maxDoc: number, backend: 'ts' | 'wasm'): { corrupt: string | null; other?: string } {
  try {
    openColumns(bytes, { backend, maxDoc, fileName: 'edit.oixk' }).close()
    return { corrupt: null }
  } catch (e) {
    if (e instanceof CorruptIndexException) return { corrupt: e.message }
    return { corrupt: null, other: `${(e as Error)?.constructor?.name}: ${(e as Error)?.message}` }
  }
}

const PER_LABEL = 1
const PER_SITE = 7
/** At most this many edits per category and file (a seeded choice), to keep the file well under 20 s. */
const PER_CATEGORY = 65
const FLIPS = 30
const tally = new Map<string, { valid: number; invalid: number }>()
const seen = new Set<string>()

describe('format v2: an open-time validator written from the document agrees with the reader', () => {
  for (const [seedKey, maxDoc] of Object.entries(SIZES)) {
    const seed = Number(seedKey)
    it(`seed ${seed} (maxDoc ${maxDoc}): valid file, and every sampled edit`, () => {
      const orig = makeFile(seed, maxDoc)
      const sites: Sites = { fields: [], tails: [] }
      expect(validateV2(orig, maxDoc, { xxh64, sites }), `seed ${seed}: validator rejects the writer's file`).toBeNull()
      expect(readerVerdict(orig, maxDoc, 'ts')).toEqual({ corrupt: null })
      expect(readerVerdict(orig, maxDoc, 'wasm')).toEqual({ corrupt: null })
      for (const s of sites.fields) {
        const v = orig[s.off]
        if (s.label.endsWith('.kind')) seen.add(`block kind ${v}`)
        else if (s.label.endsWith('dict.form')) seen.add(`dictionary form ${v}`)
        else if (s.label.endsWith('.form')) seen.add(v === 1 ? `sequence form 1 order ${orig[s.off + 1]}` : `sequence form ${v}`)
        else if (s.label.endsWith('.tag')) seen.add(`list tag ${v}`)
      }
      const problems: string[] = []
      for (const e of sampleEdits(orig, sites, seededRandom(seed * 7919), PER_LABEL, FLIPS)) {
        const mine = validateV2(e.bytes, maxDoc, { xxh64 })
        const theirs = readerVerdict(e.bytes, maxDoc, 'ts')
        // WebAssembly checksums and decodes dictionaries in its own kernels: same verdict, same message.
        const wasm = readerVerdict(e.bytes, maxDoc, 'wasm')
        const t = tally.get(e.category) ?? { valid: 0, invalid: 0 }
        t[mine === null ? 'valid' : 'invalid']++
        tally.set(e.category, t)
        if (theirs.other !== undefined || (mine === null) !== (theirs.corrupt === null)) {
          problems.push(
            `seed ${seed}, ${e.category}, ${e.label} @${e.off} ${e.before}→${e.after}: validator ${mine ?? 'valid'}; ` +
              `reader ${theirs.other ? `threw ${theirs.other}` : theirs.corrupt === null ? 'opened it' : `rejected it: ${theirs.corrupt}`}`,
          )
        }
        if (wasm.other !== undefined || wasm.corrupt !== theirs.corrupt) {
          problems.push(`seed ${seed}, ${e.category}, ${e.label} @${e.off}: TypeScript ${theirs.corrupt ?? 'opened it'}; WebAssembly ${wasm.other ?? wasm.corrupt ?? 'opened it'}`)
        }
      }
      expect(problems.slice(0, 10), `${problems.length} disagreements`).toEqual([])
    })
  }

  it('the files cover every block kind, sequence form and writer-made dictionary form', () => {
    const want = [0, 1, 3, 4, 5, 6, 7].map((k) => `block kind ${k}`)
      .concat(['sequence form 0', 'sequence form 1 order 0', 'sequence form 1 order 1', 'sequence form 2', 'sequence form 3'])
      .concat([1, 2, 3, 4, 5].map((f) => `dictionary form ${f}`), ['list tag 0', 'list tag 1'])
    expect(want.filter((w) => !seen.has(w))).toEqual([])
  })

  it('the sample covers every edit category, with both verdicts in each major one', () => {
    const all = ['header/directory', 'block aux', 'block base', 'block kind', 'block param', 'block width', 'block data byte',
      'dataOffset/dataLength', 'counts', 'decimal positions', 'decimal exception values', 'decimal e', 'FSST table counts',
      'dictionary header', 'dictionary lists', 'presence bitmap', 'run checkpoints', 'sequence form/order',
      'unused high bits', 'random bit flip', 'flip, checksum not fixed']
    expect(all.filter((c) => !tally.has(c))).toEqual([])
    const major = ['header/directory', 'block aux', 'block base', 'block kind', 'block param', 'block width', 'block data byte',
      'sequence form/order', 'unused high bits', 'random bit flip']
    expect(major.filter((c) => !tally.get(c)?.valid || !tally.get(c)?.invalid)).toEqual([])
  })

  // SPEC_VALIDATOR_TALLY=1 prints the edits per category and verdict.
  afterAll(() => {
    if (process.env.SPEC_VALIDATOR_TALLY) console.log([...tally].map(([c, t]) => `${c}: ${t.valid} valid, ${t.invalid} invalid`).join('\n'))
  })
})
