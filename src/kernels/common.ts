/**
 * Checks every query makes before touching memory: the column's type, and that
 * DocSets belong to the column's backend and document count.
 */
import type { ColumnsBackend } from '../backend/backend.js'
import type { Column } from '../read/column.js'
import { DocSet, notThisDocSet, otherMemory } from './doc-set.js'

/** Throws TypeError naming the field and what the method reads unless allowed. */
export function expectType(column: Column, method: string, allowed: boolean, types: string): void {
  if (!allowed) throw new TypeError(`field "${column.name}" is ${column.type}; ${method} reads ${types} columns`)
}

/** The error for `value` given as a DocSet; document ids in a list, the likely slip, get how to make one (from `owner`). */
export function notADocSet(field: string, role: string, value: unknown, owner: string): TypeError {
  const ids = Array.isArray(value) || ArrayBuffer.isView(value) ? `; DocSet.fromDocuments(${owner}, ids) makes one of ids` : ''
  return new TypeError(`field "${field}": ${role} ${notThisDocSet(value)}${ids}`)
}

/** Throws RangeError unless the DocSet was made for this backend and maxDoc. */
export function checkDocSet(column: Column, backend: ColumnsBackend, docs: DocSet, role: string): void {
  if (!(docs instanceof DocSet)) throw notADocSet(column.name, role, docs, 'reader')
  if (docs.backend !== backend || docs.maxDoc !== column.maxDoc) {
    throw new RangeError(
      `field "${column.name}": ${role} DocSet has ${docs.maxDoc} documents on the ${docs.backend.name} backend; `
      + `this column has ${column.maxDoc} documents on the ${backend.name} backend${memoryRemedy(docs.backend, backend)}`,
    )
  }
}

/** otherMemory's words, or, for a reader's own DocSet given to a pool's reader (segment.openReader()), the way round. */
function memoryRemedy(set: ColumnsBackend, column: ColumnsBackend): string {
  if (column.sharedMemory === true && set.sharedMemory !== true && set.name === column.name) {
    return ' (a DocSet of a reader\'s own memory, where this column reads a query pool\'s: make it with this column\'s reader or its segment)'
  }
  return otherMemory(set, column)
}

/** The filter DocSet, checked, or null for all documents. */
export function filterOf(column: Column, backend: ColumnsBackend, docs: DocSet | undefined | null): DocSet | null {
  if (docs === undefined || docs === null) return null
  checkDocSet(column, backend, docs, 'docs')
  return docs
}

/** The output DocSet: `out` checked (not yet cleared), or a new empty one. */
export function outputOf(column: Column, backend: ColumnsBackend, out: DocSet | undefined): DocSet {
  if (out === undefined) return new DocSet(backend, column.maxDoc, column.docSetOwner)
  checkDocSet(column, backend, out, 'out')
  return out
}
