/**
 * matchAny with a value bitset, straight on the backends' kernels, against a model: layouts of
 * random documents (empty stretches over whole words, documents longer than 64 values, value and
 * document counts on and off word edges), hits from none to all (a few are mapped one at a time,
 * many by carries: both ways), with and without a selection, and the output written over the
 * selection itself.
 */
import { describe, expect, it } from 'vitest'
import type { ColumnsBackend } from '../src/backend/backend.js'
import type { BitsetMemory } from '../src/backend/query-kernels.js'
import { typeScriptBackend } from '../src/backend/ts/index.js'
import { createWasmBackend } from '../src/backend/wasm/index.js'
import { wasmUnavailableReason } from '../src/backend/wasm/runtime.js'
import { seededRandom } from './helpers/random.js'

const BACKENDS: [string, () => ColumnsBackend][] = [['ts', () => typeScriptBackend]]
if (wasmUnavailableReason() === null) BACKENDS.push(['wasm', () => createWasmBackend()])

/** Values per document: stretches of empty documents, short ones, and now and then a long one. */
function layout(random: () => number, docCount: number): number[] {
  // Values ending on a pair of words: one value each, or two.
  if (docCount === 64 || docCount === 160) return Array.from({ length: docCount }, () => (docCount === 64 ? 1 : 2))
  const counts: number[] = []
  while (counts.length < docCount) {
    const kind = random()
    const run = 1 + Math.floor(random() * 80)
    for (let i = 0; i < run && counts.length < docCount; i++) {
      counts.push(kind < 0.2 ? 0 : kind < 0.9 ? Math.floor(random() * 4) : Math.floor(random() * 150))
    }
  }
  return counts
}

function bitset(backend: ColumnsBackend, bits: number): BitsetMemory {
  const memory = backend.query.allocateBitset(Math.max(1, (bits + 31) >>> 5))
  memory.words.fill(0)
  return memory
}

const setBit = (words: Int32Array, bit: number) => { words[bit >>> 5] |= 1 << (bit & 31) }
const hasBit = (words: Int32Array, bit: number) => ((words[bit >>> 5] >>> (bit & 31)) & 1) === 1

/** Hits chosen with probability `density`, or (density < 0) exactly one, at value -density - 1. */
function hitsOf(random: () => number, total: number, density: number): number[] {
  if (density < 0) return [-density - 1]
  const hits: number[] = []
  for (let v = 0; v < total; v++) if (random() < density) hits.push(v)
  return hits
}

describe('matchAny maps hits in values to documents (a few one at a time, many by carries)', () => {
  for (const [name, make] of BACKENDS) {
    it(`${name}: every layout, hit density and selection as the model`, () => {
      const backend = make()
      const random = seededRandom(2712)
      let cases = 0
      for (const docCount of [1, 31, 32, 33, 64, 100, 160, 1000, 4096, 5003]) {
        const counts = layout(random, docCount)
        const offsets = [0]
        for (const count of counts) offsets.push(offsets[offsets.length - 1] + count)
        const total = offsets[docCount]
        const starts = bitset(backend, total + 1), nonempty = bitset(backend, docCount)
        for (let d = 0; d < docCount; d++) {
          if (counts[d] === 0) continue
          setBit(nonempty.words, d)
          setBit(starts.words, offsets[d])
        }
        setBit(starts.words, total)
        // Bits past the documents in nonempty's last word (a bitset the caller made) mark no document.
        if ((docCount & 31) !== 0) nonempty.words[docCount >>> 5] |= -1 << (docCount & 31)
        const densities = total === 0 ? [0] : [0, -1, -total, -(1 + Math.floor(total / 2)), 0.001, 0.01, 0.03, 0.1, 0.5, 1]
        for (const density of densities) {
          const hits = hitsOf(random, total, density)
          const test = bitset(backend, total)
          for (const v of hits) setBit(test.words, v)
          // Bits past the values are not hits.
          if ((total & 31) !== 0) test.words[total >>> 5] |= -1 << (total & 31)
          const owner = new Int32Array(total)
          for (let d = 0; d < docCount; d++) owner.fill(d, offsets[d], offsets[d + 1])
          const matched = new Set(hits.map((v) => owner[v]))
          for (const selected of [null, 0.5]) {
            const docs = bitset(backend, docCount)
            const chosen = (d: number) => selected === null || hasBit(docs.words, d)
            if (selected !== null) for (let d = 0; d < docCount; d++) if (random() < selected) setBit(docs.words, d)
            const expected = Array.from({ length: docCount }, (_, d) => d).filter((d) => matched.has(d) && chosen(d))
            // Into a fresh bitset whose bits are all set (every word must be written), then over the selection itself.
            const outs = selected === null ? ['fresh'] : ['fresh', 'in place']
            for (const where of outs) {
              const out = where === 'fresh' ? bitset(backend, docCount) : docs
              if (where === 'fresh') out.words.fill(-1)
              backend.query.matchAny(starts, nonempty, total, docCount, selected === null ? null : docs, test, out)
              const found = Array.from({ length: docCount }, (_, d) => d).filter((d) => hasBit(out.words, d))
              expect(found, `docCount ${docCount}, ${hits.length} hits, selection ${selected}, ${where}`).toEqual(expected)
              // Bits past the documents stay clear in the last word.
              if ((docCount & 31) !== 0) expect(out.words[(docCount - 1) >>> 5] >>> (docCount & 31)).toBe(0)
              if (where === 'fresh') out.release()
              cases++
            }
            docs.release()
          }
          test.release()
        }
        starts.release()
        nonempty.release()
      }
      expect(cases).toBeGreaterThan(200)
    })
  }
})
