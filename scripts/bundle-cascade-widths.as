// The browser kernels' v2 per-width code (copied over assembly/cascade/widths.ts by
// rollup.config.js when it builds the browser bundles; AssemblyScript, hence not a .ts
// file here): one generic instance of gather.ts's group loop for every index width,
// and no fused line loops (linear.ts's generic loop reads every width), where the Node
// build has one function per width. Same results; the browser duels check them.
import { groupRun } from './gather'

/** `groups` groups of 8 indexes of width W (1..16) at q through the table to out; the or of their checks (gather.ts). */
export function gatherGroups(q: usize, groups: u32, table: usize, out: usize, W: u32, spread: u64): u64 {
  return groupRun(q, groups, table, out, W, spread)
}

/** No per-width line loops in browsers: linear.ts's generic loop reads the block. */
export function lineWidths(_p: usize, _from: u32, _to: u32, _base: i64, _s: i64, _out: usize, _W: u32): bool {
  return false
}

/** No entry pairs in browsers (4 KiB of static memory and a loop per width): gather.ts gathers entry by entry. */
export const PAIR_GATHER = false

/** No unconditional run prefix (blocks/runs.ts): the loop alone, fewer bytes. */
export const RUN_PREFIX = false

/** Codes of patched blocks through u32 alone (sequences/codes.ts), fewer bytes. */
export const NARROW_CODES = false

/** Each chunk decodes its dictionary's entries again (sequences/dictionary.ts), fewer bytes. */
export const CHUNK_KEEPS = false

/** Single reads of a sequence dictionary through memory, as every other form's (cascade/index.ts), fewer bytes. */
export const REGISTER_READS = false

/** Never called (PAIR_GATHER is false). */
export function pairGroups(_q: usize, _groups: u32, _out: usize, _W: u32, _spread: u64): u64 {
  return 0
}


/** No per-width field loops in browsers (patched-units.ts' generic loop), fewer bytes. */
export const FIELD_WIDTHS = false

/** Never called (FIELD_WIDTHS is false). */
export function fieldWidths(_p: usize, _count: u32, _out: usize, _limit: usize, _W: u32, _halves: bool): u32 {
  return 0
}

/** Never called (NARROW_CODES is false: no int32 gathers in browsers). */
export function gatherGroups32(_q: usize, _groups: u32, _table: usize, _out: usize, _W: u32): void {}
