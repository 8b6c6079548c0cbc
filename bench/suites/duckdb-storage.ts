/**
 * DuckDB's own storage of a dataset: the table written to a DuckDB database
 * file (default block size) and checkpointed, sized from `pragma_database_size`
 * (blocks in use) and per column from `pragma_storage_info` (its segments).
 *
 * DuckDB reports where each segment starts (block and offset), not how long it
 * is. A segment followed by another in the same block is as long as the gap to
 * it; the last segment of a block has no such neighbour. So the table is
 * written twice, columns in order and reversed: segment bytes do not depend on
 * the order, and a segment that ends its block in one file is followed by
 * another in the other file unless it is alone there. A segment with no
 * neighbour in either file counts up to its block's end, and its column is
 * marked as an upper bound.
 */
import { rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { SCRATCH_DIR, sqlName, sqlString } from './common.js'

/** One column's segments in DuckDB storage. */
export interface DuckDBColumnStorage {
  /** Bytes of its segments (exact, or an upper bound when `exact` is false). */
  bytes: number
  exact: boolean
  /** Compression of its value segments, by share of rows, e.g. { Dictionary: 96, FSST: 4 }. */
  compression: Record<string, number>
}

/** DuckDB's storage of one table. */
export interface DuckDBStorage {
  version: string
  blockSize: number
  /** Blocks in use × block size: data and metadata, what the file needs. */
  usedBlockBytes: number
  /** The database file after the checkpoint (free blocks and headers included). */
  fileBytes: number
  columns: Record<string, DuckDBColumnStorage>
}

interface Segment { key: string; column: string; type: string; rows: number; compression: string; block: number; offset: number; extraBlocks: number }

/** Writes `columns` of `table` (in that order) to a fresh database file; returns its segments and sizes. */
async function writeAndRead(connection: DuckDBConnection, table: string, columns: string[], file: string) {
  rmSync(file, { force: true })
  rmSync(`${file}.wal`, { force: true })
  await connection.run(`ATTACH ${sqlString(file)} AS oixk_storage`)
  try {
    await connection.run(`CREATE TABLE oixk_storage.stored AS SELECT ${columns.map(sqlName).join(', ')} FROM memory.main.${sqlName(table)}`)
    await connection.run('CHECKPOINT oixk_storage')
    const size = (await connection.runAndReadAll(
      `SELECT block_size, used_blocks FROM pragma_database_size() WHERE database_name = 'oixk_storage'`)).getRowsJS()[0] as bigint[]
    const rows = (await connection.runAndReadAll(
      `SELECT column_name, column_path, row_group_id, start, segment_type, count, compression, block_id, block_offset, additional_block_ids
       FROM pragma_storage_info('oixk_storage.stored')`)).getRowsJS() as unknown[][]
    const segments: Segment[] = rows.map(([column, path, group, start, type, count, compression, block, offset, extra]) => ({
      // The column's index leads the path and changes with the order; the rest (struct child, validity) does not.
      key: `${String(column)}|${String(path).replace(/^\[\d+/, '[')}|${String(group)}|${String(start)}|${String(type)}`,
      column: String(column), type: String(type), rows: Number(count), compression: String(compression),
      block: Number(block), offset: Number(offset), extraBlocks: (extra as unknown[]).length,
    }))
    return { blockSize: Number(size[0]), usedBlocks: Number(size[1]), segments }
  } finally {
    await connection.run('DETACH oixk_storage')
  }
}

/** Byte length of each stored segment whose block holds a later segment (null: it ends its block). */
function knownLengths(segments: Segment[]): Map<string, number | null> {
  const stored = segments.filter((segment) => segment.block >= 0).sort((a, b) => a.block - b.block || a.offset - b.offset)
  const lengths = new Map<string, number | null>()
  stored.forEach((segment, index) => {
    const next = stored[index + 1]
    // A segment spilling into further blocks ends somewhere in its last one: unknown.
    lengths.set(segment.key, segment.extraBlocks === 0 && next !== undefined && next.block === segment.block ? next.offset - segment.offset : null)
  })
  return lengths
}

/** DuckDB's storage of `table`'s `columns` (a table in the connection's in-memory catalog). */
export async function duckdbStorage(connection: DuckDBConnection, table: string, columns: string[], name: string): Promise<DuckDBStorage> {
  const file = join(SCRATCH_DIR, `${name}.duckdb`)
  const forward = await writeAndRead(connection, table, columns, file)
  const fileBytes = statSync(file).size
  const reversed = await writeAndRead(connection, table, [...columns].reverse(), file)
  rmSync(file, { force: true })
  const version = String((await connection.runAndReadAll('SELECT version()')).getRowsJS()[0][0])
  const forwardLengths = knownLengths(forward.segments)
  const reversedLengths = knownLengths(reversed.segments)
  const result: Record<string, DuckDBColumnStorage> = {}
  for (const column of columns) result[column] = { bytes: 0, exact: true, compression: {} }
  const valueRows = new Map<string, number>()
  for (const segment of forward.segments) {
    const entry = result[segment.column]
    if (segment.type !== 'VALIDITY') {
      entry.compression[segment.compression] = (entry.compression[segment.compression] ?? 0) + segment.rows
      valueRows.set(segment.column, (valueRows.get(segment.column) ?? 0) + segment.rows)
    }
    if (segment.block < 0) continue // constant segments live in the metadata, not in blocks
    const length = forwardLengths.get(segment.key) ?? reversedLengths.get(segment.key) ?? null
    if (length !== null) entry.bytes += length
    else {
      entry.exact = false
      entry.bytes += forward.blockSize - segment.offset + segment.extraBlocks * forward.blockSize
    }
  }
  for (const column of columns) {
    const entry = result[column], total = valueRows.get(column) ?? 0
    for (const kind of Object.keys(entry.compression)) entry.compression[kind] = total === 0 ? 0 : Math.round(1000 * entry.compression[kind] / total) / 10
  }
  return { version, blockSize: forward.blockSize, usedBlockBytes: forward.usedBlocks * forward.blockSize, fileBytes, columns: result }
}
