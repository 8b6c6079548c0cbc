// The exact-double decode's packed widths but 8, 16 and 32 (their loops are in
// typed-float64.ts; Node build only), one function per width as in widths.ts: with
// a 4-byte-window unpack, simdRun in a double mode inlined with a literal width (its
// masks constants); wider, doubleRun.
import { doubleFieldRun, doubleRun } from './unpack'
import { DOUBLE_SCALED, DOUBLE_UNIT, simdRun } from './unpack-simd'

function simd1(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 1, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 1, DOUBLE_SCALED) }
function simd2(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 2, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 2, DOUBLE_SCALED) }
function simd3(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 3, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 3, DOUBLE_SCALED) }
function simd4(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 4, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 4, DOUBLE_SCALED) }
function simd5(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 5, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 5, DOUBLE_SCALED) }
function simd6(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 6, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 6, DOUBLE_SCALED) }
function simd7(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 7, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 7, DOUBLE_SCALED) }
function simd9(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 9, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 9, DOUBLE_SCALED) }
function simd10(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 10, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 10, DOUBLE_SCALED) }
function simd11(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 11, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 11, DOUBLE_SCALED) }
function simd12(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 12, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 12, DOUBLE_SCALED) }
function simd13(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 13, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 13, DOUBLE_SCALED) }
function simd14(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 14, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 14, DOUBLE_SCALED) }
function simd15(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 15, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 15, DOUBLE_SCALED) }
function simd17(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 17, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 17, DOUBLE_SCALED) }
function simd18(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 18, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 18, DOUBLE_SCALED) }
function simd19(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 19, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 19, DOUBLE_SCALED) }
function simd20(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 20, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 20, DOUBLE_SCALED) }
function simd21(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 21, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 21, DOUBLE_SCALED) }
function simd22(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 22, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 22, DOUBLE_SCALED) }
function simd23(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 23, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 23, DOUBLE_SCALED) }
function simd24(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 24, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 24, DOUBLE_SCALED) }
function simd25(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 25, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 25, DOUBLE_SCALED) }
function simd26(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 26, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 26, DOUBLE_SCALED) }
function simd28(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { if (g == 1) simdRun(p, from, to, base, 1, out, 28, DOUBLE_UNIT); else simdRun(p, from, to, base, g, out, 28, DOUBLE_SCALED) }
function double27(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 27) }
function double29(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 29) }
function double30(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 30) }
function double31(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 31) }
function double33(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 33) }
function double34(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 34) }
function double35(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 35) }
function double36(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 36) }
function double37(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 37) }
function double38(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 38) }
function double39(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 39) }
function double40(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 40) }
function double41(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 41) }
function double42(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 42) }
function double43(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 43) }
function double44(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 44) }
function double45(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 45) }
function double46(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 46) }
function double47(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 47) }
function double48(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 48) }
function double49(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 49) }
function double50(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 50) }
function double51(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 51) }
function double52(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize): void { doubleRun(p, from, to, base, g, out, 52) }

/** Values [from, to) of a packed block of width ≤ 52 at p as doubles base + g u (exact, as the caller proved) to out. */
export function unpackDouble(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, width: u32): void {
  const baseDouble = <f64>base, gDouble = <f64>g
  switch (width) {
    case 1: simd1(p, from, to, base, g, out); return
    case 2: simd2(p, from, to, base, g, out); return
    case 3: simd3(p, from, to, base, g, out); return
    case 4: simd4(p, from, to, base, g, out); return
    case 5: simd5(p, from, to, base, g, out); return
    case 6: simd6(p, from, to, base, g, out); return
    case 7: simd7(p, from, to, base, g, out); return
    case 9: simd9(p, from, to, base, g, out); return
    case 10: simd10(p, from, to, base, g, out); return
    case 11: simd11(p, from, to, base, g, out); return
    case 12: simd12(p, from, to, base, g, out); return
    case 13: simd13(p, from, to, base, g, out); return
    case 14: simd14(p, from, to, base, g, out); return
    case 15: simd15(p, from, to, base, g, out); return
    case 17: simd17(p, from, to, base, g, out); return
    case 18: simd18(p, from, to, base, g, out); return
    case 19: simd19(p, from, to, base, g, out); return
    case 20: simd20(p, from, to, base, g, out); return
    case 21: simd21(p, from, to, base, g, out); return
    case 22: simd22(p, from, to, base, g, out); return
    case 23: simd23(p, from, to, base, g, out); return
    case 24: simd24(p, from, to, base, g, out); return
    case 25: simd25(p, from, to, base, g, out); return
    case 26: simd26(p, from, to, base, g, out); return
    case 28: simd28(p, from, to, base, g, out); return
    case 27: double27(p, from, to, baseDouble, gDouble, out); return
    case 29: double29(p, from, to, baseDouble, gDouble, out); return
    case 30: double30(p, from, to, baseDouble, gDouble, out); return
    case 31: double31(p, from, to, baseDouble, gDouble, out); return
    case 33: double33(p, from, to, baseDouble, gDouble, out); return
    case 34: double34(p, from, to, baseDouble, gDouble, out); return
    case 35: double35(p, from, to, baseDouble, gDouble, out); return
    case 36: double36(p, from, to, baseDouble, gDouble, out); return
    case 37: double37(p, from, to, baseDouble, gDouble, out); return
    case 38: double38(p, from, to, baseDouble, gDouble, out); return
    case 39: double39(p, from, to, baseDouble, gDouble, out); return
    case 40: double40(p, from, to, baseDouble, gDouble, out); return
    case 41: double41(p, from, to, baseDouble, gDouble, out); return
    case 42: double42(p, from, to, baseDouble, gDouble, out); return
    case 43: double43(p, from, to, baseDouble, gDouble, out); return
    case 44: double44(p, from, to, baseDouble, gDouble, out); return
    case 45: double45(p, from, to, baseDouble, gDouble, out); return
    case 46: double46(p, from, to, baseDouble, gDouble, out); return
    case 47: double47(p, from, to, baseDouble, gDouble, out); return
    case 48: double48(p, from, to, baseDouble, gDouble, out); return
    case 49: double49(p, from, to, baseDouble, gDouble, out); return
    case 50: double50(p, from, to, baseDouble, gDouble, out); return
    case 51: double51(p, from, to, baseDouble, gDouble, out); return
    case 52: double52(p, from, to, baseDouble, gDouble, out); return
  }
  doubleFieldRun(p, from, to, baseDouble, gDouble, out, width)
}
