/**
 * Blocks of OIXK v1 integer sequences, modelled independently of src/: bit
 * fields packed LSB first, constant / packed / table blocks, the canonical
 * block choice of the format's section 6.2, and decoding a block back to its values.
 * file-surgery.ts builds whole files from these.
 */

/** Values per block (the format's BLOCK_VALUES, restated here on purpose). */
export const BLOCK_VALUES = 1024

/** Little-endian bytes of an i64/u64. */
export function u64Bytes(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8)
  new DataView(bytes.buffer).setBigUint64(0, BigInt.asUintN(64, value), true)
  return bytes
}

/** The parts' bytes one after another. */
export function concat(...parts: ArrayLike<number>[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/** A block record (dataOffset: override of the running offset) and its data: packed fields, or table entries then indexes. */
export interface Block { kind: number; width: number; reserved: number; dataOffset?: number; base: bigint; aux: bigint; data: Uint8Array }

/** An integer sequence: blockCount, dataLength are overrides; padding follows the blocks' data (8 zeros when valid). */
export interface Sequence { count: number; blockCount?: number; dataLength?: number; blocks: Block[]; padding: Uint8Array }

/** bits(x) for an unsigned 64-bit x. */
export const bits = (value: bigint): number => (value === 0n ? 0 : value.toString(2).length)

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b))

/** SortableBits.Encode of a double as a signed bigint. */
export function sortable(value: number): bigint {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, value, true)
  const b = view.getBigInt64(0, true)
  return b ^ ((b >> 63n) & 0x7fffffffffffffffn)
}

// ---------------------------------------------------------------- bit fields and blocks

/** Packs units into ceil(n·width/8) bytes, field j at stream bits [j·width, (j+1)·width), LSB first. */
export function packFields(units: readonly bigint[], width: number): Uint8Array {
  const data = new Uint8Array(Math.ceil((units.length * width) / 8))
  units.forEach((unit, j) => {
    if (unit < 0n || bits(unit) > width) throw new Error(`unit ${unit} does not fit ${width} bits`)
    for (let b = 0; b < width; b++) {
      if ((unit >> BigInt(b)) & 1n) data[(j * width + b) >> 3] |= 1 << ((j * width + b) & 7)
    }
  })
  return data
}

/** The inverse of packFields, reading fields from data[start...]. */
export function unpackFields(data: Uint8Array, start: number, count: number, width: number): bigint[] {
  return Array.from({ length: count }, (_, j) => {
    let unit = 0n
    for (let b = 0, bit = j * width; b < width; b++, bit++) if ((data[start + (bit >> 3)] >> (bit & 7)) & 1) unit |= 1n << BigInt(b)
    return unit
  })
}

export function constantBlock(value: bigint): Block {
  return { kind: 0, width: 0, reserved: 0, base: value, aux: 0n, data: new Uint8Array(0) }
}

/** A packed block of values with the given base, divisor and width (need not be canonical). */
export function packedBlock(values: readonly bigint[], base: bigint, divisor: bigint, width: number): Block {
  const units = values.map((value) => {
    const difference = BigInt.asUintN(64, value - base)
    if (difference % divisor !== 0n) throw new Error(`${value} - ${base} is not a multiple of ${divisor}`)
    return difference / divisor
  })
  return { kind: 1, width, reserved: 0, base, aux: divisor, data: packFields(units, width) }
}

/** A table block: entries as i64, then index fields of `width` bits (default bits(k - 1)). */
export function tableBlock(entries: readonly bigint[], indexes: readonly number[], width = bits(BigInt(entries.length - 1))): Block {
  return {
    kind: 2, width, reserved: 0, base: entries[0], aux: BigInt(entries.length),
    data: concat(...entries.map(u64Bytes), packFields(indexes.map(BigInt), width)),
  }
}

/** A table block of values over the given (sorted) entries. */
export function tableBlockOf(values: readonly bigint[], entries: readonly bigint[]): Block {
  return tableBlock(entries, values.map((value) => {
    const index = entries.indexOf(value)
    if (index < 0) throw new Error(`${value} is not a table entry`)
    return index
  }))
}

/** The block in the form §6.2 prescribes. */
export function canonicalBlock(values: readonly bigint[]): Block {
  const min = values.reduce((a, b) => (b < a ? b : a)), max = values.reduce((a, b) => (b > a ? b : a))
  if (min === max) return constantBlock(min)
  const divisor = values.reduce((g, value) => gcd(g, BigInt.asUintN(64, value - min)), 0n)
  const width = bits(BigInt.asUintN(64, max - min) / divisor)
  const packed = packedBlock(values, min, divisor, width)
  const distinct = [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const k = distinct.length
  const tableLength = 8 * k + Math.ceil((values.length * bits(BigInt(k - 1))) / 8)
  if (k <= 256 && bits(BigInt.asUintN(64, max - min)) > 8 && tableLength < packed.data.length) return tableBlockOf(values, distinct)
  return packed
}

/** The canonical integer sequence of values. */
export function canonicalSequence(values: readonly bigint[]): Sequence {
  const blocks: Block[] = []
  for (let first = 0; first < values.length; first += BLOCK_VALUES) blocks.push(canonicalBlock(values.slice(first, first + BLOCK_VALUES)))
  return { count: values.length, blocks, padding: new Uint8Array(8) }
}

/** Values a block holds per its record and data (n values). */
export function decodeBlock(block: Block, count: number): bigint[] {
  if (block.kind === 0) return new Array<bigint>(count).fill(block.base)
  if (block.kind === 1) {
    return unpackFields(block.data, 0, count, block.width).map((unit) => BigInt.asIntN(64, block.base + block.aux * unit))
  }
  const k = Number(block.aux)
  const view = new DataView(block.data.buffer, block.data.byteOffset, block.data.byteLength)
  return unpackFields(block.data, 8 * k, count, block.width).map((index) => view.getBigInt64(8 * Number(index), true))
}

export function decodeSequence(sequence: Sequence): bigint[] {
  return sequence.blocks.flatMap((block, i) => decodeBlock(block, Math.min(BLOCK_VALUES, sequence.count - i * BLOCK_VALUES)))
}

/** Bytes of data a record says its block has. */
export function blockDataLength(block: Block, count: number): number {
  const fields = Math.ceil((count * block.width) / 8)
  return block.kind === 0 ? 0 : block.kind === 1 ? fields : 8 * Number(block.aux) + fields
}

