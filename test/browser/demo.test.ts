/**
 * The faceting demo in Chromium, on the 3-million-flight file: it loads, a click
 * on an origin, a delay range and a drag across the date chart update the other views to exactly what the
 * Node API computes for the same filters, a screenshot is saved to
 * test-results/demo.png, and the page served with a Content-Security-Policy that
 * forbids WebAssembly gives the same numbers on the pure-TypeScript backend.
 * Interaction times are printed, not asserted.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DemoStatus } from '../../demo/app.js'
import { type DemoSizes, ensureDemoFiles } from '../../demo/flights.js'
import { openColumns } from '../../src/index.js'
import type { ColumnsReader } from '../../src/read/reader.js'
import { bundleDirectory, ROOT } from './bundles.js'
import { chromiumMissing, launchChromium, startServer, type StaticServer } from './harness.js'

const DELAY_EDGES = Array.from({ length: 21 }, (_, index) => -60 + 15 * index)
const DAY = 86_400_000

/** What the page shows: facet rows (term → count), bar counts, matching flights. */
interface Shown { origin: [string, number][]; destination: [string, number][]; delay: number[]; date: number[]; matching: number }

async function shown(page: Page): Promise<Shown> {
  return page.evaluate(() => {
    const rows = (id: string) => Array.from(document.querySelectorAll<HTMLButtonElement>(`#${id} button`)).map((b) => [b.dataset.term!, Number(b.dataset.count)] as [string, number])
    const bars = (id: string) => Array.from(document.querySelectorAll<SVGRectElement>(`#${id} rect.bar`)).map((bar) => Number(bar.dataset.count))
    return {
      origin: rows('origin-list'), destination: rows('destination-list'), delay: bars('delay-chart'), date: bars('date-chart'),
      matching: Number(document.getElementById('matching')!.textContent!.replaceAll(',', '')),
    }
  })
}

/** Step timings as "name 1.2, …" (printed, never asserted). */
const stepsText = (steps: Record<string, number>) => Object.entries(steps).map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ')

const status = (page: Page) => page.evaluate(() => (window as unknown as { oixkDemo: DemoStatus }).oixkDemo)

/** The same views from the Node API: every filter but the view's own. */
function expected(reader: ColumnsReader, origin: string | null, delay: [number, number] | null, selectedRows: string[], dateRange: [number, number] | null = null): Shown {
  const originColumn = reader.getColumn('origin')!, destinationColumn = reader.getColumn('destination')!
  const date = reader.getColumn('date')!
  const filters = {
    origin: origin === null ? null : originColumn.termFilter([origin]),
    delay: delay === null ? null : reader.getColumn('delay')!.rangeFilter(delay[0], delay[1]),
    date: dateRange === null ? null : date.rangeFilter(dateRange[0], dateRange[1]),
  }
  const except = (skip: string) => {
    const sets = Object.entries(filters).filter(([name, set]) => name !== skip && set !== null).map(([, set]) => set!)
    return sets.length === 0 ? undefined : sets.slice(1).reduce((all, set) => all.and(set), sets[0].clone())
  }
  const rows = (column: typeof originColumn, counts: Uint32Array, selected: string[]) => {
    const ordinals = Array.from(counts.keys()).sort((a, b) => counts[b] - counts[a] || a - b).slice(0, 12)
    for (const term of selected) if (!ordinals.includes(column.lookupOrdinal(term))) ordinals.push(column.lookupOrdinal(term))
    return ordinals.map((ordinal) => [column.term(ordinal), counts[ordinal]] as [string, number])
  }
  const first = Math.floor(Number(date.minRaw) / DAY) * DAY, last = Math.floor(Number(date.maxRaw) / DAY) * DAY + DAY
  const dateEdges = Array.from({ length: (last - first) / DAY + 1 }, (_, index) => first + index * DAY)
  const all = except('')
  return {
    origin: rows(originColumn, originColumn.facetCounts(except('origin')), selectedRows),
    destination: rows(destinationColumn, destinationColumn.facetCounts(except('destination')), []),
    delay: [...reader.getColumn('delay')!.histogram(DELAY_EDGES, except('delay'))],
    date: [...date.histogram(dateEdges, except('date'))],
    matching: all === undefined ? reader.maxDoc : all.count(),
  }
}

describe.skipIf(chromiumMissing !== null)('the faceting demo in Chromium', () => {
  let server: StaticServer
  let browser: Awaited<ReturnType<typeof launchChromium>>
  let reader: ColumnsReader
  let fileBytes = 0
  let sizes: DemoSizes
  beforeAll(async () => {
    const files = await ensureDemoFiles()
    sizes = files.sizes
    reader = openColumns(new Uint8Array(readFileSync(files.v2Path)))
    expect(reader.format).toBe(2)
    fileBytes = reader.bytes.length
    server = await startServer(await bundleDirectory(['oixk-reader']))
    browser = await launchChromium()
  }, 300_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    reader?.close()
  })

  /** Loads the page, clicks the third origin, then applies a delay range; returns what it showed and its timings. */
  async function session(path: string, screenshot: string | null) {
    const page = await browser.context.newPage()
    await page.setViewportSize({ width: 1280, height: 900 })
    try {
      await page.goto(`${server.origin}${path}`)
      await page.waitForFunction(() => (window as unknown as { oixkDemo?: DemoStatus }).oixkDemo?.ready === true, null, { timeout: 90_000 })
      // The download's progress bar and text as openColumnsFromUrl's onProgress last left them.
      const progress = await page.evaluate(() => [
        (document.getElementById('download') as HTMLProgressElement).value, document.getElementById('download-status')!.textContent,
        document.getElementById('download-sizes')!.textContent,
      ])
      const initial = await shown(page)
      const term = initial.origin[2][0]
      const before = (await status(page)).interactions
      await page.click(`#origin-list button[data-term="${term}"]`)
      await page.waitForFunction((count) => (window as unknown as { oixkDemo: DemoStatus }).oixkDemo.interactions > count, before)
      const afterClick = await shown(page)
      const clickStatus = await status(page)
      await page.fill('#delay-range input[name="lo"]', '0')
      await page.fill('#delay-range input[name="hi"]', '59')
      await page.click('#delay-range button[type="submit"]')
      await page.waitForFunction((count) => (window as unknown as { oixkDemo: DemoStatus }).oixkDemo.interactions > count, clickStatus.interactions)
      const afterRange = await shown(page)
      const rangeStatus = await status(page)
      // A drag across the date chart, from about a sixth of its width to a half.
      const chart = (await page.locator('#date-chart svg').boundingBox())!
      await page.mouse.move(chart.x + chart.width / 6, chart.y + chart.height / 2)
      await page.mouse.down()
      await page.mouse.move(chart.x + chart.width / 3, chart.y + chart.height / 2, { steps: 4 })
      await page.mouse.move(chart.x + chart.width / 2, chart.y + chart.height / 2, { steps: 4 })
      await page.mouse.up()
      await page.waitForFunction((count) => (window as unknown as { oixkDemo: DemoStatus }).oixkDemo.interactions > count, rangeStatus.interactions)
      const afterDrag = await shown(page)
      const dragStatus = await status(page)
      const dragged = await page.evaluate(() => ['lo', 'hi'].map((name) => (document.querySelector(`#date-range input[name="${name}"]`) as HTMLInputElement).value))
      const dateRange: [number, number] = [Date.parse(`${dragged[0]}T00:00:00Z`), Date.parse(`${dragged[1]}T00:00:00Z`) + DAY - 1]
      // Warm timings, printed only: the origin toggled off and on again six times.
      const warm: { query: number; total: number; layout: number; steps: Record<string, number> }[] = []
      for (let round = 0; round < 6; round++) {
        const before = (await status(page)).interactions
        await page.click(`#origin-list button[data-term="${term}"]`)
        await page.waitForFunction((count) => (window as unknown as { oixkDemo: DemoStatus }).oixkDemo.interactions > count, before)
        const after = await status(page)
        warm.push({ query: after.lastQueryMs, total: after.lastTotalMs, layout: after.lastLayoutMs, steps: after.lastSteps })
      }
      if (screenshot !== null) {
        mkdirSync(join(ROOT, 'test-results'), { recursive: true })
        await page.screenshot({ path: join(ROOT, 'test-results', screenshot), fullPage: true })
      }
      return { term, progress, initial, afterClick, afterRange, afterDrag, dateRange, clickStatus, rangeStatus, dragStatus, warm }
    } finally {
      await page.close()
    }
  }

  let wasmSession: Awaited<ReturnType<typeof session>>

  it('loads; a click on an origin and a delay range give exactly the Node API numbers (WebAssembly)', async () => {
    wasmSession = await session('/', 'demo.png')
    const { term, progress, initial, afterClick, afterRange, afterDrag, dateRange, clickStatus, rangeStatus, dragStatus, warm } = wasmSession
    expect(clickStatus.backend).toBe('wasm')
    const megabytes = (fileBytes / 1e6).toFixed(1)
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
    expect(progress).toEqual([1, `${megabytes} of ${megabytes} MB, opening…`,
      `Downloaded ${mb(fileBytes)} (format 2); the same flights are ${mb(sizes.v1)} in format 1, ${mb(sizes.parquet)} as the Parquet file` +
      `${sizes.parquetZstd === null ? '' : `, ${mb(sizes.parquetZstd)} in Parquet ZSTD`}.`])
    expect(fileBytes).toBeLessThan(sizes.v1)
    expect(initial).toEqual(expected(reader, null, null, []))
    expect(afterClick).toEqual(expected(reader, term, null, [term]))
    expect(afterRange).toEqual(expected(reader, term, [0, 59], [term]))
    expect(afterClick.matching).toBeLessThan(reader.maxDoc)
    expect(dateRange[1] - dateRange[0]).toBeGreaterThan(20 * DAY)
    expect(afterDrag).toEqual(expected(reader, term, [0, 59], [term], dateRange))
    expect(afterDrag.matching).toBeLessThan(afterRange.matching)
    const shown = (at: DemoStatus) => `queries ${at.lastQueryMs.toFixed(1)} ms, with drawing ${at.lastTotalMs.toFixed(1)} ms, with layout ${at.lastLayoutMs.toFixed(1)} ms`
    console.log(`demo (WebAssembly): origin ${term} click: ${shown(clickStatus)}; delay range: ${shown(rangeStatus)}; date drag: ${shown(dragStatus)}; ` +
      `origin toggled 6 times: queries ${warm.map((time) => time.query.toFixed(1)).join(' ')} ms, with drawing ${warm.map((time) => time.total.toFixed(1)).join(' ')} ms, ` +
      `with layout ${warm.map((time) => time.layout.toFixed(1)).join(' ')} ms`)
    console.log(`demo (WebAssembly) steps, ms:\n${[['origin click', clickStatus.lastSteps] as const, ['delay range', rangeStatus.lastSteps] as const, ['date drag', dragStatus.lastSteps] as const,
      ...warm.map((time, round) => [`toggle ${round + 1}`, time.steps] as const)].map(([what, steps]) => `  ${what}: ${stepsText(steps)}`).join('\n')}`)
  }, 120_000)

  it('the backend switch loads the pure-TypeScript chunk on demand and shows the same numbers', async () => {
    const page = await browser.context.newPage()
    const requested: string[] = []
    page.on('request', (request) => requested.push(new URL(request.url()).pathname))
    try {
      await page.goto(`${server.origin}/`)
      await page.waitForFunction(() => (window as unknown as { oixkDemo?: DemoStatus }).oixkDemo?.ready === true, null, { timeout: 90_000 })
      const before = await status(page)
      expect(before.backend).toBe('wasm')
      const onWasm = await shown(page)
      expect(requested).not.toContain('/bundle/oixk-reader-ts.js')
      await page.check('input[name="backend"][value="ts"]')
      await page.waitForFunction((count) => (window as unknown as { oixkDemo: DemoStatus }).oixkDemo.interactions > count, before.interactions, { timeout: 90_000 })
      expect((await status(page)).backend).toBe('ts')
      expect(requested).toContain('/bundle/oixk-reader-ts.js')
      expect(await shown(page)).toEqual(onWasm)
    } finally {
      await page.close()
    }
  }, 120_000)

  it('served with a CSP that forbids WebAssembly: pure TypeScript, the same numbers', async () => {
    const fallback = await session('/strict/', null)
    expect(fallback.clickStatus.backend).toBe('ts')
    expect(fallback.clickStatus.wasmReason).toMatch(/Content Security Policy/)
    expect(fallback.term).toBe(wasmSession.term)
    expect(fallback.initial).toEqual(wasmSession.initial)
    expect(fallback.afterClick).toEqual(wasmSession.afterClick)
    expect(fallback.afterRange).toEqual(wasmSession.afterRange)
    expect(fallback.dateRange).toEqual(wasmSession.dateRange)
    expect(fallback.afterDrag).toEqual(wasmSession.afterDrag)
    console.log(`demo (pure TypeScript): origin click: queries ${fallback.clickStatus.lastQueryMs.toFixed(1)} ms, with drawing ${fallback.clickStatus.lastTotalMs.toFixed(1)} ms; ` +
      `delay range: queries ${fallback.rangeStatus.lastQueryMs.toFixed(1)} ms, with drawing ${fallback.rangeStatus.lastTotalMs.toFixed(1)} ms; ` +
      `date drag: queries ${fallback.dragStatus.lastQueryMs.toFixed(1)} ms, with drawing ${fallback.dragStatus.lastTotalMs.toFixed(1)} ms; ` +
      `origin toggled 6 times: queries ${fallback.warm.map((time) => time.query.toFixed(1)).join(' ')} ms`)
  }, 120_000)
})
