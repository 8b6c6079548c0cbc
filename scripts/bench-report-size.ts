/**
 * The size part of the benchmark report, from bench/results/size.json: OIXK
 * format 1 and format 2 beside Parquet, Arrow and DuckDB's storage per dataset and per column,
 * where format 2 is still above Parquet ZSTD, the format 2 size targets, and
 * the size chart. Older JSON without the format 2 fields renders with – cells.
 */
import { type Bar, renderBarChart } from '../bench/suites/svg-chart.js'
import { BLOCK_KIND_NAMES } from '../src/format/constants.js'
import { type Json, kb, machineLine, ratio, table, verdict } from './bench-report-common.js'

/** One level of a cascade signature (src/cascade/describe.ts `signature`). */
interface SignatureNode { form: string; detail: string; kinds: string[]; children: { role: string; node: SignatureNode }[] }

/** Parses a signature: `blocks{kind …}` or `form(detail)[role: node, …]`; null when it reads otherwise. */
function parseSignature(text: string): SignatureNode | null {
  let at = 0
  const node = (): SignatureNode | null => {
    if (text.startsWith('blocks{', at)) {
      const end = text.indexOf('}', at)
      if (end < 0) return null
      const kinds = text.slice(at + 'blocks{'.length, end).split(' ').filter((kind) => kind !== '')
      at = end + 1
      return { form: 'blocks', detail: '', kinds, children: [] }
    }
    const open = text.indexOf('(', at), close = text.indexOf(')', open)
    if (open < 0 || close < 0 || text[close + 1] !== '[') return null
    const result: SignatureNode = { form: text.slice(at, open), detail: text.slice(open + 1, close), kinds: [], children: [] }
    at = close + 2
    for (;;) {
      const colon = text.indexOf(': ', at)
      if (colon < 0) return null
      const role = text.slice(at, colon)
      at = colon + 2
      const child = node()
      if (child === null) return null
      result.children.push({ role, node: child })
      if (text.startsWith(', ', at)) at += 2
      else if (text[at] === ']') {
        at++
        return result
      } else return null
    }
  }
  const parsed = node()
  return parsed !== null && at === text.length ? parsed : null
}

const MAX_KINDS = 3

function shortNode(node: SignatureNode): string {
  const children = node.children.map((child) => shortNode(child.node)).join('; ')
  switch (node.form) {
    case 'blocks':
      return node.kinds.length <= MAX_KINDS ? node.kinds.join('+') : `${node.kinds.slice(0, MAX_KINDS).join('+')}+${node.kinds.length - MAX_KINDS} more`
    case 'decimal': {
      const match = /10\^(\d+), (\d+) exception/.exec(node.detail)
      const exponent = match?.[1] ?? '?', exceptions = match?.[2] ?? '0'
      return `decimal(÷10^${exponent}${exceptions === '0' ? '' : `, ${exceptions} exc`})[${children}]`
    }
    case 'dictionary': {
      const entries = /^(\d+) entries/.exec(node.detail)?.[1] ?? '?'
      return `dict(${entries}, ${node.detail.includes('frequency') ? 'freq' : 'asc'})[${children}]`
    }
    case 'runs':
      return `runs(${/^(\d+)/.exec(node.detail)?.[1] ?? '?'})[${children}]`
    default:
      return `${node.form}(${node.detail})[${children}]`
  }
}

/** A cascade signature in short form, e.g. `dict(229, freq)[frame; patched]`; the signature itself when it does not parse. */
export function shortCascade(signature: string): string {
  const node = parseSignature(signature)
  return node === null ? signature : shortNode(node)
}

const ROLE_LABELS: Record<string, string> = { offsets: 'offsets ', values: '', latitudes: 'lat ', longitudes: 'lon ' }

/** A column's v2 sequences in short form, values alone unlabelled; – without them. */
function cascadesCell(cascades: Record<string, string> | undefined): string {
  if (cascades === undefined) return '–'
  return Object.entries(cascades).map(([role, signature]) => `${ROLE_LABELS[role] ?? `${role} `}${shortCascade(signature)}`).join('; ')
}

const sum = (values: (number | undefined)[]): number | undefined =>
  values.some((value) => value === undefined) ? undefined : values.reduce<number>((total, value) => total + value!, 0)

/** How DuckDB's storage was measured and how it compares, when this run has it. */
function duckdbNote(size: Json): string {
  const first = size.datasets.find((d: Json) => d.duckdbStorage !== undefined)
  if (first === undefined) return ''
  const { version, blockSize } = first.duckdbStorage
  const smaller = size.datasets.filter((d: Json) => d.duckdbStorage !== undefined && d.oixkV2Bytes <= d.duckdbStorage.usedBlockBytes).length
  return `\nDuckDB storage is DuckDB ${version}'s own database file holding the same rows (one table, checkpointed, ${blockSize / 1024} KiB blocks): ` +
    `blocks in use × block size, data and metadata (the file itself adds free blocks and headers; a small table still takes whole blocks). ` +
    `Format 2 is at or below it on ${smaller} of ${size.datasets.length} datasets. DuckDB segments are the bytes of the columns' segments (pragma_storage_info), ` +
    'each measured to the next segment in its block, without block rounding or metadata; "≤" marks a column with a segment alone in its block, counted to the block\'s end.\n'
}

/** The sum of a dataset's DuckDB column segments ("≤" when any is an upper bound); – without them. */
function segmentsCell(d: Json): string {
  const storages = d.columns.map((c: Json) => c.duckdbStorage)
  if (storages.some((storage: Json) => storage === undefined)) return '–'
  return `${storages.every((storage: Json) => storage.exact) ? '' : '≤ '}${kb(sum(storages.map((storage: Json) => storage.bytes)))}`
}

function datasetTable(size: Json): string {
  const row = (d: Json, name: string, original: string): string[] => [name, d.rows.toLocaleString('en-US'), original, kb(d.oixkBytes), kb(d.oixkV2Bytes),
    kb(d.parquetBytes.uncompressed), kb(d.parquetBytes.snappy), kb(d.parquetBytes.zstd), kb(d.arrowIpcBytes), kb(d.duckdbStorage?.usedBlockBytes), segmentsCell(d),
    ratio(d.oixkBytes, d.parquetBytes.zstd), ratio(d.oixkV2Bytes, d.parquetBytes.zstd)]
  const rows = size.datasets.map((d: Json) => [...row(d, d.name, `${kb(d.originalBytes)} (${d.originalFile.split('/').pop()})`), d.oixkV2MergeMilliseconds?.toString() ?? '–'])
  const all = (pick: (d: Json) => number | undefined) => sum(size.datasets.map(pick))
  const total = {
    rows: all((d) => d.rows), oixkBytes: all((d) => d.oixkBytes), oixkV2Bytes: all((d) => d.oixkV2Bytes), arrowIpcBytes: all((d) => d.arrowIpcBytes),
    duckdbStorage: { usedBlockBytes: all((d) => d.duckdbStorage?.usedBlockBytes) }, columns: size.datasets.flatMap((d: Json) => d.columns),
    parquetBytes: { uncompressed: all((d) => d.parquetBytes.uncompressed), snappy: all((d) => d.parquetBytes.snappy), zstd: all((d) => d.parquetBytes.zstd) },
  }
  rows.push([...row(total, `all ${size.datasets.length}`, kb(all((d) => d.originalBytes))), ''])
  let text = table(['dataset', 'rows', 'original file', 'OIXK v1', 'OIXK v2', 'Parquet uncompressed', 'Parquet SNAPPY', 'Parquet ZSTD', 'Arrow IPC',
    'DuckDB storage', 'DuckDB segments', 'v1 ÷ ZSTD', 'v2 ÷ ZSTD', 'v1 → v2 merge (ms, one run)'], rows)
  if (total.oixkV2Bytes !== undefined && total.oixkBytes !== undefined) {
    text += `\nOver all ${size.datasets.length} datasets, format 2 takes ${(100 * (1 - total.oixkV2Bytes / total.oixkBytes)).toFixed(1)}% fewer bytes than format 1 ` +
      `(${kb(total.oixkV2Bytes)} against ${kb(total.oixkBytes)}; Parquet ZSTD ${kb(total.parquetBytes.zstd)}). Each v2 file passed the full check (verify) before it was measured.\n`
  }
  text += duckdbNote(size)
  return text
}

/** Bytes of a v2 column outside its cascaded sequences: the keyword dictionary, presence, headers. */
function outsideSequences(column: Json): number | undefined {
  const sequences = column.v2SequenceBytes === undefined ? undefined : sum(Object.values(column.v2SequenceBytes) as number[])
  return column.oixkV2Bytes === undefined || sequences === undefined ? undefined : column.oixkV2Bytes - sequences
}

function aboveZstdSection(size: Json): string {
  if (!size.datasets.every((d: Json) => d.oixkV2Bytes !== undefined)) return ''
  let text = '\n### Where format 2 is still above Parquet ZSTD\n\n'
  const above = size.datasets.filter((d: Json) => d.oixkV2Bytes > d.parquetBytes.zstd)
  if (above.length === 0) return `${text}Format 2 is at or below Parquet ZSTD on every dataset.\n`
  text += `On ${above.length} of ${size.datasets.length} datasets the v2 file is larger than Parquet ZSTD: ${above.map((d: Json) =>
    `${d.name} ${kb(d.oixkV2Bytes)} against ${kb(d.parquetBytes.zstd)} (+${kb(d.oixkV2Bytes - d.parquetBytes.zstd)})`).join(', ')}. `
  text += 'Their columns whose v2 section is larger than their ZSTD column chunk, largest excess first; "outside the sequences" is the section less its cascaded sequences: ' +
    'the keyword dictionary (terms stored as they are: keyword dictionary form 0, the only one so far), presence and headers.\n\n'
  const columns = above.flatMap((d: Json) => d.columns.filter((c: Json) => c.oixkV2Bytes > c.parquetBytes.zstd).map((c: Json) => ({ dataset: d.name, ...c })))
    .sort((a: Json, b: Json) => (b.oixkV2Bytes - b.parquetBytes.zstd) - (a.oixkV2Bytes - a.parquetBytes.zstd))
  text += table(['dataset', 'column', 'type', 'OIXK v2', 'outside the sequences (keyword terms)', 'Parquet ZSTD', 'v2 − ZSTD', 'v2 ÷ ZSTD'], columns.map((c: Json) => {
    const terms = c.dictionaryTerms == null ? '' : ` (${c.dictionaryTerms.count.toLocaleString('en-US')} term${c.dictionaryTerms.count === 1 ? '' : 's'}, ${kb(c.dictionaryTerms.bytes)} of UTF-8)`
    return [c.dataset, c.name, c.type, kb(c.oixkV2Bytes), `${kb(outsideSequences(c))}${terms}`, kb(c.parquetBytes.zstd), kb(c.oixkV2Bytes - c.parquetBytes.zstd), ratio(c.oixkV2Bytes, c.parquetBytes.zstd)]
  }))
  const excess = (list: Json[]) => list.reduce((total: number, c: Json) => total + c.oixkV2Bytes - c.parquetBytes.zstd, 0)
  const keywords = columns.filter((c: Json) => c.type === 'keyword')
  const keywordBytes = keywords.reduce((total: number, c: Json) => total + c.oixkV2Bytes, 0)
  const outside = sum(keywords.map(outsideSequences))
  text += `\nThese columns exceed their ZSTD chunks by ${kb(excess(columns))} in all; ${keywords.length} of the ${columns.length} are keyword columns, with ` +
    `${kb(excess(keywords))} (${(100 * excess(keywords) / excess(columns)).toFixed(1)}%) of that excess`
  text += outside === undefined || keywordBytes === 0 ? '.\n' : `; ${kb(outside)} of their ${kb(keywordBytes)} (${(100 * outside / keywordBytes).toFixed(0)}%) lie outside the sequences, in the dictionaries.\n`
  return text
}

/** A column's DuckDB segment bytes ("≤" when a segment ends its block alone) and compressions by share of rows; – without them. */
function duckdbCell(storage: Json | undefined): string {
  if (storage === undefined) return '–'
  const kinds = Object.entries(storage.compression as Record<string, number>).sort((a, b) => b[1] - a[1])
    .map(([kind, percent]) => percent === 100 ? kind : `${kind} ${percent}%`).join(' + ')
  return `${storage.exact ? '' : '≤ '}${kb(storage.bytes)} (${kinds})`
}

function columnTable(size: Json): string {
  const rows: string[][] = []
  for (const d of size.datasets) {
    for (const c of d.columns) {
      const kinds = c.sequences.filter((s: Json) => s.sequence !== 'offsets')
        .map((s: Json) => `${s.sequence === 'values' ? '' : `${s.sequence}: `}${BLOCK_KIND_NAMES.map((kind) => `${kind[0]} ${s.percentOfValues[kind] ?? 0}%`).join(' / ')}`).join('; ')
      rows.push([d.name, c.name, c.type, c.layout ?? '–', kb(c.oixkBytes), kinds, kb(c.oixkV2Bytes), cascadesCell(c.v2Cascades),
        kb(c.parquetBytes.uncompressed), kb(c.parquetBytes.zstd), kb(c.arrowBufferBytes), duckdbCell(c.duckdbStorage),
        c.parquetBytes.zstd > 0 ? ratio(c.oixkBytes, c.parquetBytes.zstd) : '–', c.parquetBytes.zstd > 0 ? ratio(c.oixkV2Bytes, c.parquetBytes.zstd) : '–'])
    }
  }
  return table(['dataset', 'column', 'type', 'layout', 'OIXK v1', 'v1 blocks (c constant / p packed / t table)', 'OIXK v2', 'v2 cascade',
    'Parquet uncompressed', 'Parquet ZSTD', 'Arrow buffers', 'DuckDB segments (compression, % of rows)', 'v1 ÷ ZSTD', 'v2 ÷ ZSTD'], rows)
}

/** The "Size" section of results.md. */
export function sizeSection(size: Json): string {
  let text = `## Size\n\n${size.description}\n\nMachine: ${machineLine(size)}. Chart: [size.svg](size.svg).\n\n`
  text += datasetTable(size)
  text += aboveZstdSection(size)
  text += '\n### Per column\n\nOIXK bytes are the column\'s section (dictionary, presence, offsets and values). v1 blocks are % of the values sequence\'s values ' +
    '(geo: latitudes / longitudes) as `oixk inspect` reports them. The v2 cascade is each sequence\'s in short form (values unlabelled; lat / lon for geo points): ' +
    'block kinds by share of values joined with +, `decimal(÷10^k, e exc)[integers]`, `dict(entries, freq|asc)[entries; codes]`, `runs(count)[run values; run starts]`.\n\n'
  return text + columnTable(size)
}

/** The size chart: every format's size ÷ Parquet ZSTD's, per dataset (log scale; the dashed line is ZSTD). */
export function sizeChart(size: Json): string {
  const hasV2 = size.datasets.some((d: Json) => d.oixkV2Bytes !== undefined)
  const series = [...(hasV2 ? ['OIXK v2'] : []), 'OIXK v1', 'Parquet uncompressed', 'Parquet SNAPPY', 'Arrow IPC', 'DuckDB storage', 'original file']
  return renderBarChart({
    title: 'File size relative to Parquet ZSTD (dashed line = ZSTD; left of it = smaller than ZSTD)',
    subtitle: `Same rows in every format; Parquet written by DuckDB. ${machineLine(size)}`,
    unit: 'size ÷ Parquet ZSTD size', series, log: true, reference: 1,
    groups: size.datasets.map((d: Json) => ({
      label: `${d.name} (ZSTD ${kb(d.parquetBytes.zstd)})`,
      bars: [...(hasV2 ? [d.oixkV2Bytes] : []), d.oixkBytes, d.parquetBytes.uncompressed, d.parquetBytes.snappy, d.arrowIpcBytes, d.duckdbStorage?.usedBlockBytes, d.originalBytes]
        .map((bytes: number | undefined, index: number): Bar => ({
          series: series[index], value: bytes === undefined ? null : bytes / d.parquetBytes.zstd, note: bytes === undefined ? 'not measured' : undefined,
        })),
    })),
  })
}

/** Rows of the Targets table for the format 2 size targets in size.json: what, target, measured, for comparison, verdict. */
export function sizeTargetRows(size: Json): string[][] {
  const targets = size.targets
  if (targets === undefined) return []
  const rows: string[][] = []
  const flights = size.datasets.find((d: Json) => d.name === 'flights-3m')
  if (targets.flights3mV2Bytes !== undefined && flights !== undefined) {
    const measured = flights.oixkV2Bytes
    rows.push(['flights-3m, OIXK v2 file', `≤ ${kb(targets.flights3mV2Bytes)}`, measured === undefined ? 'no figure' : kb(measured),
      `v1 ${kb(flights.oixkBytes)}, Parquet ZSTD ${kb(flights.parquetBytes.zstd)}`, measured === undefined ? 'no figure' : verdict(measured <= targets.flights3mV2Bytes)])
  }
  if (targets.nonKeywordV2Bytes !== undefined) {
    const names: string[] = targets.nonKeywordDatasets
    const missing = names.filter((name) => !size.datasets.some((d: Json) => d.name === name))
    const columns = size.datasets.filter((d: Json) => names.includes(d.name)).flatMap((d: Json) => d.columns.filter((c: Json) => c.type !== 'keyword'))
    // A run without all of them (quick runs skip flights-3m) has no figure to hold against the target.
    if (missing.length > 0) {
      rows.push([`the non-keyword columns of the ${names.length} datasets together, OIXK v2`, `≤ ${kb(targets.nonKeywordV2Bytes)}`, `no figure: this run lacks ${missing.join(', ')}`, '', 'no figure'])
    } else {
      const measured = sum(columns.map((c: Json) => c.oixkV2Bytes))
      rows.push([`the non-keyword columns of the ${names.length} datasets together (${columns.length} columns), OIXK v2`, `≤ ${kb(targets.nonKeywordV2Bytes)}`, measured === undefined ? 'no figure' : kb(measured),
        `v1 ${kb(sum(columns.map((c: Json) => c.oixkBytes)))}, Parquet ZSTD ${kb(sum(columns.map((c: Json) => c.parquetBytes.zstd)))}`,
        measured === undefined ? 'no figure' : verdict(measured <= targets.nonKeywordV2Bytes)])
    }
  }
  return rows
}
