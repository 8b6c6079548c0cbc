/**
 * Schema and document types for the writer. A literal schema (written inline,
 * or `as const`) is checked against Schema and types the documents; a schema
 * whose strings TypeScript widened (a variable without `as const`) is taken as
 * it is, with untyped documents. Compile-time help only: the writer checks the
 * schema and every value at run time (src/write/values.ts) whatever the types said.
 */
import type { ColumnsDocument } from './columns-writer.js'
import type { Schema } from './schema.js'

/** One value the writer accepts for a field of each type (as src/write/values.ts reads them). */
export interface FieldValues {
  keyword: string
  /** A safe-integer number, or a bigint for the full signed 64-bit range. */
  integral: number | bigint
  /** A Date, milliseconds since the epoch, or a strict ISO-8601 string. */
  date: Date | number | bigint | string
  /** `{ bits }`: the IEEE-754 pattern as 16 hex digits or a bigint, to keep a NaN's payload. */
  fractional: number | bigint | 'NaN' | 'Infinity' | '-Infinity' | '-0' | { readonly bits: string | bigint }
  bool: boolean
  geo_point: { readonly lat: number; readonly lon: number }
  /** Text never gets a column: the writer takes its values without reading them. */
  text: unknown
}

/** A schema as the writer takes it: a Schema, or one whose field types TypeScript widened to string. */
export interface SchemaInput {
  readonly fields: readonly {
    readonly name: string
    readonly type: string
    readonly column?: boolean
    readonly facet?: boolean
    readonly multi?: boolean
  }[]
}

/**
 * What the writer's schema parameter adds to S (as `S & CheckedSchema<S>`, so that S is
 * still inferred from the argument): nothing for a Schema or a schema with widened
 * field types (left to the run-time check); Schema for any other literal schema, so
 * that a misspelt type is a compile error reported against Schema.
 */
export type CheckedSchema<S extends SchemaInput> =
  S extends Schema ? unknown : string extends S['fields'][number]['type'] ? unknown : Schema

type ValueOf<T> = T extends keyof FieldValues ? FieldValues[T] : unknown

/** What a document may give for field F: one value, or for a multi-valued field also an array of them. */
export type FieldInput<F extends SchemaInput['fields'][number]> =
  F extends { readonly multi: true } ? ValueOf<F['type']> | readonly ValueOf<F['type']>[]
    // `name` keeps the target from being a weak type (all optional), which nothing without `multi` would match.
    : F extends { readonly name: string; readonly multi?: false } ? ValueOf<F['type']>
      // `multi: boolean`, not known until run time: either form.
      : ValueOf<F['type']> | readonly ValueOf<F['type']>[]

/**
 * A document for schema S: every field optional (absent, null or undefined: no
 * value), no other field (the writer refuses unknown fields). For a schema whose
 * field names are not literal types it is the untyped ColumnsDocument.
 */
export type DocumentOf<S extends SchemaInput> = string extends S['fields'][number]['name']
  ? ColumnsDocument
  : { readonly [F in S['fields'][number] as F['name']]?: FieldInput<F> | null }
