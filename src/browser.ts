/**
 * oixk for browsers (the "browser" condition of the package's main entry): the
 * same exports as Node's (index.ts, which has the asynchronous WebAssembly setup
 * a page's main thread needs, so code using it runs in both). Built into
 * dist/browser/oixk.js.
 */
export * from './index.js'
