/**
 * Schemas as the CLI's JSON gives them: `{fields: [{name, type, column, facet, multi}]}`.
 */
import { type ColumnType, FIELD_TYPES, type FieldType } from '../format/constants.js'
import { InvalidInputError } from '../format/errors.js'
import { findLoneSurrogate } from '../format/utf8.js'

/** One field of a schema. Other properties (for other parts of a segment) are ignored. */
export interface SchemaField {
  name: string
  type: FieldType
  column?: boolean
  facet?: boolean
  multi?: boolean
}

/** A segment's schema. */
export interface Schema {
  fields: readonly SchemaField[]
}

/** A schema field checked and resolved: whether it gets a column, and of which type. */
export interface ResolvedField {
  name: string
  type: FieldType
  multi: boolean
  /** The column type, or null when the field has no column (text, or neither column nor facet). */
  columnType: ColumnType | null
}

/**
 * Checks a schema (unknown types, duplicate or empty names, bad flags) and
 * resolves its fields. Fields that are valid but get no column although they
 * look meant to (see {@link columnWarning}) add a message to `warnings`.
 */
export function resolveSchema(schema: unknown, warnings?: string[]): Map<string, ResolvedField> {
  if (schema === null || typeof schema !== 'object' || !Array.isArray((schema as Schema).fields)) {
    throw new InvalidInputError('schema: expected an object {"fields": [...]}')
  }
  const resolved = new Map<string, ResolvedField>()
  ;(schema as Schema).fields.forEach((field: unknown, position: number) => {
    if (field === null || typeof field !== 'object') {
      throw new InvalidInputError(`schema: field #${position} is not an object`)
    }
    const { name, type, column, facet, multi } = field as Record<string, unknown>
    if (typeof name !== 'string' || name.length === 0) {
      throw new InvalidInputError(`schema: field #${position} needs a non-empty string "name"`)
    }
    if (findLoneSurrogate(name) >= 0) {
      throw new InvalidInputError(`schema: field name ${JSON.stringify(name)} has a lone surrogate and cannot be stored as UTF-8`)
    }
    if (resolved.has(name)) throw new InvalidInputError(`schema: duplicate field name "${name}"`)
    if (typeof type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(type)) {
      throw new InvalidInputError(
        `schema: field "${name}" ${type === undefined ? 'has no "type"' : `has unknown type ${JSON.stringify(type)}`}; expected one of ${FIELD_TYPES.join(', ')}`,
      )
    }
    for (const [flag, value] of [['column', column], ['facet', facet], ['multi', multi]] as const) {
      if (value !== undefined && typeof value !== 'boolean') {
        throw new InvalidInputError(`schema: field "${name}" flag "${flag}" must be a boolean, got ${JSON.stringify(value)}`)
      }
    }
    const wantsColumn = (column === true || facet === true) && type !== 'text'
    const warning = columnWarning(name, type as FieldType, column === true, facet === true)
    if (warning !== null) warnings?.push(warning)
    resolved.set(name, {
      name,
      type: type as FieldType,
      multi: multi === true,
      columnType: wantsColumn ? (type as ColumnType) : null,
    })
  })
  return resolved
}

/**
 * Why a field gets no column when that is likely a mistake: a non-text field
 * with neither `column` nor `facet` is silently left out of the file, and a
 * text field never has a column whatever it is marked. Null when all is as asked.
 */
export function columnWarning(name: string, type: FieldType, column: boolean, facet: boolean): string | null {
  const quoted = JSON.stringify(name)
  if (type === 'text') {
    if (!column && !facet) return null
    const marks = column && facet ? '"column" and "facet"' : column ? '"column"' : '"facet"'
    return `field ${quoted} (text) is marked ${marks}, but text fields never get a column`
  }
  if (column || facet) return null
  return `field ${quoted} (${type}) has neither "column" nor "facet": it gets no column`
}
