/**
 * The fuzzing property, shared by test/fuzz.test.ts and scripts/fuzz.ts: any
 * input, opened and full-checked with both backends, either succeeds or raises
 * CorruptIndexException naming the file; never another error, never a WASM
 * trap, never slow; both backends agree on the verdict, on the message, and
 * (on success) on every value. Also the seed files the mutators start from.
 */
import { CorruptIndexException } from '../../src/format/errors.js'
import { xxh64 } from '../../src/format/xxh64.js'
import { openColumns } from '../../src/read/open.js'
import type { ColumnsReader } from '../../src/read/reader.js'
import { flushColumns } from '../../src/write/columns-writer.js'
import { mergeColumns } from '../../src/write/merge.js'
import { richBytes, smallBytes, twoBlockBytes } from './file-surgery.js'
import { type Mutant, mutate } from './mutate.js'
import { SeedFile } from './seed-file.js'
import { seededRandom } from './random.js'
import { LAYOUTS, randomDocuments, TYPES } from './random-columns.js'

export const FUZZ_FILE_NAME = 'fuzz.oixk'
/** A file whose open + verify + dump takes longer than this on one backend counts as a hang. */
export const SLOW_MS = 2000

type BackendName = 'ts' | 'wasm'
/** What one backend made of a file: a dump of everything, or the error it raised. */
export interface Verdict { ok: boolean; kind: string; message: string; dump: Uint8Array[]; ms: number; canonical?: string | null }

/** Every value (readValues into BigInt64Array) and every document's first/count run, column by column. */
export function dumpReader(reader: ColumnsReader): Uint8Array[] {
  const parts: Uint8Array[] = []
  const encoder = new TextEncoder()
  for (const column of reader.columns) {
    parts.push(encoder.encode(JSON.stringify([column.name, column.type, column.layout, column.documentsWithValue,
      column.totalValueCount, String(column.minRaw), String(column.maxRaw), column.dictionary?.termCount ?? -1])))
    for (const part of column.type === 'geo_point' ? (['latitude', 'longitude'] as const) : (['latitude'] as const)) {
      const values = new BigInt64Array(column.totalValueCount)
      column.readValues(0, values, part)
      parts.push(new Uint8Array(values.buffer))
      // The typed reads (the WebAssembly backend's one-pass int32 and double paths): what they write and how they fail.
      for (const typed of [new Int32Array(column.totalValueCount).fill(-3), new Float64Array(column.totalValueCount).fill(-3)]) {
        let outcome = 'ok'
        try {
          column.readValues(0, typed, part)
        } catch (error) {
          outcome = `${(error as Error).name}: ${(error as Error).message}`
        }
        parts.push(encoder.encode(outcome), new Uint8Array(typed.buffer))
      }
    }
    const runs = new Int32Array(2 * reader.maxDoc)
    for (let document = 0; document < reader.maxDoc; document++) {
      runs[2 * document] = column.firstValueIndex(document)
      runs[2 * document + 1] = column.valueCount(document)
    }
    parts.push(new Uint8Array(runs.buffer))
    if (column.dictionary !== null) {
      for (let ordinal = 0; ordinal < column.dictionary.termCount; ordinal++) parts.push(encoder.encode(column.term(ordinal)))
    }
  }
  return parts
}

/**
 * A file that passes verify is exactly what a flush of its documents writes (docs/format.md §8.3):
 * a merge of the reader alone (identity doc map) rewrites those documents canonically.
 */
function canonicalProblem(bytes: Uint8Array, reader: ColumnsReader): string | null {
  const rewritten = mergeColumns([{ reader, docMap: Int32Array.from({ length: reader.maxDoc }, (_, d) => d) }], { maxDoc: reader.maxDoc, format: reader.format })
  if (rewritten !== null && Buffer.from(rewritten).equals(Buffer.from(bytes))) return null
  let at = 0
  while (rewritten !== null && at < Math.min(bytes.length, rewritten.length) && bytes[at] === rewritten[at]) at++
  return `verify accepted a file that is not the canonical flush of its documents (rewrite: ${rewritten?.length ?? 'no file'} bytes vs ${bytes.length}, first difference at byte ${at})`
}

/** Opens, verifies and dumps bytes with one backend (ts: also checks the file is canonical). */
export function judge(bytes: Uint8Array, backend: BackendName, fileName = FUZZ_FILE_NAME): Verdict {
  const started = performance.now()
  let reader: ColumnsReader | null = null
  let stage = 'open'
  try {
    reader = openColumns(bytes.slice(), { backend, fileName })
    stage = 'verify'
    reader.verify()
    stage = 'dump'
    const dump = dumpReader(reader)
    const ms = performance.now() - started
    stage = 'canonical rewrite'
    return { ok: true, kind: '', message: '', dump, ms, canonical: backend === 'ts' ? canonicalProblem(bytes, reader) : null }
  } catch (error) {
    const kind = error instanceof Error ? error.constructor.name : typeof error
    const message = error instanceof Error ? error.message : String(error)
    // an error while dumping a verified file is a failure whatever its class
    return { ok: false, kind: stage === 'open' || stage === 'verify' ? kind : `${kind} in ${stage} after verify passed`, message, dump: [], ms: performance.now() - started }
  } finally {
    try { reader?.close() } catch { /* already reported */ }
  }
}

function sameDump(a: Uint8Array[], b: Uint8Array[]): boolean {
  return a.length === b.length && a.every((part, i) => Buffer.from(part).equals(Buffer.from(b[i])))
}

/** Problems with one input (empty when the property holds). */
export function checkFile(bytes: Uint8Array, fileName = FUZZ_FILE_NAME): string[] {
  return examine(bytes, fileName).problems
}

/** The property's problems with one input, and whether the (pure TS) reader accepted it. */
export function examine(bytes: Uint8Array, fileName = FUZZ_FILE_NAME): { problems: string[]; accepted: boolean } {
  const problems: string[] = []
  const verdicts = { ts: judge(bytes, 'ts', fileName), wasm: judge(bytes, 'wasm', fileName) }
  for (const [backend, verdict] of Object.entries(verdicts)) {
    if (verdict.ms > SLOW_MS) problems.push(`${backend}: took ${verdict.ms.toFixed(0)} ms`)
    if (verdict.canonical) problems.push(`${backend}: ${verdict.canonical}`)
    if (verdict.ok) continue
    if (verdict.kind !== CorruptIndexException.name) problems.push(`${backend}: ${verdict.kind}: ${verdict.message}`)
    else if (!verdict.message.startsWith(`${fileName}: `)) problems.push(`${backend}: message does not start with the file name: ${verdict.message}`)
  }
  const { ts, wasm } = verdicts
  if (ts.ok !== wasm.ok) problems.push(`verdicts differ: ts ${ts.ok ? 'accepts' : `rejects (${ts.message})`}; wasm ${wasm.ok ? 'accepts' : `rejects (${wasm.message})`}`)
  else if (!ts.ok && ts.message !== wasm.message) problems.push(`messages differ: ts "${ts.message}"; wasm "${wasm.message}"`)
  else if (ts.ok && !sameDump(ts.dump, wasm.dump)) problems.push('both accept but the dumps differ')
  return { problems, accepted: ts.ok }
}

/** Hex XXH64 of bytes: a corpus file's name. */
export function hashHex(bytes: Uint8Array): string {
  return xxh64(bytes).toString(16).padStart(16, '0')
}

/** One column (type × layout) of a randomDocuments file on its own. */
function singleColumn(random: () => number, type: string, layout: string, maxDoc: number): Uint8Array {
  const { schema, docs } = randomDocuments(random, Math.max(2, maxDoc))
  const name = `${type}_${layout}`
  const fields = schema.fields.filter((field) => (field as { name: string }).name === name)
  return flushColumns({ fields }, docs.map((doc) => (name in doc ? { [name]: doc[name] } : {})))!
}

/**
 * Valid seed files: the corruption fixtures, every type × layout alone at small and
 * multi-block sizes, and whole random files (every type, layout and block form).
 */
export function fuzzSeeds(): SeedFile[] {
  const random = seededRandom(0x5eed)
  const seeds = [new SeedFile('rich', richBytes()), new SeedFile('two-block', twoBlockBytes()), new SeedFile('small', smallBytes(2 ** 24))]
  for (const type of TYPES) {
    for (const layout of LAYOUTS) {
      for (const maxDoc of [3, 40, 1100]) seeds.push(new SeedFile(`${type}/${layout}/${maxDoc}`, singleColumn(random, type, layout, maxDoc)))
    }
  }
  for (const maxDoc of [2, 65, 300, 2100]) {
    const { schema, docs } = randomDocuments(random, maxDoc)
    seeds.push(new SeedFile(`all/${maxDoc}`, flushColumns(schema, docs)!))
  }
  // a keyword block of 3 far-apart ordinals (a table) after a block using all 1,000 terms
  const terms = Array.from({ length: 1000 }, (_, i) => `t${String(i).padStart(4, '0')}`)
  const docs = Array.from({ length: 2048 }, (_, d) => ({ k: d < 1024 ? terms[d % 1000] : terms[[0, 500, 999][d % 3]] }))
  seeds.push(new SeedFile('keyword/table', flushColumns({ fields: [{ name: 'k', type: 'keyword', facet: true }] }, docs)!))
  return [...seeds, ...fuzzSeedsV2(random)]
}

/**
 * A small format 2 file (1,300 documents, so a mutant is judged in milliseconds) whose columns take
 * every sequence form and the block kinds: runs, a frequency dictionary, decimals with exceptions, a
 * dictionary block of 600 wide values per block, frequent, patched, linear and constant blocks.
 */
function smallCascades(): Uint8Array {
  const random = seededRandom(0xca5c)
  const int = (below: number) => Math.floor(random() * below)
  const pool = Array.from({ length: 40 }, (_, i) => 1_000_000_007 * (40 - i) + i * i)
  const wide = Array.from({ length: 1200 }, () => int(2 ** 30) * 1024)
  const docs = Array.from({ length: 1300 }, (_, i) => ({
    runs: Math.floor(i / 400) * 7_777_777_777,
    dictionary: pool[Math.min(39, Math.floor(-Math.log(1 - random()) * 6))],
    price: i % 211 === 5 ? NaN : i % 307 === 9 ? -0 : int(100_000) / 100,
    blockDictionary: wide[600 * Math.min(1, i >> 10) + (i % 1024 < 600 ? i % 1024 : int(600))],
    frequent: random() < 0.03 ? int(2 ** 40) : 11,
    patched: random() < 0.015 ? 2 ** 36 + int(2 ** 20) : int(7),
    linear: 1_600_000_000_000 + 60_017 * i + int(16),
    constant: 5,
  }))
  const fields = Object.keys(docs[0]).map((name) => ({ name, type: name === 'price' ? 'fractional' : 'integral', column: true }))
  return flushColumns({ fields }, docs, { format: 2 })!
}

/** Keyword columns whose dictionaries a flush writes in each compressed form (plain, FSST, front coding, front + FSST, digits). */
function dictionaryForms(): Uint8Array {
  const words = ['harbor', 'station', 'international', 'regional', 'county', 'municipal', 'airport', 'field']
  const docs = Array.from({ length: 300 }, (_, i) => ({
    plain: ['a', 'b', 'c'][i % 3],
    text: `${words[i % 8]} ${words[(i * 7) % 8]} ${words[(i * 3 + 1) % 8]} ${i % 50}`,
    // Distinct first bytes: no prefix to share, so FSST alone.
    names: `${String.fromCharCode(40 + (i % 80))}${words[i % 8]} ${words[(i * 7) % 8]} ${words[(i * 3 + 1) % 8]}`,
    codes: `k${(((i % 40) * 2654435761) >>> 0).toString(16)}`,
    ids: `customer-account-${String(100000 + i * 37).padStart(9, '0')}`,
    paths: `/srv/data/${words[i % 8]}/${words[(i >> 3) % 8]}/part-${i % 40}.bin`,
    zip: String(i * 331 % 99999).padStart(5, '0'),
  }))
  const fields = Object.keys(docs[0]).map((name) => ({ name, type: 'keyword', column: true }))
  return flushColumns({ fields }, docs, { format: 2 })!
}

/** Format 2 seeds: a small file of every form and kind (every block kind and sequence form) and random files of every type and layout. */
function fuzzSeedsV2(random: () => number): SeedFile[] {
  const seeds = [new SeedFile('v2/cascades', smallCascades())]
  // One block of 16 runs: a runs block (the runs form would repeat its headers).
  const runs = Array.from({ length: 1024 }, (_, i) => ({ r: Math.floor(i / 64) * 1_000_003 + 7 }))
  seeds.push(new SeedFile('v2/runs-block', flushColumns({ fields: [{ name: 'r', type: 'integral', column: true }] }, runs, { format: 2 })!))
  seeds.push(new SeedFile('v2/dictionaries', dictionaryForms()))
  for (const maxDoc of [3, 70, 1100]) {
    const { schema, docs } = randomDocuments(random, maxDoc)
    seeds.push(new SeedFile(`v2/all/${maxDoc}`, flushColumns(schema, docs, { format: 2 })!))
  }
  return seeds
}

/** Fresh random seed files (whole randomDocuments files of random sizes) for open-ended runs. */
export function extraSeeds(runSeed: number, count: number): SeedFile[] {
  const random = seededRandom(runSeed ^ 0xa5a5a5a5)
  return Array.from({ length: count }, (_, i) => {
    const maxDoc = 1 + Math.floor(random() * (random() < 0.8 ? 80 : 2500))
    const { schema, docs } = randomDocuments(random, maxDoc)
    return new SeedFile(`extra ${i}/${maxDoc}`, flushColumns(schema, docs)!)
  })
}

/**
 * Seeds big enough for the paths small files never take (for open-ended runs: a mutant of them
 * takes about ten times as long): 20,000 documents, so that format 2's dictionary columns get
 * their codes decoded once for questions (16,384 values or more), and the multi-valued column its
 * first values marked in several calls: a skewed keyword, a skewed integer with a few wide
 * outliers, and 0-2 tags, in both formats.
 */
export function bigSeeds(): SeedFile[] {
  const random = seededRandom(0xb16)
  const terms = Array.from({ length: 300 }, (_, t) => `term-${t}`)
  const skewed = () => terms[Math.floor(random() ** 2 * terms.length)]
  const docs = Array.from({ length: 20_000 }, () => ({
    k: skewed(),
    d: [0, 5, 10, 15, 20, 30, 45, 60, 90, 120][Math.floor(random() ** 3 * 10)] + (random() < 0.02 ? Math.floor(random() * 2000) : 0),
    tags: Array.from({ length: Math.floor(random() * 3) }, skewed),
  }))
  const schema = { fields: [
    { name: 'k', type: 'keyword', facet: true },
    { name: 'd', type: 'integral', column: true },
    { name: 'tags', type: 'keyword', facet: true, multi: true },
  ] } as const
  return ([1, 2] as const).map((format) => new SeedFile(`big/v${format}`, flushColumns(schema, docs, { format })!))
}

/** Mutant `index` of the run seeded with `runSeed`: reproducible on its own. */
export function mutantAt(seeds: readonly SeedFile[], runSeed: number, index: number): Mutant {
  const random = seededRandom((runSeed + Math.imul(index + 1, 0x9e3779b1)) >>> 0)
  return mutate(seeds[Math.floor(random() * seeds.length)], random)
}
