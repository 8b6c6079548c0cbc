/**
 * UTF-8 helpers: dictionary order is UTF-8 byte order, which equals code point
 * order and differs from JavaScript's UTF-16 `<` only around surrogates.
 */

const encoder = new TextEncoder()
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** UTF-8 bytes of a well-formed string, without encoding it. */
export function utf8Length(text: string): number {
  let length = text.length
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index)
    if (unit < 0x80) continue
    if (unit < 0x800) length += 1
    else if (unit >= 0xd800 && unit < 0xdc00) index++, length += 2 // a pair: 4 bytes for 2 units
    else length += 2
  }
  return length
}

/** Compares well-formed strings by code point, i.e. by their UTF-8 bytes. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let index = 0; index < length; index++) {
    let unitA = a.charCodeAt(index)
    let unitB = b.charCodeAt(index)
    if (unitA === unitB) continue
    // Surrogates (D800–DFFF) encode code points above FFFF, so they sort after E000–FFFF.
    if (unitA >= 0xd800 && unitB >= 0xd800) {
      unitA = unitA >= 0xe000 ? unitA - 0x800 : unitA + 0x2000
      unitB = unitB >= 0xe000 ? unitB - 0x800 : unitB + 0x2000
    }
    return unitA - unitB
  }
  return a.length - b.length
}

/** Compares two byte ranges lexicographically (unsigned bytes, shorter prefix first). */
export function compareByteRanges(
  bytes: Uint8Array, startA: number, endA: number, startB: number, endB: number,
): number {
  const lengthA = endA - startA, lengthB = endB - startB
  const length = Math.min(lengthA, lengthB)
  for (let index = 0; index < length; index++) {
    const difference = bytes[startA + index] - bytes[startB + index]
    if (difference !== 0) return difference
  }
  return lengthA - lengthB
}

/** Encodes a string as UTF-8 bytes. */
export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text)
}

/** Encodes into destination at offset; returns bytes written. */
export function encodeUtf8Into(text: string, destination: Uint8Array, offset: number): number {
  return encoder.encodeInto(text, destination.subarray(offset)).written
}

/** Decodes UTF-8, or returns null when the bytes are not valid UTF-8. */
export function decodeUtf8Strict(bytes: Uint8Array): string | null {
  try {
    return strictDecoder.decode(bytes)
  } catch {
    return null
  }
}

/** Index of the first lone surrogate in text, or -1 when it is well-formed. */
export function findLoneSurrogate(text: string): number {
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index)
    if (unit < 0xd800 || unit > 0xdfff) continue
    if (unit < 0xdc00) {
      const next = text.charCodeAt(index + 1)
      if (next >= 0xdc00 && next <= 0xdfff) { index++; continue }
    }
    return index
  }
  return -1
}
