// The g = 1 unpack kernels, one function per width (see widths.ts for why each
// width gets its own function and which widths take SIMD).
import { unitRun } from './unpack'
import { UNIT, simdRun } from './unpack-simd'
import { PAIR_UNIT, pairRun } from './unpack-pairs'
import { unitBits } from './unpack-bits'

function unit2(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 2, UNIT) }
function unit3(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 3, UNIT) }
function unit4(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 4, UNIT) }
function unit5(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 5, UNIT) }
function unit6(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 6, UNIT) }
function unit7(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 7, UNIT) }
function unit8(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 8, UNIT) }
function unit9(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 9, UNIT) }
function unit10(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 10, UNIT) }
function unit11(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 11, UNIT) }
function unit12(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 12, UNIT) }
function unit13(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 13, UNIT) }
function unit14(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 14, UNIT) }
function unit15(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 15, UNIT) }
function unit16(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 16, UNIT) }
function unit17(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 17, UNIT) }
function unit18(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 18, UNIT) }
function unit19(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 19, UNIT) }
function unit20(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 20, UNIT) }
function unit21(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 21, UNIT) }
function unit22(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 22, UNIT) }
function unit23(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 23, UNIT) }
function unit24(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 24, UNIT) }
function unit25(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 25, UNIT) }
function unit26(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 26, UNIT) }
function unit27(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 27, PAIR_UNIT) }
function unit28(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 28, UNIT) }
function unit29(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 29, PAIR_UNIT) }
function unit30(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 30, PAIR_UNIT) }
function unit31(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 31, PAIR_UNIT) }
function unit32(p: usize, from: u32, to: u32, base: i64, out: usize): void { simdRun(p, from, to, base, 1, out, 32, UNIT) }
function unit33(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 33, PAIR_UNIT) }
function unit34(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 34, PAIR_UNIT) }
function unit35(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 35, PAIR_UNIT) }
function unit36(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 36, PAIR_UNIT) }
function unit37(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 37, PAIR_UNIT) }
function unit38(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 38, PAIR_UNIT) }
function unit39(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 39, PAIR_UNIT) }
function unit40(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 40, PAIR_UNIT) }
function unit41(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 41, PAIR_UNIT) }
function unit42(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 42, PAIR_UNIT) }
function unit43(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 43, PAIR_UNIT) }
function unit44(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 44, PAIR_UNIT) }
function unit45(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 45, PAIR_UNIT) }
function unit46(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 46, PAIR_UNIT) }
function unit47(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 47, PAIR_UNIT) }
function unit48(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 48, PAIR_UNIT) }
function unit49(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 49, PAIR_UNIT) }
function unit50(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 50, PAIR_UNIT) }
function unit51(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 51, PAIR_UNIT) }
function unit52(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 52, PAIR_UNIT) }
function unit53(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 53, PAIR_UNIT) }
function unit54(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 54, PAIR_UNIT) }
function unit55(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 55, PAIR_UNIT) }
function unit56(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 56, PAIR_UNIT) }
function unit57(p: usize, from: u32, to: u32, base: i64, out: usize): void { unitRun(p, from, to, base, out, 57) }
function unit58(p: usize, from: u32, to: u32, base: i64, out: usize): void { unitRun(p, from, to, base, out, 58) }
function unit59(p: usize, from: u32, to: u32, base: i64, out: usize): void { unitRun(p, from, to, base, out, 59) }
function unit60(p: usize, from: u32, to: u32, base: i64, out: usize): void { unitRun(p, from, to, base, out, 60) }
function unit61(p: usize, from: u32, to: u32, base: i64, out: usize): void { unitRun(p, from, to, base, out, 61) }
function unit62(p: usize, from: u32, to: u32, base: i64, out: usize): void { unitRun(p, from, to, base, out, 62) }
function unit63(p: usize, from: u32, to: u32, base: i64, out: usize): void { unitRun(p, from, to, base, out, 63) }
function unit64(p: usize, from: u32, to: u32, base: i64, out: usize): void { unitRun(p, from, to, base, out, 64) }

/** Decodes values [from, to) of a packed block with g = 1 (no multiply), width 1..64, into out. */
export function unpackUnit(p: usize, from: u32, to: u32, base: i64, out: usize, width: u32): void {
  switch (width) {
    case 1: unitBits(p, from, to, base, out); return
    case 2: unit2(p, from, to, base, out); return
    case 3: unit3(p, from, to, base, out); return
    case 4: unit4(p, from, to, base, out); return
    case 5: unit5(p, from, to, base, out); return
    case 6: unit6(p, from, to, base, out); return
    case 7: unit7(p, from, to, base, out); return
    case 8: unit8(p, from, to, base, out); return
    case 9: unit9(p, from, to, base, out); return
    case 10: unit10(p, from, to, base, out); return
    case 11: unit11(p, from, to, base, out); return
    case 12: unit12(p, from, to, base, out); return
    case 13: unit13(p, from, to, base, out); return
    case 14: unit14(p, from, to, base, out); return
    case 15: unit15(p, from, to, base, out); return
    case 16: unit16(p, from, to, base, out); return
    case 17: unit17(p, from, to, base, out); return
    case 18: unit18(p, from, to, base, out); return
    case 19: unit19(p, from, to, base, out); return
    case 20: unit20(p, from, to, base, out); return
    case 21: unit21(p, from, to, base, out); return
    case 22: unit22(p, from, to, base, out); return
    case 23: unit23(p, from, to, base, out); return
    case 24: unit24(p, from, to, base, out); return
    case 25: unit25(p, from, to, base, out); return
    case 26: unit26(p, from, to, base, out); return
    case 27: unit27(p, from, to, base, out); return
    case 28: unit28(p, from, to, base, out); return
    case 29: unit29(p, from, to, base, out); return
    case 30: unit30(p, from, to, base, out); return
    case 31: unit31(p, from, to, base, out); return
    case 32: unit32(p, from, to, base, out); return
    case 33: unit33(p, from, to, base, out); return
    case 34: unit34(p, from, to, base, out); return
    case 35: unit35(p, from, to, base, out); return
    case 36: unit36(p, from, to, base, out); return
    case 37: unit37(p, from, to, base, out); return
    case 38: unit38(p, from, to, base, out); return
    case 39: unit39(p, from, to, base, out); return
    case 40: unit40(p, from, to, base, out); return
    case 41: unit41(p, from, to, base, out); return
    case 42: unit42(p, from, to, base, out); return
    case 43: unit43(p, from, to, base, out); return
    case 44: unit44(p, from, to, base, out); return
    case 45: unit45(p, from, to, base, out); return
    case 46: unit46(p, from, to, base, out); return
    case 47: unit47(p, from, to, base, out); return
    case 48: unit48(p, from, to, base, out); return
    case 49: unit49(p, from, to, base, out); return
    case 50: unit50(p, from, to, base, out); return
    case 51: unit51(p, from, to, base, out); return
    case 52: unit52(p, from, to, base, out); return
    case 53: unit53(p, from, to, base, out); return
    case 54: unit54(p, from, to, base, out); return
    case 55: unit55(p, from, to, base, out); return
    case 56: unit56(p, from, to, base, out); return
    case 57: unit57(p, from, to, base, out); return
    case 58: unit58(p, from, to, base, out); return
    case 59: unit59(p, from, to, base, out); return
    case 60: unit60(p, from, to, base, out); return
    case 61: unit61(p, from, to, base, out); return
    case 62: unit62(p, from, to, base, out); return
    case 63: unit63(p, from, to, base, out); return
    case 64: unit64(p, from, to, base, out); return
  }
}
