/**
 * Random columns files for the backend duel: every column type in every
 * layout, value sequences built block by block so that each 1,024-value block
 * takes a chosen shape (constant, packed of a width / divisor / base near the
 * i64 extremes, few distinct wide values for tables), and a count that leaves
 * the last block partial.
 */
import type { ColumnsDocument } from '../../src/write/columns-writer.js'
import type { Schema, SchemaField } from '../../src/write/schema.js'
import type { Pick } from './duel.js'

export const MIN_INT64 = -(2n ** 63n)
export const MAX_INT64 = 2n ** 63n - 1n
export const DIVISORS = [1n, 1000n, 7n, 1n << 40n]
export const TYPES = ['keyword', 'integral', 'fractional', 'date', 'bool', 'geo_point'] as const
export const LAYOUTS = ['dense', 'optional', 'multi'] as const

/** A uniformly random unsigned integer below 2^bits. */
export function randomBits(random: () => number, bits: number): bigint {
  let value = 0n
  for (let done = 0; done < bits; done += 30) value = (value << 30n) | BigInt(Math.floor(random() * 2 ** 30))
  return bits === 0 ? 0n : value & ((1n << BigInt(bits)) - 1n)
}

/** n raw i64 values of one block shape. */
export function rawBlock(random: () => number, n: number): bigint[] {
  const pick: Pick = (limit) => Math.floor(random() * limit)
  const shape = pick(6)
  if (shape === 0) return Array<bigint>(n).fill(BigInt.asIntN(64, randomBits(random, 64)))
  if (shape === 1) {
    // few distinct values far apart: a table when it is smaller than the packed form
    const entries = Array.from({ length: 2 + pick(255) }, () => BigInt.asIntN(64, randomBits(random, 1 + pick(64))))
    return Array.from({ length: n }, () => entries[pick(entries.length)])
  }
  const width = 1 + pick(64)
  const base = [0n, MIN_INT64, MIN_INT64 + 5n, MAX_INT64 - (1n << 20n), MAX_INT64, BigInt.asIntN(64, randomBits(random, 64)), -1000n][pick(7)]
  const divisor = DIVISORS[pick(DIVISORS.length)]
  return Array.from({ length: n }, () => BigInt.asIntN(64, base + divisor * randomBits(random, width)))
}

/** The IEEE bits whose SortableBits encoding is raw (the map is its own inverse). */
export function ieeeOfSortable(raw: bigint): bigint {
  return BigInt.asUintN(64, raw ^ ((raw >> 63n) & 0x7fffffffffffffffn))
}

const GEO_EXTREMES = [[90, 180], [-90, -180], [0, -0], [-0, 0], [89.999999, -179.999999]]

function geoBlock(random: () => number, n: number): { lat: number; lon: number }[] {
  const pick: Pick = (limit) => Math.floor(random() * limit)
  const point = () => ({ lat: random() * 180 - 90, lon: random() * 360 - 180 })
  switch (pick(5)) {
    case 0: { const p = point(); return Array.from({ length: n }, () => p) }
    case 1: { const few = Array.from({ length: 2 + pick(200) }, point); return Array.from({ length: n }, () => few[pick(few.length)]) }
    case 2: return Array.from({ length: n }, () => ({ lat: (pick(1_800_001) - 900_000) / 1e4, lon: (pick(3_600_001) - 1_800_000) / 1e4 }))
    case 3: return Array.from({ length: n }, () => { const [lat, lon] = GEO_EXTREMES[pick(GEO_EXTREMES.length)]; return { lat, lon } })
    default: return Array.from({ length: n }, point)
  }
}

const ALPHABET = ['a', 'b', 'z', 'é', '€', '\u{1F600}', '\uFFFD', ' ', '0', '\u0000']

/** A pool of distinct terms (the empty string included sometimes). */
export function termPool(random: () => number, size: number): string[] {
  const pick: Pick = (limit) => Math.floor(random() * limit)
  const terms = new Set<string>()
  if (pick(2) === 0) terms.add('')
  while (terms.size < size) {
    let term = ''
    for (let length = 1 + pick(8); length > 0; length--) term += ALPHABET[pick(ALPHABET.length)]
    terms.add(`${term}${terms.size}`)
  }
  return [...terms]
}

/** `count` values of a column of `type`, block by block. */
function columnValues(random: () => number, type: (typeof TYPES)[number], count: number): unknown[] {
  const pick: Pick = (limit) => Math.floor(random() * limit)
  const values: unknown[] = []
  const pool = type === 'keyword' ? termPool(random, [1, 3, 40, 300, 1500][pick(5)]) : []
  while (values.length < count) {
    const n = Math.min(1024, count - values.length)
    switch (type) {
      case 'integral': values.push(...rawBlock(random, n)); break
      case 'date': values.push(...rawBlock(random, n)); break
      case 'fractional': values.push(...rawBlock(random, n).map((raw) => ({ bits: ieeeOfSortable(raw) }))); break
      case 'geo_point': values.push(...geoBlock(random, n)); break
      case 'bool': {
        const shape = pick(3)
        for (let index = 0; index < n; index++) values.push(shape === 2 ? pick(2) === 1 : shape === 1)
        break
      }
      case 'keyword': {
        const shape = pick(3)
        const subset = Array.from({ length: 1 + pick(200) }, () => pool[pick(pool.length)])
        for (let index = 0; index < n; index++) values.push(shape === 0 ? subset[0] : shape === 1 ? subset[pick(subset.length)] : pool[pick(pool.length)])
        break
      }
    }
  }
  return values
}

/** Values per document for a layout: dense 1 each; optional some 0, some 1; multi some ≥ 2. */
function documentCounts(random: () => number, layout: (typeof LAYOUTS)[number], maxDoc: number): number[] {
  const density = 0.1 + random() * 0.8
  const counts = Array.from({ length: maxDoc }, () => {
    if (layout === 'dense') return 1
    if (layout === 'optional') return random() < density ? 1 : 0
    return random() < density ? 1 + Math.floor(random() * 4) : 0
  })
  if (layout === 'optional') { counts[0] = 0; counts[maxDoc - 1] = 1 }
  if (layout === 'multi') counts[Math.floor(random() * maxDoc)] = 2 + Math.floor(random() * 3)
  return counts
}

/** A random file: schema and documents with a column per type × layout (optional needs maxDoc ≥ 2). */
export function randomDocuments(random: () => number, maxDoc: number): { schema: Schema; docs: ColumnsDocument[] } {
  const fields: SchemaField[] = []
  const docs: Record<string, unknown>[] = Array.from({ length: maxDoc }, () => ({}))
  for (const type of TYPES) {
    for (const layout of LAYOUTS) {
      if (layout === 'optional' && maxDoc < 2) continue
      const name = `${type}_${layout}`
      fields.push({ name, type, column: type !== 'keyword', facet: type === 'keyword', multi: layout === 'multi' })
      const counts = documentCounts(random, layout, maxDoc)
      const values = columnValues(random, type, counts.reduce((a, b) => a + b, 0))
      let next = 0
      counts.forEach((count, document) => {
        if (count === 0) return
        docs[document][name] = layout === 'multi' ? values.slice(next, next + count) : values[next]
        next += count
      })
    }
  }
  return { schema: { fields }, docs }
}
