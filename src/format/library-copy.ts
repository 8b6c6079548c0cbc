/**
 * This copy of the library's module instances. Module-level state (the int64 result words, the
 * registries of linear memory) is per copy, so objects that hand results through it (backends, the
 * lazy chunks) work only with the copy that made them: each carries this token, and a copy refuses
 * another's rather than answer from words the other wrote.
 */
export const LIBRARY_COPY: object = Object.freeze({})

/** How a second copy comes about, for messages. */
export const OTHER_COPY = 'another copy of oixk (its files loaded twice: under two URLs, as a query string or a redirect makes, or from two node_modules paths)'
