/**
 * oixk for Node: the whole codec plus file helpers (open with the resident
 * limit enforced before reading, atomic writes).
 */
export * from '../index.js'
export * from './files.js'
export { createQueryPool, QueryPool, PooledSegment } from './query-pool.js'
export type { QueryPoolOptions, PooledOpenOptions } from './query-pool.js'
export type { ColumnInfo } from './query-protocol.js'
