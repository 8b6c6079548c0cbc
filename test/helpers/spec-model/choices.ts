/**
 * Records what the spec model chose (block kinds, sequence forms, flags,
 * dictionary forms, list tags, tie-breaks) so a test can prove its inputs
 * exercised every rule. Only choices that end up in written bytes count:
 * candidates that are encoded and then lose are recorded into a scratch
 * buffer and dropped.
 */

const stack: string[][] = []
let sink: Map<string, number> | null = null

/** Starts counting choices into `counts` (or stops, with null). */
export function observeChoices(counts: Map<string, number> | null): void {
  sink = counts
}

/** Notes one choice, e.g. `kind 5`, `form 1/0`, `tie frequent top`. */
export function note(key: string): void {
  if (stack.length > 0) stack[stack.length - 1].push(key)
  else if (sink) sink.set(key, (sink.get(key) ?? 0) + 1)
}

/** Runs `build` with its notes held back; the caller commits them only if the result is written. */
export function held<T>(build: () => T): { value: T; notes: string[] } {
  stack.push([])
  try {
    const value = build()
    return { value, notes: stack[stack.length - 1] }
  } finally {
    stack.pop()
  }
}

/** Passes held notes on (to the enclosing hold, or to the counts). */
export function commit(notes: readonly string[]): void {
  for (const key of notes) note(key)
}
