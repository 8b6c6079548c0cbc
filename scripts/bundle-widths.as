// The browser kernels' unpacking (copied over assembly/widths.ts by rollup.config.js
// when it builds the browser bundles; AssemblyScript, hence not a .ts file here).
// The Node build specialises every width and form (~100 KB of code); browsers get
// the generic field loop for all of them except the SIMD unit paths for widths
// 1, 2, 4 and 8 (booleans, small ordinals, bytes), which keeps the kernels at about
// 19 KB (6.7 KB gzip) instead of 128 KB. fieldRun is the loop the specialised
// functions already use for a run's ragged ends, so results stay identical; the
// backend duels of test/browser/bundle-in-node.test.ts and test/browser/chromium.test.ts check that they do.
import { fieldRun } from './unpack'
import { UNIT, simdRun } from './unpack-simd'

/** Decodes values [from, to) of a packed block with g = 1 (no multiply), width 1..64, into out. */
export function unpackUnit(p: usize, from: u32, to: u32, base: i64, out: usize, width: u32): void {
  switch (width) {
    case 1: simdRun(p, from, to, base, 1, out, 1, UNIT); return
    case 2: simdRun(p, from, to, base, 1, out, 2, UNIT); return
    case 4: simdRun(p, from, to, base, 1, out, 4, UNIT); return
    case 8: simdRun(p, from, to, base, 1, out, 8, UNIT); return
  }
  fieldRun(p, from, to, base, 1, out, width)
}

/** Decodes values [from, to) of a packed block (base + g × u), width 1..64, into out. */
export function unpackScaled(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, width: u32): void {
  fieldRun(p, from, to, base, g, out, width)
}
