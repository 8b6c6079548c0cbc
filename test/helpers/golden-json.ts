/**
 * The golden inputs' JSON-safe values (scripts/make-golden.ts writes them): {"$bigint": "…"} and
 * {"$number": "-0" | "NaN" | "Infinity" | "-Infinity"}, undone by `revive` as JSON.parse reads.
 */

/** JSON.parse's reviver for the golden inputs. */
export function revive(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value)
    if (keys.length === 1 && keys[0] === '$bigint') return BigInt((value as { $bigint: string }).$bigint)
    if (keys.length === 1 && keys[0] === '$number') return Number((value as { $number: string }).$number)
  }
  return value
}
