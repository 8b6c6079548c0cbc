// The browser kernels' unpacking and table decoding (copied over assembly/widths.ts
// by rollup.config.js when it builds the browser bundles; AssemblyScript, hence not
// a .ts file here). The Node build specialises every width and form; browsers get
// the generic field loop for all of them except the SIMD unit path for width 1
// (booleans, two-term keywords), and one generic table loop for every index width,
// which keeps the browser's kernels a fraction of Node's size. The query kernels
// do not unpack through here: only bulk reads (decodeRaw) are slower than in Node. fieldRun is the loop the specialised
// functions already use for a run's ragged ends, and tableRun is the same loop
// with a variable width, so results stay identical; the backend duels of
// test/browser/bundle-in-node.test.ts and test/browser/chromium.test.ts check that they do.
// Each further SIMD unit path would cost bundle bytes for bulk reads only.
import { fieldRun } from './unpack'
import { UNIT, simdRun } from './unpack-simd'
import { tableRun } from './table'
import { round } from './xxh64-round'

/** Decodes values [from, to) of a packed block with g = 1 (no multiply), width 1..64, into out. */
export function unpackUnit(p: usize, from: u32, to: u32, base: i64, out: usize, width: u32): void {
  if (width == 1) simdRun(p, from, to, base, 1, out, 1, UNIT)
  else fieldRun(p, from, to, base, 1, out, width)
}

/** Decodes values [from, to) of a packed block (base + g × u), width 1..64, into out. */
export function unpackScaled(p: usize, from: u32, to: u32, base: i64, g: i64, out: usize, width: u32): void {
  fieldRun(p, from, to, base, g, out, width)
}

/**
 * Values [from, to) of a table block: one generic loop for every index width
 * (assembly/widths.ts has one per width: more bundle bytes for little on bulk
 * reads of table blocks).
 */
export function decodeTable(p: usize, from: u32, to: u32, out: usize, entries: u32, width: u32, block: u32): i32 {
  return tableRun(p, from, to, out, entries, block, width)
}

/** The int32 decode's fast path (assembly/typed-int32.ts) is Node-only: browsers take the checked path. */
export function int32Chunk(_records: usize, _data: usize, _start: u32, _end: u32, _ordinals: bool, _limit: u32, _out: usize): bool {
  return false
}

/** The exact-double decode's fast path (assembly/typed-float64.ts) is Node-only too. */
export function float64Chunk(_records: usize, _data: usize, _start: u32, _end: u32, _out: usize): bool {
  return false
}

/**
 * XXH64's stripes for browsers: one scalar round a lane, 32 bytes an iteration
 * (assembly/xxh64-stripes.ts, the Node loop, adds SIMD multiplies and two stripes
 * an iteration: about 60 bytes more in the gzipped reader bundle, ~10% faster).
 */
export function xxh64Stripes(p: usize, end: usize, lanes: usize): usize {
  let v1 = load<u64>(lanes), v2 = load<u64>(lanes, 8), v3 = load<u64>(lanes, 16), v4 = load<u64>(lanes, 24)
  for (; end - p >= 32; p += 32) {
    v1 = round(v1, load<u64>(p))
    v2 = round(v2, load<u64>(p, 8))
    v3 = round(v3, load<u64>(p, 16))
    v4 = round(v4, load<u64>(p, 24))
  }
  store<u64>(lanes, v1)
  store<u64>(lanes, v2, 8)
  store<u64>(lanes, v3, 16)
  store<u64>(lanes, v4, 24)
  return p
}
