/**
 * Built-in objects recognised whatever realm made them (an iframe's, a `node:vm` context's), where
 * `instanceof` sees only this realm's constructors.
 */

/** Whether `value` is a Date of any realm. */
export function isDate(value: unknown): value is Date {
  if (value instanceof Date) return true
  // The tag first: a throw for every other object (each geo point, each { raw } bound) is slow.
  if (typeof value !== 'object' || value === null || Object.prototype.toString.call(value) !== '[object Date]') return false
  try {
    // Throws for anything without a Date's time slot.
    Date.prototype.getTime.call(value)
    return true
  } catch {
    return false
  }
}

/** Object.prototype.toString's tags of built-ins whose data is not in their own properties. */
const SLOTTED_TAGS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'Date', 'RegExp', 'Number', 'String', 'Boolean', 'ArrayBuffer', 'SharedArrayBuffer'])

/**
 * The kind of a built-in of any realm whose data lies apart from its own properties (a Map's
 * entries, a Date's time, a typed array's elements), as `Map`, `Date`, `Uint8Array`...; null for
 * anything else.
 */
export function slottedKind(value: object): string | null {
  if (ArrayBuffer.isView(value)) return value.constructor?.name ?? 'typed array'
  const tag = Object.prototype.toString.call(value).slice(8, -1)
  return SLOTTED_TAGS.has(tag) ? tag : null
}

// %TypedArray%.prototype's tag getter reads the [[TypedArrayName]] slot: undefined for anything else.
const typedArrayTag = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag)!.get!

/** The typed array kind of `value` whatever realm made it ('Uint8Array', 'Int32Array'...), or undefined. */
export function typedArrayName(value: unknown): string | undefined {
  return typedArrayTag.call(value) as string | undefined
}

// Each byteLength getter throws for an object without its buffer slot.
const bufferLengths = [ArrayBuffer, globalThis.SharedArrayBuffer].filter(Boolean).map((kind) => Object.getOwnPropertyDescriptor(kind.prototype, 'byteLength')!.get!)

/** Whether `value` is an ArrayBuffer or a SharedArrayBuffer of any realm. */
export function isBuffer(value: unknown): value is ArrayBufferLike {
  return bufferLengths.some((byteLength) => {
    try {
      byteLength.call(value)
      return true
    } catch {
      return false
    }
  })
}
