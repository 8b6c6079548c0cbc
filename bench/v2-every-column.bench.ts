/**
 * Every column of the nine datasets, format 1 against format 2, both backends: topK both ways,
 * facets, aggregates, a range filter over the lower third of the column's range and a histogram of
 * eight buckets over it. Issue 26 asks that every v1 question be at most as slow on v2; the
 * flights-3m bench (v2-queries.bench.ts) asks its fixed questions, this one asks the same few of
 * every column, where encodings the flights columns do not use (runs sequences, decimals,
 * frequent blocks, large dictionaries) show. Prints the questions where format 2 takes more than
 * 1.3× format 1's time and 0.02 ms more (`--all`: every question), and how many there are.
 * Medians of 7 samples of at least 2 ms each, format 1 and format 2 taking turns, after 50 ms of calls each.
 * `node --expose-gc --import tsx bench/v2-every-column.bench.ts [--all] [--only=DATASET,...]`
 */
import { DATASET_NAMES, formatTwoOf, oixkFile, readBytes } from './suites/common.js'
import { openColumns } from '../src/index.js'
import type { Column } from '../src/read/column.js'
import { printTable } from './common.js'

const ALL = process.argv.includes('--all')
const only = process.argv.find((argument) => argument.startsWith('--only='))?.slice('--only='.length).split(',')
const names = only === undefined ? DATASET_NAMES : DATASET_NAMES.filter((name) => only.includes(name))

/**
 * Median ms per call of a and b, timed in turns after 50 ms of calls each: without that, a side
 * whose code no earlier question had run was timed before V8's compiler thread, busy with the
 * questions before, had its optimized code ready (bench/results/v2-every-column.md).
 */
function timeBoth(a: () => unknown, b: () => unknown): [number, number] {
  for (const run of [a, b]) for (const started = performance.now(); performance.now() - started < 50;) run()
  const samples: [number[], number[]] = [[], []]
  for (let sample = 0; sample < 7; sample++) {
    ;[a, b].forEach((run, side) => {
      const started = performance.now()
      let calls = 0
      do {
        run()
        calls++
      } while (performance.now() - started < 2)
      samples[side].push((performance.now() - started) / calls)
    })
  }
  return samples.map((list) => list.sort((x, y) => x - y)[3]) as [number, number]
}

/** The questions asked of a column (by its format 1 reading). */
function questions(column: Column): [string, (c: Column) => unknown][] {
  const asked: [string, (c: Column) => unknown][] = []
  if (column.type !== 'geo_point') asked.push(['topK desc', (c) => c.topK(10, 'descending')], ['topK asc', (c) => c.topK(10, 'ascending')])
  if (column.type === 'keyword' || column.type === 'bool') asked.push(['facet', (c) => c.facetCounts()])
  if (column.type === 'integral' || column.type === 'fractional' || column.type === 'date') {
    const summary = column.aggregate()
    asked.push(['aggregate', (c) => c.aggregate()])
    if (typeof summary.min === 'number' && typeof summary.max === 'number' && summary.max > summary.min) {
      const { min, max } = summary
      asked.push(['range', (c) => c.rangeFilter(min, min + (max - min) / 3).release()])
      asked.push(['histogram', (c) => c.histogram(Array.from({ length: 9 }, (_, i) => min + ((max - min) * i) / 8))])
    }
  }
  return asked
}

const rows: string[][] = []
let asked = 0, over = 0
for (const name of names) {
  const v1 = readBytes(await oixkFile(name)), v2 = formatTwoOf(v1, name).bytes
  for (const backend of ['wasm', 'ts'] as const) {
    using one = openColumns(v1, { backend })
    using two = openColumns(v2, { backend })
    for (const column of one.columns) {
      const other = two.getColumn(column.name)!
      for (const [question, run] of questions(column)) {
        const [t1, t2] = timeBoth(() => run(column), () => run(other))
        const slower = t2 > 1.3 * t1 && t2 - t1 > 0.02
        asked++
        if (slower) over++
        if (slower || ALL) {
          rows.push([name, backend, column.name, column.layout, question, t1.toFixed(3), t2.toFixed(3), (t2 / t1).toFixed(2), slower ? 'over' : ''])
        }
      }
    }
  }
}
printTable(`format 2 against format 1, every column (ms, median of 7; ${ALL ? 'every question' : 'questions over 1.3× and 0.02 ms'})`,
  ['dataset', 'backend', 'column', 'layout', 'question', 'v1', 'v2', 'v2 ÷ v1', ''], rows)
console.log(`\n${over} of ${asked} questions over 1.3× format 1's time and 0.02 ms`)
