/**
 * Reads whole columns of a Parquet file with hyparquet (ZSTD/Snappy via
 * hyparquet-compressors), column chunk by column chunk, into plain arrays.
 */
import { readFileSync } from 'node:fs'
import { parquetMetadata, parquetRead } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'

/** Column name → one value per row, in row order. */
export type ParquetColumns = Map<string, ArrayLike<unknown>>

/** Reads the named columns of a Parquet file; `onProgress` gets (rows done, total rows) per chunk. */
export async function readParquetColumns(
  path: string, columns: string[], onProgress?: (done: number, total: number) => void,
): Promise<{ rowCount: number; columns: ParquetColumns }> {
  const buffer = readFileSync(path)
  const file = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength)
  const metadata = parquetMetadata(file)
  const rowCount = Number(metadata.num_rows)
  const result: ParquetColumns = new Map()
  const arrays = new Map<string, unknown[]>(columns.map((name) => [name, new Array<unknown>(rowCount)]))
  let cellsDone = 0
  for (let group = 0, rowStart = 0; group < metadata.row_groups.length; group++) {
    const rowEnd = rowStart + Number(metadata.row_groups[group].num_rows)
    await parquetRead({
      file, metadata, compressors, columns, rowStart, rowEnd,
      onChunk: ({ columnName, columnData, rowStart: chunkStart, rowEnd: chunkEnd }) => {
        const target = arrays.get(columnName)!
        for (let row = chunkStart; row < chunkEnd; row++) target[row] = columnData[row - chunkStart]
        cellsDone += chunkEnd - chunkStart
        onProgress?.(Math.floor(cellsDone / columns.length), rowCount)
      },
    })
    rowStart = rowEnd
  }
  for (const [name, values] of arrays) result.set(name, values)
  return { rowCount, columns: result }
}
