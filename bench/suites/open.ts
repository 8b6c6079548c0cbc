/**
 * Suite "open": open + checksum (and structural validation) of every
 * dataset's OIXK file from bytes in memory, both backends, beside a memcpy of
 * the file's size; then random-access latency of getInt64 and getKeyword
 * (ns per call over shuffled document ids), both backends.
 */
import { createFileBuffer, openColumns } from '../../src/index.js'
import { datasetsOfRun, memcpyBaseline, note, oixkFile, QUICK, readBytes, seededRandom, timeTasks, writeSuiteResult } from './common.js'

const TIME = QUICK ? 200 : 1000
const CALLS = QUICK ? 100_000 : 1_000_000
const BACKENDS = ['wasm', 'ts'] as const

/** Which accessor on which column: the dense integers and keywords a search engine reads per hit. */
const LATENCY_CASES: { dataset: string; column: string; accessor: 'getInt64' | 'getKeyword' }[] = QUICK
  ? [
      { dataset: 'flights-200k', column: 'delay', accessor: 'getInt64' },
      { dataset: 'airports', column: 'state', accessor: 'getKeyword' },
      { dataset: 'zipcodes', column: 'zip_code', accessor: 'getKeyword' },
    ]
  : [
      { dataset: 'flights-3m', column: 'delay', accessor: 'getInt64' },
      { dataset: 'flights-3m', column: 'date', accessor: 'getInt64' },
      { dataset: 'flights-3m', column: 'origin', accessor: 'getKeyword' },
      { dataset: 'zipcodes', column: 'zip_code', accessor: 'getKeyword' },
    ]

const files: Record<string, unknown>[] = []
for (const dataset of datasetsOfRun()) {
  note(`open: ${dataset}`)
  const bytes = readBytes(await oixkFile(dataset))
  // A FileBuffer holds the file in linear memory already (a download or read lands there): open checks it in place.
  const fileBuffer = createFileBuffer(bytes.length, { backend: 'wasm' })
  fileBuffer.bytes.set(bytes)
  const timings = await timeTasks([
    ...BACKENDS.map((backend) => ({ name: backend, run: () => openColumns(bytes, { backend }).close() })),
    { name: 'wasm, in place (FileBuffer)', run: () => fileBuffer.open().close() },
  ], TIME)
  fileBuffer.release()
  const memcpy = await memcpyBaseline(bytes.length, TIME)
  files.push({
    dataset, bytes: bytes.length, memcpy,
    results: timings.map((timing) => ({ backend: timing.name, ...timing, gigabytesPerSecond: bytes.length / timing.medianMs / 1e6, memcpyFraction: memcpy.medianMs / timing.medianMs })),
  })
}

const latency: Record<string, unknown>[] = []
for (const { dataset, column: name, accessor } of LATENCY_CASES) {
  note(`latency: ${dataset}.${name} ${accessor}`)
  const bytes = readBytes(await oixkFile(dataset))
  const random = seededRandom(42)
  const results = []
  for (const backend of BACKENDS) {
    const reader = openColumns(bytes, { backend })
    const column = reader.getColumn(name)
    if (column === null) throw new Error(`${dataset} has no column ${name}`)
    // Documents with a value, shuffled, so every call lands on another block.
    const documents = new Uint32Array(CALLS)
    for (let call = 0; call < CALLS; call++) {
      let document = Math.floor(random() * reader.maxDoc)
      while (!column.hasValue(document)) document = (document + 1) % reader.maxDoc
      documents[call] = document
    }
    let sink = 0
    const run = accessor === 'getInt64'
      ? () => { for (let call = 0; call < CALLS; call++) sink += column.getInt64(documents[call]) }
      : () => { for (let call = 0; call < CALLS; call++) sink += column.getKeyword(documents[call]).length }
    const [timing] = await timeTasks([{ name: backend, run }], TIME)
    if (sink === 0.5) note('unreachable') // keeps the loop's results alive
    results.push({ backend, calls: CALLS, medianMs: timing.medianMs, nanosecondsPerCall: (timing.medianMs * 1e6) / CALLS })
    reader.close()
  }
  latency.push({ dataset, column: name, accessor, results })
}

const path = writeSuiteResult('open', {
  description: 'Open = checksum (XXH64 of the whole file) + structural validation, from bytes already in memory (WebAssembly copies them into linear memory first; "wasm, in place" opens a FileBuffer already holding the file, no copy); median ms per open+close, GB/s, and memcpy of the file size / open time. Latency: ns per call of getInt64 / getKeyword over shuffled documents with a value.',
  files, latency,
})
note(`wrote ${path}`)
