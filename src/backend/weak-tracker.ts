/**
 * Objects something hands out and must end when it ends (a reader's DocSets, a FileBuffer's or a
 * pooled segment's readers), held weakly so that one dropped unended is still collected. Entries
 * collected meanwhile are pruned as the set grows, at a cost that amortizes over the adds.
 */
export class WeakTracker<T extends object> {
  private readonly items = new Set<WeakRef<T>>()
  private pruneAt = 64

  /** Tracks an item; the reference returned stops tracking it (delete). */
  add(item: T): WeakRef<T> {
    const reference = new WeakRef(item)
    this.items.add(reference)
    if (this.items.size >= this.pruneAt) {
      for (const each of this.items) if (each.deref() === undefined) this.items.delete(each)
      this.pruneAt = Math.max(64, 2 * this.items.size)
    }
    return reference
  }

  /** Stops tracking an item (it ended on its own). */
  delete(reference: WeakRef<T>): void {
    this.items.delete(reference)
  }

  /** Entries tracked (those collected but not yet pruned included). */
  get size(): number {
    return this.items.size
  }

  /** The items still alive, no longer tracked: the caller ends them. */
  drain(): T[] {
    const alive: T[] = []
    for (const reference of this.items) {
      const item = reference.deref()
      if (item !== undefined) alive.push(item)
    }
    this.items.clear()
    return alive
  }
}

/** Each view of linear memory handed out, with what owns its memory (a WeakMap keeps the owner as long as the view lives). */
const viewOwners = new WeakMap<object, object>()

/**
 * Keeps `owner` (a buffer or region whose collection frees the memory the view shows) alive for
 * as long as `view` lives: an array kept after its buffer was dropped must not come to show memory
 * handed to someone else. Views made from it (subarray, new views of its buffer) are not covered.
 */
export function ownedBy<T extends object>(view: T, owner: object): T {
  viewOwners.set(view, owner)
  return view
}
