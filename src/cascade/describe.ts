/**
 * What a sequence is made of, for `oixk inspect`, the benchmark and tests:
 * its form, byte size and children, and per blocks sequence how many blocks
 * (and values) each kind holds. Works on v1 sequences too (one blocks level).
 */
import type { SequenceView } from '../backend/backend.js'
import { BLOCK_VALUES } from '../format/constants.js'
import { FORM_NAMES, KIND_NAMES } from './constants.js'
import { sequenceExtent } from './reader/parse.js'

/** One level of a cascade. */
export interface CascadeSummary {
  form: string
  count: number
  /** Bytes of the sequence, children included. */
  bytes: number
  /** Form details: dictionary order and entries, runs, decimal exponent and exceptions. */
  detail: string
  /** Blocks sequences: blocks and values per kind name. */
  kinds: Map<string, { blocks: number; values: number }>
  children: { role: string; summary: CascadeSummary }[]
}

const V1_KIND_NAMES = ['constant', 'packed', 'table']

function blocksSummary(view: SequenceView, bytes: number, v1: boolean): CascadeSummary {
  const kinds = new Map<string, { blocks: number; values: number }>()
  for (let block = 0; block < view.blockCount; block++) {
    const word = view.records[6 * block]
    const name = (v1 ? V1_KIND_NAMES : KIND_NAMES)[word & 0xff] ?? String(word & 0xff)
    const entry = kinds.get(name) ?? { blocks: 0, values: 0 }
    entry.blocks++
    entry.values += Math.min(BLOCK_VALUES, view.count - block * BLOCK_VALUES)
    kinds.set(name, entry)
  }
  return { form: 'blocks', count: view.count, bytes, detail: '', kinds, children: [] }
}

/** The summary of a sequence of a file of the given format. */
export function summarize(view: SequenceView, format: 1 | 2): CascadeSummary {
  if (format === 1) return blocksSummary(view, 12 + 24 * view.blockCount + view.dataLength, true)
  const [start, end] = sequenceExtent(view)
  const cascade = view.cascade
  if (cascade === null || cascade.form === 0) return blocksSummary(view, end - start, false)
  const node = (detail: string, children: { role: string; summary: CascadeSummary }[]): CascadeSummary => ({
    form: FORM_NAMES[cascade.form], count: cascade.count, bytes: end - start, detail, kinds: new Map(), children,
  })
  switch (cascade.form) {
    case 1:
      return node(`${cascade.entries.count} entries, ${cascade.order === 0 ? 'ascending' : 'by frequency'}`, [
        { role: 'entries', summary: summarize(cascade.entries, 2) }, { role: 'codes', summary: summarize(cascade.codes, 2) },
      ])
    case 2:
      return node(`${cascade.runCount} runs`, [
        { role: 'run values', summary: summarize(cascade.values, 2) }, { role: 'run starts', summary: summarize(cascade.starts, 2) },
      ])
    case 3:
      return node(`n / 10^${cascade.exponent}, ${cascade.exceptionCount} exceptions`, [{ role: 'integers', summary: summarize(cascade.integers, 2) }])
  }
}

/** A one-line signature: form(detail)[children] or blocks{kind kind …} by share of values, for tests and logs. */
export function signature(summary: CascadeSummary): string {
  if (summary.form === 'blocks') {
    const kinds = [...summary.kinds].sort((a, b) => b[1].values - a[1].values || (a[0] < b[0] ? -1 : 1)).map(([name]) => name)
    return `blocks{${kinds.join(' ')}}`
  }
  return `${summary.form}(${summary.detail})[${summary.children.map((child) => `${child.role}: ${signature(child.summary)}`).join(', ')}]`
}
