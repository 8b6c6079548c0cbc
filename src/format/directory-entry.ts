/**
 * One column's directory entry, as the writer produces it and the reader parses it.
 */
import type { ColumnType, Layout } from './constants.js'

/** The fields of a directory entry; min/max raw values as (low, high) words. */
export interface DirectoryEntry {
  name: string
  type: ColumnType
  layout: Layout
  documentsWithValue: number
  valueCount: number
  minLow: number
  minHigh: number
  maxLow: number
  maxHigh: number
  /** Absolute offset and length of the column's section. */
  sectionOffset: number
  sectionLength: number
}
