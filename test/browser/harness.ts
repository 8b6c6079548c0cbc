/**
 * What the Chromium tests share: a headless Chromium driven by playwright-core
 * (and the static server of demo/static-server.ts).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export { startServer, type StaticServer, STRICT_CSP } from '../../demo/static-server.js'

export const CHROMIUM = '/usr/bin/chromium'
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run', '--disable-quic',
]
/** Why the Chromium tests are skipped, or null when they run. */
export const chromiumMissing: string | null = existsSync(CHROMIUM)
  ? null : `${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it): Chromium tests skipped`

/** A headless Chromium with a fresh profile; close() also removes the profile. */
export async function launchChromium() {
  const { chromium } = await import('playwright-core')
  const profile = mkdtempSync(join(tmpdir(), 'oixk-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS,
  })
  return {
    context,
    async close() {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}

/**
 * Opens `url`, waits for the page script to publish window.testResult, returns it (page errors fail).
 * `requested`, when given, receives the path of every request the page makes.
 */
export async function runPage<Result>(
  context: Awaited<ReturnType<typeof launchChromium>>['context'], url: string, timeout = 45_000, requested?: string[],
): Promise<Result> {
  const page = await context.newPage()
  if (requested !== undefined) page.on('request', (request) => requested.push(new URL(request.url()).pathname))
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()) })
  try {
    await page.goto(url)
    try {
      await page.waitForFunction(() => (window as unknown as { testResult?: unknown }).testResult !== undefined, null, { timeout })
    } catch (error) {
      throw new Error(`${url}: no result (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); page errors: ${errors.join('; ')}`)
    }
    const result = await page.evaluate(() => (window as unknown as { testResult: Result }).testResult) as Result & { error?: string }
    if (result.error !== undefined) throw new Error(`${url}: ${result.error}`)
    return result
  } finally {
    await page.close()
  }
}
