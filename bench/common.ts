/**
 * Shared benchmark plumbing: seeded data, tinybench runs, values/s figures.
 */
import { Bench } from 'tinybench'

export { seededRandom } from '../test/helpers/random.js'

/** One measured task: name, items processed per call, and the call. */
export interface Measured {
  name: string
  itemsPerCall: number
  /** One call; tinybench awaits a returned promise. */
  run: () => unknown
}

/** A task's result: median time per call and items per second. */
export interface Measurement {
  name: string
  millisecondsPerCall: number
  itemsPerSecond: number
}

/** Runs the tasks side by side in one tinybench run; reports medians. */
export async function measure(tasks: Measured[], time = 400, warmupTime = 100, iterations?: number): Promise<Measurement[]> {
  // iterations: tinybench's least number of calls per task (its default, 64, makes slow tasks take minutes).
  const bench = new Bench({ time, warmup: true, warmupTime, ...(iterations === undefined ? {} : { iterations, warmupIterations: Math.min(iterations, 5) }) })
  for (const task of tasks) bench.add(task.name, task.run)
  await bench.run()
  return tasks.map((task, index) => {
    const result = bench.tasks[index].result
    if (result === undefined || !('latency' in result)) throw new Error(`benchmark ${task.name} failed: ${JSON.stringify(result)}`)
    const milliseconds = result.latency.p50 ?? result.latency.mean
    return { name: task.name, millisecondsPerCall: milliseconds, itemsPerSecond: (task.itemsPerCall * 1000) / milliseconds }
  })
}

/**
 * measure() in rounds, every task in each, a task's figure the median of its rounds: on these
 * shared machines a neighbour's burst of a second or two spoils one round of a task rather than
 * its one measurement (one full run here had w=17 into a BigInt64Array at 1.95 G/s, the next
 * at 2.80).
 */
export async function measureRounds(tasks: Measured[], rounds: number, time: number, iterations?: number): Promise<Measurement[]> {
  const results: Measurement[][] = []
  for (let round = 0; round < rounds; round++) results.push(await measure(tasks, time, time / 4, iterations))
  return tasks.map((task, index) => {
    const times = results.map((round) => round[index].millisecondsPerCall).sort((a, b) => a - b)
    const milliseconds = times[(times.length - 1) >> 1]
    return { name: task.name, millisecondsPerCall: milliseconds, itemsPerSecond: (task.itemsPerCall * 1000) / milliseconds }
  })
}

/** Formats items/s as "123.4 M/s". */
export function perSecond(value: number): string {
  return value >= 1e9 ? `${(value / 1e9).toFixed(2)} G/s` : `${(value / 1e6).toFixed(1)} M/s`
}

/** Prints rows as an aligned table. */
export function printTable(title: string, header: string[], rows: string[][]): void {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column].length)))
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ')
  console.log(`\n${title}\n${line(header)}\n${widths.map((width) => '-'.repeat(width)).join('  ')}`)
  for (const row of rows) console.log(line(row))
}
