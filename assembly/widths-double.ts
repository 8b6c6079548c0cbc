// The exact-double decode's packed widths without a SIMD unpack (27, 29–31, 33–52; Node
// build only), one function per width as in widths.ts: doubleRun inlined with a literal width.
import { doubleFieldRun, doubleRun } from './unpack'

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
export function unpackDouble(p: usize, from: u32, to: u32, base: f64, g: f64, out: usize, width: u32): void {
  switch (width) {
    case 27: double27(p, from, to, base, g, out); return
    case 29: double29(p, from, to, base, g, out); return
    case 30: double30(p, from, to, base, g, out); return
    case 31: double31(p, from, to, base, g, out); return
    case 33: double33(p, from, to, base, g, out); return
    case 34: double34(p, from, to, base, g, out); return
    case 35: double35(p, from, to, base, g, out); return
    case 36: double36(p, from, to, base, g, out); return
    case 37: double37(p, from, to, base, g, out); return
    case 38: double38(p, from, to, base, g, out); return
    case 39: double39(p, from, to, base, g, out); return
    case 40: double40(p, from, to, base, g, out); return
    case 41: double41(p, from, to, base, g, out); return
    case 42: double42(p, from, to, base, g, out); return
    case 43: double43(p, from, to, base, g, out); return
    case 44: double44(p, from, to, base, g, out); return
    case 45: double45(p, from, to, base, g, out); return
    case 46: double46(p, from, to, base, g, out); return
    case 47: double47(p, from, to, base, g, out); return
    case 48: double48(p, from, to, base, g, out); return
    case 49: double49(p, from, to, base, g, out); return
    case 50: double50(p, from, to, base, g, out); return
    case 51: double51(p, from, to, base, g, out); return
    case 52: double52(p, from, to, base, g, out); return
  }
  doubleFieldRun(p, from, to, base, g, out, width)
}
