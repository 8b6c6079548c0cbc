/**
 * This copy of the library's module instances. Module-level state (the int64 result words, the
 * registries of linear memory) is per copy, so objects that hand results through it (backends, the
 * lazy chunks) work only with the copy that made them: each carries this token, and a copy refuses
 * another's rather than answer from words the other wrote.
 */
export const LIBRARY_COPY: object = Object.freeze({})

/** How a second copy comes about, for messages. */
export const OTHER_COPY = 'another copy of oixk (its files loaded twice: under two URLs, as a query string or a redirect makes, or from two node_modules paths)'

/** A lazy chunk's refusal when it is bound to another copy (its token not this one's), else null. */
export function chunkOfOtherCopy(token: unknown, chunk: string): string | null {
  return token === LIBRARY_COPY ? null : `${chunk} runs with ${OTHER_COPY}: import oixk-reader.js by the URL it is served from`
}

/** State every copy of the library in this realm shares, made once under a versioned Symbol.for key. */
export function sharedByEveryCopy<T>(key: string, make: () => T): T {
  const slots = globalThis as unknown as Record<symbol, T | undefined>
  return (slots[Symbol.for(key)] ??= make())
}
