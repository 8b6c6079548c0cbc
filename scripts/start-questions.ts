/**
 * The questions `npm start` answers on flights-3m, three ways: the query API
 * with each backend (straight from the compressed blocks), and hyparquet
 * decoding the Parquet file followed by plain loops over the decoded values.
 * The answers must agree; the timings are printed side by side.
 */
import type { ColumnsReader } from '../src/read/reader.js'
import { readParquetColumns } from './parquet-columns.js'
import { vegaDataPath } from './import-flights.js'

/** A delayed flight left at least this many minutes late. */
const DELAYED_MINUTES = 15
const TOP = 5
/** First day of each month from January to August 2001 (the data runs to 2001-07-01T00:00). */
const MONTH_EDGES = Array.from({ length: 8 }, (_, month) => Date.UTC(2001, month, 1))
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul']

/** The three answers, normalised so the ways can be compared. */
export interface Answers {
  flightsPerOrigin: [string, number][]
  delayedPerOrigin: [string, number][]
  flightsPerMonth: number[]
}

/**
 * Milliseconds of the fastest of `runs` calls and the last result, after 50 ms of calls: V8
 * compiles a question's code on another thread, and a few calls may all run before it lands
 * (format 2's paths, reached after format 1's, most).
 */
function fastest<T>(runs: number, run: () => T): { milliseconds: number; result: T } {
  let result = run()
  for (const until = performance.now() + 50; performance.now() < until;) result = run()
  let best = Infinity
  for (let index = 0; index < runs; index++) {
    const started = performance.now()
    result = run()
    best = Math.min(best, performance.now() - started)
  }
  return { milliseconds: best, result }
}

/** The questions through the query API of an open reader; per-question milliseconds beside the answers. */
export function answerWithOixk(reader: ColumnsReader): { answers: Answers; milliseconds: number[] } {
  const origin = reader.getColumn('origin')!, delay = reader.getColumn('delay')!, date = reader.getColumn('date')!
  const perOrigin = fastest(20, () => origin.topTerms(TOP))
  const delayed = fastest(20, () => {
    using late = delay.rangeFilter(DELAYED_MINUTES, Number.MAX_SAFE_INTEGER)
    return origin.topTerms(TOP, late)
  })
  const perMonth = fastest(20, () => date.histogram(MONTH_EDGES))
  return {
    answers: {
      flightsPerOrigin: perOrigin.result.map(({ term, count }) => [term, count]),
      delayedPerOrigin: delayed.result.map(({ term, count }) => [term, count]),
      flightsPerMonth: Array.from(perMonth.result),
    },
    milliseconds: [perOrigin.milliseconds, delayed.milliseconds, perMonth.milliseconds],
  }
}

/** Counts by term, largest first, ties by term (as topTerms orders ties by ordinal, i.e. by term bytes). */
function topOf(counts: Map<string, number>): [string, number][] {
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, TOP)
}

/** The same questions from the Parquet file: hyparquet decodes the three columns, plain loops answer. */
export async function answerWithHyparquet(): Promise<{ answers: Answers; decodeMilliseconds: number; loopMilliseconds: number }> {
  const started = performance.now()
  const { rowCount, columns } = await readParquetColumns(vegaDataPath('flights-3m.parquet'), ['origin', 'delay', 'date'])
  const decoded = performance.now()
  const origin = columns.get('origin') as ArrayLike<string>, delay = columns.get('delay') as ArrayLike<number>
  const date = columns.get('date') as ArrayLike<Date | number>
  const all = new Map<string, number>(), late = new Map<string, number>()
  const months = new Array<number>(MONTH_EDGES.length - 1).fill(0)
  for (let row = 0; row < rowCount; row++) {
    const term = origin[row]
    all.set(term, (all.get(term) ?? 0) + 1)
    if (delay[row] >= DELAYED_MINUTES) late.set(term, (late.get(term) ?? 0) + 1)
    const time = +date[row]
    for (let month = 0; month < months.length; month++) {
      if (time >= MONTH_EDGES[month] && time < MONTH_EDGES[month + 1]) months[month]++
    }
  }
  const answers = { flightsPerOrigin: topOf(all), delayedPerOrigin: topOf(late), flightsPerMonth: months }
  return { answers, decodeMilliseconds: decoded - started, loopMilliseconds: performance.now() - decoded }
}

/** The answers as printed lines. */
export function describeAnswers(answers: Answers): string[] {
  const list = (pairs: [string, number][]) => pairs.map(([term, count]) => `${term} ${count.toLocaleString('en-US')}`).join(', ')
  return [
    `  flights per origin (top ${TOP}):            ${list(answers.flightsPerOrigin)}`,
    `  delayed ≥ ${DELAYED_MINUTES} min per origin (top ${TOP}):  ${list(answers.delayedPerOrigin)}`,
    `  flights per month (2001):            ${answers.flightsPerMonth.map((count, month) => `${MONTH_NAMES[month]} ${count.toLocaleString('en-US')}`).join(', ')}`,
  ]
}
