/**
 * Memory owned by a backend that the reader fills or reads without a copy:
 * with WebAssembly, regions of linear memory the kernels address directly.
 * FileBuffer: a file is written into it (a download, a read) and opened in
 * place. ValueBuffer: readValues decodes straight into it.
 */
import type { ColumnsBackend, ResidentFile } from '../backend/backend.js'
import { type BackendChoice, resolveBackend } from '../backend/select.js'
import { type HeldRegion, dropRegion, holdRegion } from '../backend/destinations.js'
import { ownedBy, type Tracked, WeakTracker } from '../backend/weak-tracker.js'
import { ResidentLimitError } from '../format/errors.js'
import { shown } from './file-input.js'
import { type OpenOptions, openResidentFile, residentLimit } from './open.js'
import type { ColumnsReader } from './reader.js'

function checkLength(length: number, what: string): void {
  if (!(length >= 0) || length !== Math.floor(length) || length > 2 ** 32) {
    throw new RangeError(`${what} length ${shown(length)} is not an integer in [0, 2^32]`)
  }
}

/**
 * A region of the backend's memory, zeros (not what a file closed before left there); allocated
 * through loadWith. A size no memory holds is a RangeError naming the buffer.
 */
function allocateRegion(backend: ColumnsBackend, byteLength: number, what: string): ResidentFile {
  let region: ResidentFile
  try {
    region = backend.loadWith(byteLength, () => {})
  } catch (error) {
    throw error instanceof RangeError ? new RangeError(`${what} cannot be allocated: ${error.message}`, { cause: error }) : error
  }
  region.zeroStale?.()
  return region
}

/** Bytes in a backend's memory that a file is written into and then opened in place, any number of times. */
export class FileBuffer implements Disposable {
  readonly length: number
  private readonly backend: ColumnsBackend
  private region: ResidentFile | null
  private view: Uint8Array
  // Weakly: a reader dropped without close() is collected (its query memory with it) while the buffer lives on.
  private readonly readers = new WeakTracker<ColumnsReader>()

  constructor(length: number, backend: ColumnsBackend) {
    checkLength(length, 'file buffer')
    this.length = length
    this.backend = backend
    this.region = allocateRegion(backend, length, `file buffer of ${length} bytes`)
    this.view = this.region.bytes
  }

  /** The bytes to fill. With WebAssembly, a view that memory growth detaches: re-read this after any open or allocation. */
  get bytes(): Uint8Array {
    // A detached view reports length 0; only then is a new one made (the getter allocates nothing otherwise).
    // A released buffer of 0 bytes keeps a view of its length: the region tells.
    if (this.view.length !== this.length || this.region === null) this.view = this.live().bytes
    return this.view
  }

  /**
   * Opens the file in the buffer without copying it (checksum and structure checked as by openColumns).
   * Readers borrow the buffer: release() closes them. Change the bytes only while no reader is open.
   */
  open(options: Omit<OpenOptions, 'backend'> = {}): ColumnsReader {
    const region = this.live()
    const limit = residentLimit(options.fileName ?? 'columns', options)
    if (this.length > limit) throw new ResidentLimitError(options.fileName ?? 'columns', this.length, limit)
    let tracked: Tracked<ColumnsReader> | null = null
    const borrowed: ResidentFile = {
      get bytes() { return region.bytes },
      stable: region.stable,
      address: region.address,
      // The buffer owns the memory: a reader's close only stops tracking the reader (so opening
      // and closing many times keeps nothing).
      release: () => { if (tracked !== null) this.readers.delete(tracked) },
    }
    const reader = openResidentFile(borrowed, this.backend, options)
    tracked = this.readers.add(reader)
    return reader
  }

  /** Closes the readers opened from the buffer and gives its memory back. Idempotent. */
  release(): void {
    if (this.region === null) return
    for (const reader of this.readers.drain()) reader.close()
    this.region.release()
    this.region = null
    this.view = new Uint8Array(0)
  }

  [Symbol.dispose](): void {
    this.release()
  }

  private live(): ResidentFile {
    if (this.region === null) throw new Error('file buffer was released')
    return this.region
  }
}

/** Typed arrays readValues fills. */
export type ValueArray = BigInt64Array | Float64Array | Int32Array
/** Which typed array a ValueBuffer holds. */
export type ValueArrayKind = 'int64' | 'float64' | 'int32'

interface ValueArrayOf { int64: BigInt64Array; float64: Float64Array; int32: Int32Array }
const CONSTRUCTORS = { int64: BigInt64Array, float64: Float64Array, int32: Int32Array } as const

/**
 * ValueBuffers dropped without release(): their regions are refused as destinations (the arrays
 * they handed out may outlive them), then given back.
 */
const forgottenValueBuffers = new FinalizationRegistry<{ held: HeldRegion; region: ResidentFile }>(({ held, region }) => {
  dropRegion(held, null)
  region.release()
})

/** A typed array in the backend's memory: readValues into it decodes in place, with no copy out of WebAssembly. */
export class ValueBuffer<Kind extends ValueArrayKind = 'int64'> implements Disposable {
  readonly kind: Kind
  readonly length: number
  private region: ResidentFile | null
  private view: ValueArrayOf[Kind]
  // The region as src/backend/destinations.ts sees it while the buffer is live (its bytes re-read
  // after growth). It refers to the region, not to the buffer, so that a dropped buffer is collected.
  private readonly held: HeldRegion

  constructor(kind: Kind, length: number, backend: ColumnsBackend) {
    checkLength(length, 'value buffer')
    if (typeof kind !== 'string' || !Object.hasOwn(CONSTRUCTORS, kind)) throw new TypeError(`unknown value buffer kind ${JSON.stringify(kind)}; expected "int64", "float64" or "int32"`)
    this.kind = kind
    this.length = length
    const region = allocateRegion(backend, length * CONSTRUCTORS[kind].BYTES_PER_ELEMENT, `value buffer of ${length} ${kind} values (${length * CONSTRUCTORS[kind].BYTES_PER_ELEMENT} bytes)`)
    this.region = region
    this.view = this.makeView()
    this.held = { regionBytes: () => region.bytes }
    holdRegion(this.held)
    forgottenValueBuffers.register(this, { held: this.held, region }, this)
  }

  /** The values. With WebAssembly, growth of memory detaches it: re-read this property after any open or allocation. */
  get array(): ValueArrayOf[Kind] {
    if (this.view.length !== this.length || this.region === null) this.view = this.makeView()
    return this.view
  }

  /** Gives the memory back; the array must not be used afterwards. Idempotent. */
  release(): void {
    if (this.region === null) return
    // Views of the region are refused as destinations before its memory can go to anyone else.
    forgottenValueBuffers.unregister(this)
    dropRegion(this.held, this.view)
    this.region.release()
    this.region = null
    // An empty view fails the getter's length test (a buffer of 0 values, its region test), so the next read of `array` throws.
    this.view = new CONSTRUCTORS[this.kind](0) as ValueArrayOf[Kind]
  }

  [Symbol.dispose](): void {
    this.release()
  }

  private makeView(): ValueArrayOf[Kind] {
    if (this.region === null) throw new Error('value buffer was released')
    const bytes = this.region.bytes
    // The array keeps the buffer: dropping the buffer but not its array must not free the region.
    return ownedBy(new CONSTRUCTORS[this.kind](bytes.buffer as ArrayBuffer, bytes.byteOffset, this.length) as ValueArrayOf[Kind], this)
  }
}

/** A buffer of `length` bytes in the chosen backend's memory to write a columns file into and open in place. */
export function createFileBuffer(length: number, options: { backend?: BackendChoice } = {}): FileBuffer {
  return new FileBuffer(length, resolveBackend(options.backend))
}

/** A typed array of `length` values in the chosen backend's memory (readValues decodes into it without a copy). */
export function createValueBuffer<Kind extends ValueArrayKind>(
  kind: Kind, length: number, options: { backend?: BackendChoice } = {},
): ValueBuffer<Kind> {
  return new ValueBuffer(kind, length, resolveBackend(options.backend))
}
