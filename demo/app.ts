/**
 * The faceting demo: downloads build/flights-3m.v2.oixk (format 2) straight into the reader
 * bundle's memory (openColumnsFromUrl, with a progress bar) and cross-filters four views (origin and destination facets, delay and
 * date histograms). Each view counts the flights that pass every filter except
 * its own, so a view never filters itself away. Plain DOM and SVG.
 */
import {
  type BackendName, type Column, type ColumnsReader, type DocSet, loadTypeScriptBackend, openColumns, openColumnsFromUrl, wasmUnavailableReason,
} from '../src/entry-reader.js'
import { buildChart, type Chart, formatCount, renderChart } from './chart.js'

type Dimension = 'origin' | 'destination' | 'delay' | 'date'
type Range = [number, number]
const DIMENSIONS: Dimension[] = ['origin', 'destination', 'delay', 'date']
const DAY = 86_400_000
const DELAY_EDGES = Array.from({ length: 21 }, (_, index) => -60 + 15 * index)
const FACET_ROWS = 12
/** The format 2 file; `?format=1` downloads the format 1 file of the same flights, to compare. */
const FILE_NAME = new URLSearchParams(location.search).get('format') === '1' ? 'flights-3m.oixk' : 'flights-3m.v2.oixk'

/** What the page shows, for people and for the Chromium test. */
export interface DemoStatus {
  ready: boolean
  backend: BackendName | null
  wasmReason: string | null
  interactions: number
  lastQueryMs: number
  lastTotalMs: number
  /** lastTotalMs plus the browser's style and layout of the changed page (forced before the clock stops). */
  lastLayoutMs: number
  /** Milliseconds of each step of the last interaction (filters, each view's count, drawing), to see where a frame goes. */
  lastSteps: Record<string, number>
  matching: number
}
const status: DemoStatus = { ready: false, backend: null, wasmReason: null, interactions: 0, lastQueryMs: 0, lastTotalMs: 0, lastLayoutMs: 0, lastSteps: {}, matching: 0 }
let steps: Record<string, number> = {}
/** Runs work and adds its milliseconds to steps[name]. */
function timed<T>(name: string, work: () => T): T {
  const started = performance.now()
  try {
    return work()
  } finally {
    steps[name] = (steps[name] ?? 0) + performance.now() - started
  }
}
;(window as unknown as { oixkDemo: DemoStatus }).oixkDemo = status

const selection = { origin: new Set<string>(), destination: new Set<string>(), delay: null as Range | null, date: null as Range | null }
let reader: ColumnsReader | null = null
let dateEdges: number[] = []
const filters = new Map<Dimension, DocSet>()
// Each filter's version; a view is recounted only when a filter it depends on (every one but its own) changed.
const versions = new Map<Dimension, number>(DIMENSIONS.map((dimension) => [dimension, 0]))
const viewKeys = new Map<Dimension, string>()
const viewCounts = new Map<Dimension, Uint32Array>()
const charts = new Map<'delay' | 'date', Chart>()

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
const column = (name: Dimension): Column => reader!.getColumn(name)!

/** The bytes downloaded beside the same documents in format 1 and Parquet (build/flights-3m.sizes.json, written by the server). */
async function showSizes(downloaded: number): Promise<void> {
  const response = await fetch('/build/flights-3m.sizes.json')
  if (!response.ok) return
  const sizes = await response.json() as { v1: number; v2: number; parquet: number; parquetZstd: number | null }
  const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
  const v2 = FILE_NAME.includes('.v2.')
  element('download-sizes').textContent = `Downloaded ${megabytes(downloaded)} (format ${v2 ? 2 : 1}); the same flights are ` +
    `${megabytes(v2 ? sizes.v1 : sizes.v2)} in format ${v2 ? 1 : 2}, ` +
    `${megabytes(sizes.parquet)} as the Parquet file${sizes.parquetZstd === null ? '' : `, ${megabytes(sizes.parquetZstd)} in Parquet ZSTD`}.`
}

/** The download's progress bar and text (no total: an indeterminate bar). */
function showProgress(loaded: number, total: number | null): void {
  const progress = element<HTMLProgressElement>('download')
  if (total === null) progress.removeAttribute('value')
  else progress.value = loaded / total
  const megabytes = (bytes: number) => (bytes / 1e6).toFixed(1)
  element('download-status').textContent = `${megabytes(loaded)}${total === null ? '' : ` of ${megabytes(total)}`} MB${loaded === total ? ', opening…' : ''}`
}

/** The documents passing a dimension's selection, or null when it selects nothing (no filter). */
function filterOf(dimension: Dimension): DocSet | null {
  if (dimension === 'origin' || dimension === 'destination') {
    const terms = selection[dimension]
    return terms.size === 0 ? null : column(dimension).termFilter(terms)
  }
  const range = selection[dimension]
  return range === null ? null : column(dimension).rangeFilter(range[0], range[1])
}

function refreshFilter(dimension: Dimension): void {
  versions.set(dimension, versions.get(dimension)! + 1)
  filters.get(dimension)?.release()
  filters.delete(dimension)
  const filter = filterOf(dimension)
  if (filter !== null) filters.set(dimension, filter)
}

/** AND of every filter but `except`'s (a new set the caller releases), or undefined for all documents. */
function combined(except?: Dimension): DocSet | undefined {
  let result: DocSet | undefined
  for (const [dimension, filter] of filters) {
    if (dimension === except) continue
    if (result === undefined) result = filter.clone()
    else result.and(filter)
  }
  return result
}

interface Counts { origin: Uint32Array; destination: Uint32Array; delay: Uint32Array; date: Uint32Array; matching: number }

function query(): Counts {
  const counted = (dimension: Dimension, count: (docs: DocSet | undefined) => Uint32Array) => {
    const key = DIMENSIONS.filter((other) => other !== dimension).map((other) => versions.get(other)).join(',')
    if (viewKeys.get(dimension) === key) return viewCounts.get(dimension)!
    const docs = timed('combine', () => combined(dimension))
    try {
      const counts = timed(`count ${dimension}`, () => count(docs))
      viewKeys.set(dimension, key)
      viewCounts.set(dimension, counts)
      return counts
    } finally {
      docs?.release()
    }
  }
  const matching = timed('matching', () => {
    const all = combined()
    const result = all === undefined ? reader!.maxDoc : all.count()
    all?.release()
    return result
  })
  return {
    origin: counted('origin', (docs) => column('origin').facetCounts(docs)),
    destination: counted('destination', (docs) => column('destination').facetCounts(docs)),
    delay: counted('delay', (docs) => column('delay').histogram(DELAY_EDGES, docs)),
    date: counted('date', (docs) => column('date').histogram(dateEdges, docs)),
    matching,
  }
}

/** One facet row, kept per term so a redraw only sets what changed (and focus stays on a clicked term). */
interface FacetRow { item: HTMLLIElement; button: HTMLButtonElement; count: HTMLSpanElement; shown: string }
const facetRows = { origin: new Map<string, FacetRow>(), destination: new Map<string, FacetRow>() }

function facetRow(dimension: 'origin' | 'destination', term: string): FacetRow {
  let row = facetRows[dimension].get(term)
  if (row !== undefined) return row
  const item = document.createElement('li')
  const button = document.createElement('button')
  button.type = 'button'
  button.dataset.term = term
  const name = document.createElement('span'), count = document.createElement('span')
  name.textContent = term
  count.className = 'count'
  button.append(name, count)
  item.append(button)
  row = { item, button, count, shown: '' }
  facetRows[dimension].set(term, row)
  return row
}

function renderFacet(dimension: 'origin' | 'destination', counts: Uint32Array): void {
  const list = element<HTMLOListElement>(`${dimension}-list`)
  const col = column(dimension)
  // Count descending, ties by ordinal (the order topTerms uses); selected terms always listed.
  const ordinals = Array.from(counts.keys()).sort((a, b) => counts[b] - counts[a] || a - b)
  const shown = ordinals.slice(0, FACET_ROWS)
  for (const term of selection[dimension]) {
    const ordinal = col.lookupOrdinal(term)
    if (ordinal >= 0 && !shown.includes(ordinal)) shown.push(ordinal)
  }
  let maximum = 1
  for (const ordinal of shown) maximum = Math.max(maximum, counts[ordinal])
  const rows = shown.map((ordinal) => {
    const term = col.term(ordinal)
    const row = facetRow(dimension, term)
    const count = counts[ordinal], pressed = selection[dimension].has(term)
    const state = `${count} ${maximum} ${pressed}`
    if (row.shown !== state) {
      row.shown = state
      const text = formatCount(count)
      row.button.dataset.count = String(count)
      row.button.setAttribute('aria-pressed', String(pressed))
      row.button.setAttribute('aria-label', `${term}: ${text} flights`)
      row.button.style.setProperty('--share', `${(100 * count) / maximum}%`)
      row.count.textContent = text
    }
    return row
  })
  const children = list.children
  if (children.length === rows.length && rows.every((row, index) => children[index] === row.item)) return
  // Reordering detaches the moved rows, which would drop the keyboard focus of a clicked button: put it back.
  const focused = document.activeElement
  list.replaceChildren(...rows.map((row) => row.item))
  if (focused instanceof HTMLElement && focused !== document.activeElement && list.contains(focused)) focused.focus()
}

const dateLabel = (ms: number) => new Date(ms).toISOString().slice(5, 10)

function render(counts: Counts): void {
  timed('draw origin', () => renderFacet('origin', counts.origin))
  timed('draw destination', () => renderFacet('destination', counts.destination))
  timed('draw delay', () => renderChart(charts.get('delay')!, counts.delay, selection.delay))
  timed('draw date', () => renderChart(charts.get('date')!, counts.date, selection.date))
  element('matching').textContent = formatCount(counts.matching)
  const delayForm = element<HTMLFormElement>('delay-range'), dateForm = element<HTMLFormElement>('date-range')
  ;(delayForm.elements.namedItem('lo') as HTMLInputElement).value = selection.delay === null ? '' : String(selection.delay[0])
  ;(delayForm.elements.namedItem('hi') as HTMLInputElement).value = selection.delay === null ? '' : String(selection.delay[1])
  ;(dateForm.elements.namedItem('lo') as HTMLInputElement).value = selection.date === null ? '' : new Date(selection.date[0]).toISOString().slice(0, 10)
  ;(dateForm.elements.namedItem('hi') as HTMLInputElement).value = selection.date === null ? '' : new Date(selection.date[1]).toISOString().slice(0, 10)
}

/** Applies a change of selection, re-queries every view and shows how long it took. */
function interact(dimension: Dimension | 'all', change: () => void, what = `${dimension} changed`): void {
  const started = performance.now()
  steps = {}
  change()
  timed('filter', () => { for (const changed of dimension === 'all' ? DIMENSIONS : [dimension]) refreshFilter(changed) })
  const counts = query()
  const queried = performance.now()
  render(counts)
  const rendered = performance.now()
  // The browser would restyle and lay out before its next paint anyway; forcing it here puts that work inside the measure.
  document.body.getBoundingClientRect()
  const laidOut = performance.now()
  status.interactions++
  status.lastQueryMs = queried - started
  status.lastTotalMs = rendered - started
  status.lastLayoutMs = laidOut - started
  status.lastSteps = steps
  status.matching = counts.matching
  element('timing').textContent =
    `${what}: queries ${status.lastQueryMs.toFixed(1)} ms, with drawing ${status.lastTotalMs.toFixed(1)} ms, with layout ${status.lastLayoutMs.toFixed(1)} ms (${status.backend === 'wasm' ? 'WebAssembly' : 'pure TypeScript'})`
}

/**
 * Runs each kind of query the views issue once, at load: engines first run a function
 * (WebAssembly or JavaScript) as quickly compiled code and optimize it after some use, and the
 * first range filter and the first counts under a filter took 2-4 ms longer than later ones.
 * The sample is a busy airport's flights (the second busiest), not a small one's: counts over a
 * dense selection take other paths than over a sparse one, which a first click on a busy airport
 * would otherwise run unoptimized (docs/browser.md).
 */
function warmUp(): void {
  const origin = column('origin')
  const flights = origin.facetCounts()
  const busiest = Array.from(flights.keys()).sort((a, b) => flights[b] - flights[a] || a - b)
  const sample = origin.termFilter([origin.term(busiest[Math.min(1, busiest.length - 1)])])
  const delay = column('delay').rangeFilter(DELAY_EDGES[4], DELAY_EDGES[8] - 1)
  const date = column('date').rangeFilter(dateEdges[0], dateEdges[1] - 1)
  const both = sample.clone().and(delay)
  try {
    for (const docs of [sample, both]) {
      origin.facetCounts(docs)
      column('delay').histogram(DELAY_EDGES, docs)
      column('date').histogram(dateEdges, docs)
    }
    both.and(date).count()
  } finally {
    for (const set of [sample, delay, date, both]) set.release()
  }
}

/** Shows `next` (closing the reader it replaces); `started` is when its open began, for the timing shown. */
function show(next: ColumnsReader, started: number): void {
  for (const filter of filters.values()) filter.release()
  filters.clear()
  reader?.close()
  reader = next
  status.backend = reader.backendName
  const date = column('date')
  const first = Math.floor(Number(date.minRaw) / DAY) * DAY, last = Math.floor(Number(date.maxRaw) / DAY) * DAY + DAY
  dateEdges = Array.from({ length: (last - first) / DAY + 1 }, (_, index) => first + index * DAY)
  viewKeys.clear()
  for (const [dimension, edges, label] of [['delay', DELAY_EDGES, String], ['date', dateEdges, dateLabel]] as const) {
    charts.set(dimension, buildChart(element(`${dimension}-chart`), dimension, edges, label, (range) => interact(dimension, () => { selection[dimension] = range })))
  }
  warmUp()
  const opened = performance.now() - started
  interact('all', () => {}, `opened ${reader.maxDoc.toLocaleString('en-US')} flights in ${opened.toFixed(0)} ms`)
}

function wire(): void {
  for (const dimension of ['origin', 'destination'] as const) {
    element(`${dimension}-list`).addEventListener('click', (event) => {
      const button = (event.target as HTMLElement).closest('button')
      const term = button?.dataset.term
      if (term === undefined) return
      interact(dimension, () => {
        if (!selection[dimension].delete(term)) selection[dimension].add(term)
      }, `${dimension} ${term}`)
    })
  }
  for (const [dimension, parse] of [['delay', Number], ['date', (text: string) => Date.parse(`${text}T00:00:00Z`)]] as const) {
    const form = element<HTMLFormElement>(`${dimension}-range`)
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      const lo = (form.elements.namedItem('lo') as HTMLInputElement).value, hi = (form.elements.namedItem('hi') as HTMLInputElement).value
      if (lo === '' || hi === '') return
      const day = dimension === 'date' ? DAY - 1 : 0
      interact(dimension, () => { selection[dimension] = [parse(lo), parse(hi) + day] })
    })
    form.querySelector('[data-clear]')!.addEventListener('click', () => interact(dimension, () => { selection[dimension] = null }))
  }
  element('clear-all').addEventListener('click', () => interact('all', () => {
    selection.origin.clear()
    selection.destination.clear()
    selection.delay = null
    selection.date = null
  }, 'cleared'))
  for (const radio of Array.from(document.querySelectorAll<HTMLInputElement>('input[name="backend"]'))) {
    // The reader bundle loads the pure-TypeScript backend on demand, before its first synchronous use.
    radio.addEventListener('change', () => {
      const backend = radio.value as 'wasm' | 'ts'
      ;(backend === 'ts' ? loadTypeScriptBackend() : Promise.resolve()).then(() => {
        const started = performance.now()
        // A copy: the reader replaced owns its bytes (with WebAssembly, in linear memory) and frees them on close.
        show(openColumns(reader!.bytes.slice(), { backend, fileName: FILE_NAME }), started)
      }, (error: unknown) => {
        element('timing').textContent = `the pure-TypeScript backend did not load: ${error instanceof Error ? error.message : String(error)}`
      })
    })
  }
}

async function main(): Promise<void> {
  // Backend 'auto': WebAssembly, else (no WebAssembly, or a CSP that forbids it) pure TypeScript.
  let downloaded = 0
  const first = await openColumnsFromUrl(`/build/${FILE_NAME}`, {
    fileName: FILE_NAME,
    onProgress: (loaded, total) => {
      showProgress(loaded, total)
      if (loaded === total) downloaded = performance.now()
    },
  })
  status.wasmReason = wasmUnavailableReason()
  const wasm = first.backendName === 'wasm'
  const wasmRadio = document.querySelector<HTMLInputElement>('input[value="wasm"]')!
  if (!wasm) {
    // WebAssembly blocked or missing: the same page on the pure-TypeScript backend.
    wasmRadio.disabled = true
    wasmRadio.parentElement!.title = status.wasmReason ?? ''
    document.querySelector<HTMLInputElement>('input[value="ts"]')!.checked = true
  }
  wire()
  await showSizes(first.bytes.length)
  element('loading').hidden = true
  element('app').hidden = false
  show(first, downloaded)
  status.ready = true
}

main().catch((error: unknown) => {
  element('download-status').textContent = `failed: ${error instanceof Error ? error.message : String(error)}`
  ;(window as unknown as { oixkDemoError: string }).oixkDemoError = String(error)
})
