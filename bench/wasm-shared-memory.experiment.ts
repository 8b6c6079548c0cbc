/**
 * Experiment behind docs/query.md "Shared WebAssembly memory": can several
 * workers run the kernels on ONE shared WebAssembly.Memory holding a file once?
 * Builds the kernels twice with an imported shared memory and different
 * --memoryBase (so each instance's static scratch data has its own window),
 * writes flights-3m into the memory once, and has two workers hash it (xxh64)
 * at the same time, repeatedly; every hash must equal the main thread's.
 * `node --import tsx bench/wasm-shared-memory.experiment.ts` (about 30 s of asc).
 * The pool now does this with ONE build patched to each worker's window
 * (scripts/build-wasm.js, src/backend/wasm/shared.ts); this stays as the first proof.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { typeScriptBackend } from '../src/backend/ts/index.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const WINDOW = 65536
const FILE_AT = 1 << 22

interface Xxh64Exports {
  heapBase(): number
  xxh64(pointer: number, length: number, seedLow: number, seedHigh: number, out: number): void
}

/** Kernels importing a shared memory, static data from memoryBase on. */
function build(directory: string, memoryBase: number): string {
  const out = join(directory, `oixk-shared-${memoryBase}.wasm`)
  execFileSync(process.execPath, [
    join(root, 'node_modules/assemblyscript/bin/asc.js'), 'assembly/index.ts', '--target', 'release', '-O3', '--runtime', 'stub',
    '--noAssert', '--enable', 'simd', '--enable', 'threads', '--importMemory', '--sharedMemory', '--maximumMemory', '65536',
    '--memoryBase', String(memoryBase), '--bindings', 'raw', '-o', out,
  ], { cwd: root, stdio: 'inherit' })
  return out
}

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const { readFileSync } = require('node:fs')
const { wasm, memory, at, length, rounds } = workerData
const kernels = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(wasm)), { env: { memory } }).exports
const out = kernels.heapBase()
const hashes = []
const start = performance.now()
for (let round = 0; round < rounds; round++) {
  kernels.xxh64(at, length, 0, 0, out)
  hashes.push(Array.from(new Uint32Array(memory.buffer, out, 2)).join(','))
}
parentPort.postMessage({ heapBase: out, hashes, ms: (performance.now() - start) / rounds })
`

const directory = mkdtempSync(join(tmpdir(), 'oixk-shared-'))
try {
  const builds = [build(directory, WINDOW), build(directory, 2 * WINDOW)]
  const file = readFileSync(join(root, 'build/flights-3m.oixk'))
  const memory = new WebAssembly.Memory({ initial: Math.ceil((FILE_AT + file.length) / WINDOW) + 1, maximum: 65536, shared: true })
  new Uint8Array(memory.buffer).set(file, FILE_AT)
  const main = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(builds[0])), { env: { memory } }).exports as unknown as Xxh64Exports
  main.xxh64(FILE_AT, file.length, 0, 0, main.heapBase())
  const expected = Array.from(new Uint32Array(memory.buffer, main.heapBase(), 2)).join(',')
  const reference = new Uint32Array(2)
  typeScriptBackend.hash(typeScriptBackend.load(file), 0, file.length, reference)
  if (Array.from(reference).join(',') !== expected) throw new Error(`shared-memory xxh64 ${expected}, TS backend ${Array.from(reference).join(',')}`)
  console.log(`file ${file.length} bytes written once at ${FILE_AT}; memory ${memory.buffer.byteLength} bytes; xxh64 ${expected} (= TS backend)`)
  const results = await Promise.all(builds.map((wasm) => new Promise<{ heapBase: number; hashes: string[]; ms: number }>((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { wasm, memory, at: FILE_AT, length: file.length, rounds: 30 } })
    worker.once('message', (result) => { void worker.terminate(); resolve(result) })
    worker.once('error', reject)
  })))
  results.forEach((result, index) => {
    const static_ = result.heapBase - (index + 1) * WINDOW
    console.log(`worker ${index}: memoryBase ${(index + 1) * WINDOW}, heapBase ${result.heapBase} (${static_} bytes of static data), `
      + `${result.hashes.filter((hash) => hash === expected).length}/${result.hashes.length} hashes equal, ${result.ms.toFixed(2)} ms per hash`)
  })
} finally {
  rmSync(directory, { recursive: true, force: true })
}
