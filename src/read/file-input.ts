/**
 * What openColumns and the pool accept as a file: a Uint8Array (a Node Buffer
 * too, at any offset), an ArrayBuffer or a SharedArrayBuffer. Anything else is
 * refused before it reaches a backend, whose allocator would take a missing
 * length for a size.
 */
import { isBuffer, typedArrayName } from '../format/brands.js'

/** The bytes of a file argument as a Uint8Array; TypeError naming what was passed otherwise. */
export function fileBytesOf(input: unknown, call: string): Uint8Array {
  // Of any realm (an iframe's, a node:vm context's: this realm's view of the same memory then).
  const isView = typedArrayName(input) === 'Uint8Array'
  if (!isView && !isBuffer(input)) throw new TypeError(`${call}: the file must be a Uint8Array, ArrayBuffer or SharedArrayBuffer, got ${describeInput(input)}`)
  const buffer = isView ? (input as Uint8Array).buffer : input as ArrayBufferLike
  if ((input as ArrayBufferLike).byteLength === 0 && isDetached(buffer)) throw detached(call, isView ? 'Uint8Array' : 'ArrayBuffer')
  if (input instanceof Uint8Array) return input
  return isView ? new Uint8Array(buffer, (input as Uint8Array).byteOffset, (input as Uint8Array).length) : new Uint8Array(buffer)
}

/** Whether an empty buffer was detached (transferred, or a WebAssembly memory's view before growth): a view of it throws. */
function isDetached(buffer: ArrayBufferLike): boolean {
  if (buffer.byteLength !== 0) return false
  try {
    new Uint8Array(buffer)
    return false
  } catch {
    return true
  }
}

function detached(call: string, what: string): TypeError {
  return new TypeError(`${call}: the file's ${what} is detached (transferred, or a view of WebAssembly memory that has grown since); pass the bytes themselves`)
}

/** An argument as a message shows it: a string quoted, so "1" does not read as the number 1. */
export function shown(value: unknown): string {
  // Objects by their kind: an array's items read as numbers (getGeoPoint(document, out) put out where nth goes:
  // "no value #0,0"), and some objects cannot be made strings at all.
  if ((typeof value === 'object' && value !== null) || typeof value === 'function') return `(${describeInput(value)})`
  return typeof value === 'string' ? JSON.stringify(value) : typeof value === 'bigint' ? `${value}n` : String(value)
}

/** Names a value for an error: its type, or its constructor for objects. */
export function describeInput(value: unknown): string {
  if (value === null || value === undefined) return String(value)
  if (typeof value === 'string') return `a string (${value.length} characters)`
  if (typeof value === 'function' || typeof value === 'symbol') return `a ${typeof value}`
  if (typeof value !== 'object') return `${typeof value} ${String(value)}`
  const name = Object.getPrototypeOf(value)?.constructor?.name
  return typeof name === 'string' && name !== 'Object' ? `${/^[AEIO]/.test(name) ? 'an' : 'a'} ${name}` : 'a plain object'
}
