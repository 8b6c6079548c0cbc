/**
 * oixk for browsers (the "browser" condition of the package's main entry): the
 * whole codec plus the asynchronous WebAssembly setup a page's main thread needs.
 * Built into dist/browser/oixk.js.
 */
export * from './index.js'
export { initWasm, loadTypeScriptBackend, openColumnsAsync, wasmUnavailableReason } from './read/open-async.js'
