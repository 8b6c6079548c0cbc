/**
 * v2 sequences outside a file, for the encoders' tests: values in, the bytes a
 * writer gives, parsed back as the reader parses them, and decoded by the
 * TypeScript backend (value by value and in bulk).
 */
import type { SequenceView } from '../../src/backend/backend.js'
import { typeScriptBackend } from '../../src/backend/ts/index.js'
import { writeBlocksNode } from '../../src/cascade/block-pool.js'
import { parseCascade } from '../../src/cascade/reader/parse.js'
import { validateCascade } from '../../src/cascade/reader/validate.js'
import { signature, summarize } from '../../src/cascade/describe.js'
import { type SequenceDomain, writeSequenceV2 } from '../../src/cascade/sequence-writer.js'
import { int64Result, int64ToBigInt } from '../../src/format/int64.js'
import { ByteSink } from '../../src/write/byte-sink.js'
import { countRuns, runParts, writeRunsNode } from '../../src/cascade/sequences/runs.js'

/** Values as interleaved (low, high) words. */
export function wordsOf(values: readonly bigint[]): Int32Array {
  return new Int32Array(BigInt64Array.from(values.map((value) => BigInt.asIntN(64, value))).buffer)
}

/** Doubles' raw SortableBits words. */
export function doubleWords(values: readonly number[]): Int32Array {
  const raw = new BigInt64Array(values.length)
  const view = new DataView(new ArrayBuffer(8))
  values.forEach((value, index) => {
    view.setFloat64(0, value)
    const bits = view.getBigInt64(0)
    raw[index] = bits ^ ((bits >> 63n) & 0x7fffffffffffffffn)
  })
  return new Int32Array(raw.buffer)
}

/** A parsed sequence, its bytes, and what it is made of. */
export interface Encoded {
  bytes: Uint8Array
  view: SequenceView
  signature: string
}

/** Parses bytes (one sequence, then 16 zero bytes) as the reader does. */
export function parse(sequenceBytes: Uint8Array, count: number, domain: SequenceDomain): Encoded {
  const bytes = new Uint8Array(sequenceBytes.length + 16)
  bytes.set(sequenceBytes)
  const file = { bytes, stable: true, address: 0, release() {} }
  const words = new Int32Array(bytes.buffer, 0, bytes.length >>> 2)
  const { view, end } = parseCascade(file, words, 'test.oixk', 'values', 0, sequenceBytes.length, count, domain)
  if (end !== sequenceBytes.length) throw new Error(`parsed ${end} of ${sequenceBytes.length} bytes`)
  validateCascade(view, typeScriptBackend, -1)
  return { bytes: sequenceBytes, view, signature: signature(summarize(view, 2)) }
}

/** A blocks sequence (form 0) of the values, parsed back. */
export function encodeBlocks(words: Int32Array): Encoded {
  const sink = new ByteSink()
  writeBlocksNode(words, words.length / 2, sink)
  return parse(sink.view().slice(), words.length / 2, 'integer')
}

/** The sequence a writer chooses for the values, parsed back. */
export function encodeSequence(words: Int32Array, domain: SequenceDomain = 'integer'): Encoded {
  const sink = new ByteSink()
  writeSequenceV2(words, words.length / 2, sink, domain)
  return parse(sink.view().slice(), words.length / 2, domain)
}

/** The runs form (2) of the values, whatever the rule would choose, parsed back. */
export function encodeRuns(words: Int32Array): Encoded {
  const count = words.length / 2, runs = countRuns(words, count)
  const sink = new ByteSink()
  writeRunsNode(count, runs, runParts(words, count, runs), sink)
  return parse(sink.view().slice(), count, 'integer')
}

/** What expectDecodes puts around a bulk decode's range, to see that nothing is written there. */
const UNWRITTEN = 0x5a5a5a5a

/** Every value read back one by one and in bulk (at a few offsets); throws on any difference. */
export function expectDecodes(encoded: Encoded, words: Int32Array): void {
  const count = words.length / 2
  for (let index = 0; index < count; index++) {
    typeScriptBackend.getRaw(encoded.view, index)
    if (int64Result[0] !== words[2 * index] || int64Result[1] !== words[2 * index + 1]) {
      throw new Error(`value ${index}: read ${int64ToBigInt(int64Result[0], int64Result[1])}, wrote ${int64ToBigInt(words[2 * index], words[2 * index + 1])} (${encoded.signature})`)
    }
  }
  // Whole, in thirds, and ranges that end just before (or start at) positions a kind may single out
  // (a patch or an exception at 5 or 102, a word's edge at 32): a decode writes its range and nothing
  // on either side of it.
  const ranges = [[0, count], [Math.floor(count / 3), Math.floor(count / 2)], [count - 1, 1], [1, Math.max(0, count - 2)]]
  for (const edge of [1, 5, 31, 32, 33, 102]) ranges.push([0, edge], [edge, count - edge], [edge - 1, 1])
  for (const [first, n] of ranges) {
    if (n <= 0 || first + n > count) continue
    const out = new Int32Array(2 * n + 4).fill(UNWRITTEN)
    typeScriptBackend.decodeRaw(encoded.view, first, n, out, 1)
    for (let at = 0; at < n; at++) {
      if (out[2 + 2 * at] !== words[2 * (first + at)] || out[3 + 2 * at] !== words[2 * (first + at) + 1]) {
        throw new Error(`bulk [${first}, ${first + n}) value ${first + at} differs (${encoded.signature})`)
      }
    }
    if (out[0] !== UNWRITTEN || out[1] !== UNWRITTEN || out[2 * n + 2] !== UNWRITTEN || out[2 * n + 3] !== UNWRITTEN) {
      throw new Error(`bulk [${first}, ${first + n}) wrote outside its range (${encoded.signature})`)
    }
  }
}
