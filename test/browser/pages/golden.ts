/**
 * The golden files inside the browser: each test/golden/NAME.oixk, opened by
 * the reader bundle with every backend asked for, verifies and dumps to its
 * NAME.json. URL parameters: names (comma separated), backends (default
 * "wasm,ts"; "auto" is what a page gets without choosing).
 */
import { type BackendChoice, initWasm, openColumnsAsync, wasmUnavailableReason } from '../../../src/entry-reader.js'
import { canonicalJson, dump, outcome, publish } from './compare.js'

publish(async () => {
  const parameters = new URLSearchParams(location.search)
  const names = (parameters.get('names') ?? '').split(',').filter((name) => name !== '')
  const backends = (parameters.get('backends') ?? 'wasm,ts').split(',') as BackendChoice[]
  const wasmReady = await initWasm()
  const files = []
  for (const name of names) {
    const bytes = new Uint8Array(await (await fetch(`/test/golden/${name}.oixk`)).arrayBuffer())
    const expected = canonicalJson(await (await fetch(`/test/golden/${name}.json`)).json())
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
