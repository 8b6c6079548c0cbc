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
