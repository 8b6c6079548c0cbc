// Placeholder: the WebAssembly kernels (bit unpacking per width, block decode,
// rank, XXH64) arrive with the WASM backend issue and mirror src/backend/ts.
export function kernelsVersion(): i32 {
  return 0
}
