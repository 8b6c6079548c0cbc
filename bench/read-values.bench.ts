/**
 * Pure-TS readValues throughput per block form and width (target: ≥ 300 M
 * values/s for packed blocks with width ≤ 32), side by side with a plain
 * TypedArray.set of the same output bytes.
 */
import { flushColumns, openColumns } from '../src/index.js'
import { measure, perSecond, printTable, seededRandom } from './common.js'

const VALUES = 1 << 16

/** A file with one dense integral column whose values are made by `make`. */
function columnOf(make: (index: number) => number | bigint) {
  const docs = Array.from({ length: VALUES }, (_, index) => ({ value: make(index) }))
  const bytes = flushColumns({ fields: [{ name: 'value', type: 'integral', column: true }] }, docs)!
  return openColumns(bytes, { backend: 'ts' }).getColumn('value')!
}

/** Runs the readValues benchmark and returns its rows. */
export async function benchReadValues(): Promise<string[][]> {
  const random = seededRandom(42)
  const cases: { name: string; make: (index: number) => number | bigint }[] = []
  for (const width of [1, 3, 8, 13, 17, 32]) {
    cases.push({ name: `packed w=${width} g=1`, make: () => Math.floor(random() * 2 ** width) })
  }
  cases.push({ name: 'packed w=13 g=1000', make: () => 1_600_000_000_000 + 1000 * Math.floor(random() * 2 ** 13) })
  for (const width of [47, 64]) {
    cases.push({ name: `packed w=${width} g=1`, make: (index) => BigInt.asIntN(64, BigInt(Math.floor(random() * 2 ** 32)) << BigInt(width - 32) | BigInt(index & 1)) })
  }
  cases.push({ name: 'constant', make: () => 7 })
  // Sixteen values spread over 40 bits with no common divisor: a table is smaller than packing 40 bits.
  const tableValues = Array.from({ length: 16 }, () => Math.floor(random() * 2 ** 40))
  cases.push({ name: 'table (16 wide values)', make: () => tableValues[Math.floor(random() * 16)] })
  const destination = new BigInt64Array(VALUES)
  const doubles = new Float64Array(VALUES)
  const copySource = new BigInt64Array(VALUES)
  const tasks = cases.flatMap(({ name, make }) => {
    const column = columnOf(make)
    if (name.startsWith('table') && (column.values.records[0] & 0xff) !== 2) throw new Error('the table case did not make table blocks')
    const tasks = [{ name: `${name} → BigInt64Array`, itemsPerCall: VALUES, run: () => { column.readValues(0, destination) } }]
    if (!name.includes('w=64') && !name.includes('w=47')) {
      tasks.push({ name: `${name} → Float64Array`, itemsPerCall: VALUES, run: () => { column.readValues(0, doubles) } })
    }
    return tasks
  })
  tasks.push({ name: 'TypedArray.set of the same 512 KiB (memcpy)', itemsPerCall: VALUES, run: () => destination.set(copySource) })
  const results = await measure(tasks)
  return results.map((result) => [result.name, perSecond(result.itemsPerSecond), `${(result.millisecondsPerCall * 1000).toFixed(1)} µs`])
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(`readValues, pure TypeScript backend, ${VALUES} cache-resident values`, ['case', 'values/s', 'per call'], await benchReadValues())
}
