/**
 * Format 2's keyword dictionary forms (docs/format-v2.md §10): the form byte
 * that starts a keyword column's section, and the constants their layouts share.
 */

/** The dictionary form byte. */
export const DictionaryForm = { v1: 0, plain: 1, fsst: 2, front: 3, frontFsst: 4, digits: 5 } as const

/** Form names, indexed by form byte (inspect, errors). */
export const DICTIONARY_FORM_NAMES = ['v1', 'plain', 'fsst', 'front', 'front-fsst', 'digits'] as const

/** u32 termCount, u32 totalBytes after the form byte of forms 1 to 5. */
export const FORM_HEADER_BYTES = 9

/** An integer list's tag: fields of one width, or a v2 integer sequence. */
export const ListTag = { packed: 0, sequence: 1 } as const

/** Front coding restarts (shares nothing) at every term whose ordinal is a multiple of this. */
export const FRONT_RESTART = 64

/** Digit strings stored as integers have at most this many digits: below 2^53, exact in doubles. */
export const MAX_DIGITS = 15

/** FSST: at most 255 symbols of 1 to 8 bytes; code 255 escapes the byte after it. */
export const FSST_ESCAPE = 255
export const FSST_MAX_SYMBOLS = 255
export const FSST_MAX_SYMBOL_BYTES = 8
/** A symbol table as the decoders take it: 255 symbols of 8 bytes (zero-padded), then 256 lengths (0: no symbol). */
export const FSST_TABLE_BYTES = 8 * 256 + 256
export const FSST_LENGTHS_AT = 8 * 256
