/**
 * Keyword terms to their ids in a column being written. V8 hashes a string of more than 16,383
 * characters by its length alone, so a Map of many long terms of one length compared each new term
 * with all of them: those are keyed by a seeded hash of their characters and told apart by comparing.
 */
import { mix32, PROCESS_SEED } from '../format/seeded-hash.js'

const LONGEST_HASHED = 16383

function contentHash(term: string): number {
  let h = PROCESS_SEED
  for (let index = 0; index < term.length; index++) h = Math.imul(h ^ term.charCodeAt(index), 0x01000193)
  return mix32(h)
}

/** Term → id, for terms of any length. */
export class TermIds {
  private readonly short = new Map<string, number>()
  /** Long terms by their characters' hash: the ids of those that share it. */
  private readonly long = new Map<number, number[]>()

  /** `terms[id]` is the term of id. */
  constructor(private readonly terms: readonly string[]) {}

  get(term: string): number | undefined {
    if (term.length <= LONGEST_HASHED) return this.short.get(term)
    const ids = this.long.get(contentHash(term))
    if (ids !== undefined) for (const id of ids) if (this.terms[id] === term) return id
    return undefined
  }

  set(term: string, id: number): void {
    if (term.length <= LONGEST_HASHED) {
      this.short.set(term, id)
      return
    }
    const key = contentHash(term)
    const ids = this.long.get(key)
    if (ids === undefined) this.long.set(key, [id])
    else ids.push(id)
  }

  delete(term: string): void {
    if (term.length <= LONGEST_HASHED) {
      this.short.delete(term)
      return
    }
    const key = contentHash(term)
    const ids = this.long.get(key)
    if (ids === undefined) return
    const kept = ids.filter((id) => this.terms[id] !== term)
    if (kept.length === 0) this.long.delete(key)
    else this.long.set(key, kept)
  }
}
