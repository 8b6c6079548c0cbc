/**
 * Encodes one block (≤ 1,024 raw i64 values) in the form the format's
 * deterministic choice gives: constant, packed (base + gcd × u) or table.
 * Values arrive as interleaved (low, high) int32 words.
 */
import {
  BLOCK_VALUES, BlockKind, TABLE_MAX_ENTRIES, TABLE_MIN_ENTRIES, TABLE_MIN_RANGE_BITS,
} from '../format/constants.js'
import {
  bitsOfNumber, bitsOfUnsigned, bigIntToInt64, compareInt64, int64Result, int64ToBigInt,
} from '../format/int64.js'
import type { ByteSink } from './byte-sink.js'

/** A block record's fields: what the 24 bytes of a record say. */
export interface BlockChoice {
  kind: number
  width: number
  baseLow: number
  baseHigh: number
  /** The block's largest value (the smallest is the base). */
  maxLow: number
  maxHigh: number
  auxLow: number
  auxHigh: number
  /** Bytes of data the block takes. */
  dataLength: number
  /** Distinct values in ascending order when kind is table (words, 2 per entry). */
  tableEntryCount: number
}

const MAX_DOUBLE_EXACT_HIGH = 0x200000 // ranges below 2^53 are exact in doubles
const unitLow = new Int32Array(BLOCK_VALUES)
const unitHigh = new Int32Array(BLOCK_VALUES)
const packWords = new Uint32Array(2 * BLOCK_VALUES + 2)
const packBytes = new Uint8Array(packWords.buffer)

// Open-addressing set of up to 257 distinct values, reset by a generation stamp.
const SET_SLOTS = 1024
const setLow = new Int32Array(SET_SLOTS)
const setHigh = new Int32Array(SET_SLOTS)
const setStamp = new Int32Array(SET_SLOTS)
const setEntry = new Int32Array(SET_SLOTS)
let stamp = 0
/** The distinct values found by countDistinct, in first-seen order, as (low, high) words. */
const tableWords = new Int32Array(2 * (TABLE_MAX_ENTRIES + 1))
const tableOrder = new Int32Array(TABLE_MAX_ENTRIES + 1)
const tableIndexOfEntry = new Int32Array(TABLE_MAX_ENTRIES + 1)
/** The distinct-value entry of each value of the block, as countDistinct found it. */
const entryOfValue = new Int32Array(BLOCK_VALUES)

function slotOf(low: number, high: number): number {
  let slot = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b) >>> 22
  while (setStamp[slot] === stamp && (setLow[slot] !== low || setHigh[slot] !== high)) {
    slot = (slot + 1) & (SET_SLOTS - 1)
  }
  return slot
}

/** Distinct values of the block, or limit + 1 once there are more than limit (≤ 256). */
function countDistinct(words: Int32Array, first: number, count: number, limit: number): number {
  stamp++
  let distinct = 0
  let previousLow = 0, previousHigh = 0, previousEntry = -1
  for (let index = first, position = 0; index < first + count; index++, position++) {
    const low = words[2 * index], high = words[2 * index + 1]
    // Repeats of the previous value (runs) skip the hash.
    if (low === previousLow && high === previousHigh && previousEntry >= 0) {
      entryOfValue[position] = previousEntry
      continue
    }
    const slot = slotOf(low, high)
    if (setStamp[slot] !== stamp) {
      if (distinct === limit) return limit + 1
      setStamp[slot] = stamp
      setLow[slot] = low
      setHigh[slot] = high
      setEntry[slot] = distinct
      tableWords[2 * distinct] = low
      tableWords[2 * distinct + 1] = high
      distinct++
    }
    previousLow = low
    previousHigh = high
    previousEntry = setEntry[slot]
    entryOfValue[position] = previousEntry
  }
  return distinct
}

function gcdNumbers(a: number, b: number): number {
  while (b !== 0) {
    const rest = a % b
    a = b
    b = rest
  }
  return a
}

function gcdBigInts(a: bigint, b: bigint): bigint {
  while (b !== 0n) {
    const rest = a % b
    a = b
    b = rest
  }
  return a
}

/**
 * Computes the block's canonical record (kind, width, base, aux) and, for packed
 * blocks, the packed units u = (v - base) / g into the module's unit scratch.
 * allowTable false (format v2's wide blocks) gives constant or packed only.
 */
export function chooseBlock(words: Int32Array, first: number, count: number, choice: BlockChoice, allowTable = true): void {
  let minLow = words[2 * first], minHigh = words[2 * first + 1]
  let maxLow = minLow, maxHigh = minHigh
  // Two common shapes need no 64-bit compare: values that fit an int32 (high word = sign of
  // low: compare lows signed) and values sharing one high word (clustered timestamps:
  // compare lows unsigned, i.e. with the sign bit flipped).
  const firstHigh = minHigh
  let notInt32 = 0, otherHigh = 0
  let minFlipped = minLow ^ 0x80000000, maxFlipped = minFlipped
  for (let index = 2 * first, end = 2 * (first + count); index < end; index += 2) {
    const low = words[index], high = words[index + 1]
    notInt32 |= high ^ (low >> 31)
    otherHigh |= high ^ firstHigh
    minLow = Math.min(minLow, low)
    maxLow = Math.max(maxLow, low)
    minFlipped = Math.min(minFlipped, low ^ 0x80000000)
    maxFlipped = Math.max(maxFlipped, low ^ 0x80000000)
  }
  if (notInt32 === 0) {
    minHigh = minLow >> 31
    maxHigh = maxLow >> 31
  } else if (otherHigh === 0) {
    minLow = minFlipped ^ 0x80000000
    maxLow = maxFlipped ^ 0x80000000
    maxHigh = firstHigh
  } else {
    minLow = maxLow = words[2 * first]
    minHigh = maxHigh = words[2 * first + 1]
    // Signed 64-bit order = order of (high signed, low with its sign bit flipped).
    let minLowFlipped = minLow ^ 0x80000000, maxLowFlipped = minLowFlipped
    for (let index = first + 1; index < first + count; index++) {
      const low = words[2 * index], high = words[2 * index + 1]
      const lowFlipped = low ^ 0x80000000
      if (high < minHigh || (high === minHigh && lowFlipped < minLowFlipped)) { minLow = low; minHigh = high; minLowFlipped = lowFlipped }
      if (high > maxHigh || (high === maxHigh && lowFlipped > maxLowFlipped)) { maxLow = low; maxHigh = high; maxLowFlipped = lowFlipped }
    }
  }
  choice.maxLow = maxLow
  choice.maxHigh = maxHigh
  choice.baseLow = minLow
  choice.baseHigh = minHigh
  choice.tableEntryCount = 0
  if (minLow === maxLow && minHigh === maxHigh) {
    choice.kind = BlockKind.constant
    choice.width = 0
    choice.auxLow = 0
    choice.auxHigh = 0
    choice.dataLength = 0
    return
  }
  const rangeLowSigned = (maxLow >>> 0) - (minLow >>> 0)
  const rangeLow = rangeLowSigned | 0
  const rangeHigh = (maxHigh - minHigh - (rangeLowSigned < 0 ? 1 : 0)) | 0
  const rangeBits = bitsOfUnsigned(rangeLow, rangeHigh)
  choice.kind = BlockKind.packed
  if (allowTable && rangeBits > TABLE_MIN_RANGE_BITS) {
    // A table of n entries costs at least 8n + ceil(count × bits(n - 1) / 8) bytes; the packed
    // form costs at most ceil(count × bits(range) / 8). Count distinct values only up to the
    // largest table that could still win.
    const packedUpperBound = Math.ceil((count * rangeBits) / 8)
    let usefulEntries = TABLE_MAX_ENTRIES
    while (usefulEntries >= TABLE_MIN_ENTRIES
      && 8 * usefulEntries + Math.ceil((count * bitsOfNumber(usefulEntries - 1)) / 8) >= packedUpperBound) usefulEntries--
    const distinct = usefulEntries < TABLE_MIN_ENTRIES ? 0 : countDistinct(words, first, count, usefulEntries)
    if (distinct >= TABLE_MIN_ENTRIES && distinct <= usefulEntries) {
      // The divisor over the distinct values is the divisor over the block, so the packed
      // form's size comes from the (at most 256) table entries, not from every value.
      computeUnits(tableWords, 0, distinct, minLow, minHigh, rangeLow, rangeHigh, choice)
      const packedLength = Math.ceil((count * choice.width) / 8)
      const indexWidth = bitsOfNumber(distinct - 1)
      const tableLength = 8 * distinct + Math.ceil((count * indexWidth) / 8)
      if (tableLength < packedLength) {
        choice.kind = BlockKind.table
        choice.width = indexWidth
        choice.auxLow = distinct
        choice.auxHigh = 0
        choice.dataLength = tableLength
        choice.tableEntryCount = distinct
        return
      }
    }
  }
  computeUnits(words, first, count, minLow, minHigh, rangeLow, rangeHigh, choice)
  choice.dataLength = Math.ceil((count * choice.width) / 8)
}

/** Divisor, width and the units (v - base) / g of values [first, first + count), by the cheapest exact arithmetic. */
function computeUnits(
  words: Int32Array, first: number, count: number, baseLow: number, baseHigh: number, rangeLow: number, rangeHigh: number,
  choice: BlockChoice,
): void {
  if (rangeHigh === 0 && rangeLow >= 0) computeUnitsWithInt32(words, first, count, baseLow, choice)
  else if (rangeHigh >>> 0 < MAX_DOUBLE_EXACT_HIGH) computeUnitsWithDoubles(words, first, count, baseLow, baseHigh, choice)
  else computeUnitsWithBigInts(words, first, count, baseLow, baseHigh, choice)
}

// Ranges below 2^31 (the usual case): every difference and unit is an int32.
function computeUnitsWithInt32(words: Int32Array, first: number, count: number, baseLow: number, choice: BlockChoice): void {
  let divisor = 0
  for (let index = first; index < first + count; index++) {
    let difference = (words[2 * index] - baseLow) | 0
    if (difference === 0) continue
    // Most differences are multiples of the divisor so far: a double division checks that
    // faster than an integer remainder (idiv), which only the rare new divisor needs.
    if (divisor !== 0) {
      const quotient = difference / divisor
      if (quotient === Math.trunc(quotient)) continue
    }
    let other = divisor
    while (other !== 0) {
      const rest = difference % other
      difference = other
      other = rest
    }
    divisor = difference
    if (divisor === 1) break
  }
  let largestUnit = 0
  for (let index = first, unitIndex = 0; index < first + count; index++, unitIndex++) {
    const difference = (words[2 * index] - baseLow) | 0
    const unit = divisor === 1 ? difference : (difference / divisor) | 0
    largestUnit |= unit
    unitLow[unitIndex] = unit
    unitHigh[unitIndex] = 0
  }
  choice.width = 32 - Math.clz32(largestUnit)
  choice.auxLow = divisor
  choice.auxHigh = 0
}

function computeUnitsWithDoubles(
  words: Int32Array, first: number, count: number, baseLow: number, baseHigh: number, choice: BlockChoice,
): void {
  let divisor = 0
  for (let index = first; index < first + count; index++) {
    const differenceLow = (words[2 * index] >>> 0) - (baseLow >>> 0)
    const difference = (words[2 * index + 1] - baseHigh - (differenceLow < 0 ? 1 : 0)) * 4294967296 + (differenceLow >>> 0)
    if (difference !== 0) divisor = divisor === 0 ? difference : gcdNumbers(divisor, difference)
    if (divisor === 1) break
  }
  if (divisor === 1) {
    // Units are the differences themselves: subtract word-wise, no doubles.
    let largestLow = 0, largestHigh = 0
    for (let index = first, unitIndex = 0; index < first + count; index++, unitIndex++) {
      const low = words[2 * index]
      const differenceLow = (low - baseLow) | 0
      const differenceHigh = (words[2 * index + 1] - baseHigh - ((low ^ 0x80000000) < (baseLow ^ 0x80000000) ? 1 : 0)) | 0
      unitLow[unitIndex] = differenceLow
      unitHigh[unitIndex] = differenceHigh
      largestLow |= differenceLow
      largestHigh |= differenceHigh
    }
    choice.width = bitsOfUnsigned(largestLow, largestHigh)
    choice.auxLow = 1
    choice.auxHigh = 0
    return
  }
  let largestUnit = 0
  for (let index = first, unitIndex = 0; index < first + count; index++, unitIndex++) {
    const differenceLow = (words[2 * index] >>> 0) - (baseLow >>> 0)
    const difference = (words[2 * index + 1] - baseHigh - (differenceLow < 0 ? 1 : 0)) * 4294967296 + (differenceLow >>> 0)
    const unit = difference / divisor
    if (unit > largestUnit) largestUnit = unit
    const unitHighWord = Math.floor(unit / 4294967296)
    unitHigh[unitIndex] = unitHighWord
    unitLow[unitIndex] = unit - unitHighWord * 4294967296
  }
  choice.width = bitsOfNumber(largestUnit)
  const divisorHigh = Math.floor(divisor / 4294967296)
  choice.auxLow = (divisor - divisorHigh * 4294967296) | 0 // as the int32 word the record stores
  choice.auxHigh = divisorHigh
}

// Ranges of 2^53 or more are rare (hashes, i64 extremes); exactness beats speed here.
function computeUnitsWithBigInts(
  words: Int32Array, first: number, count: number, baseLow: number, baseHigh: number, choice: BlockChoice,
): void {
  const base = int64ToBigInt(baseLow, baseHigh)
  let divisor = 0n
  for (let index = first; index < first + count; index++) {
    const difference = BigInt.asUintN(64, int64ToBigInt(words[2 * index], words[2 * index + 1]) - base)
    if (difference !== 0n) divisor = divisor === 0n ? difference : gcdBigInts(divisor, difference)
    if (divisor === 1n) break
  }
  let largestUnit = 0n
  for (let index = first, unitIndex = 0; index < first + count; index++, unitIndex++) {
    const unit = BigInt.asUintN(64, int64ToBigInt(words[2 * index], words[2 * index + 1]) - base) / divisor
    if (unit > largestUnit) largestUnit = unit
    bigIntToInt64(unit)
    unitLow[unitIndex] = int64Result[0]
    unitHigh[unitIndex] = int64Result[1]
  }
  bigIntToInt64(largestUnit)
  choice.width = bitsOfUnsigned(int64Result[0], int64Result[1])
  bigIntToInt64(divisor)
  choice.auxLow = int64Result[0]
  choice.auxHigh = int64Result[1]
}

/** Widens minMax ([minLow, minHigh, maxLow, maxHigh]) to the chosen block's range; the first block sets it. */
export function includeBlockRange(choice: BlockChoice, minMax: Int32Array, firstBlock: boolean): void {
  if (firstBlock || compareInt64(choice.baseLow, choice.baseHigh, minMax[0], minMax[1]) < 0) {
    minMax[0] = choice.baseLow
    minMax[1] = choice.baseHigh
  }
  if (firstBlock || compareInt64(choice.maxLow, choice.maxHigh, minMax[2], minMax[3]) > 0) {
    minMax[2] = choice.maxLow
    minMax[3] = choice.maxHigh
  }
}

/** Appends the data of the block chooseBlock just chose (it left the units or table entries in scratch). */
export function writeBlockData(count: number, choice: BlockChoice, sink: ByteSink): void {
  if (choice.kind === BlockKind.constant) return
  if (choice.kind === BlockKind.table) {
    writeTable(count, choice, sink)
    return
  }
  packUnits(unitLow, unitHigh, count, choice.width, sink)
}

function writeTable(count: number, choice: BlockChoice, sink: ByteSink): void {
  const entries = choice.tableEntryCount
  for (let entry = 0; entry < entries; entry++) tableOrder[entry] = entry
  const order = Array.from(tableOrder.subarray(0, entries))
  order.sort((a, b) => compareInt64(tableWords[2 * a], tableWords[2 * a + 1], tableWords[2 * b], tableWords[2 * b + 1]))
  for (let position = 0; position < entries; position++) {
    const entry = order[position]
    tableIndexOfEntry[entry] = position
    sink.writeInt64(tableWords[2 * entry], tableWords[2 * entry + 1])
  }
  // countDistinct (run by chooseBlock on these values) left each value's entry in entryOfValue.
  for (let position = 0; position < count; position++) {
    unitLow[position] = tableIndexOfEntry[entryOfValue[position]]
    unitHigh[position] = 0
  }
  packUnits(unitLow, unitHigh, count, choice.width, sink)
}

/** Packs count units of `width` bits, little-endian bit fields, into ceil(count × width / 8) bytes. */
function packUnits(low: Int32Array, high: Int32Array, count: number, width: number, sink: ByteSink): void {
  const byteLength = Math.ceil((count * width) / 8)
  packWords.fill(0, 0, (byteLength >>> 2) + 2)
  if (width <= 32) {
    for (let index = 0, bit = 0; index < count; index++, bit += width) {
      const word = bit >>> 5, shift = bit & 31
      const unit = low[index]
      packWords[word] |= unit << shift
      if (shift + width > 32) packWords[word + 1] |= unit >>> (32 - shift)
    }
  } else {
    const highWidth = width - 32
    for (let index = 0, bit = 0; index < count; index++, bit += width) {
      const word = bit >>> 5, shift = bit & 31
      const unitLowWord = low[index], unitHighWord = high[index]
      packWords[word] |= unitLowWord << shift
      if (shift > 0) packWords[word + 1] |= unitLowWord >>> (32 - shift)
      packWords[word + 1] |= unitHighWord << shift
      if (shift + highWidth > 32) packWords[word + 2] |= unitHighWord >>> (32 - shift)
    }
  }
  sink.writeBytes(packBytes.subarray(0, byteLength))
}
