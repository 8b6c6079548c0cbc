/**
 * Open-time checks of one v2 block record (kinds 3-7; kinds 0 and 1 are v1's):
 * its fields, that its data length is what they imply, and that no offset it can
 * produce reaches 2^53 (so the TypeScript reader's doubles stay exact and both
 * backends agree on any file that opens). Returns the data length.
 */
import { bitsOf, bytesFor, POW2 } from '../bits.js'
import { EXCEPTION_GCD_FLAG, Kind, OFFSET_LIMIT, POSITIONS_LIST_FLAG } from '../constants.js'
import { positionsAsList, positionsSize } from '../blocks/positions.js'

const TWO_POW_32 = 4294967296
/** 2^w for w in 0..1024 (widths come from bytes; a lookup, since Math.pow per block was most of the open-time check). */

/** What a check sees of the record and its data bytes (read with the byte reader). */
export interface RecordFields {
  kind: number
  width: number
  param: number
  baseLow: number
  baseHigh: number
  auxLow: number
  auxHigh: number
  /** Values in the block. */
  n: number
  /** The file's bytes, where the block's data starts in them, and how many bytes of the data area are left from there. */
  bytes: Uint8Array
  dataStart: number
  dataLeft: number
}

/** Byte `offset` of the block's data (for header bytes inside it), or -1 past the data area. */
function dataByte(f: RecordFields, offset: number): number {
  return offset < f.dataLeft ? f.bytes[f.dataStart + offset] : -1
}

/** aux as an unsigned double (divisors), or Infinity when its high word says 2^52 or more. */
function divisorOf(f: RecordFields): number {
  if (f.auxHigh < 0 || f.auxHigh >= 0x100000) return Infinity
  return f.auxHigh * TWO_POW_32 + (f.auxLow >>> 0)
}

/** Kinds 3, 4 and 6: a divisor in 1..2^52 - 1 (v1's frame rule, bounded as frequent blocks' gx is), else what is wrong. */
function divisorRule(name: string, g: number): string | null {
  return g >= 1 && g < 2 ** 52 ? null : `${name} divisor ${g === Infinity ? '≥ 2^52' : g} outside 1..2^52 - 1`
}

/** The block's data length, or a string saying what is wrong. */
export function checkV2Block(f: RecordFields): number | string {
  const { kind, width, param, n } = f
  const positionWidth = bitsOf(n - 1)
  switch (kind) {
    case Kind.dictionary: {
      const k = (param & 1023) + 1, entryWidth = (param >>> 10) + 1
      const g = divisorOf(f)
      if (k < 2 || k > n) return `dictionary of ${k} entries for ${n} values (2..${n})`
      if (width !== bitsOf(k - 1)) return `dictionary index width ${width}, expected ${bitsOf(k - 1)} for ${k} entries`
      const divisor = divisorRule('dictionary', g)
      if (divisor !== null) return divisor
      if (!(g * (POW2[entryWidth] - 1) < OFFSET_LIMIT)) return `dictionary divisor ${g} and entry width ${entryWidth} reach 2^53`
      return bytesFor(k * entryWidth) + bytesFor(n * width)
    }
    case Kind.runs: {
      const r = param + 1, g = divisorOf(f)
      if (r < 2 || r > n) return `${r} runs for ${n} values (2..${n})`
      const divisor = divisorRule('run', g)
      if (divisor !== null) return divisor
      if (width < 1 || !(g * (POW2[width] - 1) < OFFSET_LIMIT)) return `run width ${width} and divisor ${g} reach 2^53`
      return bytesFor(r * width) + bytesFor((r - 1) * positionWidth)
    }
    case Kind.frequent: {
      const e = param & 1023, list = (param & POSITIONS_LIST_FLAG) !== 0, hasDivisor = (param & EXCEPTION_GCD_FLAG) !== 0
      if (param >>> 12 !== 0) return `frequent block param ${param} has unknown flags`
      if (e < 1 || e >= n) return `${e} exceptions for ${n} values (1..${n - 1})`
      if (list !== positionsAsList(e, n, positionWidth)) return `positions as a ${list ? 'list' : 'bitmap'}, but the ${list ? 'bitmap' : 'list'} is smaller`
      let divisor = 1
      if (hasDivisor) {
        divisor = 0
        for (let byte = 7; byte >= 0; byte--) divisor = divisor * 256 + Math.max(0, dataByte(f, byte))
        if (dataByte(f, 7) < 0 || divisor < 2 || divisor >= 2 ** 52) return `exceptions' divisor ${divisor} outside 2..2^52`
      }
      const lowLow = (f.auxLow >>> 0) - (f.baseLow >>> 0)
      const lowHigh = f.auxHigh - f.baseHigh - (lowLow < 0 ? 1 : 0)
      const low = Math.abs(lowHigh * TWO_POW_32 + (lowLow < 0 ? lowLow + TWO_POW_32 : lowLow))
      if (width > 52 || !(low + divisor * (POW2[width] - 1) < OFFSET_LIMIT)) return `exceptions reach 2^53 from the top value`
      return (hasDivisor ? 8 : 0) + positionsSize(e, n, positionWidth) + bytesFor(e * width)
    }
    case Kind.patched: {
      const e = param & 1023, list = (param & POSITIONS_LIST_FLAG) !== 0, g = divisorOf(f)
      if (param >>> 11 !== 0) return `patched block param ${param} has unknown flags`
      if (e < 1 || e > n) return `${e} patches for ${n} values (1..${n})`
      if (list !== positionsAsList(e, n, positionWidth)) return `positions as a ${list ? 'list' : 'bitmap'}, but the ${list ? 'bitmap' : 'list'} is smaller`
      const high = dataByte(f, 0)
      if (high < 1 || width + high > 52) return `patch width ${high} with low width ${width} (total 1..52)`
      const divisor = divisorRule('patched', g)
      if (divisor !== null) return divisor
      if (!(g * (POW2[width + high] - 1) < OFFSET_LIMIT)) return `patched divisor ${g} and width ${width + high} reach 2^53`
      return 1 + bytesFor(n * width) + positionsSize(e, n, positionWidth) + bytesFor(e * high)
    }
    case Kind.linear: {
      if (n < 2) return `a linear block needs 2 values or more, has ${n}`
      if (param !== 0) return `linear block param ${param}, not 0`
      if (width > 52) return `linear width ${width} above 52`
      const slopeWhole = Math.abs(f.auxHigh * 4194304 + (f.auxLow >>> 10))
      if (!(slopeWhole * (n - 1) + (n - 1) + POW2[width] < OFFSET_LIMIT)) return 'linear slope reaches 2^53'
      return bytesFor(n * width)
    }
    default:
      return `unknown block kind ${kind}`
  }
}
