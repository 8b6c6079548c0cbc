/**
 * A block record as the encoders fill it: kind, width, param and the two
 * i64 fields (base, aux) as int32 words.
 */
import { addOffset } from '../../format/int64.js'

const TWO_POW_32 = 4294967296

/** The fields of one 24-byte record. */
export class BlockRecord {
  kind = 0
  width = 0
  param = 0
  /** base then aux, as (low, high) words. */
  readonly words = new Int32Array(4)

  /** Sets every field; aux is a non-negative double below 2^53. */
  set(kind: number, width: number, param: number, baseLow: number, baseHigh: number, aux: number): void {
    this.kind = kind
    this.width = width
    this.param = param
    this.words[0] = baseLow
    this.words[1] = baseHigh
    this.setAux(aux)
  }

  /** aux as a double in (-2^53, 2^53). */
  setAux(aux: number): void {
    const high = Math.floor(aux / TWO_POW_32)
    this.words[2] = (aux - high * TWO_POW_32) | 0
    this.words[3] = high | 0
  }

  /** base = (low, high) + offset. */
  setBase(low: number, high: number, offset: number): void {
    addOffset(low, high, offset, this.words, 0)
  }

  /** aux = (low, high) + offset (an i64 value, not a divisor). */
  setAuxSum(low: number, high: number, offset: number): void {
    addOffset(low, high, offset, this.words, 2)
  }
}
