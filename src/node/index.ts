/**
 * oixk for Node: the whole codec plus file helpers (open with the resident
 * limit enforced before reading, atomic writes).
 */
export * from '../index.js'
export * from './files.js'
