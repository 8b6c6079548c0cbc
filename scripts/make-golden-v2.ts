/**
 * Writes the format 2 golden files (test/golden/v2/): every v1 golden input
 * flushed in format 2 (its dump is the v1 golden JSON), and "cascades", whose
 * columns take every block kind and sequence form (its documents are generated:
 * test/helpers/cascades-golden.ts). Run once, on purpose:
 * `node --import tsx scripts/make-golden-v2.ts`; test/golden.test.ts checks them.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { signature, summarize } from '../src/cascade/describe.js'
import { flushColumns, openColumns } from '../src/index.js'
import { cascadesCase } from '../test/helpers/cascades-golden.js'
import { revive } from '../test/helpers/golden-json.js'

const GOLDEN = 'test/golden'
const OUT = join(GOLDEN, 'v2')

mkdirSync(OUT, { recursive: true })
const v1Names = readdirSync(GOLDEN).filter((file) => file.endsWith('.input.json')).map((file) => file.slice(0, -'.input.json'.length))
for (const name of v1Names) {
  const input = JSON.parse(readFileSync(join(GOLDEN, `${name}.input.json`), 'utf8'), revive)
  const bytes = flushColumns(input.schema, input.docs, { maxDoc: input.maxDoc, format: 2 })!
  writeFileSync(join(OUT, `${name}.oixk`), bytes)
  console.log(`${name}: ${bytes.length} bytes (v1 ${readFileSync(join(GOLDEN, `${name}.oixk`)).length})`)
}
const cascades = cascadesCase()
const bytes = flushColumns({ fields: cascades.fields }, cascades.docs, { maxDoc: cascades.maxDoc, format: 2 })!
const reader = openColumns(bytes)
reader.verify()
writeFileSync(join(OUT, 'cascades.oixk'), bytes)
const shapes: Record<string, string> = {}
for (const column of reader.columns) {
  shapes[column.name] = signature(summarize(column.values, 2))
  if (column.dictionary !== null) shapes[`${column.name} (dictionary)`] = column.dictionary.encoding!.formName
}
writeFileSync(join(OUT, 'cascades.shapes.json'), JSON.stringify(shapes, null, 1) + '\n')
console.log(`cascades: ${bytes.length} bytes`, shapes)
