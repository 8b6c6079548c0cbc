/**
 * Flush speed for integer columns (target: ≥ 20 M values/s in pure TS):
 * documents with four integral fields of different shapes (small, timestamps
 * in seconds, status codes, wide), end to end (value checks, block choice,
 * packing, checksum), and the block encoder alone on the same values.
 */
import { flushColumns } from '../src/index.js'
import { ByteSink } from '../src/write/byte-sink.js'
import { writeSequence } from '../src/write/sequence-encoder.js'
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
  // The block encoder alone over the same values as raw words (what a merge or columnar import feeds it).
  const fieldWords = schema.fields.map(({ name }) => {
    const words = new Int32Array(2 * DOCUMENTS)
    docs.forEach((doc, index) => {
      const value = doc[name as keyof typeof doc]
      words[2 * index] = value | 0
      words[2 * index + 1] = Math.floor(value / 4294967296)
    })
    return words
  })
  const sink = new ByteSink(16 << 20)
  const results = await measure([
    { name: `flushColumns, ${DOCUMENTS} docs × ${FIELDS} integral fields (end to end)`, itemsPerCall: DOCUMENTS * FIELDS, run: () => { flushColumns(schema, docs) } },
    { name: `block encoding only, same ${DOCUMENTS * FIELDS} values`, itemsPerCall: DOCUMENTS * FIELDS, run: () => {
      sink.length = 0
      for (const words of fieldWords) writeSequence(words, DOCUMENTS, sink)
    } },
  ], 2000)
  return results.map((result) => [result.name, perSecond(result.itemsPerSecond), `${result.millisecondsPerCall.toFixed(1)} ms`])
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable('Encoding (flush), pure TypeScript', ['case', 'values/s', 'per call'], await benchEncode())
}
