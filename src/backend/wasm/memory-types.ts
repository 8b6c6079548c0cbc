/**
 * The parts of WebAssembly.Memory and WebAssembly.Instance that oixk's exported
 * declarations name, declared structurally: the published .d.ts files must
 * compile in a project without lib "dom", where TypeScript has no global
 * WebAssembly namespace (Node's own types do not declare it). The real objects
 * satisfy these; code that hands one back to WebAssembly casts it there.
 */

/** A WebAssembly.Memory, as the allocator and the runtime use it. */
export interface LinearMemory {
  /** The memory's bytes; replaced (the old buffer detached) by every growth. */
  readonly buffer: ArrayBufferLike
  /** Grows by `pages` of 64 KiB; returns the previous size in pages. */
  grow(pages: number): number
}

/** A WebAssembly.Instance: what the runtime reads of one. */
export interface KernelInstance {
  readonly exports: object
}
