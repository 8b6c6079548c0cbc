/**
 * Writing decoded values as (low, high) int32 word pairs, the TypeScript
 * backend's raw form: base + offset with a carry test where the offset fits 32
 * bits (nearly always: offsets are below the block's range), else exactly
 * through addOffset.
 */
import { addOffset } from '../../format/int64.js'

const TWO_POW_32 = 4294967296

/** destination[d], destination[d + 1] = (baseLow, baseHigh) + offset (an integer, |offset| < 2^53). */
export function putPair(baseLow: number, baseHigh: number, offset: number, destination: Int32Array, d: number): void {
  const sum = (baseLow >>> 0) + offset
  if (sum >= 0 && sum < TWO_POW_32) {
    destination[d] = sum | 0
    destination[d + 1] = baseHigh
  } else if (sum >= TWO_POW_32 && sum < 2 * TWO_POW_32) {
    destination[d] = sum | 0
    destination[d + 1] = (baseHigh + 1) | 0
  } else {
    addOffset(baseLow, baseHigh, offset, destination, d)
  }
}

/** destination pairs from d: base + offsets[0 .. count). */
export function putPairs(baseLow: number, baseHigh: number, offsets: Float64Array, count: number, destination: Int32Array, d: number): void {
  for (let at = 0; at < count; at++, d += 2) putPair(baseLow, baseHigh, offsets[at], destination, d)
}

/**
 * count copies of the pair (low, high) into destination from word d: one native fill of an int64
 * view where the pairs lie on 8 bytes (one BigInt a call, not per value), else a loop.
 */
export function fillPairs(low: number, high: number, destination: Int32Array, d: number, count: number): void {
  const byte = destination.byteOffset + 4 * d
  if (count >= 64 && (byte & 7) === 0) {
    new BigInt64Array(destination.buffer, byte, count).fill((BigInt(high) << 32n) | BigInt(low >>> 0))
    return
  }
  for (let at = d, end = d + 2 * count; at < end; at += 2) {
    destination[at] = low
    destination[at + 1] = high
  }
}
