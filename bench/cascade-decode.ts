/**
 * Ad-hoc benchmark of the WebAssembly cascade kernels (assembly/cascade/): 65,536
 * values of each v2 encoding (the data of test/helpers/cascade-data.ts), read with
 * readValues in place into ValueBuffers and into plain arrays, and one value at a
 * time (getRaw through Column.loadRaw, cache-resident). v1 columns (packed, table,
 * doubles) are measured in the same rounds as references: on a shared machine only
 * figures of one run compare. Each figure is the best (or, MEDIAN=1, the median) of
 * the rounds, the cases taking turns in each round:
 *   node --import tsx bench/cascade-decode.ts [rounds] [name filter]
 */
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { createValueBuffer } from '../src/read/buffers.js'
import type { Column } from '../src/read/column.js'
import { openColumns } from '../src/read/open.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { blockKindColumns, cascadeFile, decimalColumns, formColumns, shapeOf } from '../test/helpers/cascade-data.js'
import { seededRandom } from '../test/helpers/random.js'

const VALUES = 65536
const ROUNDS = Number(process.argv[2] ?? 9)
const FILTER = process.argv[3] ?? ''
const MEDIAN = process.env.MEDIAN === '1'

/** A v1 file with the reference columns: packed widths 16 and 40, a 21-entry table per block, decimal doubles. */
function v1File(): Uint8Array {
  const random = seededRandom(5)
  const tables = Array.from({ length: 64 }, () => Array.from({ length: 21 }, () => BigInt(Math.floor(random() * 2 ** 30)) * 64n))
  const docs = Array.from({ length: VALUES }, (_, i) => ({
    v1packed16: BigInt(Math.floor(random() * 65536)),
    v1packed40: BigInt(Math.floor(random() * 2 ** 30)) * 1024n + BigInt(Math.floor(random() * 1024)),
    v1table: tables[i >> 10][Math.floor(random() * 21)],
    v1double: Math.floor(random() * 2e6) / 1000,
  }))
  const fields = Object.keys(docs[0]).map((name) => ({ name, type: name === 'v1double' ? 'fractional' : 'integral', column: true }))
  return flushColumns({ fields }, docs)!
}

interface Row { name: string; shape: string; runs: [string, () => void][]; getRaw: () => void }

function brief(shape: ReturnType<typeof shapeOf>): string {
  return shape.form === 'blocks'
    ? `blocks ${[...new Set(shape.kinds)].join('/')}${shape.flags.length ? ` (${[...new Set(shape.flags)].join('/')})` : ''}`
    : `${shape.form}(${shape.children.map(brief).join('; ')})`
}

function rowOf(column: Column): Row {
  const doubles = column.type === 'fractional'
  const raw = createValueBuffer('int64', VALUES, { backend: 'wasm' }), float = createValueBuffer('float64', VALUES, { backend: 'wasm' })
  const bigints = new BigInt64Array(VALUES), floats = new Float64Array(VALUES)
  const runs: [string, () => void][] = [
    ['i64 in place', () => column.readValues(0, raw.array)],
    ['i64 plain', () => column.readValues(0, bigints)],
  ]
  if (doubles) runs.push(['f64 in place', () => column.readValues(0, float.array)], ['f64 plain', () => column.readValues(0, floats)])
  // Every 16th value: sequential, cache-resident; the time per call is what is reported.
  const getRaw = () => { for (let i = 0; i < VALUES; i += 16) column.loadRaw(i) }
  return { name: column.name, shape: column.values.cascade === null ? 'v1 kernels' : brief(shapeOf(column.values)), runs, getRaw }
}

/** Seconds per call: `calls` calls timed in each round, best or median over rounds. */
function measure(rows: Row[]): Map<string, number> {
  const times = new Map<string, number[]>()
  const timed: [string, () => void, number][] = []
  for (const row of rows) {
    for (const [what, run] of row.runs) timed.push([`${row.name} ${what}`, run, 1])
    timed.push([`${row.name} getRaw`, row.getRaw, VALUES / 16])
  }
  for (const [, run] of timed) for (let i = 0; i < 20; i++) run()
  for (let round = 0; round < ROUNDS; round++) {
    for (const [key, run, per] of timed) {
      let calls = 0
      const start = performance.now()
      do { run(); calls++ } while (performance.now() - start < 5)
      const list = times.get(key) ?? []
      list.push((performance.now() - start) / 1000 / calls / per)
      times.set(key, list)
    }
  }
  const result = new Map<string, number>()
  for (const [key, list] of times) {
    list.sort((a, b) => a - b)
    result.set(key, MEDIAN ? list[list.length >> 1] : list[0])
  }
  return result
}

const reason = wasmUnavailableReason()
if (reason !== null) throw new Error(reason)
const readers = [openColumns(v1File(), { backend: 'wasm' })]
const rows: Row[] = readers[0].columns.map(rowOf)
for (const group of [blockKindColumns(VALUES), formColumns(VALUES), decimalColumns(VALUES)]) {
  const reader = openColumns(cascadeFile(group), { backend: 'wasm' })
  readers.push(reader)
  for (const spec of group) {
    if (!spec.name.includes(FILTER)) continue
    const column = reader.getColumn(spec.name)!
    spec.expectShape(shapeOf(column.values))
    rows.push(rowOf(column))
  }
}
const times = measure(rows)
const rate = (key: string) => `${(VALUES / times.get(key)! / 1e9).toFixed(2)}`
console.log(`${VALUES} values, ${MEDIAN ? 'median' : 'best'} of ${ROUNDS} rounds; G values/s, getRaw in ns`)
console.log(['column'.padEnd(20), 'encoding'.padEnd(46), 'i64 in place', 'i64 plain', 'f64 in place', 'f64 plain', 'getRaw'].join('  '))
for (const row of rows) {
  const f64 = row.runs.length > 2
  console.log([
    row.name.padEnd(20), row.shape.slice(0, 46).padEnd(46), rate(`${row.name} i64 in place`).padStart(12), rate(`${row.name} i64 plain`).padStart(9),
    (f64 ? rate(`${row.name} f64 in place`) : '').padStart(12), (f64 ? rate(`${row.name} f64 plain`) : '').padStart(9),
    (times.get(`${row.name} getRaw`)! * 1e9).toFixed(1).padStart(6),
  ].join('  '))
}
for (const reader of readers) reader.close()
