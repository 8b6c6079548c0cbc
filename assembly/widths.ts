// One function per width and form. Each body is a run loop inlined with a
// literal width, so the optimiser folds every offset, shift and mask into a
// constant. (Inlined straight into one big switch instead, the arms look alike
// before constants are propagated and get merged into one generic loop.)
//
// SIMD (unpack-simd.ts) where it measurably wins: fields within 4-byte windows
// (W + largest shift ≤ 32: W ≤ 26, 28, 32) with g = 1, g < 2^32 (exact
// 32 × 32 → 64-bit products) or g a multiple of 2^32 (powers of two from
// doubles' trailing zero bits). Wider fields up to 56 bits with g = 1: two
// groups at a time in i64x2 lanes (unpack-pairs.ts). Everything else is scalar
// (unpack.ts). The g = 1 kernels are in widths-unit.ts.
import { fieldRun, scaledRun } from './unpack'
import { MULTIPLY, MULTIPLY_HIGH, simdRun } from './unpack-simd'
import { tableRun } from './table'
import { scaledBits } from './unpack-bits'
export { unpackUnit } from './widths-unit'
// The int32 decode's fast path: in the Node build only (the browser's widths stub has none).
export { int32Chunk } from './typed-int32'
export { float64Chunk } from './typed-float64'

function scaled2(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 2, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 2, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 2) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled3(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 3, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 3, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 3) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled4(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 4, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 4, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 4) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled5(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 5, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 5, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 5) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled6(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 6, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 6, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 6) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled7(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 7, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 7, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 7) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled8(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 8, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 8, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 8) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled9(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 9, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 9, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 9) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled10(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 10, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 10, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 10) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled11(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 11, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 11, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 11) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled12(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 12, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 12, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 12) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled13(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 13, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 13, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 13) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled14(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 14, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 14, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 14) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled15(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 15, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 15, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 15) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled16(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 16, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 16, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 16) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled17(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 17, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 17, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 17) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled18(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 18, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 18, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 18) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled19(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 19, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 19, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 19) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled20(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 20, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 20, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 20) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled21(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 21, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 21, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 21) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled22(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 22, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 22, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 22) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled23(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 23, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 23, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 23) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled24(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 24, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 24, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 24) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled25(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 25, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 25, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 25) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled26(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 26, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 26, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 26) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled27(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 27) }
function scaled28(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 28, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 28, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 28) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled29(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 29) }
function scaled30(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 30) }
function scaled31(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 31) }
function scaled32(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void {
  if (<u64>g <= 0xFFFF_FFFF) simdRun(p, from, to, base, g, out, 32, MULTIPLY)
  else if (<u32>g == 0) simdRun(p, from, to, base, g, out, 32, MULTIPLY_HIGH)
  else fieldRun(p, from, to, base, g, out, 32) // other g ≥ 2^32 with narrow fields: rare, not specialised
}
function scaled33(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 33) }
function scaled34(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 34) }
function scaled35(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 35) }
function scaled36(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 36) }
function scaled37(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 37) }
function scaled38(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 38) }
function scaled39(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 39) }
function scaled40(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 40) }
function scaled41(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 41) }
function scaled42(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 42) }
function scaled43(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 43) }
function scaled44(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 44) }
function scaled45(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 45) }
function scaled46(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 46) }
function scaled47(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 47) }
function scaled48(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 48) }
function scaled49(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 49) }
function scaled50(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 50) }
function scaled51(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 51) }
function scaled52(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 52) }
function scaled53(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 53) }
function scaled54(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 54) }
function scaled55(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 55) }
function scaled56(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 56) }
function scaled57(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 57) }
function scaled58(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 58) }
function scaled59(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 59) }
function scaled60(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 60) }
function scaled61(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 61) }
function scaled62(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 62) }
function scaled63(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 63) }
function scaled64(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { scaledRun(p, from, to, base, g, out, 64) }

/** Decodes values [from, to) of a packed block (base + g × u), width 1..64, into out. */
export function unpackScaled(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, width: u32): void {
  switch (width) {
    case 1: scaledBits(p, from, to, base, g, out); return
    case 2: scaled2(p, from, to, base, g, out); return
    case 3: scaled3(p, from, to, base, g, out); return
    case 4: scaled4(p, from, to, base, g, out); return
    case 5: scaled5(p, from, to, base, g, out); return
    case 6: scaled6(p, from, to, base, g, out); return
    case 7: scaled7(p, from, to, base, g, out); return
    case 8: scaled8(p, from, to, base, g, out); return
    case 9: scaled9(p, from, to, base, g, out); return
    case 10: scaled10(p, from, to, base, g, out); return
    case 11: scaled11(p, from, to, base, g, out); return
    case 12: scaled12(p, from, to, base, g, out); return
    case 13: scaled13(p, from, to, base, g, out); return
    case 14: scaled14(p, from, to, base, g, out); return
    case 15: scaled15(p, from, to, base, g, out); return
    case 16: scaled16(p, from, to, base, g, out); return
    case 17: scaled17(p, from, to, base, g, out); return
    case 18: scaled18(p, from, to, base, g, out); return
    case 19: scaled19(p, from, to, base, g, out); return
    case 20: scaled20(p, from, to, base, g, out); return
    case 21: scaled21(p, from, to, base, g, out); return
    case 22: scaled22(p, from, to, base, g, out); return
    case 23: scaled23(p, from, to, base, g, out); return
    case 24: scaled24(p, from, to, base, g, out); return
    case 25: scaled25(p, from, to, base, g, out); return
    case 26: scaled26(p, from, to, base, g, out); return
    case 27: scaled27(p, from, to, base, g, out); return
    case 28: scaled28(p, from, to, base, g, out); return
    case 29: scaled29(p, from, to, base, g, out); return
    case 30: scaled30(p, from, to, base, g, out); return
    case 31: scaled31(p, from, to, base, g, out); return
    case 32: scaled32(p, from, to, base, g, out); return
    case 33: scaled33(p, from, to, base, g, out); return
    case 34: scaled34(p, from, to, base, g, out); return
    case 35: scaled35(p, from, to, base, g, out); return
    case 36: scaled36(p, from, to, base, g, out); return
    case 37: scaled37(p, from, to, base, g, out); return
    case 38: scaled38(p, from, to, base, g, out); return
    case 39: scaled39(p, from, to, base, g, out); return
    case 40: scaled40(p, from, to, base, g, out); return
    case 41: scaled41(p, from, to, base, g, out); return
    case 42: scaled42(p, from, to, base, g, out); return
    case 43: scaled43(p, from, to, base, g, out); return
    case 44: scaled44(p, from, to, base, g, out); return
    case 45: scaled45(p, from, to, base, g, out); return
    case 46: scaled46(p, from, to, base, g, out); return
    case 47: scaled47(p, from, to, base, g, out); return
    case 48: scaled48(p, from, to, base, g, out); return
    case 49: scaled49(p, from, to, base, g, out); return
    case 50: scaled50(p, from, to, base, g, out); return
    case 51: scaled51(p, from, to, base, g, out); return
    case 52: scaled52(p, from, to, base, g, out); return
    case 53: scaled53(p, from, to, base, g, out); return
    case 54: scaled54(p, from, to, base, g, out); return
    case 55: scaled55(p, from, to, base, g, out); return
    case 56: scaled56(p, from, to, base, g, out); return
    case 57: scaled57(p, from, to, base, g, out); return
    case 58: scaled58(p, from, to, base, g, out); return
    case 59: scaled59(p, from, to, base, g, out); return
    case 60: scaled60(p, from, to, base, g, out); return
    case 61: scaled61(p, from, to, base, g, out); return
    case 62: scaled62(p, from, to, base, g, out); return
    case 63: scaled63(p, from, to, base, g, out); return
    case 64: scaled64(p, from, to, base, g, out); return
  }
}

/** Values [from, to) of a table block (entries at p, then the indexes) into out; status OK or a table index error. */
export function decodeTable(p: usize, from: u32, to: u32, out: usize, entries: u32, width: u32, block: u32): i32 {
  switch (width) {
    case 1: return tableRun(p, from, to, out, entries, block, 1, true)
    case 2: return tableRun(p, from, to, out, entries, block, 2, true)
    case 3: return tableRun(p, from, to, out, entries, block, 3, true)
    case 4: return tableRun(p, from, to, out, entries, block, 4, true)
    case 5: return tableRun(p, from, to, out, entries, block, 5, true)
    case 6: return tableRun(p, from, to, out, entries, block, 6, true)
    case 7: return tableRun(p, from, to, out, entries, block, 7, true)
    default: return tableRun(p, from, to, out, entries, block, 8, true)
  }
}
export { xxh64Stripes } from './xxh64-stripes'
