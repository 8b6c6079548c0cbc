/**
 * The live documents of a merge in new-id order, read from the sources' doc maps. Memory and time
 * follow the documents (a radix sort of their new ids), not maxDoc, which a padded merge may set
 * far above them: a table per new id took 8 bytes a document of maxDoc, 32 GiB at 2^32 - 1.
 */
import { InvalidInputError } from '../format/errors.js'

/**
 * The merge's live documents, numbered k source by source: new id `targets[k]`, document `olds[k]`
 * of source `sources[k]`. `order` lists the k by new id, or is null where they already ascend.
 */
export interface MergeTargets {
  readonly count: number
  readonly order: Uint32Array | null
  readonly targets: Int32Array
  readonly sources: Int32Array
  readonly olds: Int32Array
}

/**
 * The doc maps' live documents (-1 deletes) sorted by new id; each new id in [0, maxDoc) and the
 * target of one document only, or an InvalidInputError naming the first document that breaks it.
 */
export function mergeTargets(docMaps: readonly Int32Array[], maxDoc: number): MergeTargets {
  const total = docMaps.reduce((sum, docMap) => sum + docMap.length, 0)
  const targets = new Int32Array(total), sources = new Int32Array(total), olds = new Int32Array(total)
  // The documents before the first new id out of range (source by source): a new id given twice
  // among them is met first, as a table filled in that order meets it.
  let count = 0, previous = -1, ascending = true, outside: InvalidInputError | null = null
  outer: for (let source = 0; source < docMaps.length; source++) {
    const docMap = docMaps[source]
    for (let old = 0; old < docMap.length; old++) {
      const target = docMap[old]
      if (target === -1) continue
      if (target < 0 || target >= maxDoc) {
        outside = new InvalidInputError(`merge: source ${source} document ${old} maps to ${target}, outside [0, ${maxDoc}) (-1 deletes)`)
        break outer
      }
      ascending &&= previous < target
      previous = target
      targets[count] = target
      sources[count] = source
      olds[count++] = old
    }
  }
  // Most merges keep their sources' order (deletions, segments end to end): nothing to sort, no id twice.
  const order = ascending ? null : sortByTarget(targets.subarray(0, count), maxDoc)
  if (order !== null) {
    // A new id given twice: named at the document that takes it second, the first such in source order.
    let second = -1, first = -1
    for (let i = 1, start = 0; i < count; i++) {
      if (targets[order[i]] !== targets[order[i - 1]]) start = i
      else if (second < 0 || order[i] < second) [first, second] = [order[start], order[i]]
    }
    if (second >= 0) {
      throw new InvalidInputError(`merge: new document ${targets[first]} is the target of source ${sources[first]} document ${olds[first]} and of source ${sources[second]} document ${olds[second]}`)
    }
  }
  if (outside !== null) throw outside
  return { count, order, targets, sources, olds }
}

/** The positions of `targets` (each in [0, 2^31)) in ascending order, equal ones as they come: a stable LSD radix sort. */
function sortByTarget(targets: Int32Array, maxDoc: number): Uint32Array {
  const n = targets.length
  let order = new Uint32Array(n), next = new Uint32Array(n)
  for (let i = 0; i < n; i++) order[i] = i
  const counts = new Uint32Array(65537)
  // Below 2^16 documents one 16-bit pass sorts them.
  for (let shift = 0; shift < 32 && (shift === 0 || maxDoc > 1 << shift); shift += 16) {
    counts.fill(0)
    for (let i = 0; i < n; i++) counts[((targets[i] >>> shift) & 0xffff) + 1]++
    for (let digit = 1; digit <= 65536; digit++) counts[digit] += counts[digit - 1]
    for (let i = 0; i < n; i++) {
      const k = order[i]
      next[counts[(targets[k] >>> shift) & 0xffff]++] = k
    }
    ;[order, next] = [next, order]
  }
  return order
}
