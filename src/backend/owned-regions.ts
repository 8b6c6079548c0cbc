/**
 * Memory a reader's questions make for its sequences (copies of block records, block extremes),
 * listed under the reader's resident file and given back when the reader closes. Left to the
 * collector, it outlived closed readers for as long as their objects went uncollected: a service
 * whose JavaScript heap stays small grew its WebAssembly memory by each closed reader's share.
 */
import type { ResidentFile } from './backend.js'

const owned = new WeakMap<ResidentFile, { release(): void }[]>()

/** Lists `resource` (whose release() must be idempotent) to be released when the reader of `file` closes. */
export function releaseWithReader(file: ResidentFile, resource: { release(): void }): void {
  const list = owned.get(file)
  if (list === undefined) owned.set(file, [resource])
  else list.push(resource)
}

/** Releases what was listed for `file` (its reader closes). */
export function releaseOwned(file: ResidentFile): void {
  for (const resource of owned.get(file) ?? []) resource.release()
  owned.delete(file)
}
