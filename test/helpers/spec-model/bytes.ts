/**
 * Byte-level primitives shared by the format-v2 spec model: little-endian
 * integers, v1-style bit packing and the `bits` / `c8` helpers of
 * docs/format-v2.md §3. Written from the documents only; imports nothing from src/.
 */

const MASK64 = (1n << 64n) - 1n

/** Number of significant bits of a non-negative integer (`bits(0) = 0`, docs/format-v2.md §3): the v1 model's, also written from the documents. */
export { bits } from '../block-model.js'

/** `c8(x) = ceil(x / 8)`: bytes needed for x bits (docs/format-v2.md §3). */
export function c8(x: number): number {
  return Math.ceil(x / 8)
}

/** Greatest common divisor of two non-negative integers (`gcd(0, b) = b`), for the g and gx of docs/format-v2.md §3. */
export function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b]
  return a
}

/** Floor division (towards −∞), which BigInt's `/` (towards 0) is not; docs/format-v2.md §3.7 needs it. */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q
}

/**
 * Packs fields of `width` bits as v1 packs units (docs/format.md §6, docs/format-v2.md §3):
 * field j at stream bits [j·width, (j+1)·width), bit b in bit `b & 7` of byte `b >> 3`.
 */
export function pack(fields: readonly bigint[], width: number): number[] {
  const out = new Array<number>(c8(fields.length * width)).fill(0)
  if (width === 0) return out
  let position = 0
  for (const field of fields) {
    let rest = field
    for (let k = 0; k < width; k++, position++) {
      if (rest & 1n) out[position >> 3] |= 1 << (position & 7)
      rest >>= 1n
    }
  }
  return out
}

/** Appends little-endian integers and byte strings (docs/format.md §1 primitives). */
export class ByteWriter {
  readonly out: number[] = []

  u8(x: number): void {
    this.out.push(x & 255)
  }

  u16(x: number): void {
    this.u8(x)
    this.u8(x >> 8)
  }

  u32(x: number): void {
    // Division rather than shifts: x can reach 2^32 − 1, beyond int32.
    for (let i = 0; i < 4; i++) this.u8(Math.floor(x / 2 ** (8 * i)))
  }

  /** Low 64 bits, little-endian: negative values and wrapped linear bases (§3.7) alike. */
  i64(x: bigint): void {
    let v = x & MASK64
    for (let i = 0; i < 8; i++) {
      this.u8(Number(v & 255n))
      v >>= 8n
    }
  }

  /** `varuint`: 7 bits per byte, low group first, high bit = more (docs/format.md §1). */
  varuint(x: number): void {
    while (x >= 128) {
      this.out.push((x % 128) | 128)
      x = Math.floor(x / 128)
    }
    this.out.push(x)
  }

  bytes(a: ArrayLike<number>): void {
    for (let i = 0; i < a.length; i++) this.out.push(a[i])
  }
}
