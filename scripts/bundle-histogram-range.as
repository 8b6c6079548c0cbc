// The browser kernels' histogram range counting (copied over
// assembly/query-histogram-range.ts by rollup.config.js when it builds the browser
// bundles; AssemblyScript, hence not a .ts file here): none, to keep the reader
// bundle small (docs/browser.md); browsers count many edges by the per-block
// paths of assembly/query-histogram.ts, with the same counts.

/** Per-u counts of one block (query-histogram's countEachU). */
export const U_COUNT_BITS: u32 = 13
export const U_COUNTS: usize = memory.data(4 << 13, 16)

export function rangeStart(_records: usize, _first: u32, _count: u32, _edges: usize, _edgeCount: u32, _area: usize): void {}

export function takeCounts(_values: u32): void {}

/** No block is in a range: the per-block paths count every one. */
export function inRange(_base: i64): bool {
  return false
}

export function countInRange(_from: u32, _take: u32, _base: i64, _g: u64, _high: u32): bool {
  return false
}

export function rangeFlush(): void {}
