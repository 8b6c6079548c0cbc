/**
 * Flush speed for integer columns (target: ≥ 20 M values/s in pure TS):
 * documents with four integral fields of different shapes, end to end
 * (value checks, block choice, packing, checksum).
 */
import { flushColumns } from '../src/index.js'
import { measure, perSecond, printTable, seededRandom } from './common.js'

const DOCUMENTS = 250_000
const FIELDS = 4

/** Runs the encode benchmark and returns its rows. */
export async function benchEncode(): Promise<string[][]> {
  const random = seededRandom(7)
  const schema = {
    fields: [
      { name: 'small', type: 'integral', column: true },
      { name: 'timestamp', type: 'integral', column: true },
      { name: 'status', type: 'integral', column: true },
      { name: 'wide', type: 'integral', column: true },
    ],
  }
  const statuses = [200, 301, 404, 500, 503]
  const docs = Array.from({ length: DOCUMENTS }, (_, index) => ({
    small: Math.floor(random() * 100),
    timestamp: 1_600_000_000_000 + index * 1000 + 1000 * Math.floor(random() * 60),
    status: statuses[Math.floor(random() * statuses.length)] * 1000,
    wide: Math.floor(random() * 2 ** 40) - 2 ** 39,
  }))
  const results = await measure([
    { name: `flushColumns, ${DOCUMENTS} docs × ${FIELDS} integral fields`, itemsPerCall: DOCUMENTS * FIELDS, run: () => { flushColumns(schema, docs) } },
  ], 2000)
  return results.map((result) => [result.name, perSecond(result.itemsPerSecond), `${result.millisecondsPerCall.toFixed(1)} ms`])
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable('Encoding (flush), pure TypeScript', ['case', 'values/s', 'per call'], await benchEncode())
}
