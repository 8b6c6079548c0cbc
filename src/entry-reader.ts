/**
 * oixk/reader: open, read and query columns files; no writer. The browser
 * bundle dist/browser/oixk-reader.js is built from this module (the WebAssembly
 * kernels inlined; its size target and ceilings: test/bundle-size.test.ts). The pure-TypeScript backend
 * is not exported here: the bundle loads it on demand (loadTypeScriptBackend()
 * resolves to it); the main entry exports it as typeScriptBackend.
 */
export { openColumns } from './read/open.js'
export type { OpenOptions } from './read/open.js'
export { initWasm, loadTypeScriptBackend, openColumnsAsync, wasmUnavailableReason } from './read/open-async.js'
export { openColumnsFromUrl } from './read/open-url.js'
export type { UrlOpenOptions } from './read/open-url.js'
export { ColumnsReader } from './read/reader.js'
export { loadFullCheck } from './cascade/reader/canonical-loader.js'
export { Column } from './read/column.js'
export type { GeoPart } from './read/column.js'
export { Dictionary } from './read/dictionary.js'
export { BackendUnavailableError, CorruptIndexException, InvalidInputError, ResidentLimitError } from './format/errors.js'
export type { ColumnType, FieldType, Layout } from './format/constants.js'
export type { BackendName, ColumnsBackend } from './backend/backend.js'
export type { BackendChoice } from './backend/select.js'
export { float64ToSortableBits, sortableBitsToFloat64 } from './format/sortable-bits.js'
export { DocSet } from './kernels/doc-set.js'
export type { Aggregate } from './kernels/aggregations.js'
export type { TermCount } from './kernels/facets.js'
export type { BoundingBox } from './kernels/filters.js'
export type { NaturalValue, RawBound } from './kernels/natural-units.js'
export type { Terms } from './kernels/filters.js'
export type { ColumnValue, ToArrayOptions } from './read/to-array.js'
export type { SortOrder } from './kernels/top-k.js'
