// The browser kernels' keyword decoder for short terms (copied over
// assembly/strings/terms-short.ts by rollup.config.js when it builds the browser
// bundles; AssemblyScript, hence not a .ts file here): none, to keep the reader
// bundle small (docs/browser.md); browsers decode every dictionary a term at a
// time (assembly/strings/terms.ts), with the same bytes and statuses.

/** Declines every dictionary: terms.ts decodes it in order. */
export function decodeShortTerms(
  _table: usize, _source: usize, _lengths: usize, _shared: usize, _count: u32, _out: usize, _limit: u32, _offsets: usize, _pieceBytes: u32, _work: usize,
): bool {
  return false
}
