// Node instantiates the kernels through @assemblyscript/loader
// (src/backend/wasm/instantiate.ts): a module that aborts throws the decoded
// AssemblyScript message and place. The release kernels import nothing, so a
// small module compiled here with the kernels' flags stands in for a kernel build
// with asserts.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { instantiateKernels, instantiateKernelsSync } from '../src/backend/wasm/instantiate.js'
import { wasmRuntime } from '../src/backend/wasm/runtime.js'

const SOURCE = `export function check(value: i32): i32 {
  if (value < 0) abort('negative value', 'check.ts', 2, 18)
  assert(value != 7, 'seven is refused')
  return value * 2
}
`

let directory = ''
let bytes = new Uint8Array()
beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'oixk-instantiate-'))
  writeFileSync(join(directory, 'check.ts'), SOURCE)
  const asc = join(import.meta.dirname, '../node_modules/assemblyscript/bin/asc.js')
  await promisify(execFile)(process.execPath, [asc, 'check.ts', '--runtime', 'stub', '-O3', '--outFile', 'check.wasm'], { cwd: directory })
  bytes = readFileSync(join(directory, 'check.wasm'))
}, 60_000)

afterAll(() => {
  if (directory !== '') rmSync(directory, { recursive: true, force: true })
})

type Check = { check(value: number): number }

describe('instantiating through @assemblyscript/loader', () => {
  it('gives the raw exports, and an abort as the message and place the module passed', async () => {
    for (const instance of [instantiateKernelsSync(bytes), await instantiateKernels(bytes)]) {
      const { check } = instance.exports as Check
      expect(check(4)).toBe(8)
      expect(() => check(-1)).toThrow('abort: negative value at check.ts:2:18')
      expect(() => check(7)).toThrow(/^abort: seven is refused at check\.ts:3:/)
    }
  })

  it('runs the kernels with their exports unwrapped', () => {
    // The loader's demangled exports wrap each function; the runtime must call the originals.
    const decodeRaw = wasmRuntime().kernels.decodeRaw as unknown as { original?: unknown; length: number }
    expect(decodeRaw.original).toBeUndefined()
    expect(decodeRaw.length).toBe(6)
  })
})
