// The v2 kernels' per-width instances (the Node build): gather.ts's group loop for
// index widths 1..16 (through entry pairs up to 4) and linear.ts's fused line loop for residual widths 0..26 and 28,
// each with a literal width, so every shift, mask and shuffle is a constant. Browsers
// get scripts/bundle-cascade-widths.as in place of this file (rollup.config.js): one
// generic gather instance and no line loops (linear.ts's generic loop), same results.
import { groupRun, groupRun32, pairRun } from './gather'
import { lineRun } from './blocks/linear'
import { fieldSteps } from './blocks/patched-units'

// Width 0: the low fields of a patched block whose unpatched values all equal its base (a file may hold one).
function g0(q: usize, n: u32, t: usize, o: usize, s: u64): u64 { return s == 0 ? groupRun(q, n, t, o, 0, 0, false) : groupRun(q, n, t, o, 0, s) }
function g1(q: usize, n: u32, t: usize, o: usize, s: u64): u64 { return s == 0 ? groupRun(q, n, t, o, 1, 0, false) : groupRun(q, n, t, o, 1, s) }
function g2(q: usize, n: u32, t: usize, o: usize, s: u64): u64 { return s == 0 ? groupRun(q, n, t, o, 2, 0, false) : groupRun(q, n, t, o, 2, s) }
function g3(q: usize, n: u32, t: usize, o: usize, s: u64): u64 { return s == 0 ? groupRun(q, n, t, o, 3, 0, false) : groupRun(q, n, t, o, 3, s) }
function g4(q: usize, n: u32, t: usize, o: usize, s: u64): u64 { return s == 0 ? groupRun(q, n, t, o, 4, 0, false) : groupRun(q, n, t, o, 4, s) }
function g5(q: usize, n: u32, t: usize, o: usize, s: u64): u64 { return s == 0 ? groupRun(q, n, t, o, 5, 0, false) : groupRun(q, n, t, o, 5, s) }
function g6(q: usize, n: u32, t: usize, o: usize, s: u64): u64 { return s == 0 ? groupRun(q, n, t, o, 6, 0, false) : groupRun(q, n, t, o, 6, s) }
function g7(q: usize, n: u32, t: usize, o: usize, s: u64): u64 { return s == 0 ? groupRun(q, n, t, o, 7, 0, false) : groupRun(q, n, t, o, 7, s) }
function g8(q: usize, n: u32, t: usize, o: usize, s: u64): u64 { return s == 0 ? groupRun(q, n, t, o, 8, 0, false) : groupRun(q, n, t, o, 8, s) }
function g9(q: usize, n: u32, t: usize, o: usize, s: u64): u64 { return s == 0 ? groupRun(q, n, t, o, 9, 0, false) : groupRun(q, n, t, o, 9, s) }
function g10(q: usize, n: u32, t: usize, o: usize, s: u64): u64 { return s == 0 ? groupRun(q, n, t, o, 10, 0, false) : groupRun(q, n, t, o, 10, s) }
function g11(q: usize, n: u32, t: usize, o: usize, s: u64): u64 { return s == 0 ? groupRun(q, n, t, o, 11, 0, false) : groupRun(q, n, t, o, 11, s) }
function g12(q: usize, n: u32, t: usize, o: usize, s: u64): u64 { return s == 0 ? groupRun(q, n, t, o, 12, 0, false) : groupRun(q, n, t, o, 12, s) }
function g13(q: usize, n: u32, t: usize, o: usize, s: u64): u64 { return s == 0 ? groupRun(q, n, t, o, 13, 0, false) : groupRun(q, n, t, o, 13, s) }
function g14(q: usize, n: u32, t: usize, o: usize, s: u64): u64 { return s == 0 ? groupRun(q, n, t, o, 14, 0, false) : groupRun(q, n, t, o, 14, s) }
function g15(q: usize, n: u32, t: usize, o: usize, s: u64): u64 { return s == 0 ? groupRun(q, n, t, o, 15, 0, false) : groupRun(q, n, t, o, 15, s) }
function g16(q: usize, n: u32, t: usize, o: usize, s: u64): u64 { return s == 0 ? groupRun(q, n, t, o, 16, 0, false) : groupRun(q, n, t, o, 16, s) }

/** `groups` groups of 8 indexes of width W (0..16) at q through the table to out; the or of their checks (gather.ts). */
export function gatherGroups(q: usize, groups: u32, table: usize, out: usize, W: u32, spread: u64): u64 {
  switch (W) {
    case 0: return g0(q, groups, table, out, spread)
    case 1: return g1(q, groups, table, out, spread)
    case 2: return g2(q, groups, table, out, spread)
    case 3: return g3(q, groups, table, out, spread)
    case 4: return g4(q, groups, table, out, spread)
    case 5: return g5(q, groups, table, out, spread)
    case 6: return g6(q, groups, table, out, spread)
    case 7: return g7(q, groups, table, out, spread)
    case 8: return g8(q, groups, table, out, spread)
    case 9: return g9(q, groups, table, out, spread)
    case 10: return g10(q, groups, table, out, spread)
    case 11: return g11(q, groups, table, out, spread)
    case 12: return g12(q, groups, table, out, spread)
    case 13: return g13(q, groups, table, out, spread)
    case 14: return g14(q, groups, table, out, spread)
    case 15: return g15(q, groups, table, out, spread)
    default: return g16(q, groups, table, out, spread)
  }
}

/** Index widths 1..4 gather through entry pairs (gather.ts: pairRun). */
export const PAIR_GATHER = true

/** Run blocks whose runs average 8 values or more write each run's first values unconditionally (blocks/runs.ts). */
export const RUN_PREFIX = true

/** Sequence dictionary codes in bitmap patched blocks decode as bytes or u16 before the gather (sequences/codes.ts). */
export const NARROW_CODES = true

/** Chunked reads keep a dictionary's decoded entries from chunk to chunk (sequences/dictionary.ts). */
export const CHUNK_KEEPS = true

/** Single reads of a sequence dictionary pass its code and entry in registers (sequences/dictionary.ts: dictionaryFormNumber). */
export const REGISTER_READS = true

function p1(q: usize, n: u32, o: usize, s: u64): u64 { return pairRun(q, n, o, 1, s) }
function p2(q: usize, n: u32, o: usize, s: u64): u64 { return pairRun(q, n, o, 2, s) }
function p3(q: usize, n: u32, o: usize, s: u64): u64 { return pairRun(q, n, o, 3, s) }
function p4(q: usize, n: u32, o: usize, s: u64): u64 { return pairRun(q, n, o, 4, s) }

/** `groups` groups of 8 indexes of width W (1..4) at q through the entry pairs to out; the or of their checks (gather.ts). */
export function pairGroups(q: usize, groups: u32, out: usize, W: u32, spread: u64): u64 {
  if (W == 1) return p1(q, groups, out, spread)
  if (W == 2) return p2(q, groups, out, spread)
  if (W == 3) return p3(q, groups, out, spread)
  return p4(q, groups, out, spread)
}

function l0(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 0) }
function l1(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 1) }
function l2(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 2) }
function l3(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 3) }
function l4(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 4) }
function l5(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 5) }
function l6(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 6) }
function l7(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 7) }
function l8(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 8) }
function l9(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 9) }
function l10(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 10) }
function l11(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 11) }
function l12(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 12) }
function l13(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 13) }
function l14(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 14) }
function l15(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 15) }
function l16(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 16) }
function l17(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 17) }
function l18(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 18) }
function l19(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 19) }
function l20(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 20) }
function l21(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 21) }
function l22(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 22) }
function l23(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 23) }
function l24(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 24) }
function l25(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 25) }
function l26(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 26) }
function l28(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize): void { lineRun(p, from, to, base, s, out, 28) }

/** Values [from, to) of a linear block of residual width W by its fused loop (linear.ts: lineRun); false for other widths. */
export function lineWidths(p: usize, from: u32, to: u32, base: i64, s: i64, out: usize, W: u32): bool {
  switch (W) {
    case 0: l0(p, from, to, base, s, out); return true
    case 1: l1(p, from, to, base, s, out); return true
    case 2: l2(p, from, to, base, s, out); return true
    case 3: l3(p, from, to, base, s, out); return true
    case 4: l4(p, from, to, base, s, out); return true
    case 5: l5(p, from, to, base, s, out); return true
    case 6: l6(p, from, to, base, s, out); return true
    case 7: l7(p, from, to, base, s, out); return true
    case 8: l8(p, from, to, base, s, out); return true
    case 9: l9(p, from, to, base, s, out); return true
    case 10: l10(p, from, to, base, s, out); return true
    case 11: l11(p, from, to, base, s, out); return true
    case 12: l12(p, from, to, base, s, out); return true
    case 13: l13(p, from, to, base, s, out); return true
    case 14: l14(p, from, to, base, s, out); return true
    case 15: l15(p, from, to, base, s, out); return true
    case 16: l16(p, from, to, base, s, out); return true
    case 17: l17(p, from, to, base, s, out); return true
    case 18: l18(p, from, to, base, s, out); return true
    case 19: l19(p, from, to, base, s, out); return true
    case 20: l20(p, from, to, base, s, out); return true
    case 21: l21(p, from, to, base, s, out); return true
    case 22: l22(p, from, to, base, s, out); return true
    case 23: l23(p, from, to, base, s, out); return true
    case 24: l24(p, from, to, base, s, out); return true
    case 25: l25(p, from, to, base, s, out); return true
    case 26: l26(p, from, to, base, s, out); return true
    case 28: l28(p, from, to, base, s, out); return true
    default: return false
  }
}

/** Fields of width 1..8 to bytes or u16 by an instance per width (patched-units.ts: fieldSteps). */
export const FIELD_WIDTHS = true

function b1(p: usize, n: u32, o: usize, l: usize): u32 { return fieldSteps(p, n, o, l, 1, false) }
function b2(p: usize, n: u32, o: usize, l: usize): u32 { return fieldSteps(p, n, o, l, 2, false) }
function b3(p: usize, n: u32, o: usize, l: usize): u32 { return fieldSteps(p, n, o, l, 3, false) }
function b4(p: usize, n: u32, o: usize, l: usize): u32 { return fieldSteps(p, n, o, l, 4, false) }
function b5(p: usize, n: u32, o: usize, l: usize): u32 { return fieldSteps(p, n, o, l, 5, false) }
function b6(p: usize, n: u32, o: usize, l: usize): u32 { return fieldSteps(p, n, o, l, 6, false) }
function b7(p: usize, n: u32, o: usize, l: usize): u32 { return fieldSteps(p, n, o, l, 7, false) }
function b8(p: usize, n: u32, o: usize, l: usize): u32 { return fieldSteps(p, n, o, l, 8, false) }

function h1(p: usize, n: u32, o: usize, l: usize): u32 { return fieldSteps(p, n, o, l, 1, true) }
function h2(p: usize, n: u32, o: usize, l: usize): u32 { return fieldSteps(p, n, o, l, 2, true) }
function h3(p: usize, n: u32, o: usize, l: usize): u32 { return fieldSteps(p, n, o, l, 3, true) }
function h4(p: usize, n: u32, o: usize, l: usize): u32 { return fieldSteps(p, n, o, l, 4, true) }
function h5(p: usize, n: u32, o: usize, l: usize): u32 { return fieldSteps(p, n, o, l, 5, true) }
function h6(p: usize, n: u32, o: usize, l: usize): u32 { return fieldSteps(p, n, o, l, 6, true) }
function h7(p: usize, n: u32, o: usize, l: usize): u32 { return fieldSteps(p, n, o, l, 7, true) }
function h8(p: usize, n: u32, o: usize, l: usize): u32 { return fieldSteps(p, n, o, l, 8, true) }

/**
 * Fields [0, count) of width W (1..8) at p to bytes (or, halves, u16) at out, 16 (8) a step while
 * loads stay below limit; returns the fields written.
 */
export function fieldWidths(p: usize, count: u32, out: usize, limit: usize, W: u32, halves: bool): u32 {
  switch (W) {
    case 1: return halves ? h1(p, count, out, limit) : b1(p, count, out, limit)
    case 2: return halves ? h2(p, count, out, limit) : b2(p, count, out, limit)
    case 3: return halves ? h3(p, count, out, limit) : b3(p, count, out, limit)
    case 4: return halves ? h4(p, count, out, limit) : b4(p, count, out, limit)
    case 5: return halves ? h5(p, count, out, limit) : b5(p, count, out, limit)
    case 6: return halves ? h6(p, count, out, limit) : b6(p, count, out, limit)
    case 7: return halves ? h7(p, count, out, limit) : b7(p, count, out, limit)
    default: return halves ? h8(p, count, out, limit) : b8(p, count, out, limit)
  }
}

function u0(q: usize, n: u32, t: usize, o: usize): void { groupRun32(q, n, t, o, 0) }
function u1(q: usize, n: u32, t: usize, o: usize): void { groupRun32(q, n, t, o, 1) }
function u2(q: usize, n: u32, t: usize, o: usize): void { groupRun32(q, n, t, o, 2) }
function u3(q: usize, n: u32, t: usize, o: usize): void { groupRun32(q, n, t, o, 3) }
function u4(q: usize, n: u32, t: usize, o: usize): void { groupRun32(q, n, t, o, 4) }
function u5(q: usize, n: u32, t: usize, o: usize): void { groupRun32(q, n, t, o, 5) }
function u6(q: usize, n: u32, t: usize, o: usize): void { groupRun32(q, n, t, o, 6) }
function u7(q: usize, n: u32, t: usize, o: usize): void { groupRun32(q, n, t, o, 7) }
function u8(q: usize, n: u32, t: usize, o: usize): void { groupRun32(q, n, t, o, 8) }
function u9(q: usize, n: u32, t: usize, o: usize): void { groupRun32(q, n, t, o, 9) }
function u10(q: usize, n: u32, t: usize, o: usize): void { groupRun32(q, n, t, o, 10) }
function u11(q: usize, n: u32, t: usize, o: usize): void { groupRun32(q, n, t, o, 11) }
function u12(q: usize, n: u32, t: usize, o: usize): void { groupRun32(q, n, t, o, 12) }
function u13(q: usize, n: u32, t: usize, o: usize): void { groupRun32(q, n, t, o, 13) }
function u14(q: usize, n: u32, t: usize, o: usize): void { groupRun32(q, n, t, o, 14) }
function u15(q: usize, n: u32, t: usize, o: usize): void { groupRun32(q, n, t, o, 15) }
function u16(q: usize, n: u32, t: usize, o: usize): void { groupRun32(q, n, t, o, 16) }

/** `groups` groups of 8 indexes of width W (0..16) at q through a table of 4-byte entries to out, unchecked (gather.ts: groupRun32). */
export function gatherGroups32(q: usize, groups: u32, table: usize, out: usize, W: u32): void {
  switch (W) {
    case 0: u0(q, groups, table, out); return
    case 1: u1(q, groups, table, out); return
    case 2: u2(q, groups, table, out); return
    case 3: u3(q, groups, table, out); return
    case 4: u4(q, groups, table, out); return
    case 5: u5(q, groups, table, out); return
    case 6: u6(q, groups, table, out); return
    case 7: u7(q, groups, table, out); return
    case 8: u8(q, groups, table, out); return
    case 9: u9(q, groups, table, out); return
    case 10: u10(q, groups, table, out); return
    case 11: u11(q, groups, table, out); return
    case 12: u12(q, groups, table, out); return
    case 13: u13(q, groups, table, out); return
    case 14: u14(q, groups, table, out); return
    case 15: u15(q, groups, table, out); return
    default: u16(q, groups, table, out)
  }
}
