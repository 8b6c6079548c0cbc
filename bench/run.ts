/**
 * `npm run bench`: every benchmark suite in one process, tables printed.
 * Figures are medians of tinybench runs on this machine; ratios are only
 * meaningful within one run.
 */
import { cpus } from 'node:os'
import { benchAllocation } from './allocation.bench.js'
import { printTable } from './common.js'
import { benchEncode } from './encode.bench.js'
import { benchReadValues } from './read-values.bench.js'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { benchWasm, WASM_HEADER, WASM_TITLE } from './wasm.bench.js'

console.log(`oixk benchmarks: node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}`)
printTable('readValues, pure TypeScript backend, 65,536 cache-resident values (target ≥ 300 M/s for packed w ≤ 32)', ['case', 'values/s', 'per call'], await benchReadValues())
printTable('Encoding (flush), pure TypeScript (target ≥ 20 M values/s)', ['case', 'values/s', 'per call'], await benchEncode())
printTable('Allocation after open: heap growth and GCs over the calls (0 GCs = no per-call garbage)', ['backend', 'accessor', 'calls', 'heap growth (bytes)', 'bytes/call', 'GCs'], await benchAllocation())
const wasmReason = wasmUnavailableReason()
if (wasmReason === null) printTable(WASM_TITLE, WASM_HEADER, await benchWasm())
else console.log(`\nWebAssembly benchmarks skipped: ${wasmReason}`)
