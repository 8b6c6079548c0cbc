/**
 * DocSet: a bitset over a reader's documents whose words live in the
 * backend's memory (WebAssembly: linear memory), so kernels read and write it
 * in place, with no copy per call.
 */
import type { ColumnsBackend } from '../backend/backend.js'
import { type Tracked, WeakTracker } from '../backend/weak-tracker.js'
import { popcount, wordsFor } from '../backend/bits.js'
import type { BitsetMemory } from '../backend/query-kernels.js'
import { shown } from '../read/file-input.js'
import { OTHER_COPY } from '../format/library-copy.js'

/**
 * What is wrong with `doc` as a document of [0, maxDoc): out of range, not an integer, or of
 * another type (a string "1" printed as 1 read as a document in range).
 */
export function documentProblem(doc: unknown, maxDoc: number): string {
  if (typeof doc === 'bigint') return `document ${doc}n is a bigint; documents are numbers in [0, ${maxDoc})`
  return `document ${shown(doc)} ${Number.isInteger(doc) ? 'is outside' : 'is not an integer in'} [0, ${maxDoc})`
}

/** Why two backends differ when one is a pool's or both have one name (other memories), for messages; '' otherwise. */
export function otherMemory(a: ColumnsBackend, b: ColumnsBackend): string {
  return a !== b && (a.name === b.name || a.sharedMemory === true || b.sharedMemory === true) ? ' (a DocSet of another memory, such as a query pool\'s: use it with its segment or segment.openReader())' : ''
}

/** Marks DocSets of every copy of the library, so that another copy's is named as such (see library-copy.ts). */
const DOC_SET_BRAND = Symbol.for('oixk.doc-set')

/** Whether `value` is a DocSet of any copy of the library. */
function isAnyCopysDocSet(value: unknown): boolean {
  return typeof value === 'object' && value !== null && DOC_SET_BRAND in value
}

/** Why `value` is not a DocSet of this copy, for messages: another copy's, or what it is. */
export function notThisDocSet(value: unknown): string {
  return isAnyCopysDocSet(value) ? `is a DocSet of ${OTHER_COPY}: make it with this reader` : 'is not a DocSet'
}

/** What DocSet.fromDocuments needs of a reader. */
export interface DocSetFactory {
  createDocSet(): DocSet
}

/**
 * Not for callers (published as DocSet's constructor names it): the DocSets made from one reader
 * (its createDocSet and its columns' queries), released when the reader closes: sets dropped
 * without release() would otherwise hold linear memory until collected, which a synchronous loop
 * never lets happen. Held weakly, so collection still frees them.
 */
export class DocSetOwner extends WeakTracker<DocSet> {
  /** Releases every set still alive. */
  releaseAll(): void {
    for (const set of this.drain()) set.release()
  }
}

/** A set of document ids in [0, maxDoc); bits at and beyond maxDoc always stay 0. */
export class DocSet implements Iterable<number>, Disposable {
  readonly maxDoc: number
  /** @internal The backend whose memory holds the words; kernels of other backends refuse the set. */
  readonly backend: ColumnsBackend
  private bitset: BitsetMemory | null
  private readonly owner: DocSetOwner | null
  private readonly ownerReference: Tracked<DocSet> | null

  /** Not for callers: use reader.createDocSet() / reader.allDocuments() / DocSet.fromDocuments. */
  constructor(backend: ColumnsBackend, maxDoc: number, owner: DocSetOwner | null = null) {
    this.backend = backend
    this.maxDoc = maxDoc
    this.bitset = backend.query.allocateBitset(wordsFor(maxDoc))
    this.owner = owner
    this.ownerReference = owner === null ? null : owner.add(this)
  }

  /** A set of the reader's documents holding `ids` (each an integer in [0, maxDoc)). */
  static fromDocuments(reader: DocSetFactory, ids: Iterable<number>): DocSet {
    if (typeof (reader as Partial<DocSetFactory> | null)?.createDocSet !== 'function') {
      throw new TypeError(`DocSet.fromDocuments needs a reader or a pool's segment, got ${reader === null ? 'null' : typeof reader}`)
    }
    const set = reader.createDocSet()
    try {
      for (const id of ids) set.add(id)
    } catch (error) {
      set.release()
      throw error
    }
    return set
  }

  /** @internal See DOC_SET_BRAND. */
  get [DOC_SET_BRAND](): true {
    return true
  }

  /** @internal The backend memory, for kernels. */
  get memory(): BitsetMemory {
    if (this.bitset === null) throw new Error('DocSet was released (by its release(), or by closing the reader or segment that made it)')
    return this.bitset
  }

  /** The words (bit d & 31 of word d >> 5 is document d); a current view: re-read after opens or allocations. */
  get words(): Int32Array {
    return this.memory.words
  }

  private checkDocument(doc: number): void {
    if (typeof doc !== 'number' || !(doc >= 0 && doc < this.maxDoc) || !Number.isInteger(doc)) throw new RangeError(documentProblem(doc, this.maxDoc))
  }

  /** @internal Throws RangeError unless other belongs to the same backend and maxDoc. */
  checkCompatible(other: DocSet): void {
    // (Another copy's set by the word: a bundle's class names are minified.)
    if (!(other instanceof DocSet)) throw new TypeError(`${isAnyCopysDocSet(other) ? 'the set given' : shown(other)} ${notThisDocSet(other)}`)
    if (other.backend !== this.backend || other.maxDoc !== this.maxDoc) {
      throw new RangeError(`DocSet of ${other.maxDoc} documents (${other.backend.name} backend) cannot combine with one of ${this.maxDoc} documents (${this.backend.name} backend)${otherMemory(other.backend, this.backend)}`)
    }
  }

  /** Whether doc is in the set. */
  has(doc: number): boolean {
    this.checkDocument(doc)
    return ((this.words[doc >>> 5] >>> (doc & 31)) & 1) === 1
  }

  /** Adds doc; returns this. */
  add(doc: number): this {
    this.checkDocument(doc)
    this.words[doc >>> 5] |= 1 << (doc & 31)
    return this
  }

  /** Keeps only documents also in other (in place); returns this. */
  and(other: DocSet): this {
    this.checkCompatible(other)
    this.backend.query.combineBits(this.memory, other.memory, 'and')
    return this
  }

  /** Adds the documents of other (in place); returns this. */
  or(other: DocSet): this {
    this.checkCompatible(other)
    this.backend.query.combineBits(this.memory, other.memory, 'or')
    return this
  }

  /** Removes the documents of other (in place); returns this. */
  andNot(other: DocSet): this {
    this.checkCompatible(other)
    this.backend.query.combineBits(this.memory, other.memory, 'andNot')
    return this
  }

  /** Documents in the set. */
  count(): number {
    const words = this.words, full = this.maxDoc >>> 5
    // Bits a caller set in words past maxDoc, which no query reads, are not documents either.
    let past = 0
    for (let word = full; word < words.length; word++) past += popcount(words[word] & ~this.kept(word))
    return this.backend.query.countBits(this.memory) - past
  }

  /** @internal Whether the set holds no document: read up to its first word that holds one (bits past maxDoc are none). */
  isEmpty(): boolean {
    const words = this.words
    for (let word = 0; word < words.length; word++) if ((words[word] & this.kept(word)) !== 0) return false
    return true
  }

  /** The mask of word's bits that are documents (below maxDoc). */
  private kept(word: number): number {
    const full = this.maxDoc >>> 5
    return word < full ? -1 : word === full ? (1 << (this.maxDoc & 31)) - 1 : 0
  }

  /** A copy in the same backend. */
  clone(): DocSet {
    const copy = new DocSet(this.backend, this.maxDoc, this.owner)
    copy.words.set(this.words)
    return copy
  }

  /** @internal Empties the set. */
  clear(): this {
    this.words.fill(0)
    return this
  }

  /** @internal Sets every document. */
  fill(): this {
    const words = this.words
    words.fill(-1)
    if ((this.maxDoc & 31) !== 0) words[words.length - 1] = (1 << (this.maxDoc & 31)) - 1
    return this
  }

  /** Document ids in ascending order. */
  *[Symbol.iterator](): Iterator<number> {
    const wordCount = wordsFor(this.maxDoc)
    for (let word = 0; word < wordCount; word++) {
      let bits = this.words[word] & this.kept(word)
      while (bits !== 0) {
        yield word * 32 + (31 - Math.clz32(bits & -bits))
        bits &= bits - 1
      }
    }
  }

  /** Document ids in ascending order. */
  toArray(): Uint32Array {
    const ids = new Uint32Array(this.count())
    const words = this.words, wordCount = wordsFor(this.maxDoc)
    let next = 0
    for (let word = 0; word < wordCount; word++) {
      let bits = words[word] & this.kept(word)
      while (bits !== 0) {
        ids[next++] = word * 32 + (31 - Math.clz32(bits & -bits))
        bits &= bits - 1
      }
    }
    return ids
  }

  /** Gives the words back to the backend; the set must not be used afterwards. Idempotent. Closing the reader it came from does it too. */
  release(): void {
    if (this.bitset === null) return
    this.bitset.release()
    this.bitset = null
    if (this.owner !== null) this.owner.delete(this.ownerReference!)
  }

  [Symbol.dispose](): void {
    this.release()
  }
}
