/**
 * Every number the OIXK v1 format fixes, in one place (see docs/format.md).
 */

/** "OIXK" read as a little-endian u32 at offset 0. */
export const HEADER_MAGIC = 0x4b58494f
/** "KXIO" read as a little-endian u32 at length - 12. */
export const FOOTER_MAGIC = 0x4f49584b
export const FORMAT_VERSION = 1

/** Offset of the u32 maxDoc; the first section starts right after it. */
export const MAX_DOC_OFFSET = 8
export const FIRST_SECTION_OFFSET = 12
/** u64 directory offset + footer magic + u64 checksum. */
export const TRAILER_BYTES = 20
export const CHECKSUM_BYTES = 8

/** Field types as stored in the directory's type byte; 0 is text, which never has a column. */
export const FieldTypeCode = {
  keyword: 1,
  integral: 2,
  fractional: 3,
  date: 4,
  bool: 5,
  geo_point: 6,
} as const
export type ColumnType = keyof typeof FieldTypeCode
export type FieldType = ColumnType | 'text'
export const FIELD_TYPES: readonly FieldType[] = ['keyword', 'integral', 'fractional', 'date', 'bool', 'geo_point', 'text']
export const COLUMN_TYPE_BY_CODE: readonly (ColumnType | undefined)[] = [
  undefined, 'keyword', 'integral', 'fractional', 'date', 'bool', 'geo_point',
]

/** Layout bytes: which documents have values and where their runs start. */
export const LayoutCode = { dense: 0, optional: 1, multi: 2 } as const
export type Layout = keyof typeof LayoutCode
export const LAYOUT_BY_CODE: readonly Layout[] = ['dense', 'optional', 'multi']

/** Values per block of an integer sequence (the last block holds the rest). */
export const BLOCK_VALUES = 1024
export const BLOCK_SHIFT = 10
export const BLOCK_RECORD_BYTES = 24
/** u32 count, u32 blockCount, u32 dataLength. */
export const SEQUENCE_HEADER_BYTES = 12
/** Zero bytes after the last block's data so any value is readable with one 8-byte load. */
export const DATA_PADDING_BYTES = 8

export const BlockKind = { constant: 0, packed: 1, table: 2 } as const
export const BLOCK_KIND_NAMES = ['constant', 'packed', 'table'] as const
export const TABLE_MIN_ENTRIES = 2
export const TABLE_MAX_ENTRIES = 256
/** A table is considered only when the raw range needs more than this many bits. */
export const TABLE_MIN_RANGE_BITS = 8

/** Keyword dictionary header: u32 termCount, u32 totalBytes. */
export const DICTIONARY_HEADER_BYTES = 8

/** Counts (documents, values, terms) are stored as 32-bit. */
export const MAX_COUNT = 0xffffffff
export const MAX_DICTIONARY_BYTES = 1 << 30
export const DEFAULT_MAX_RESIDENT_FILE_BYTES = 1 << 30
/** Term bytes a format 2 file's keyword dictionaries may decode to together, by default (OpenOptions.maxDecodedBytes). */
export const DEFAULT_MAX_DECODED_BYTES = 1 << 30
/** The largest varuint value: 5 bytes, below 2^32. */
export const MAX_VARUINT = 0xffffffff
