/**
 * The multi-valued documents of bench/multi-valued.bench.ts and the pool's multi
 * questions (bench/query-pool.bench.ts): tags from 200 skewed terms, integers 0..99.
 */
import { seededRandom } from './common.js'

export const TERMS = Array.from({ length: 200 }, (_, t) => `tag${t}`)

/** Values per document of the 0-3 shape: P(0, 1, 2, 3) = (.26, .30, .18, .26), 1.44 on average. */
export function smallCount(random: () => number): number {
  const r = random()
  return r < 0.26 ? 0 : r < 0.56 ? 1 : r < 0.74 ? 2 : 3
}

/**
 * `maxDoc` documents: per shape (small: 0-3 values, large: 0-8) a multi keyword and integral
 * column, and single-valued ones beside them; `values` counts each shape's values.
 */
export function multiValuedDocuments(maxDoc: number): { schema: { fields: object[] }; docs: Record<string, unknown>[]; values: Record<string, number> } {
  const random = seededRandom(27)
  // Skewed terms (a few frequent ones, as tags are); integers 0..99.
  const term = () => TERMS[Math.floor(random() ** 2 * TERMS.length)]
  const integer = () => Math.floor(random() * 100)
  const values: Record<string, number> = { small: 0, large: 0 }
  const docs = Array.from({ length: maxDoc }, () => {
    const doc: Record<string, unknown> = {}
    for (const [shape, count] of [['small', smallCount(random)], ['large', Math.floor(random() * 9)]] as const) {
      values[shape] += count
      doc[`tags_${shape}`] = Array.from({ length: count }, term)
      doc[`nums_${shape}`] = Array.from({ length: count }, integer)
      doc[`tag_${shape}`] = term()
      doc[`num_${shape}`] = integer()
    }
    return doc
  })
  const fields = ['small', 'large'].flatMap((shape) => [
    { name: `tags_${shape}`, type: 'keyword', facet: true, multi: true },
    { name: `nums_${shape}`, type: 'integral', column: true, multi: true },
    { name: `tag_${shape}`, type: 'keyword', facet: true },
    { name: `num_${shape}`, type: 'integral', column: true },
  ])
  return { schema: { fields }, docs, values }
}
