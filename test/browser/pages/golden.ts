/**
 * The golden files inside the browser: each test/golden/NAME.oixk, opened by
 * the reader bundle with every backend asked for, verifies and dumps to its
 * NAME.json. URL parameters: names (comma separated), backends (default
 * "wasm,ts"; "auto" is what a page gets without choosing). A name v2/NAME is the
 * format 2 twin, which dumps to NAME.json; its verify needs loadFullCheck() first.
 */
import { type BackendChoice, initWasm, loadFullCheck, openColumnsAsync, wasmUnavailableReason } from '../../../src/entry-reader.js'
import { canonicalJson, dump, outcome, publish } from './compare.js'

publish(async () => {
  const parameters = new URLSearchParams(location.search)
  const names = (parameters.get('names') ?? '').split(',').filter((name) => name !== '')
  const backends = (parameters.get('backends') ?? 'wasm,ts').split(',') as BackendChoice[]
  const wasmReady = await initWasm()
  if (names.some((name) => name.startsWith('v2/'))) await loadFullCheck()
  const files = []
  for (const name of names) {
    const bytes = new Uint8Array(await (await fetch(`/test/golden/${name}.oixk`)).arrayBuffer())
    const expected = canonicalJson(await (await fetch(`/test/golden/${name.replace(/^v2\//, '')}.json`)).json())
    for (const backend of backends) {
      let reader
      try {
        reader = await openColumnsAsync(bytes, { backend, fileName: `${name}.oixk` })
      } catch (error) {
        files.push({ name, backend, used: outcome(() => { throw error }), verify: '', matches: false })
        continue
      }
      const verify = outcome(() => reader.verify())
      const matches = canonicalJson(dump(reader)) === expected
      files.push({ name, backend, used: reader.backendName, verify, matches })
      reader.close()
    }
  }
  return { wasmReady, reason: wasmUnavailableReason(), hasWebAssembly: typeof WebAssembly === 'object', files }
})
