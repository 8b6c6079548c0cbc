/**
 * The seam between the reader (framing, directory, dictionary, validation) and
 * the hot loops. The pure-TypeScript backend ships now; a WebAssembly one plugs
 * in behind the same interface.
 */

/** Names a backend by which users pick it. */
export type BackendName = 'ts' | 'wasm'

/** An integer sequence, validated at open, as the kernels need it. */
export interface SequenceView {
  /** The resident file bytes. */
  readonly bytes: Uint8Array
  /** File name and which sequence this is, for errors raised while reading. */
  readonly fileName: string
  readonly label: string
  readonly count: number
  readonly blockCount: number
  /** Block records copied at open into aligned words: 6 per block (kind | width << 8, dataOffset, baseLow, baseHigh, auxLow, auxHigh). */
  readonly records: Int32Array
  /** Absolute offset of the data area in bytes. */
  readonly dataStart: number
  /** The file's whole ArrayBuffer as aligned int32 words, so bit fields are read in place without copies. */
  readonly bufferWords: Int32Array
  /** Offset of the data area within that buffer (bytes.byteOffset + dataStart). */
  readonly dataStartInBuffer: number
}

/** Presence bitmap of an optional column, with a rank per 64 documents. */
export interface PresenceView {
  /** The bitmap as aligned int32 words (bit d of word d >> 5 is document d). */
  readonly words: Int32Array
  /** ranks[i] = documents with a value before document 64 i. */
  readonly ranks: Uint32Array
}

/** Kernels a reader calls; all of them allocate nothing. */
export interface ColumnsBackend {
  readonly name: BackendName
  /** XXH64 (seed 0) of bytes[start, end) into out as [low, high] uint32 words. */
  hash(bytes: Uint8Array, start: number, end: number, out: Uint32Array): void
  /** The raw value at index of the sequence, into int64Result. */
  getRaw(sequence: SequenceView, index: number): void
  /** Raw values [first, first + count) as (low, high) words into destination from value position destinationIndex. */
  decodeRaw(sequence: SequenceView, first: number, count: number, destination: Int32Array, destinationIndex: number): void
  /** Documents with a value before `document` (document must be < maxDoc). */
  rank(presence: PresenceView, document: number): number
}
