/**
 * Collects one field's raw values in document order and, at finish, writes its
 * section: dictionary (keywords), presence bitmap or offsets, value sequences.
 */
import { type ColumnType, LAYOUT_BY_CODE, LayoutCode, MAX_COUNT, MAX_DICTIONARY_BYTES } from '../format/constants.js'
import type { DirectoryEntry } from '../format/directory-entry.js'
import { InvalidInputError, UnallocatableInputError } from '../format/errors.js'
import { compareCodePoints, encodeUtf8Into, findLoneSurrogate, utf8Length } from '../format/utf8.js'
import { ByteSink } from './byte-sink.js'
import { TermIds } from './term-ids.js'
import { sequenceMinMax, writeSequence } from './sequence-encoder.js'
import { rangeOf, type SequenceDomain, writeSequenceV2 } from '../cascade/sequence-writer.js'
import { encodeDictionary } from '../dictionary/write/choose.js'

/**
 * An Int32Array of `length` words for a table as long as maxDoc, or an InvalidInputError naming
 * `what` and its bytes where the engine refuses the length or cannot find the memory (a huge maxDoc).
 */
function tableWords(length: number, what: string): Int32Array {
  try {
    return new Int32Array(length)
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    throw new UnallocatableInputError(`${what} take ${4 * length} bytes in memory, more than this process can allocate (${error.message})`)
  }
}

/** Growable list of i64 values as interleaved (low, high) words. */
class Int64List {
  words: Int32Array
  length = 0

  constructor(capacity = 32) {
    this.words = new Int32Array(2 * Math.max(1, capacity))
  }

  push(low: number, high: number): void {
    if (2 * this.length + 2 > this.words.length) this.grow()
    this.words[2 * this.length] = low
    this.words[2 * this.length + 1] = high
    this.length++
  }

  private grow(): void {
    const grown = new Int32Array(this.words.length * 2)
    grown.set(this.words)
    this.words = grown
  }
}

/** Growable list of int32. */
class Int32List {
  values = new Int32Array(64)
  length = 0

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2)
      grown.set(this.values)
      this.values = grown
    }
    this.values[this.length++] = value
  }
}

/** One field's values while a segment is written. */
export class ColumnBuilder {
  readonly name: string
  readonly type: ColumnType
  readonly multi: boolean
  /** Raw values (keyword: term ids in first-seen order, remapped to ordinals at finish). */
  readonly values: Int64List
  /** Longitudes of a geo column (values holds the latitudes). */
  readonly longitudes: Int64List
  /** Documents that have at least one value, and the value index where each run ends. */
  private readonly documents = new Int32List()
  /** Documents with values; while they are exactly 0, 1, 2, … the list above stays empty. */
  private documentCount = 0
  private contiguous = true
  private readonly runEnds = new Int32List()
  private maxValuesPerDocument = 0
  private readonly terms: string[] = []
  private readonly termIds = new TermIds(this.terms)
  private dictionaryBytes = 0
  private markedValues = 0
  private markedDocuments = 0
  private markedTerms = 0
  private markedDictionaryBytes = 0
  private markedMaxValues = 0

  /** Integral and date columns take safe-integer numbers as they are. */
  readonly integerNumbers: boolean

  /** expectedValues presizes the value lists (a hint; they grow past it). */
  constructor(name: string, type: ColumnType, multi: boolean, expectedValues = 32) {
    this.values = new Int64List(expectedValues)
    this.longitudes = new Int64List(type === 'geo_point' ? expectedValues : 1)
    this.integerNumbers = type === 'integral' || type === 'date'
    this.name = name
    this.type = type
    this.multi = multi
  }

  /** Remembers the state before a document, so a bad document leaves no trace. */
  mark(): void {
    this.markedValues = this.values.length
    this.markedDocuments = this.documentCount
    this.markedTerms = this.terms.length
    this.markedDictionaryBytes = this.dictionaryBytes
    this.markedMaxValues = this.maxValuesPerDocument
  }

  /** Undoes everything since mark(). */
  rollback(): void {
    this.values.length = this.markedValues
    this.longitudes.length = Math.min(this.longitudes.length, this.markedValues)
    this.documentCount = this.markedDocuments
    if (!this.contiguous) this.documents.length = this.markedDocuments
    if (this.multi) this.runEnds.length = this.markedDocuments
    for (let term = this.markedTerms; term < this.terms.length; term++) this.termIds.delete(this.terms[term])
    this.terms.length = this.markedTerms
    this.dictionaryBytes = this.markedDictionaryBytes
    this.maxValuesPerDocument = this.markedMaxValues
  }

  /** Closes the run of `document` that started at value index `runStart` (no-op for an empty run). */
  endDocument(document: number, runStart: number): void {
    const count = this.values.length - runStart
    if (count === 0) return
    if (this.values.length > MAX_COUNT) {
      throw new InvalidInputError(`field "${this.name}" of document ${document}: more than 2^32 - 1 values in one column`)
    }
    if (!this.contiguous || document !== this.documentCount) this.pushDocument(document)
    this.documentCount++
    // Run ends are needed only for the offsets of a multi layout, which only multi fields get.
    if (this.multi) this.runEnds.push(this.values.length)
    if (count > this.maxValuesPerDocument) this.maxValuesPerDocument = count
  }

  /** Records a document id once ids stop being 0, 1, 2, … (materialising the run so far). */
  private pushDocument(document: number): void {
    if (this.contiguous) {
      for (let earlier = 0; earlier < this.documentCount; earlier++) this.documents.push(earlier)
      this.contiguous = false
    }
    this.documents.push(document)
  }

  /** Adds a keyword value; the term must be well-formed (checked here). */
  appendTerm(term: string, document: number): void {
    let id = this.termIds.get(term)
    if (id === undefined) {
      const surrogate = findLoneSurrogate(term)
      if (surrogate >= 0) {
        throw new InvalidInputError(
          `field "${this.name}" of document ${document}: keyword has a lone surrogate at UTF-16 index ${surrogate}; UTF-8 cannot hold it (TextEncoder would replace it with U+FFFD, losing data)`,
        )
      }
      const length = utf8Length(term)
      if (this.dictionaryBytes + length > MAX_DICTIONARY_BYTES) {
        throw new InvalidInputError(
          `field "${this.name}" of document ${document}: the dictionary would exceed ${MAX_DICTIONARY_BYTES} bytes (1 GiB) of keyword bytes`,
        )
      }
      if (this.terms.length === MAX_COUNT) {
        throw new InvalidInputError(`field "${this.name}" of document ${document}: more than 2^32 - 1 distinct terms`)
      }
      this.dictionaryBytes += length
      id = this.terms.length
      this.terms.push(term)
      this.termIds.set(term, id)
    }
    this.values.push(id, 0)
  }

  get valueCount(): number {
    return this.values.length
  }

  /** Appends the section for a segment of maxDoc documents to sink in format 1 or 2; returns the directory entry. */
  build(maxDoc: number, sink: ByteSink, format: 1 | 2 = 1): DirectoryEntry {
    const sectionOffset = sink.length
    const valueCount = this.values.length
    const documentsWithValue = this.documentCount
    const layout = this.maxValuesPerDocument > 1
      ? LayoutCode.multi
      : documentsWithValue === maxDoc ? LayoutCode.dense : LayoutCode.optional
    const domain: SequenceDomain = this.type === 'fractional' || this.type === 'geo_point' ? 'double' : 'integer'
    const sequence = (words: Int32Array, count: number, of: SequenceDomain) => {
      if (format === 1) writeSequence(words, count, sink)
      else writeSequenceV2(words, count, sink, of)
    }
    if (this.type === 'keyword') this.writeDictionary(sink, format)
    if (layout === LayoutCode.optional) this.writePresenceBitmap(maxDoc, sink)
    if (layout === LayoutCode.multi) this.writeOffsets(maxDoc, sequence)
    if (format === 2) rangeOf(this.values.words, valueCount, sequenceMinMax)
    sequence(this.values.words, valueCount, domain)
    const minLow = sequenceMinMax[0], minHigh = sequenceMinMax[1], maxLow = sequenceMinMax[2], maxHigh = sequenceMinMax[3]
    if (this.type === 'geo_point') sequence(this.longitudes.words, valueCount, domain)
    return {
      name: this.name, type: this.type, layout: LAYOUT_BY_CODE[layout], documentsWithValue, valueCount,
      minLow, minHigh, maxLow, maxHigh, sectionOffset, sectionLength: sink.length - sectionOffset,
    }
  }

  /**
   * Sorts the terms by UTF-8 bytes, writes the dictionary (format 2: in the form of the
   * smallest size, src/dictionary/write/choose.ts) and turns term ids into ordinals.
   */
  private writeDictionary(sink: ByteSink, format: 1 | 2): void {
    const termCount = this.terms.length
    const order = Array.from({ length: termCount }, (_, id) => id)
    const terms = this.terms
    order.sort((a, b) => compareCodePoints(terms[a], terms[b]))
    const ordinalOfId = new Int32Array(termCount)
    for (let ordinal = 0; ordinal < termCount; ordinal++) ordinalOfId[order[ordinal]] = ordinal
    if (format === 2) {
      const bytes = new Uint8Array(this.dictionaryBytes)
      const offsets = new Uint32Array(termCount + 1)
      for (let ordinal = 0; ordinal < termCount; ordinal++) {
        offsets[ordinal + 1] = offsets[ordinal] + encodeUtf8Into(terms[order[ordinal]], bytes, offsets[ordinal])
      }
      sink.writeBytes(encodeDictionary({ bytes, offsets }))
    } else {
      sink.writeInt32(termCount)
      sink.writeInt32(this.dictionaryBytes)
      let offset = 0
      sink.writeInt32(0)
      for (let ordinal = 0; ordinal < termCount; ordinal++) {
        offset += utf8Length(terms[order[ordinal]])
        sink.writeInt32(offset)
      }
      sink.reserve(this.dictionaryBytes)
      for (let ordinal = 0; ordinal < termCount; ordinal++) {
        sink.length += encodeUtf8Into(terms[order[ordinal]], sink.bytes, sink.length)
      }
    }
    const words = this.values.words
    for (let index = 0; index < this.values.length; index++) words[2 * index] = ordinalOfId[words[2 * index]]
  }

  private writePresenceBitmap(maxDoc: number, sink: ByteSink): void {
    const bitmap = new Int32Array(2 * Math.ceil(maxDoc / 64))
    const documents = this.documents.values
    for (let index = 0; index < this.documentCount; index++) {
      const document = this.contiguous ? index : documents[index] >>> 0
      bitmap[document >>> 5] |= 1 << (document & 31)
    }
    sink.writeBytes(new Uint8Array(bitmap.buffer))
  }

  private writeOffsets(maxDoc: number, sequence: (words: Int32Array, count: number, domain: SequenceDomain) => void): void {
    const offsets = tableWords(2 * (maxDoc + 1), `field "${this.name}": maxDoc ${maxDoc}: a multi-valued column's offsets (8 bytes a document)`)
    const documents = this.documents.values
    const runEnds = this.runEnds.values
    let document = 0
    let runStart = 0
    for (let index = 0; index < this.documentCount; index++) {
      const withValues = this.contiguous ? index : documents[index] >>> 0 // stored as int32; ids reach 2^32 - 2
      while (document <= withValues) offsets[2 * document++] = runStart
      runStart = runEnds[index]
    }
    while (document <= maxDoc) offsets[2 * document++] = runStart
    sequence(offsets, maxDoc + 1, 'integer')
  }
}
