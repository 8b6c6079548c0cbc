/**
 * Unsigned LEB128 limited to 5 bytes and values below 2^32; readers accept only
 * the minimal encoding so a file has exactly one byte form.
 */
import { MAX_VARUINT } from './constants.js'

/** Bytes the minimal varuint of value takes. */
export function varuintLength(value: number): number {
  let length = 1
  while (value >= 0x80) {
    value = Math.floor(value / 128)
    length++
  }
  return length
}

/** Writes the minimal varuint of value (0 ≤ value < 2^32) at offset; returns the offset after it. */
export function writeVarUint(bytes: Uint8Array, offset: number, value: number): number {
  while (value >= 0x80) {
    bytes[offset++] = (value & 0x7f) | 0x80
    value = Math.floor(value / 128)
  }
  bytes[offset++] = value
  return offset
}

/** Result of readVarUint: the value and the offset after it, or an error description. */
export interface VarUintCursor {
  value: number
  offset: number
}

/**
 * Reads a varuint at cursor.offset ending before `end`, updating the cursor.
 * Returns null on success, else why the bytes are not a valid varuint.
 */
export function readVarUint(bytes: Uint8Array, end: number, cursor: VarUintCursor): string | null {
  let offset = cursor.offset
  let value = 0
  let scale = 1
  for (let index = 0; index < 5; index++) {
    if (offset >= end) return 'varuint runs past its area'
    const byte = bytes[offset++]
    value += (byte & 0x7f) * scale
    if ((byte & 0x80) === 0) {
      if (byte === 0 && index > 0) return 'overlong (non-minimal) varuint'
      if (value > MAX_VARUINT) return 'varuint exceeds 2^32 - 1'
      cursor.value = value
      cursor.offset = offset
      return null
    }
    scale *= 128
  }
  return 'varuint longer than 5 bytes'
}
