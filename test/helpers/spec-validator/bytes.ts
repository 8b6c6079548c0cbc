/**
 * Byte-level primitives of the clean-room validator: little-endian reads, the
 * bit-packed field layout, a bounded cursor and the optional record of every
 * field read (which the mutation test uses to know where to edit).
 * Written from docs/format.md and docs/format-v2.md only; imports nothing from src/.
 */

/** A rule of the document was broken; `rule` names it. */
export class Invalid extends Error {
  constructor(readonly rule: string) {
    super(rule)
  }
}

/** Stops validation: the file breaks `rule`. */
export function fail(rule: string): never {
  throw new Invalid(rule)
}

/** A field the validator read: byte offset, size in bytes, dotted label. */
export interface Site {
  off: number
  size: number
  label: string
}

/**
 * What the validator saw, for tests: every fixed-width field and varuint it read,
 * and the last byte of every bit-packed stream that has unused high bits.
 */
export interface Sites {
  fields: Site[]
  tails: Site[]
}

export const P53 = 1n << 53n
export const P52 = 1n << 52n
/** `bits(x)`, format-v2.md §3: bits needed for x ≥ 0 (0 for 0). */
export const bitsN = (x: number) => (x <= 0 ? 0 : 32 - Math.clz32(x))
/** `c8(x)` = ceil(x / 8), the bytes holding x bits. */
export const c8 = (x: number) => Math.ceil(x / 8)
export const toI64 = (x: bigint) => BigInt.asIntN(64, x)

/** Unsigned 32-bit little-endian read (format.md §1: integers are little-endian). */
export function rdU32(b: Uint8Array, p: number): number {
  return ((b[p] | (b[p + 1] << 8) | (b[p + 2] << 16)) + b[p + 3] * 2 ** 24) >>> 0
}

/** Unsigned 64-bit little-endian read. */
export function rdU64(b: Uint8Array, p: number): bigint {
  let v = 0n
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(b[p + i])
  return v
}

/** Field j of width W (0..64) of a stream packed from bit 0 of byte p, least significant bit first (format.md §6.1). */
export function field(b: Uint8Array, p: number, j: number, W: number): bigint {
  let bit = j * W
  let v = 0n
  let got = 0
  while (got < W) {
    const sh = bit & 7
    const take = Math.min(8 - sh, W - got)
    v |= BigInt((b[p + (bit >> 3)] >> sh) & ((1 << take) - 1)) << BigInt(got)
    got += take
    bit += take
  }
  return v
}

/** `field` for widths known to fit a double exactly (≤ 52). */
export const fieldN = (b: Uint8Array, p: number, j: number, W: number) => Number(field(b, p, j, W))

/** Unsigned byte-wise comparison, the order of keyword terms (format.md §5.3). */
export function cmpBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return a.length - b.length
}

/** A cursor over `[pos, end)`; every read is bounds-checked against `end` (a section or the directory). */
export class Cursor {
  constructor(
    readonly b: Uint8Array,
    public pos: number,
    readonly end: number,
    readonly sites: Sites | null,
  ) {}

  /** Fails unless n more bytes are inside the range: nothing may run past its section. */
  need(n: number, what: string): void {
    if (n < 0 || this.pos + n > this.end) fail(`${what}: runs past end`)
  }

  private note(size: number, label: string): void {
    this.sites?.fields.push({ off: this.pos, size, label })
  }

  u8(label: string): number {
    this.need(1, label)
    this.note(1, label)
    return this.b[this.pos++]
  }

  u16(label: string): number {
    this.need(2, label)
    this.note(2, label)
    const v = this.b[this.pos] | (this.b[this.pos + 1] << 8)
    this.pos += 2
    return v
  }

  u32(label: string): number {
    this.need(4, label)
    this.note(4, label)
    this.pos += 4
    return rdU32(this.b, this.pos - 4)
  }

  u64(label: string): bigint {
    this.need(8, label)
    this.note(8, label)
    this.pos += 8
    return rdU64(this.b, this.pos - 8)
  }

  i64(label: string): bigint {
    return toI64(this.u64(label))
  }

  /** format.md §1: a varuint is at most 5 bytes, minimal (no trailing zero byte) and below 2^32. */
  varuint(label: string): number {
    const start = this.pos
    let v = 0
    for (let i = 0, shift = 0; ; i++, shift += 7) {
      if (i >= 5) fail(`${label}: varuint longer than 5 bytes`)
      if (this.pos >= this.end) fail(`${label}: varuint truncated`)
      const byte = this.b[this.pos++]
      v += (byte & 0x7f) * 2 ** shift
      if (!(byte & 0x80)) {
        if (i > 0 && byte === 0) fail(`${label}: varuint not minimal`)
        break
      }
    }
    if (v >= 2 ** 32) fail(`${label}: varuint ≥ 2^32`)
    this.sites?.fields.push({ off: start, size: this.pos - start, label })
    return v
  }
}
