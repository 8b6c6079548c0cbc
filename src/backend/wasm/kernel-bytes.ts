/**
 * Where the runtime gets the kernels' bytes. Here (Node, and tsc's output) from
 * the generated base64 module, synchronously. The browser bundles replace this
 * module (rollup.config.js) with one that holds the size-built kernels gzipped
 * and inflates them with DecompressionStream, asynchronously only.
 */
import { WASM_BASE64 } from './module-bytes.js'

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
  return bytes
}

/** The kernels' bytes, or a reason they are only available through kernelBytes(). */
export function kernelBytesSync(): Uint8Array | string {
  return decodeBase64(WASM_BASE64)
}

/** The kernels' bytes. */
export async function kernelBytes(): Promise<Uint8Array> {
  return decodeBase64(WASM_BASE64)
}
