/**
 * A growable little-endian byte buffer the writer assembles sections in.
 */
export class ByteSink {
  bytes: Uint8Array
  length = 0

  constructor(initialCapacity = 1024) {
    this.bytes = new Uint8Array(initialCapacity)
  }

  /** Makes room for `extra` more bytes. */
  reserve(extra: number): void {
    const needed = this.length + extra
    if (needed <= this.bytes.length) return
    let capacity = this.bytes.length * 2
    while (capacity < needed) capacity *= 2
    const grown = new Uint8Array(capacity)
    grown.set(this.bytes.subarray(0, this.length))
    this.bytes = grown
  }

  writeUint8(value: number): void {
    this.reserve(1)
    this.bytes[this.length++] = value
  }

  /** Writes a 32-bit word (signed or unsigned) little-endian. */
  writeInt32(value: number): void {
    this.reserve(4)
    const bytes = this.bytes
    const offset = this.length
    bytes[offset] = value
    bytes[offset + 1] = value >>> 8
    bytes[offset + 2] = value >>> 16
    bytes[offset + 3] = value >>> 24
    this.length = offset + 4
  }

  /** Writes an i64 given as (low, high) words. */
  writeInt64(low: number, high: number): void {
    this.writeInt32(low)
    this.writeInt32(high)
  }

  /** Writes a 24-byte block record: u8 kind, u8 width, u16 param (v1: 0), u32 dataOffset, i64 base, i64 aux (as words). */
  writeRecord(kind: number, width: number, param: number, dataOffset: number, baseLow: number, baseHigh: number, auxLow: number, auxHigh: number): void {
    this.writeUint8(kind)
    this.writeUint8(width)
    this.writeUint8(param & 0xff)
    this.writeUint8(param >>> 8)
    this.writeInt32(dataOffset)
    this.writeInt64(baseLow, baseHigh)
    this.writeInt64(auxLow, auxHigh)
  }

  /** Overwrites the 32-bit word at `offset` (a length known only later). */
  patchInt32(offset: number, value: number): void {
    this.bytes[offset] = value
    this.bytes[offset + 1] = value >>> 8
    this.bytes[offset + 2] = value >>> 16
    this.bytes[offset + 3] = value >>> 24
  }

  writeBytes(source: Uint8Array): void {
    this.reserve(source.length)
    this.bytes.set(source, this.length)
    this.length += source.length
  }

  writeZeros(count: number): void {
    this.reserve(count)
    this.bytes.fill(0, this.length, this.length + count)
    this.length += count
  }

  /** The written bytes (a view; copy before writing more if you keep it). */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length)
  }
}
