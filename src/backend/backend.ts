import type { QueryKernels } from './query-kernels.js'

/**
 * The seam between the reader (framing, directory, dictionary, validation) and
 * the hot loops. Two implementations give identical results: pure TypeScript
 * (src/backend/ts) and WebAssembly (src/backend/wasm, kernels in assembly/).
 */

/** Names a backend by which users pick it. */
export type BackendName = 'ts' | 'wasm'

/** A file held by a backend for the life of a reader. */
export interface ResidentFile {
  /**
   * The file's bytes. For the TS backend, the caller's array; for WebAssembly a view
   * of linear memory, valid until the memory next grows (another open): the reader
   * parses it during open only and copies out what it keeps (the dictionaries).
   */
  readonly bytes: Uint8Array
  /** Whether `bytes` stays valid for the reader's life (views of it may be handed out). */
  readonly stable: boolean
  /** Address of byte 0 in the backend's memory (0 for the TS backend). */
  readonly address: number
  /** Gives the memory back; later reads through this file are not allowed. */
  release(): void
  /**
   * Zeroes what regions handed out before left in this one (WebAssembly; memory never handed out
   * is zero already): a FileBuffer starts as zeros, never as the last closed file's bytes.
   */
  zeroStale?(): void
}

/** An integer sequence, validated at open, as the kernels need it. */
export interface SequenceView {
  /** The resident file the sequence lives in. */
  readonly file: ResidentFile
  /**
   * The file's bytes as parsed at open. Only the TS kernels read them: with WebAssembly they are
   * a view that memory growth detaches (see ResidentFile.bytes), so nothing else may.
   */
  readonly bytes: Uint8Array
  /** File name and which sequence this is, for errors raised while reading. */
  readonly fileName: string
  readonly label: string
  readonly count: number
  readonly blockCount: number
  /** Block records copied at open into aligned words: 6 per block (kind | width << 8, dataOffset, baseLow, baseHigh, auxLow, auxHigh). */
  readonly records: Int32Array
  /** File offsets of the first block record and of the data area, and the data area's length (padding included). */
  readonly recordsStart: number
  readonly dataStart: number
  readonly dataLength: number
  /** The file's whole ArrayBuffer as aligned int32 words, so bit fields are read in place without copies. */
  readonly bufferWords: Int32Array
  /** Offset of the data area within that buffer (bytes.byteOffset + dataStart). */
  readonly dataStartInBuffer: number
  /**
   * Format v2: how the sequence is encoded when v1's kernels cannot read it (a sequence form other
   * than blocks, or blocks of v2's kinds); null for v1 sequences and v2 blocks of v1's kinds only.
   */
  readonly cascade: Cascade | null
}

/**
 * A v2 sequence v1's kernels cannot read (docs/format-v2.md); `count` values in all. `start` is the
 * file offset of its form byte: the WebAssembly kernels walk the sequence from there.
 */
export type Cascade = BlocksCascade | DictionaryCascade | RunsCascade | DecimalCascade

/** Blocks with v2 kinds: the view itself, read block by block. */
export interface BlocksCascade {
  readonly start: number
  readonly form: 0
  readonly count: number
  readonly blocks: SequenceView
}

/** A sequence dictionary: value i = entries[codes[i]]. */
export interface DictionaryCascade {
  readonly start: number
  readonly form: 1
  readonly count: number
  /** 0: entries ascending; 1: by descending frequency. */
  readonly order: number
  readonly entries: SequenceView
  readonly codes: SequenceView
  /** TypeScript backend: the entries decoded at open, as (low, high) words. */
  readonly entryWords: Int32Array | null
}

/** Runs over the whole sequence: value i = values[the run holding i]. */
export interface RunsCascade {
  readonly start: number
  readonly form: 2
  readonly count: number
  readonly runCount: number
  /** File offset of the u32 checkpoints (the run holding value 1,024 b, per block b). */
  readonly checkpointsStart: number
  readonly values: SequenceView
  readonly starts: SequenceView
  /** @internal The TypeScript backend's single reads: the runs as numbers, made by the first (null before; see decode-ts.ts). */
  runNumbers: RunNumbers | null
}

/** @internal A runs sequence's starts and exact values (NaN beyond 2^53) as numbers, each block's runs filled on its first read. */
export interface RunNumbers {
  readonly filled: Uint8Array
  readonly starts: Uint32Array
  readonly values: Float64Array
}

/** Decimal doubles: value i = SortableBits(n_i / 10^exponent), but at the exceptions' positions. */
export interface DecimalCascade {
  readonly start: number
  readonly form: 3
  readonly count: number
  readonly exponent: number
  readonly exceptionCount: number
  /** File offsets of the u32 positions and of the i64 raw values. */
  readonly positionsStart: number
  readonly exceptionsStart: number
  readonly integers: SequenceView
}

/**
 * Format 2 keyword terms to decode at open (docs/format-v2.md §10): pieces (raw bytes or FSST
 * codes), each after the bytes it shares with the term before (front coding). Everything here
 * was checked to lie inside the file; the decoders check the rest (codes, lengths, order).
 */
export interface TermsJob {
  readonly file: ResidentFile
  readonly termCount: number
  /** The declared term bytes: no output passes them (the WebAssembly decoder writes into 32 bytes of slack after them). */
  readonly totalBytes: number
  /** The symbol table (FSST_TABLE_BYTES: 8-byte symbols, then lengths), or null: the pieces are raw bytes. */
  readonly table: Uint8Array | null
  /** File offset of the pieces, back to back, each piece's length in the file, and their sum. */
  readonly piecesStart: number
  readonly pieceLengths: Int32Array
  readonly pieceBytes: number
  /** Front coding: bytes each term shares with the one before it; null: each piece is a term. */
  readonly shared: Int32Array | null
}

/** Format 2 digits terms (dictionary form 5): term t is integer t in `digits` decimal digits. */
export interface DigitsJob {
  readonly integers: SequenceView
  readonly termCount: number
  readonly digits: number
}

/** Decoded terms, in memory of the reader's own: term t is bytes [offsets[t], offsets[t + 1]). */
export interface DecodedTerms {
  readonly bytes: Uint8Array
  readonly offsets: Uint32Array
}

/** Presence bitmap of an optional column, with a rank per 64 documents. */
export interface PresenceView {
  /** The bitmap as aligned int32 words (bit d of word d >> 5 is document d). */
  readonly words: Int32Array
  /** ranks[i] = documents with a value before document 64 i. */
  readonly ranks: Uint32Array
}

/** How decodeFloat64 turns raw values into doubles. */
export type Float64Mode = 'sortable' | 'exact'

/** Kernels a reader calls. After open none of them allocates (but views of new destinations). */
export interface ColumnsBackend {
  readonly name: BackendName
  /** The copy of the library that made it (src/format/library-copy.ts): another copy's is refused. */
  readonly copy: object
  /** True for a query pool's backend, whose DocSets live in shared memory (named in errors). */
  readonly sharedMemory?: boolean
  /** Holds a file for a reader (the WebAssembly backend copies it into linear memory). */
  load(bytes: Uint8Array): ResidentFile
  /** Holds a file of `length` bytes that `fill` writes straight into the backend's memory (no extra copy). */
  loadWith(length: number, fill: (destination: Uint8Array) => void): ResidentFile
  /** XXH64 (seed 0) of the resident file's bytes [start, end) into out as [low, high] uint32 words. */
  hash(file: ResidentFile, start: number, end: number, out: Uint32Array): void
  /** The raw value at index of the sequence, into int64Result. */
  getRaw(sequence: SequenceView, index: number): void
  /**
   * The raw value at index as an exact number, or NaN when it is beyond 2^53 or the read fails
   * (getRaw then reports it); single reads of the blocks NumberLookup cannot serve.
   */
  getNumber(sequence: SequenceView, index: number): number
  /**
   * Raw values [first, first + count) into destination from value position destinationIndex: a
   * BigInt64Array's elements, or an Int32Array's (low, high) word pairs.
   */
  decodeRaw(sequence: SequenceView, first: number, count: number, destination: Int32Array | BigInt64Array, destinationIndex: number): void
  /**
   * Values [first, first + count) as doubles: 'sortable' decodes SortableBits (fractional, geo),
   * 'exact' converts integers. Returns -1, or the run position of the first value beyond 2^53
   * ('exact'): the values before it are written, none from it on.
   */
  decodeFloat64(sequence: SequenceView, first: number, count: number, mode: Float64Mode, destination: Float64Array, destinationIndex: number): number
  /**
   * Values [first, first + count) as int32. With ordinalLimit ≥ 0 they are ordinals that must be
   * below it; otherwise they must fit an int32. Returns -1, or the run position of the first bad value
   * (the values before it are written, none from it on).
   */
  decodeInt32(sequence: SequenceView, first: number, count: number, ordinalLimit: number, destination: Int32Array, destinationIndex: number): number
  /**
   * A sequence dictionary's codes (a blocks node), all of them, as ranks[code] (any u16 per code: a
   * rank, or the entry less the least) into `target` from byte `offset`, a u8 (width 8) or u16 (width 16) each,
   * and each block's least and largest of them as two u16s from byte `extremes`. Returns -1; or anything else when a code is not
   * below the k ranks or a block cannot be read (nothing then means anything). For
   * src/cascade/decoded-codes.ts.
   */
  decodeRanks(codes: SequenceView, ranks: Uint16Array, target: ResidentFile, offset: number, width: 8 | 16, extremes: number): number
  /**
   * Keyword ordinals [first, first + count) as raw values, in chunks of 1,024 from `first`, each
   * decoded and then checked below ordinalLimit. Returns -1, or the run position of the first
   * ordinal not below it (the values before it are written).
   */
  decodeOrdinals(sequence: SequenceView, first: number, count: number, ordinalLimit: number, destination: BigInt64Array, destinationIndex: number): number
  /**
   * The full check's block test: -1 when every block is in the form a flush would choose,
   * else the first block that is not, with the canonical record in `canonical`
   * ([kind, width, baseLow, baseHigh, auxLow, auxHigh]). Leaves the sequence's smallest and
   * largest raw value in minMax ([minLow, minHigh, maxLow, maxHigh]). Throws
   * CorruptIndexException for a table index out of range.
   */
  checkCanonical(sequence: SequenceView, minMax: Int32Array, canonical: Int32Array): number
  /**
   * Decodes format 2 keyword terms (raw, FSST, front coding) and checks their order: the terms,
   * or a status (src/dictionary/decode/status.ts) with its details in `detail`.
   */
  decodeTerms(job: TermsJob, detail: Int32Array): DecodedTerms | number
  /** Decodes format 2 digits terms and checks them: the terms' bytes (each `digits` long), or a status with its details in `detail`. */
  decodeDigits(job: DigitsJob, detail: Int32Array): Uint8Array | number
  /** Documents with a value before `document` (document must be < maxDoc). */
  rank(presence: PresenceView, document: number): number
  /** Facet, filter and aggregation kernels (src/backend/query-kernels.ts). */
  readonly query: QueryKernels
}
