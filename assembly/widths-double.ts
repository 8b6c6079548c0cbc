// The exact-double decode's packed widths but 8, 16 and 32 (their loops are in
// typed-float64.ts; Node build only), one function per width as in widths.ts: width 1
// through rows of its two values where they serve (unpack-bits.ts); with a 4-byte-window
// unpack, simdRun in one of three double modes inlined with a literal width (its masks
// constants); wider, pairRun (unpack-pairs.ts), a function per mode (two modes inlined
// into one function were merged into one loop testing the mode).
import { int32Doubles, unitDoubles } from './common'
import { doubleFieldRun } from './unpack'
import { rowsRun, valueRows } from './unpack-bits'
import { DOUBLE_INT32, DOUBLE_SCALED, DOUBLE_UNIT, simdRun } from './unpack-simd'
import { PAIR_DOUBLE_SCALED, PAIR_DOUBLE_UNIT, pairRun } from './unpack-pairs'

/** simdRun in the mode unpackDouble chose, each mode's loop compiled on its own. */
// @ts-ignore: decorator
@inline function simdModes(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, W: u32, mode: i32): void {
  if (mode == DOUBLE_INT32) simdRun(p, from, to, base, 1, out, W, DOUBLE_INT32)
  else if (mode == DOUBLE_UNIT) simdRun(p, from, to, base, 1, out, W, DOUBLE_UNIT)
  else simdRun(p, from, to, base, g, out, W, DOUBLE_SCALED)
}

function simd1(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 1, mode) }
function simd2(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 2, mode) }
function simd3(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 3, mode) }
function simd4(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 4, mode) }
function simd5(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 5, mode) }
function simd6(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 6, mode) }
function simd7(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 7, mode) }
function simd9(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 9, mode) }
function simd10(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 10, mode) }
function simd11(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 11, mode) }
function simd12(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 12, mode) }
function simd13(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 13, mode) }
function simd14(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 14, mode) }
function simd15(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 15, mode) }
function simd17(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 17, mode) }
function simd18(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 18, mode) }
function simd19(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 19, mode) }
function simd20(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 20, mode) }
function simd21(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 21, mode) }
function simd22(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 22, mode) }
function simd23(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 23, mode) }
function simd24(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 24, mode) }
function simd25(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 25, mode) }
function simd26(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 26, mode) }
function simd28(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, mode: i32): void { simdModes(p, from, to, base, g, out, 28, mode) }
function unit27(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 27, PAIR_DOUBLE_UNIT) }
function scaled27(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 27, PAIR_DOUBLE_SCALED) }
function unit29(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 29, PAIR_DOUBLE_UNIT) }
function scaled29(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 29, PAIR_DOUBLE_SCALED) }
function unit30(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 30, PAIR_DOUBLE_UNIT) }
function scaled30(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 30, PAIR_DOUBLE_SCALED) }
function unit31(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 31, PAIR_DOUBLE_UNIT) }
function scaled31(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 31, PAIR_DOUBLE_SCALED) }
function unit33(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 33, PAIR_DOUBLE_UNIT) }
function scaled33(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 33, PAIR_DOUBLE_SCALED) }
function unit34(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 34, PAIR_DOUBLE_UNIT) }
function scaled34(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 34, PAIR_DOUBLE_SCALED) }
function unit35(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 35, PAIR_DOUBLE_UNIT) }
function scaled35(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 35, PAIR_DOUBLE_SCALED) }
function unit36(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 36, PAIR_DOUBLE_UNIT) }
function scaled36(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 36, PAIR_DOUBLE_SCALED) }
function unit37(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 37, PAIR_DOUBLE_UNIT) }
function scaled37(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 37, PAIR_DOUBLE_SCALED) }
function unit38(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 38, PAIR_DOUBLE_UNIT) }
function scaled38(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 38, PAIR_DOUBLE_SCALED) }
function unit39(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 39, PAIR_DOUBLE_UNIT) }
function scaled39(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 39, PAIR_DOUBLE_SCALED) }
function unit40(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 40, PAIR_DOUBLE_UNIT) }
function scaled40(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 40, PAIR_DOUBLE_SCALED) }
function unit41(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 41, PAIR_DOUBLE_UNIT) }
function scaled41(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 41, PAIR_DOUBLE_SCALED) }
function unit42(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 42, PAIR_DOUBLE_UNIT) }
function scaled42(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 42, PAIR_DOUBLE_SCALED) }
function unit43(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 43, PAIR_DOUBLE_UNIT) }
function scaled43(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 43, PAIR_DOUBLE_SCALED) }
function unit44(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 44, PAIR_DOUBLE_UNIT) }
function scaled44(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 44, PAIR_DOUBLE_SCALED) }
function unit45(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 45, PAIR_DOUBLE_UNIT) }
function scaled45(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 45, PAIR_DOUBLE_SCALED) }
function unit46(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 46, PAIR_DOUBLE_UNIT) }
function scaled46(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 46, PAIR_DOUBLE_SCALED) }
function unit47(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 47, PAIR_DOUBLE_UNIT) }
function scaled47(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 47, PAIR_DOUBLE_SCALED) }
function unit48(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 48, PAIR_DOUBLE_UNIT) }
function scaled48(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 48, PAIR_DOUBLE_SCALED) }
function unit49(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 49, PAIR_DOUBLE_UNIT) }
function scaled49(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 49, PAIR_DOUBLE_SCALED) }
function unit50(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 50, PAIR_DOUBLE_UNIT) }
function scaled50(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 50, PAIR_DOUBLE_SCALED) }
function unit51(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 51, PAIR_DOUBLE_UNIT) }
function scaled51(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 51, PAIR_DOUBLE_SCALED) }
function unit52(p: usize, from: u32, to: u32, base: i64, out: usize): void { pairRun(p, from, to, base, 1, out, 52, PAIR_DOUBLE_UNIT) }
function scaled52(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize): void { pairRun(p, from, to, base, g, out, 52, PAIR_DOUBLE_SCALED) }

/** Values [from, to) of a packed block of width ≤ 52 at p as doubles base + g u (exact, as the caller proved) to out. */
export function unpackDouble(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, width: u32): void {
  // Width 1: two values, through rows of them where they serve (unpack-bits.ts).
  if (width == 1 && valueRows(reinterpret<i64>(<f64>base), reinterpret<i64>(<f64>(base + g)))) {
    rowsRun(p, from, to, out)
    return
  }
  // The unit modes add base - 2^52 to 2^52 + u (common.ts); other blocks, g = 1 among them, take the scaled ones.
  const unit = unitDoubles(base, g)
  // Below width 29 (simdRun), int32 lanes where every value is an int32.
  const mode = int32Doubles(base, g, width) ? DOUBLE_INT32 : unit ? DOUBLE_UNIT : DOUBLE_SCALED
  switch (width) {
    case 1: simd1(p, from, to, base, g, out, mode); return
    case 2: simd2(p, from, to, base, g, out, mode); return
    case 3: simd3(p, from, to, base, g, out, mode); return
    case 4: simd4(p, from, to, base, g, out, mode); return
    case 5: simd5(p, from, to, base, g, out, mode); return
    case 6: simd6(p, from, to, base, g, out, mode); return
    case 7: simd7(p, from, to, base, g, out, mode); return
    case 9: simd9(p, from, to, base, g, out, mode); return
    case 10: simd10(p, from, to, base, g, out, mode); return
    case 11: simd11(p, from, to, base, g, out, mode); return
    case 12: simd12(p, from, to, base, g, out, mode); return
    case 13: simd13(p, from, to, base, g, out, mode); return
    case 14: simd14(p, from, to, base, g, out, mode); return
    case 15: simd15(p, from, to, base, g, out, mode); return
    case 17: simd17(p, from, to, base, g, out, mode); return
    case 18: simd18(p, from, to, base, g, out, mode); return
    case 19: simd19(p, from, to, base, g, out, mode); return
    case 20: simd20(p, from, to, base, g, out, mode); return
    case 21: simd21(p, from, to, base, g, out, mode); return
    case 22: simd22(p, from, to, base, g, out, mode); return
    case 23: simd23(p, from, to, base, g, out, mode); return
    case 24: simd24(p, from, to, base, g, out, mode); return
    case 25: simd25(p, from, to, base, g, out, mode); return
    case 26: simd26(p, from, to, base, g, out, mode); return
    case 28: simd28(p, from, to, base, g, out, mode); return
    case 27: if (unit) unit27(p, from, to, base, out); else scaled27(p, from, to, base, g, out); return
    case 29: if (unit) unit29(p, from, to, base, out); else scaled29(p, from, to, base, g, out); return
    case 30: if (unit) unit30(p, from, to, base, out); else scaled30(p, from, to, base, g, out); return
    case 31: if (unit) unit31(p, from, to, base, out); else scaled31(p, from, to, base, g, out); return
    case 33: if (unit) unit33(p, from, to, base, out); else scaled33(p, from, to, base, g, out); return
    case 34: if (unit) unit34(p, from, to, base, out); else scaled34(p, from, to, base, g, out); return
    case 35: if (unit) unit35(p, from, to, base, out); else scaled35(p, from, to, base, g, out); return
    case 36: if (unit) unit36(p, from, to, base, out); else scaled36(p, from, to, base, g, out); return
    case 37: if (unit) unit37(p, from, to, base, out); else scaled37(p, from, to, base, g, out); return
    case 38: if (unit) unit38(p, from, to, base, out); else scaled38(p, from, to, base, g, out); return
    case 39: if (unit) unit39(p, from, to, base, out); else scaled39(p, from, to, base, g, out); return
    case 40: if (unit) unit40(p, from, to, base, out); else scaled40(p, from, to, base, g, out); return
    case 41: if (unit) unit41(p, from, to, base, out); else scaled41(p, from, to, base, g, out); return
    case 42: if (unit) unit42(p, from, to, base, out); else scaled42(p, from, to, base, g, out); return
    case 43: if (unit) unit43(p, from, to, base, out); else scaled43(p, from, to, base, g, out); return
    case 44: if (unit) unit44(p, from, to, base, out); else scaled44(p, from, to, base, g, out); return
    case 45: if (unit) unit45(p, from, to, base, out); else scaled45(p, from, to, base, g, out); return
    case 46: if (unit) unit46(p, from, to, base, out); else scaled46(p, from, to, base, g, out); return
    case 47: if (unit) unit47(p, from, to, base, out); else scaled47(p, from, to, base, g, out); return
    case 48: if (unit) unit48(p, from, to, base, out); else scaled48(p, from, to, base, g, out); return
    case 49: if (unit) unit49(p, from, to, base, out); else scaled49(p, from, to, base, g, out); return
    case 50: if (unit) unit50(p, from, to, base, out); else scaled50(p, from, to, base, g, out); return
    case 51: if (unit) unit51(p, from, to, base, out); else scaled51(p, from, to, base, g, out); return
    case 52: if (unit) unit52(p, from, to, base, out); else scaled52(p, from, to, base, g, out); return
  }
  doubleFieldRun(p, from, to, <f64>base, <f64>g, out, width)
}
