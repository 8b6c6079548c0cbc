/**
 * A merge's live documents by new id (src/write/merge-targets.ts), against a model that fills a
 * table per new id as the merge once did: the same order, and the same error for a new id given
 * twice or outside [0, maxDoc). Doc maps spread over 2^31 take both radix passes; a padded merge
 * equals a flush byte for byte.
 */
import { describe, expect, it } from 'vitest'
import { mergeTargets } from '../src/write/merge-targets.js'
import { mergeColumns } from '../src/write/merge.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { openColumns } from '../src/read/open.js'
import { seededRandom } from './helpers/random.js'

/** The table model: new id → [source, old], in source order; throws the first collision met. */
function model(docMaps: Int32Array[], maxDoc: number): [number, number, number][] {
  const taken = new Map<number, [number, number]>()
  docMaps.forEach((docMap, source) => docMap.forEach((target, old) => {
    if (target === -1) return
    if (target < 0 || target >= maxDoc) throw new Error(`merge: source ${source} document ${old} maps to ${target}, outside [0, ${maxDoc}) (-1 deletes)`)
    const before = taken.get(target)
    if (before !== undefined) throw new Error(`merge: new document ${target} is the target of source ${before[0]} document ${before[1]} and of source ${source} document ${old}`)
    taken.set(target, [source, old])
  }))
  return [...taken].sort((a, b) => a[0] - b[0]).map(([target, [source, old]]) => [target, source, old])
}

function outcome(call: () => [number, number, number][]): [number, number, number][] | string {
  try {
    return call()
  } catch (error) {
    return (error as Error).message
  }
}

const listed = (docMaps: Int32Array[], maxDoc: number): [number, number, number][] => {
  const { count, order, targets, sources, olds } = mergeTargets(docMaps, maxDoc)
  return Array.from({ length: count }, (_, i) => order === null ? i : order[i]).map((k) => [targets[k], sources[k], olds[k]])
}

describe('a merge orders its live documents by new id', () => {
  it('as the table model does, on random doc maps of up to 2^31 - 1 new ids, with deletions and collisions', () => {
    const random = seededRandom(2027)
    let collisions = 0
    for (let round = 0; round < 300; round++) {
      const maxDoc = [40, 70_000, 2 ** 31 - 1, 2 ** 32 - 1][round % 4]
      const span = Math.min(maxDoc, [50, 3000, 2 ** 31 - 1][round % 3])
      const docMaps = Array.from({ length: 1 + Math.floor(random() * 4) }, () => Int32Array.from(
        { length: Math.floor(random() * 60) },
        () => (random() < 0.2 ? -1 : Math.floor(random() * span) + (random() < 0.01 ? maxDoc - span + 1 : 0)),
      ))
      const expected = outcome(() => model(docMaps, maxDoc))
      if (typeof expected === 'string' && expected.includes('target of')) collisions++
      expect(outcome(() => listed(docMaps, maxDoc)), `round ${round}`).toEqual(expected)
    }
    expect(collisions).toBeGreaterThan(20)
  })

  it('names the collision at the document that takes a new id second, the first in source order', () => {
    // New id 5 is taken by (0, 0) then (1, 1); new id 2 by (1, 0) then (2, 0): (1, 1) comes first.
    const docMaps = [Int32Array.of(5, 2), Int32Array.of(2, 5), Int32Array.of(2)]
    expect(outcome(() => listed(docMaps, 10))).toBe('merge: new document 2 is the target of source 0 document 1 and of source 1 document 0')
    expect(outcome(() => listed([Int32Array.of(1, -2)], 10))).toBe('merge: source 0 document 1 maps to -2, outside [0, 10) (-1 deletes)')
  })

  it('pads a merge far past its documents, equal to a flush of the same maxDoc', () => {
    const schema = { fields: [{ name: 'n', type: 'integral', column: true }, { name: 'k', type: 'keyword', facet: true }] } as const
    const small = flushColumns(schema, [{ n: 1, k: 'a' }, { n: 2, k: 'b' }, { n: 3, k: 'c' }])!
    const maxDoc = 200_000
    // Documents land at 150,000, 70,000 and 3 (descending: both radix passes order them).
    const merged = mergeColumns([{ reader: openColumns(small), docMap: Int32Array.of(150_000, 70_000, 3) }], { maxDoc })!
    const docs: ({ n: number; k: string } | null)[] = new Array(maxDoc).fill(null)
    docs[150_000] = { n: 1, k: 'a' }
    docs[70_000] = { n: 2, k: 'b' }
    docs[3] = { n: 3, k: 'c' }
    expect(Buffer.from(merged).equals(Buffer.from(flushColumns(schema, docs, { maxDoc })!))).toBe(true)
  })
})
