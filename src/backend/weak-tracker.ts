/** A tracked item's entry: WeakTracker.add's token, which WeakTracker.delete takes. */
export class Tracked<T extends object> {
  /** The item, until it ends (delete). */
  item: T | null
  /** The one WeakRef made: to the entry, never to the item. */
  readonly reference: WeakRef<Tracked<T>> = new WeakRef(this)
  constructor(item: T) {
    this.item = item
  }
}

/**
 * Objects something hands out and must end when it ends (a reader's DocSets, a FileBuffer's or a
 * pooled segment's readers), held weakly so that one dropped unended is still collected. Entries
 * collected meanwhile are pruned as the set grows, at a cost that amortizes over the adds.
 *
 * A WeakRef keeps its target alive to the end of the current task: made to each item, a loop that
 * opens and closes thousands of readers in one task kept every one (and the memory they show). The
 * WeakRefs are made to small entries instead, which hold their item until it is deleted (ended);
 * a WeakMap keeps each entry as long as its item lives.
 */
export class WeakTracker<T extends object> {
  private readonly items = new Set<WeakRef<Tracked<T>>>()
  private readonly entries = new WeakMap<T, Tracked<T>>()
  private pruneAt = 64

  /** Tracks an item; the entry returned stops tracking it (delete). */
  add(item: T): Tracked<T> {
    const entry = new Tracked(item)
    this.entries.set(item, entry)
    this.items.add(entry.reference)
    if (this.items.size >= this.pruneAt) {
      for (const each of this.items) if ((each.deref()?.item ?? null) === null) this.items.delete(each)
      this.pruneAt = Math.max(64, 2 * this.items.size)
    }
    return entry
  }

  /** Stops tracking an item (it ended on its own). */
  delete(entry: Tracked<T>): void {
    const item = entry.item
    entry.item = null
    if (item !== null) this.entries.delete(item)
    this.items.delete(entry.reference)
  }

  /** Entries tracked (those collected but not yet pruned included). */
  get size(): number {
    return this.items.size
  }

  /** The items still alive, no longer tracked: the caller ends them. */
  drain(): T[] {
    const alive: T[] = []
    for (const reference of this.items) {
      const item = reference.deref()?.item ?? null
      if (item !== null) alive.push(item)
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
