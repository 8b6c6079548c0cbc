/**
 * Arrays the reader writes into for the caller (readValues' destination, getGeoPoint's out,
 * facetCounts' counts) must not lie in WebAssembly linear memory unless a live ValueBuffer
 * holds them: a view kept past its buffer's release, or made by hand over a FileBuffer's
 * memory, would have the reader write into memory another reader's file now occupies.
 */
import { sharedByEveryCopy } from '../format/library-copy.js'

/**
 * What every copy of the library in this realm shares (a reader of one copy must not write into a
 * released or stray view of another's memory either): each linear memory's ArrayBuffers (the one
 * before every growth, and after) mapped to their memory's token, the live ValueBuffers' regions,
 * the arrays released ValueBuffers handed out, and a count of releases.
 */
interface Registry {
  memoryOf: WeakMap<ArrayBufferLike, object>
  held: Set<HeldRegion>
  released: WeakSet<ArrayBufferView>
  releases: number
}
const registry: Registry = sharedByEveryCopy('oixk.linear-memory-registry.v1', () => ({
  memoryOf: new WeakMap(), held: new Set(), released: new WeakSet(), releases: 0,
}))
const { memoryOf, held, released } = registry

/** Marks buffer as a view of the linear memory named by token (a runtime registers every buffer its memory has had). */
export function registerLinearMemory(buffer: ArrayBufferLike, token: object): void {
  memoryOf.set(buffer, token)
}

/** Whether `buffer` is (or was, before growth) the buffer of some copy's WebAssembly memory. */
export function isLinearMemory(buffer: ArrayBufferLike): boolean {
  return memoryOf.has(buffer)
}

/** What a live ValueBuffer holds: its region's current bytes (the ValueBuffer re-reads them after growth). */
export interface HeldRegion {
  regionBytes(): Uint8Array
}

// Arrays of linear memory found fit since the last release of any copy (a readValues into the same array again checks nothing).
let allowed = new WeakSet<ArrayBufferView>()
let allowedSince = registry.releases
// Weakly: a ValueBuffer's array keeps its buffer (and memory) alive as long as it lives. Only arrays of linear
// memory (a ValueBuffer's, a few) get one: a WeakRef keeps its target until the current task ends, so one per
// array of the caller's would keep every array a synchronous loop makes and drops.
let lastAllowed: WeakRef<ArrayBufferView> | null = null

/** A ValueBuffer's region is live: views inside it may be written (only regions of linear memory are kept). */
export function holdRegion(region: HeldRegion): void {
  if (memoryOf.has(region.regionBytes().buffer)) held.add(region)
}

/**
 * A ValueBuffer's region is given back, with `view` the array it handed out (null for a buffer the
 * collector found dropped): views inside it must no longer be written.
 */
export function dropRegion(region: HeldRegion, view: ArrayBufferView | null): void {
  if (view !== null) released.add(view)
  held.delete(region)
  registry.releases++
}

function insideHeld(array: ArrayBufferView, token: object): boolean {
  const start = array.byteOffset, end = start + array.byteLength
  for (const region of held) {
    const bytes = region.regionBytes()
    if (memoryOf.get(bytes.buffer) === token && start >= bytes.byteOffset && end <= bytes.byteOffset + bytes.byteLength) return true
  }
  return false
}

/**
 * Throws unless the reader may write into `array`: an array of the caller's own memory, or one
 * inside a live ValueBuffer. The message names the field and the argument, e.g. `readValues destination`.
 */
export function checkWritable(array: ArrayBufferView, field: string, argument: string): void {
  // A view of linear memory that growth detached has no bytes (a read into it would write nothing, silently).
  const live = array.byteLength !== 0
  if (allowedSince !== registry.releases) {
    allowed = new WeakSet()
    lastAllowed = null
    allowedSince = registry.releases
  }
  if (live && array === lastAllowed?.deref()) return
  const token = memoryOf.get(array.buffer)
  if (token === undefined ? !released.has(array) : live && allowed.has(array)) return
  // (Two strings, not a callback making the message: a closure per call would allocate on every read.)
  const what = `field "${field}": ${argument}`
  if (released.has(array)) throw new RangeError(`${what} is the array of a released ValueBuffer`)
  if (array.buffer.byteLength === 0) {
    throw new RangeError(`${what} was detached when WebAssembly memory grew: read the ValueBuffer's array again after an open or allocation`)
  }
  if (!insideHeld(array, token!)) {
    throw new RangeError(`${what} is WebAssembly memory outside every live ValueBuffer (kept past its release, or made over a FileBuffer); pass a live ValueBuffer's array or an array of your own`)
  }
  allowed.add(array)
  lastAllowed = new WeakRef(array)
}
