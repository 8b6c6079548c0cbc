/**
 * oixk/writer: write (flush) and merge columns files. The browser bundle
 * dist/browser/oixk-writer.js is built from this module.
 */
export { ColumnsWriter, flushColumns } from './write/columns-writer.js'
export type { ColumnsDocument, FlushOptions, WriterOptions } from './write/columns-writer.js'
export type { Schema, SchemaField } from './write/schema.js'
export type { CheckedSchema, DocumentOf, FieldInput, FieldValues, SchemaInput } from './write/document-types.js'
export { mergeColumns } from './write/merge.js'
export type { MergeSource, MergeOptions } from './write/merge.js'
export { BackendUnavailableError, CorruptIndexException, InvalidInputError, ResidentLimitError } from './format/errors.js'
export { float64ToSortableBits, sortableBitsToFloat64 } from './format/sortable-bits.js'
